"""Real p4c's recorded BMv2 JSON runs on p4sim-switch exactly like p4sim-compile's.

For every corpus program with a recording in ``tests/real_toolchain/project/`` the STF
test runs twice on p4sim's switch: once on p4c-bm2-ss's JSON, once on p4sim-compile's.
Both must pass, and everything observable (packets out in order, every counter,
register and meter cell afterwards) must be equal: a JSON construct p4c emits that
p4sim's loader refuses or runs differently fails here. The real toolchain's own
programs (``p4c-out/``, the fabric) must load too.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from p4sim.compiler.driver import compile_program
from p4sim.stf import commands
from p4sim.reference import reference_dir
from p4sim.stf.p4sim_target import P4simTarget
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.runner import StfResult, run_statements
from p4sim.stf.stf_parser import parse_stf_file
from p4sim.stf.target import ProgramLoadFailed
from p4sim.switch.program import Program

CORPUS = Path(__file__).parent / "corpus"
RECORDED = reference_dir() / "project"
CASES = sorted(stf for stf in CORPUS.glob("*.stf")
               if (RECORDED / stf.stem / f"{stf.stem}.json").is_file())
OWN_STF = sorted((reference_dir() / "stf").glob("*.stf"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def _run(program: dict[str, Any], stf: Path, label: str) -> StfResult:
    info = ProgramInfo(program)
    try:
        target = P4simTarget(program, info)
    except ProgramLoadFailed as exc:
        pytest.fail(f"{stf.name} on {label}: {exc}", pytrace=False)
    try:
        result = run_statements(info, parse_stf_file(str(stf)), target, observe=True)
    finally:
        target.close()
    if not result.passed:
        pytest.fail(f"{stf.name} on {label}:\n{result.report}", pytrace=False)
    return result


def _comparable(stf: Path, outputs: list[tuple[int, bytes]]) -> dict[int, list[str]]:
    """Packets out per port as hex, with the nibbles the STF file leaves open ('*':
    timestamps, queue delays) blanked: those may differ between any two runs."""
    patterns: dict[int, list[str | None]] = {}
    for s in parse_stf_file(str(stf)):
        if isinstance(s, commands.Expect):
            patterns.setdefault(s.port, []).append(s.pattern)
    ports: dict[int, list[str]] = {}
    for port, data in outputs:
        seen = ports.setdefault(port, [])
        expected = patterns.get(port, [])
        pattern = expected[len(seen)] if len(seen) < len(expected) else None
        text = data.hex().upper()
        if pattern:
            text = "".join("*" if i < len(pattern) and pattern[i] == "*" else c
                           for i, c in enumerate(text))
        seen.append(text)
    return ports


def _same_observations(stf: Path, p4c_json: dict[str, Any], own_json: dict[str, Any]) -> None:
    theirs = _run(p4c_json, stf, "p4c's JSON").observed
    ours = _run(own_json, stf, "p4sim-compile's JSON").observed
    assert theirs is not None and ours is not None
    assert _comparable(stf, theirs.outputs) == _comparable(stf, ours.outputs), \
        f"{stf.name}: packets out differ between the JSONs"
    assert theirs.state == ours.state, f"{stf.name}: extern state differs between the JSONs"


def test_every_recorded_corpus_program_is_covered() -> None:
    recorded = {d.name for d in RECORDED.iterdir() if d.is_dir()}
    with_stf = {stf.stem for stf in CORPUS.glob("*.stf")}
    assert len(CASES) >= 59
    assert {stf.stem for stf in CASES} == recorded & with_stf


@pytest.mark.parametrize("stf", CASES, ids=[p.stem for p in CASES])
def test_corpus_stf_on_p4c_json_matches_own_json(stf: Path) -> None:
    p4c_json = _load(RECORDED / stf.stem / f"{stf.stem}.json")
    own_json = compile_program(str(stf.with_suffix(".p4"))).bmv2_json
    _same_observations(stf, p4c_json, own_json)


@pytest.mark.parametrize("stf", OWN_STF, ids=[p.stem for p in OWN_STF])
def test_reference_program_stf_on_p4c_json(stf: Path) -> None:
    """The four programs the real toolchain was first checked with (p4/, stf/, p4c-out/)."""
    p4c_json = _load(reference_dir() / "p4c-out" / f"{stf.stem}.json")
    own_json = compile_program(str(reference_dir() / "p4" / f"{stf.stem}.p4")).bmv2_json
    _same_observations(stf, p4c_json, own_json)


P4C_PROGRAMS = sorted([*(reference_dir() / "p4c-out").glob("*.json"),
                       RECORDED / "fabric" / "fabric.json"])


@pytest.mark.parametrize("path", P4C_PROGRAMS, ids=[p.stem for p in P4C_PROGRAMS])
def test_p4c_json_loads(path: Path) -> None:
    program = Program.load(_load(path))
    assert program.runtime.tables, f"{path.name}: no tables after loading"
