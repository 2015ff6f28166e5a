"""Round trip: parse -> unparse -> parse gives an equal AST (spans are not compared)."""
from pathlib import Path

import pytest

from p4sim.compiler.frontend import BUNDLED_INCLUDE_DIR, parse_program, parse_text
from p4sim.compiler.unparse import unparse
from p4sim.reference import reference_dir

HERE = Path(__file__).resolve().parent
PROGRAMS = [HERE / "programs" / "constructs.p4", Path(BUNDLED_INCLUDE_DIR) / "v1model.p4"]
REFERENCE_DIR = reference_dir() / "p4"
if REFERENCE_DIR.is_dir():
    PROGRAMS += sorted(REFERENCE_DIR.glob("*.p4"))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_parse_unparse_parse_is_identity(path: Path) -> None:
    first = parse_program(str(path))
    text = unparse(first)
    second = parse_text(text, "unparsed.p4")
    assert second == first
    # Printing is stable too: the second print equals the first.
    assert unparse(second) == text


def test_round_trip_detects_a_changed_tree() -> None:
    first = parse_text("const bit<8> A = 1 + 2 * 3;")
    changed = parse_text(unparse(first).replace("*", "+"))
    assert changed != first
