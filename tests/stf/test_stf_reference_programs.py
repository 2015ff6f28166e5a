"""The reference STF tests (checked on real BMv2) pass on p4sim with p4c's JSON, and a
wrong expectation makes the runner fail with a byte diff."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.stf.cli import EXIT_FAIL, EXIT_PASS, main, run_stf_test
from p4sim.reference import reference_dir

REFERENCE = reference_dir()
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


def write_stf(tmp_path: Path, text: str) -> str:
    path = tmp_path / "custom.stf"
    path.write_text(text)
    return str(path)


def test_two_multicast_nodes_and_rids(tmp_path: Path) -> None:
    program, _, json_path = paths("replication")
    frame = "FFFFFFFFFFFF0000000000020800" + "AA" * 16
    stf = write_stf(tmp_path, f"""
add IngressImpl.l2 hdr.ethernet.dst_addr:0xffffffffffff IngressImpl.flood(group:7)
add IngressImpl.smac hdr.ethernet.src_addr:0x000000000002 NoAction()
mc_mgrp_create 7
mc_node_create 0 1
mc_node_create 1 3 4
mc_node_associate 7 0
mc_node_associate 7 1
packet 2 {frame}
expect 1 {frame}
expect 3 {frame}
expect 4 {frame}
""")
    result = run_stf_test(program, stf, "p4sim", json_path)
    assert result.passed, result.report
    assert sorted(o.expect.port for o in result.verdict.outcomes) == [1, 3, 4]


def test_direct_counter_checked_through_entry_id(tmp_path: Path) -> None:
    program, stf, json_path = paths("l3_lpm")
    routes = "\n".join(line + " = R8" if "/8 " in line else line
                       for line in Path(stf).read_text().splitlines())
    text = routes + "\nwait\ncheck_counter route_counter($R8) packets == 2\n" \
                    "check_counter route_counter($R8) bytes == 100\n"
    result = run_stf_test(program, write_stf(tmp_path, text), "p4sim", json_path)
    assert result.passed, result.report
    assert "check_counter IngressImpl.route_counter(R8) packets == 2" in result.report

    wrong = routes + "\ncheck_counter route_counter($R8) packets == 3\n"
    result = run_stf_test(program, write_stf(tmp_path, wrong), "p4sim", json_path)
    assert not result.passed
    assert "counter check failed: packets is 2, expected == 3" in result.report


def test_register_commands_and_unknown_names(tmp_path: Path) -> None:
    program, _, json_path = paths("multipath")
    text = ("register_write group_seq 3 41\nregister_read group_seq 3\nregister_reset group_seq\n"
            "register_read IngressImpl.group_seq 3\ncounter_read member_pkts 0\nregister_read nope 0\n")
    result = run_stf_test(program, write_stf(tmp_path, text), "p4sim", json_path)
    assert "register IngressImpl.group_seq[3] (line 2) = 41 (0x29)" in result.report
    assert "register IngressImpl.group_seq[3] (line 4) = 0 (0x0)" in result.report
    assert "counter IngressImpl.member_pkts[0] (line 5): packets=0 bytes=0" in result.report
    assert "custom.stf:6:1: error: no register 'nope'" in result.report
    assert not result.passed


def test_clone_session_to_a_multicast_group(tmp_path: Path) -> None:
    program, _, json_path = paths("replication")
    frame = "0000000000010000000000029001" + "AA" * 16
    clone = "00000000000100000000C10E9001" + "AA" * 16
    stf = write_stf(tmp_path, f"""
add IngressImpl.l2 hdr.ethernet.dst_addr:0x000000000001 IngressImpl.unicast(port:1)
add IngressImpl.smac hdr.ethernet.src_addr:0x000000000002 NoAction()
mc_mgrp_create 2
mc_node_create 0 6 7
mc_node_associate 2 0
mirroring_add_mc 5 2
packet 2 {frame}
expect 1 {frame}
expect 6 {clone}
expect 7 {clone}
""")
    result = run_stf_test(program, stf, "p4sim", json_path)
    assert result.passed, result.report
