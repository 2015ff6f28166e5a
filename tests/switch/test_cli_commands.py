"""p4sim-cli's simple_switch_CLI commands against real p4sim-switch processes.

Each command family runs against a switch process started with real p4c's JSON for a
corpus program (--no-grpc, the control channel on a port the kernel picks) and checks
simple_switch_CLI's output shapes and the state the switch reports back; one test
feeds a whole script to the p4sim-cli executable on standard input, prompts and all.
"""
from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterator

import pytest

from lab.switch import SwitchProcess
from p4sim.reference import reference_dir
from p4sim.switch import control_cli

PROJECT = reference_dir() / "project"
CLI = str(Path(sys.executable).with_name("p4sim-cli"))


def _program(name: str) -> Path:
    return PROJECT / name / f"{name}.json"


@pytest.fixture(scope="module")
def switch_port() -> Iterator[Callable[[str], int]]:
    """switch_port(program) -> control port of a running switch for that program
    ("" for none; one process per program, stopped at the end of the module)."""
    running: dict[str, tuple[SwitchProcess, int]] = {}

    def start(name: str) -> int:
        if name not in running:
            program = str(_program(name)) if name else "--no-p4"
            popen = subprocess.Popen([sys.executable, "-m", "p4sim.target.switch_cli",
                                      program, "--no-grpc", "--thrift-port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            process = SwitchProcess(popen, 30)
            match = re.search(r"thrift (\d+)", process.ready_line)
            assert match, process.ready_line
            running[name] = (process, int(match.group(1)))
        return running[name][1]
    try:
        yield start
    finally:
        for process, _port in running.values():
            status, stderr = process.terminate()
            assert status == 0, stderr


def run(port: int, script: str, capsys) -> tuple[int, str, str]:
    """Feed `script` to p4sim-cli as standard input; (status, stdout, stderr)."""
    status = control_cli.main(["--thrift-port", str(port)], stdin=io.StringIO(script))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def one(port: int, capsys, *words: str) -> tuple[int, str, str]:
    """One command from the command line (no prompt)."""
    status = control_cli.main(["--thrift-port", str(port), *words])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_table_add_dump_delete_clear(switch_port, capsys):
    port = switch_port("031_table_exact")
    status, out, err = one(port, capsys, "table_add", "dmac", "forward",
                           "00:00:00:00:00:02", "=>", "2")
    assert status == 0, err
    assert out.splitlines() == [
        "Adding entry to exact match table dmac",
        "match key:           EXACT-00:00:00:00:00:02",
        "action:              forward",
        "runtime data:        00:02",
        "Entry has been added with handle 0"]
    assert one(port, capsys, "table_add", "IngressImpl.dmac", "IngressImpl.forward",
               "0x1", "=>", "1")[1].endswith("handle 1\n")
    assert one(port, capsys, "table_num_entries", "dmac")[1] == "2\n"
    status, out, _ = one(port, capsys, "table_set_default", "dmac", "forward", "3")
    assert out.splitlines() == ["Setting default action of dmac",
                                "action:              forward",
                                "runtime data:        00:03"]
    status, out, _ = one(port, capsys, "table_dump", "dmac")
    assert out.splitlines() == [
        "==========", "TABLE ENTRIES",
        "**********", "Dumping entry 0x0", "Match key:",
        "* dst_addr            : EXACT     000000000002",
        "Action entry: IngressImpl.forward - 0002",
        "**********", "Dumping entry 0x1", "Match key:",
        "* dst_addr            : EXACT     000000000001",
        "Action entry: IngressImpl.forward - 0001",
        "==========", "Dumping default entry",
        "Action entry: IngressImpl.forward - 0003", "=========="]
    status, out, _ = one(port, capsys, "table_modify", "dmac", "forward", "1", "=>", "4")
    assert (status, out) == (0, "Modifying entry 1 for exact match table dmac\n")
    assert "Action entry: IngressImpl.forward - 0004" in one(port, capsys, "table_dump",
                                                              "dmac")[1]
    status, out, _ = one(port, capsys, "table_delete", "dmac", "0")
    assert (status, out) == (0, "Deleting entry 0 from dmac\n")
    assert one(port, capsys, "table_num_entries", "dmac")[1] == "1\n"
    assert one(port, capsys, "table_clear", "dmac")[:2] == (0, "")
    assert one(port, capsys, "table_num_entries", "dmac")[1] == "0\n"


@pytest.mark.parametrize("words, shown, cause", [
    (["table_add", "nope", "forward", "1", "=>", "2"], "Error: Invalid table name (nope)",
     "unknown table 'nope'; known: IngressImpl.dmac"),
    (["table_add", "dmac", "forward", "1", "2", "=>", "3"],
     "Error: Table dmac needs 1 key fields", "has 1 key field(s) (dst_addr), got 2"),
    (["table_add", "dmac", "fwd", "1", "=>", "3"], "Error: Table dmac has no action fwd",
     "dmac has actions IngressImpl.forward, IngressImpl.drop, not 'fwd'"),
    (["table_add", "dmac", "forward", "zz", "=>", "2"], "Invalid match key: key dst_addr",
     "'zz' is not a number, MAC or IPv4 address"),
    (["table_add", "dmac", "forward", "7", "=>", "999"], "Invalid runtime data: parameter port",
     "999 does not fit in 9 bits"),
    (["table_add", "dmac", "forward", "7", "=>"],
     "Error: Action IngressImpl.forward needs 1 parameters", "takes 1 parameter(s) (port(9))"),
    (["table_delete", "dmac"], "Error: Wrong number of args, expected 2 but got 1",
     "usage: table_delete <table name> <entry handle>"),
    (["table_delete", "dmac", "77"], "Invalid table operation (INVALID_HANDLE)",
     "no entry with handle 77"),
    (["table_dump"], "Error: Wrong number of args, expected 1 but got 0", "usage: table_dump"),
])
def test_table_errors_name_command_and_cause(switch_port, capsys, words, shown, cause):
    status, out, err = one(switch_port("031_table_exact"), capsys, *words)
    assert status == 1
    assert out.splitlines()[-1].startswith(shown), out
    assert err.startswith(f"p4sim-cli: error: {' '.join(words)}: "), err
    assert cause in err


def test_duplicate_entry_is_refused_by_the_switch(switch_port, capsys):
    port = switch_port("031_table_exact")
    key = ["table_add", "dmac", "drop", "00:00:00:00:0a:0b", "=>"]
    assert one(port, capsys, *key)[0] == 0
    status, out, err = one(port, capsys, *key)
    assert status == 1
    assert out.splitlines()[-1] == "Invalid table operation (DUPLICATE_ENTRY)"
    assert "an entry with this key already exists" in err


def test_ternary_priority_and_dump(switch_port, capsys):
    port = switch_port("033_table_ternary")
    status, out, err = one(port, capsys, "table_add", "classify", "mark",
                           "0x0a00&&&0xff00", "=>", "7", "2", "10")
    assert status == 0, err
    assert out.splitlines()[:4] == ["Adding entry to ternary match table classify",
                                    "match key:           TERNARY-0a:00 &&& ff:00",
                                    "action:              mark",
                                    "runtime data:        07\t00:02"]
    dump = one(port, capsys, "table_dump", "classify")[1].splitlines()
    assert "* hdr.data.h1         : TERNARY   0a00 &&& ff00" in dump
    assert "Priority: 10" in dump
    assert "Action entry: IngressImpl.mark - 07, 0002" in dump
    status, out, err = one(port, capsys, "table_add", "classify", "mark", "1&&&1", "=>",
                           "1", "2", "x")
    assert status == 1
    assert out == "Error: Table is ternary, but could not extract a valid priority from args\n"
    assert "needs an integer priority" in err


def test_show_tables_actions_switch_info(switch_port, capsys):
    port = switch_port("031_table_exact")
    assert one(port, capsys, "show_tables")[1] == (
        f"{'IngressImpl.dmac':30} [implementation=None, mk=dst_addr(exact, 48)]\n")
    assert one(port, capsys, "show_actions")[1].splitlines() == [
        f"{'IngressImpl.drop':30} []", f"{'IngressImpl.forward':30} [port(9)]"]
    info = one(port, capsys, "switch_info")[1].splitlines()
    assert info[:2] == [f"{'device_id':25}: 0", f"{'thrift_port':25}: {port}"]
    assert one(port, capsys, "show_tables", "extra")[0] == 1


def test_action_profile_commands(switch_port, capsys):
    port = switch_port("040_action_profile_selector")
    script = ("act_prof_create_member member_selector to_port 2\n"
              "act_prof_create_member member_selector to_port 3\n"
              "act_prof_create_group member_selector\n"
              "act_prof_add_member_to_group member_selector 0 0\n"
              "act_prof_add_member_to_group member_selector 1 0\n"
              "table_indirect_add_with_group grouped 5 => 0\n"
              "act_prof_create_group member_profile\n"
              "act_prof_add_member_to_group member_selector 9 0\n")
    status, out, err = run(port, script, capsys)
    assert status == 1
    assert "Member has been created with handle 0" in out
    assert "Member has been created with handle 1" in out
    assert "Group has been created with handle 0" in out
    assert ("Adding entry to indirect match table IngressImpl.grouped\n"
            "Entry has been added with handle 0") in out
    assert ("Error: Cannot run this command on an action profile without selector"
            in out)                       # member_profile has no selector
    assert "Invalid table operation (INVALID_MBR_HANDLE)" in out
    assert "line 7: act_prof_create_group member_profile" in err
    assert "line 8: act_prof_add_member_to_group member_selector 9 0" in err
    dump = one(port, capsys, "table_dump", "grouped")[1]
    assert "Index: group(0)" in dump
    assert "GROUPS\n**********\nDumping group 0\nMembers: [0, 1]" in dump
    assert "Dumping member 1\nAction entry: IngressImpl.to_port - 0003" in dump


def test_multicast_and_mirroring_commands(switch_port, capsys):
    port = switch_port("052_multicast")
    script = ("mc_mgrp_create 1\nmc_node_create 0 1 2\nmc_node_create 3 4\n"
              "mc_node_associate 1 0\nmc_node_associate 1 1\nmc_node_dissociate 1 1\n"
              "mc_node_destroy 1\nmirroring_add 5 3\nmc_node_associate 2 0\n"
              "mc_node_create 0 1 1\n")
    status, out, err = run(port, script, capsys)
    assert out.splitlines()[3:] == [
        "RuntimeCmd: Creating multicast group 1",
        "RuntimeCmd: Creating node with rid 0 , port map 110 and lag map ",
        "node was created with handle 0",
        "RuntimeCmd: Creating node with rid 3 , port map 10000 and lag map ",
        "node was created with handle 1",
        "RuntimeCmd: Associating node 0 to multicast group 1",
        "RuntimeCmd: Associating node 1 to multicast group 1",
        "RuntimeCmd: Dissociating node 1 from multicast group 1",
        "RuntimeCmd: Destroying node 1",
        "RuntimeCmd: RuntimeCmd: Associating node 0 to multicast group 2",
        "Invalid PRE operation (INVALID_MGID)",
        "RuntimeCmd: Error: Found duplicate port number '1'",
        "RuntimeCmd: "]
    assert status == 1
    assert "line 9: mc_node_associate 2 0: multicast group 2 was not created" in err


def test_register_commands(switch_port, capsys):
    port = switch_port("044_register")
    assert one(port, capsys, "register_write", "cells", "3", "0xbeef")[0] == 0
    assert one(port, capsys, "register_read", "cells", "3")[1] == "cells[3]= 48879\n"
    status, out, err = one(port, capsys, "register_read", "IngressImpl.cells")
    assert out == "IngressImpl.cells= " + ", ".join(["0"] * 3 + ["48879"] + ["0"] * 12) + "\n"
    assert "register index omitted, reading entire array" in err
    assert one(port, capsys, "register_reset", "cells")[0] == 0
    assert one(port, capsys, "register_read", "cells", "3")[1] == "cells[3]= 0\n"
    status, out, err = one(port, capsys, "register_read", "cells", "16")
    assert status == 1 and out == "Invalid register operation (INVALID_INDEX)\n"
    assert "index 16 not in [0, 16)" in err
    status, out, _ = one(port, capsys, "register_write", "nothere", "0", "1")
    assert status == 1 and out == "Error: Invalid register name (nothere)\n"


def test_counter_commands(switch_port, capsys):
    port = switch_port("041_counter")
    assert one(port, capsys, "counter_read", "port_pkts", "2")[1] == (
        "port_pkts[2]= (0 bytes, 0 packets)\n")
    assert one(port, capsys, "counter_write", "port_pkts", "2", "5", "300")[1] == (
        "port_pkts[2] has been updated\n")
    assert one(port, capsys, "counter_read", "port_pkts", "2")[1] == (
        "port_pkts[2]= (300 bytes, 5 packets)\n")
    assert one(port, capsys, "counter_reset", "port_pkts")[0] == 0
    assert one(port, capsys, "counter_read", "port_pkts", "2")[1] == (
        "port_pkts[2]= (0 bytes, 0 packets)\n")
    status, out, err = one(port, capsys, "counter_read", "port_pkts")
    assert status == 1 and out == "Error: Wrong number of args, expected 2 but got 1\n"
    assert "usage: counter_read <name> <index>" in err


def test_meter_commands(switch_port, capsys):
    port = switch_port("043_meters")
    assert one(port, capsys, "meter_set_rates", "rate_limit", "1", "0.5:10", "1.5:20")[0] == 0
    assert one(port, capsys, "meter_get_rates", "rate_limit", "1")[1].splitlines() == [
        "0: info rate = 0.5, burst size = 10", "1: info rate = 1.5, burst size = 20"]
    status, out, _ = one(port, capsys, "meter_set_rates", "rate_limit", "1", "0.5:10")
    assert status == 1 and out == "Error: Invalid number of rates, expected 2 but got 1\n"
    status, out, _ = one(port, capsys, "meter_set_rates", "rate_limit", "1", "a:b", "1:2")
    assert status == 1 and out == "Error: Error while parsing rates\n"
    status, out, err = one(port, capsys, "meter_set_rates", "rate_limit", "0", "2:1", "1:1")
    assert status == 1 and out == "Invalid table operation (INVALID_METER_OPERATION)\n"
    assert "pir >= cir" in err


def test_queue_commands(switch_port, capsys):
    port = switch_port("031_table_exact")
    assert one(port, capsys, "set_queue_depth", "10", "1")[:2] == (0, "")
    assert one(port, capsys, "set_queue_rate", "100", "1")[:2] == (0, "")
    status, out, err = one(port, capsys, "set_queue_rate", "x")
    assert status == 1 and out == "Error: Bad format for rate_pps, expected a number\n"
    assert "usage: set_queue_rate PPS [PORT [PRIORITY]]" in err


def test_script_on_stdin_of_the_executable(switch_port):
    """The p4sim-cli program itself, a script on stdin: banner, prompts, an error in
    the middle that does not stop the rest."""
    port = switch_port("032_table_lpm")
    names = subprocess.run([CLI, "--thrift-port", str(port)], input="show_tables\n",
                           capture_output=True, text=True, timeout=60, check=True).stdout
    table = re.search(r"RuntimeCmd: (\S+)", names).group(1).rsplit(".", 1)[-1]
    script = (f"# routes\n"
              f"table_num_entries {table}\n"
              f"table_add {table} bogus_action 10.0.0.0/8 =>\n"
              f"\n"
              f"table_num_entries {table}\n")
    done = subprocess.run([CLI, "--thrift-port", str(port)], input=script,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "Obtaining JSON from switch...", "Done",
        "Control utility for runtime P4 table manipulation",
        "RuntimeCmd: RuntimeCmd: 0",
        f"RuntimeCmd: Error: Table {table} has no action bogus_action",
        "RuntimeCmd: RuntimeCmd: 0",
        "RuntimeCmd: "]
    assert done.stderr.startswith(
        f"p4sim-cli: error: line 3: table_add {table} bogus_action 10.0.0.0/8 =>: ")


def test_without_a_program(switch_port, capsys):
    port = switch_port("")
    status, out, err = run(port, "set_queue_rate 100 2\ntable_add dmac drop 1 =>\n", capsys)
    assert status == 1
    assert out.splitlines()[3:] == ["RuntimeCmd: RuntimeCmd: Error: Invalid table name (dmac)",
                                    "RuntimeCmd: "]
    assert "line 2: table_add dmac drop 1 =>: unknown table 'dmac': the switch has no program" in err


def test_mc_node_update_moves_a_node_to_new_ports(switch_port, capsys):
    """The switch is shared by the module: its own group, and the node handle it is given."""
    port = switch_port("044_register")
    status, out, _ = run(port, "mc_mgrp_create 11\nmc_node_create 7 1 2\n", capsys)
    assert status == 0
    handle = int(re.search(r"node was created with handle (\d+)", out).group(1))
    script = (f"mc_node_associate 11 {handle}\nmc_node_update {handle} 3 4 5\n"
              f"mc_node_update 999 1\nmc_node_update {handle} 6 6\n")
    status, out, err = run(port, script, capsys)
    assert out.splitlines()[3:] == [
        f"RuntimeCmd: Associating node {handle} to multicast group 11",
        f"RuntimeCmd: Updating node {handle} with port map 111000 and lag map ",
        "RuntimeCmd: Updating node 999 with port map 10 and lag map ",
        "Invalid PRE operation (INVALID_L1_HANDLE)",
        "RuntimeCmd: Error: Found duplicate port number '6'",
        "RuntimeCmd: "]
    assert status == 1
