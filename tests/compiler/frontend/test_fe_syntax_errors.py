"""Negative programs: each tests/compiler/negative/syntax/NAME.p4 must fail to parse with
exactly the error text in NAME.err (location, message, source line, caret, notes).

Paths in the rendered error are made relative to the negative folder so the expected text
does not depend on where the repository lives. Regenerate the .err files only with
UPDATE_GOLDEN=1 (then review the diff).
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from p4sim.compiler.errors import CompileError
from p4sim.compiler.frontend import parse_program

NEGATIVE_DIR = Path(__file__).resolve().parents[1] / "negative" / "syntax"
PROGRAMS = sorted(NEGATIVE_DIR.glob("*.p4"))


def _rendered_error(path: Path) -> str:
    with pytest.raises(CompileError) as caught:
        parse_program(str(path))
    return caught.value.render().replace(str(NEGATIVE_DIR) + os.sep, "") + "\n"


def test_there_are_enough_negative_programs() -> None:
    assert len(PROGRAMS) >= 10


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_syntax_error_matches_expected_text(path: Path) -> None:
    actual = _rendered_error(path)
    expected_file = path.with_suffix(".err")
    if os.environ.get("UPDATE_GOLDEN") == "1":
        expected_file.write_text(actual)
    assert expected_file.is_file(), f"missing {expected_file.name} (run with UPDATE_GOLDEN=1)"
    assert actual == expected_file.read_text()


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_compiler_cli_prints_the_same_error_and_exits_1(path: Path, tmp_path: Path) -> None:
    """Through p4sim-compile: the located error on stderr, exit status 1, no traceback."""
    result = subprocess.run(
        [sys.executable, "-m", "p4sim.compiler.cli", "-o", str(tmp_path / "out.json"), path.name],
        cwd=NEGATIVE_DIR, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == path.with_suffix(".err").read_text().strip()
    assert not (tmp_path / "out.json").exists()
