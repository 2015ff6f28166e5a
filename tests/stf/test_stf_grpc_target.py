"""The P4Runtime STF target (``--target bmv2``) against a real switch process.

p4sim-switch runs as ``$SWITCH`` would (simple_switch_grpc's flags only) in a private
namespace made with ``ip netns add``, with veths for the STF ports, configured over a
real gRPC P4Runtime session. Each run's verdict (expectation by expectation, unexpected
packets, command errors) must equal the in-process p4sim target's on the same STF file.
Needs root and iproute2.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from control.p4rt.errors import P4RuntimeError
from p4sim.reference import reference_dir
from p4sim.stf.cli import EXIT_CANNOT_RUN, main, run_stf_test
from p4sim.stf.p4rt_entries import p4runtime_priority
from p4sim.stf.entries import BMV2_PRIORITY_BASE
from p4sim.stf.grpc_target import cpu_port_for, explain_register_refusal
from p4sim.stf.runner import StfResult
from p4sim.stf.target import TargetCommandError

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SWITCH = str(Path(sys.executable).with_name("p4sim-switch"))
COMPILER = str(Path(sys.executable).with_name("p4sim-compile"))  # the in-process run's, whatever $P4C says
PROJECT = reference_dir() / "project"

# tables (exact, ternary priorities, default actions, optional keys), counters, direct counters with
# entry handles, registers, clone, multicast.
PROGRAMS = ["031_table_exact", "033_table_ternary", "036_default_action", "041_counter",
            "042_direct_counter", "044_register", "049_clone_i2e", "052_multicast",
            "119_optional_runtime"]


def summary(result: StfResult) -> tuple[bool, tuple[bool, ...], int, int]:
    verdict = result.verdict
    return (result.passed, tuple(o.met for o in verdict.outcomes), len(verdict.unexpected),
            len(result.command_errors))


def on_both(p4: Path, stf: Path) -> tuple[StfResult, StfResult]:
    """(P4Runtime target on p4sim-switch, in-process target)."""
    return (run_stf_test(str(p4), str(stf), "bmv2", switch=SWITCH, compiler=COMPILER),
            run_stf_test(str(p4), str(stf), "p4sim"))


def namespaces() -> str:
    return subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("name", PROGRAMS)
def test_corpus_verdict_equals_the_in_process_one(name: str) -> None:
    remote, local = on_both(CORPUS / f"{name}.p4", CORPUS / f"{name}.stf")
    assert summary(remote) == summary(local), f"gRPC:\n{remote.report}\nin-process:\n{local.report}"
    assert remote.passed, remote.report
    assert f"sg{os.getpid()}" not in namespaces()


def test_reversed_priorities_fail_the_same_way(tmp_path: Path) -> None:
    """STF priority 20 beats 10 (p4c's meaning); swapped, the 0x1234 packet takes the
    0x12** entry instead, on both targets."""
    text = (CORPUS / "033_table_ternary.stf").read_text()
    swapped = text.replace("classify 10 ", "classify @@ ").replace("classify 20 ", "classify 10 ") \
                  .replace("classify @@ ", "classify 20 ")
    assert swapped != text
    stf = tmp_path / "swapped.stf"
    stf.write_text(swapped)
    remote, local = on_both(CORPUS / "033_table_ternary.p4", stf)
    assert not remote.passed
    assert summary(remote) == summary(local), f"gRPC:\n{remote.report}\nin-process:\n{local.report}"
    to_port_3, to_port_2 = remote.verdict.outcomes[0], remote.verdict.outcomes[1]
    assert to_port_3.received is None              # the 0x1234 packet no longer goes to 3 ...
    assert to_port_2.received is not None          # ... but to 2, tagged by the 0x12** entry
    assert (to_port_2.received[22:24], to_port_2.received[24]) == (b"\x12\x34", 1)


def test_refused_command_is_a_located_error_on_both(tmp_path: Path) -> None:
    stf = tmp_path / "bad_node.stf"
    stf.write_text("mc_mgrp_create 1\nmc_node_associate 1 7\n"
                   "packet 0 000000000001 000000000002 88B5 00000000 00000000 0000 00 00 A0A1A2A3\n"
                   "expect 0 000000000001 000000000002 88B5 00000000 00000000 0000 00 00 A0A1A2A3\n")
    remote, local = on_both(CORPUS / "052_multicast.p4", stf)
    assert summary(remote) == summary(local) == (False, (True,), 0, 1)
    assert remote.command_errors[0].startswith(f"{stf}:2:1: error: no multicast node with handle 7")


@pytest.mark.parametrize("name", ["033_table_ternary", "042_direct_counter", "052_multicast"])
def test_real_p4c_output_files_load(name: str) -> None:
    """p4c-bm2-ss's JSON with its P4Info found beside it (``X.p4info.txtpb``)."""
    result = run_stf_test(str(CORPUS / f"{name}.p4"), str(CORPUS / f"{name}.stf"), "bmv2",
                          json_path=str(PROJECT / name / f"{name}.json"), switch=SWITCH)
    assert result.passed, result.report


def test_register_read_shows_the_written_value(tmp_path: Path) -> None:
    stf = tmp_path / "reg.stf"
    stf.write_text((CORPUS / "044_register.stf").read_text() + "\nregister_read IngressImpl.cells 3\n")
    remote, local = on_both(CORPUS / "044_register.p4", stf)
    assert remote.passed, remote.report
    readings = [line for line in remote.log if line.startswith("register")]
    assert readings == [line for line in local.log if line.startswith("register")]
    assert readings and readings[0].endswith("= 102 (0x66)")


def test_json_without_p4info_cannot_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    json_path = tmp_path / "lonely.json"
    json_path.write_text((PROJECT / "031_table_exact" / "031_table_exact.json").read_text())
    code = main([str(CORPUS / "031_table_exact.p4"), str(CORPUS / "031_table_exact.stf"),
                 "--target", "bmv2", "--switch", SWITCH, "--json", str(json_path)])
    assert code == EXIT_CANNOT_RUN
    assert f"{json_path}: --target bmv2 needs the program's P4Info too: pass --p4info" in capsys.readouterr().err


def test_priority_mapping_keeps_the_stf_order() -> None:
    def stf(priority: int) -> int:
        return p4runtime_priority(BMV2_PRIORITY_BASE - priority)
    assert p4runtime_priority(None) == 0
    assert stf(0) == 1                     # P4Runtime reserves 0
    assert stf(5) < stf(10) < stf(20)      # higher wins in both


def test_clone_session_to_a_multicast_group_follows_the_group(tmp_path: Path) -> None:
    """mirroring_add_mc has no P4Runtime form: the session is written with the group's
    replicas, and rewritten when a node joins the group afterwards."""
    text = (CORPUS / "049_clone_i2e.stf").read_text()
    assert "mirroring_add 7 4\n" in text
    stf = tmp_path / "clone_mc.stf"
    stf.write_text(text.replace("mirroring_add 7 4\n", "mc_mgrp_create 3\nmirroring_add_mc 7 3\n"
                                "mc_node_create 0 4\nmc_node_associate 3 0\n"))
    remote, local = on_both(CORPUS / "049_clone_i2e.p4", stf)
    assert remote.passed, remote.report
    assert summary(remote) == summary(local)


def test_register_refusal_by_pi_says_why() -> None:
    """PI's answers (a Read: UNIMPLEMENTED; a Write: UNKNOWN with one UNIMPLEMENTED
    per-update error) name BMv2's limit; any other refusal is passed on unchanged."""
    plain = TargetCommandError("simple_switch_grpc refused reading register r[0]: ...")
    read = P4RuntimeError("Read", grpc.StatusCode.UNIMPLEMENTED, "Register reads are not supported yet")
    write = P4RuntimeError("Write", grpc.StatusCode.UNKNOWN, "",
                           [(0, "UNIMPLEMENTED", "Register writes are not supported yet")])
    other = P4RuntimeError("Write", grpc.StatusCode.UNKNOWN, "", [(0, "OUT_OF_RANGE", "index 9")])
    for exc in (read, write):
        explained = str(explain_register_refusal("simple_switch_grpc", plain, exc))
        assert explained.startswith(str(plain))
        assert "simple_switch_grpc implements no P4Runtime RegisterEntry access" in explained
        assert "--target bmv2-thrift" in explained
    assert explain_register_refusal("simple_switch_grpc", plain, other) is plain


def test_cpu_port_is_never_an_stf_port() -> None:
    assert cpu_port_for([0, 1, 2]) == 255
    assert cpu_port_for([1, 255]) == 510  # 511 is simple_switch_grpc's drop port


def test_remove_all_empties_the_tables(tmp_path: Path) -> None:
    """After ``remove all`` the 0x01 packet misses (dropped), and a re-added entry works."""
    stf = tmp_path / "remove_all.stf"
    stf.write_text("add IngressImpl.dmac dst_addr:0x000000000001 IngressImpl.forward(port:2)\n"
                   "remove all\n"
                   "packet 1 000000000001 000000000002 0800 A0A1A2A3\n"
                   "wait\n"
                   "add IngressImpl.dmac dst_addr:0x000000000001 IngressImpl.forward(port:3)\n"
                   "packet 1 000000000001 000000000002 0800 A0A1A2A3\n"
                   "expect 3 000000000001 000000000002 0800 A0A1A2A3\n")
    remote, local = on_both(CORPUS / "031_table_exact.p4", stf)
    assert remote.passed, remote.report
    assert summary(remote) == summary(local)
