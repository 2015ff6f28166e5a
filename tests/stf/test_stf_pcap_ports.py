"""``--target bmv2`` with frames no veth carries: the switch gets pcap files (--use-files).

Frames shorter than an Ethernet header (14 bytes) are refused by the kernel on a veth;
p4c's own STF tests send many. The run must then use pcap-file ports and give the same
verdict as the in-process target, on p4sim-switch started with simple_switch_grpc's
flags only; and it leaves no namespace behind. Needs root and iproute2.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from p4sim.stf.cli import run_stf_test
from p4sim.stf.pcap_ports import BASE_WAIT_S, PcapPorts, needs_files, wait_seconds
from p4sim.stf.runner import StfResult
from p4sim.stf.stf_parser import parse_stf
from p4sim.stf.target import TargetCommandError

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SWITCH = str(Path(sys.executable).with_name("p4sim-switch"))
COMPILER = str(Path(sys.executable).with_name("p4sim-compile"))


def summary(result: StfResult) -> tuple[bool, tuple[bool, ...], int, int]:
    verdict = result.verdict
    return (result.passed, tuple(o.met for o in verdict.outcomes), len(verdict.unexpected),
            len(result.command_errors))


def namespaces() -> str:
    return subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout


def stf(text: str) -> list:
    return parse_stf(text, "test.stf")


def test_files_only_when_a_frame_may_be_shorter_than_an_ethernet_header() -> None:
    assert needs_files(stf("packet 0 " + "00" * 14 + "\npacket 1 " + "00" * 13 + "\n"))
    assert not needs_files(stf("packet 0 " + "00" * 14 + "\nexpect 0 " + "00" * 14 + "\n"))
    assert needs_files(stf("packet 0 " + "00" * 20 + "\nexpect 0 0102 $\n"))  # a short output
    assert not needs_files(stf("packet 0 " + "00" * 20 + "\nexpect 0\n"))
    assert not needs_files([])


def test_the_wait_leaves_time_for_every_command() -> None:
    assert wait_seconds(0) == BASE_WAIT_S
    assert wait_seconds(100) > wait_seconds(10) >= BASE_WAIT_S


def test_short_frames_pass_on_p4sim_switch_as_in_process() -> None:
    p4, stf = CORPUS / "375_short_frames.p4", CORPUS / "375_short_frames.stf"
    remote = run_stf_test(str(p4), str(stf), "bmv2", switch=SWITCH, compiler=COMPILER)
    local = run_stf_test(str(p4), str(stf), "p4sim")
    assert summary(remote) == summary(local), f"gRPC:\n{remote.report}\nin-process:\n{local.report}"
    assert remote.passed, remote.report
    assert f"sf{os.getpid()}" not in namespaces()


def test_a_wrong_expectation_fails_through_files_too(tmp_path) -> None:
    stf = tmp_path / "wrong.stf"
    stf.write_text("packet 0 05 00\nexpect 1 05 07 $\n")
    result = run_stf_test(str(CORPUS / "375_short_frames.p4"), str(stf), "bmv2",
                          switch=SWITCH, compiler=COMPILER)
    assert not result.passed
    assert [o.met for o in result.verdict.outcomes] == [False]
    assert "05 06" in result.report  # what came out is shown


def test_a_packet_not_written_to_the_files_is_refused() -> None:
    ports = PcapPorts("sft", [0], [(0, b"\x01")], 0)
    try:
        with pytest.raises(TargetCommandError, match="not among"):
            ports.send(0, b"\x02")
        with pytest.raises(TargetCommandError, match="no interface"):
            ports.send(3, b"\x01")
    finally:
        ports.close()
    assert f"sft{os.getpid()}" not in namespaces()
