"""Every corpus program, compiled by p4sim-compile, passes its STF test on p4sim.

One test case per tests/corpus/NNN_name.stf (with NNN_name.p4 beside it). On failure
the message is the runner's per-expectation report (or the compiler's error).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.stf import commands
from p4sim.stf.cli import run_stf_test
from p4sim.stf.compile import CompileFailed
from p4sim.stf.stf_parser import parse_stf_file
from p4sim.stf.target import ProgramLoadFailed

CORPUS = Path(__file__).parent / "corpus"
STF_FILES = sorted(CORPUS.glob("*.stf"))


def test_corpus_is_not_empty() -> None:
    assert len(STF_FILES) >= 30


@pytest.mark.parametrize("stf", STF_FILES, ids=[p.stem for p in STF_FILES])
def test_corpus_stf_is_well_formed(stf: Path) -> None:
    assert stf.with_suffix(".p4").is_file(), f"{stf.name} has no program beside it"
    statements = parse_stf_file(str(stf))
    assert any(isinstance(s, commands.SendPacket) for s in statements), f"{stf.name} sends no packet"
    first_line = stf.with_suffix(".p4").read_text().splitlines()[0]
    assert first_line.startswith("//"), "the program starts with a comment saying what it exercises"


@pytest.mark.parametrize("stf", STF_FILES, ids=[p.stem for p in STF_FILES])
def test_corpus_program_passes_its_stf(stf: Path) -> None:
    program = stf.with_suffix(".p4")
    try:
        result = run_stf_test(str(program), str(stf), "p4sim")
    except (CompileFailed, ProgramLoadFailed) as exc:
        pytest.fail(str(exc), pytrace=False)
    if not result.passed:
        pytest.fail(f"{stf.name}:\n{result.report}", pytrace=False)
