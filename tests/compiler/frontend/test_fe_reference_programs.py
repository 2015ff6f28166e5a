"""The four reference programs and our bundled includes parse into the expected shape."""
from pathlib import Path

import pytest

from p4sim.compiler import ast
from p4sim.compiler.frontend import BUNDLED_INCLUDE_DIR, parse_program
from p4sim.reference import reference_dir

REFERENCE_DIR = reference_dir() / "p4"
REFERENCE_PROGRAMS = sorted(REFERENCE_DIR.glob("*.p4")) if REFERENCE_DIR.is_dir() else []


def test_reference_programs_are_found() -> None:
    assert len(REFERENCE_PROGRAMS) == 4, f"expected the 4 reference programs under {REFERENCE_DIR}"


@pytest.mark.parametrize("path", REFERENCE_PROGRAMS, ids=lambda p: p.stem)
def test_reference_program_parses_to_v1switch_main(path: Path) -> None:
    program = parse_program(str(path))
    main = program.declarations[-1]
    assert isinstance(main, ast.Instantiation)
    assert main.name == "main"
    assert main.type.name == "V1Switch"
    assert len(main.args) == 6
    assert all(isinstance(a.value, ast.ConstructorCall) for a in main.args)
    # Declarations coming from the program itself carry its file name.
    assert main.span.file == str(path)


@pytest.mark.parametrize("name", ["core.p4", "v1model.p4"])
def test_bundled_include_parses_on_its_own(name: str) -> None:
    program = parse_program(str(Path(BUNDLED_INCLUDE_DIR) / name))
    assert program.declarations
    names = {getattr(d, "name", None) for d in program.declarations}
    assert "packet_in" in names
