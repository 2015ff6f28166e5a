"""Semantically bad programs: each ``name.p4`` fails with exactly the located error in
``name.err`` (exit code 1), and never with a traceback."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler.cli import EXIT_PROGRAM_ERROR, main

HERE = Path(__file__).parent
PROGRAMS = sorted(HERE.glob("*.p4"))


def test_enough_negative_programs():
    assert len(PROGRAMS) >= 10


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_semantic_error_is_located(program: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(HERE)
    code = main([program.name, "-o", str(tmp_path / "out.json")])
    err = capsys.readouterr().err
    assert code == EXIT_PROGRAM_ERROR, err
    assert "Traceback" not in err
    assert err == program.with_suffix(".err").read_text()
    assert not (tmp_path / "out.json").exists()
