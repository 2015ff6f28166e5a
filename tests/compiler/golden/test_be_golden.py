"""Golden outputs: our BMv2 JSON and P4Info for small programs, compared exactly.

Regenerate (after checking the change is intended) with
``UPDATE_GOLDEN=1 python -m pytest tests/compiler/golden``.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from p4sim.compiler.driver import compile_program, write_outputs

HERE = Path(__file__).parent
PROGRAMS = sorted((HERE / "programs").glob("*.p4"))
EXPECTED = HERE / "expected"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
# The warnings a golden program is expected to give (p4c gives the same): a table with
# an action profile or selector has a default action (NoAction when none is written)
# that BMv2 JSON cannot carry; a function with an early return, inlined, reads to p4c as
# if its return value may be unset (reported twice per call, as p4c does).
WARNINGS = {
    "g04_resources": [
        "Target does not support default_action for IngressImpl.nexthop (due to action profiles)",
        "Target does not support default_action for IngressImpl.multipath (due to action "
        "profiles)"],
    "g05_control_flow": ["return value of function 'max8' may be uninitialized"] * 2,
}


def test_there_are_golden_programs():
    assert len(PROGRAMS) >= 6


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_golden_outputs(program: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(program.parent)  # source_info file names are as given: keep them relative
    result = compile_program(program.name)
    expected_warnings = WARNINGS.get(program.stem, [])
    assert len(result.warnings) == len(expected_warnings), [w.render() for w in result.warnings]
    for warning, text in zip(result.warnings, expected_warnings):
        assert text in warning.message
    json_out = tmp_path / "out.json"
    p4info_out = tmp_path / "out.p4info.txtpb"
    write_outputs(result, str(json_out), [str(p4info_out)])
    for produced, expected in ((json_out, EXPECTED / f"{program.stem}.json"),
                               (p4info_out, EXPECTED / f"{program.stem}.p4info.txtpb")):
        if UPDATE:
            expected.write_text(produced.read_text())
        assert expected.is_file(), f"no golden file {expected.name}; run with UPDATE_GOLDEN=1"
        assert produced.read_text() == expected.read_text(), (
            f"{expected.name} differs from the compiler's output; if the change is "
            "intended, regenerate with UPDATE_GOLDEN=1")


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_golden_json_loads_into_the_p4sim_switch(program: Path) -> None:
    import json

    from p4sim.switch.program import Program
    doc = json.loads((EXPECTED / f"{program.stem}.json").read_text())
    loaded = Program.load(doc)
    assert loaded is not None
    for pipeline in doc["pipelines"]:
        for table in pipeline["tables"]:
            keys = set(table["next_tables"])
            assert keys <= {"__HIT__", "__MISS__"} or not keys & {"__HIT__", "__MISS__"}, \
                table["name"]
