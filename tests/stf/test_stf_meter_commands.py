"""meter_set_rates / meter_array_set_rates / meter_get_rates on the in-process target:
what reaches the meter, and the located refusals for a rate list or index BMv2 refuses."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler.driver import compile_program
from p4sim.stf.p4sim_target import P4simTarget
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.runner import StfResult, run_statements
from p4sim.stf.stf_parser import parse_stf

PROGRAM = Path(__file__).parents[1] / "corpus" / "370_stf_meter_mirror_node_commands.p4"


@pytest.fixture(scope="module")
def program() -> dict:
    return compile_program(str(PROGRAM)).bmv2_json


def run(program: dict, text: str) -> StfResult:
    info = ProgramInfo(program)
    target = P4simTarget(program, info)
    try:
        return run_statements(info, parse_stf(text, "m.stf"), target)
    finally:
        target.close()


def test_rates_read_back_as_set(program: dict) -> None:
    result = run(program, "meter_set_rates colours 1 0.5:10 2.25:20\nmeter_get_rates colours 1\n"
                          "meter_get_rates colours 0\nmeter_array_set_rates colours 0.125:3 0.25:4\n"
                          "meter_get_rates colours 0\n")
    assert result.passed, result.report
    assert result.log == [
        "meter ProbeIngress.colours[1] (line 2): 0: info rate = 0.5, burst size = 10, "
        "1: info rate = 2.25, burst size = 20",
        "meter ProbeIngress.colours[0] (line 3): not configured",
        "meter ProbeIngress.colours[0] (line 5): 0: info rate = 0.125, burst size = 3, "
        "1: info rate = 0.25, burst size = 4",
    ]


@pytest.mark.parametrize("line, words", [
    ("meter_set_rates colours 2 1:1 1:1", "index 2 out of range"),
    ("meter_set_rates colours 0 1:1", "take 2 rates (committed, peak), got 1"),
    ("meter_array_set_rates colours 1:1 1:1 1:1", "got 3"),
    ("meter_get_rates nothing 0", "no meter 'nothing'"),
    ("meter_set_rates colours 0 2:1 1:1", "pir >= cir"),
])
def test_refusals_are_command_errors(program: dict, line: str, words: str) -> None:
    result = run(program, line + "\n")
    assert not result.passed
    assert len(result.command_errors) == 1
    assert words in result.command_errors[0]
    assert result.command_errors[0].startswith("m.stf:1:")
