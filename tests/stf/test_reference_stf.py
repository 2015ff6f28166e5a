"""The reference STF tests (checked on real BMv2) pass on p4sim with p4c's JSON, and a
wrong expectation makes the runner fail with a byte diff."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.stf.cli import EXIT_FAIL, EXIT_PASS, main, run_stf_test

REFERENCE = Path("/work/shared/reference")
NAMES = ["l3_lpm", "replication", "stack_and_queues"]


def paths(name: str) -> tuple[str, str, str]:
    return (str(REFERENCE / "p4" / f"{name}.p4"), str(REFERENCE / "stf" / f"{name}.stf"),
            str(REFERENCE / "p4c-out" / f"{name}.json"))


@pytest.mark.parametrize("name", NAMES)
def test_reference_stf_passes_with_p4c_json(name: str) -> None:
    program, stf, json_path = paths(name)
    result = run_stf_test(program, stf, "p4sim", json_path)
    assert result.passed, result.report
    assert result.verdict.outcomes, "the reference test has expectations"


def test_cli_exit_status_and_report(capsys: pytest.CaptureFixture[str]) -> None:
    program, stf, json_path = paths("l3_lpm")
    assert main([program, stf, "--json", json_path]) == EXIT_PASS
    out = capsys.readouterr().out
    assert "expect port 3 (line 7): ok" in out and out.rstrip().endswith("0 command error(s)")


def test_wrong_ttl_expectation_fails_with_byte_diff(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    program, stf, json_path = paths("l3_lpm")
    text = Path(stf).read_text()
    # TTL 0x3F after decrement; claim 0x40 instead
    wrong = text.replace("000000000E0F000000000C0D08004500001C000100003F11",
                         "000000000E0F000000000C0D08004500001C000100004011", 1)
    assert wrong != text
    bad = tmp_path / "wrong.stf"
    bad.write_text(wrong)
    assert main([program, str(bad), "--json", json_path]) == EXIT_FAIL
    out = capsys.readouterr().out
    assert "expect port 3 (line 7): FAILED: 1 byte(s) differ" in out
    assert "byte 22: expected 40, received 3F" in out


def test_missing_entry_leaves_expectation_unmet_and_nothing_unexpected(tmp_path: Path) -> None:
    program, stf, json_path = paths("l3_lpm")
    lines = Path(stf).read_text().splitlines()
    without_slash8_route = "\n".join(line for line in lines if "0x0a000000/8" not in line)
    bad = tmp_path / "no_route.stf"
    bad.write_text(without_slash8_route)
    result = run_stf_test(program, str(bad), "p4sim", json_path)
    assert not result.passed
    failed = [o for o in result.verdict.outcomes if not o.met]
    assert [o.expect.port for o in failed] == [2, 2]
    assert all(o.received is None for o in failed)
    assert not result.verdict.unexpected


def test_extra_packet_is_reported_as_unexpected(tmp_path: Path) -> None:
    program, stf, json_path = paths("l3_lpm")
    lines = [line for line in Path(stf).read_text().splitlines() if not line.startswith("expect 3")]
    bad = tmp_path / "extra.stf"
    bad.write_text("\n".join(lines))
    result = run_stf_test(program, str(bad), "p4sim", json_path)
    assert not result.passed
    assert [port for port, _ in result.verdict.unexpected] == [3]
    assert "unexpected packet on port 3" in result.report
