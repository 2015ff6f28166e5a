"""How p4lang/tutorials-style Mininet scripts start a switch, reproduced: which class
they pick is decided by the binary's name (a P4Runtime switch only when the path
contains "grpc"), and the command line they build (options joined as single words
such as "--pcap pcaps" and "--thrift-port 9090", target options after `--`)."""
from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from p4sim.target.switch_cli import parse_args
from p4sim.version import package_version

VENV_BIN = Path(sys.executable).parent


def test_a_switch_command_named_for_grpc_is_installed():
    """BMV2_SWITCH_EXE must name a file whose path contains "grpc", or the tutorials'
    run_exercise.py starts a Thrift-only switch class and never programs it."""
    binary = VENV_BIN / "p4sim-switch-grpc"
    assert binary.is_file(), f"{binary} is not installed (console script p4sim-switch-grpc)"
    assert "grpc" in str(binary)
    result = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{package_version()}-p4sim"


def test_the_tutorials_p4runtime_switch_command_line_is_accepted():
    words = ["p4sim-switch", "-i", "1@s1-eth1", "-i", "2@s1-eth2", "--pcap pcaps",
             "--nanolog", "ipc:///tmp/bm-0-log.ipc", "--device-id", "0", "build/basic.json",
             "--log-console", "--thrift-port 9090",
             "-- --grpc-server-addr 0.0.0.0:50051", "--cpu-port 510"]
    argv = shlex.split(" ".join(words))[1:]   # the tutorials join with spaces, a shell splits
    options = parse_args(argv)
    assert options.interface == [(1, "s1-eth1"), (2, "s1-eth2")]
    assert options.pcap == "pcaps" and options.program == "build/basic.json"
    assert options.thrift_port == 9090 and options.device_id == 0
    assert options.grpc_server_addr == "0.0.0.0:50051" and options.cpu_port == 510
    assert options.log_console

