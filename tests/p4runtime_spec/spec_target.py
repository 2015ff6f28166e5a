"""The switch under test and its program, for any simple_switch_grpc-compatible target.

$SWITCH (default .venv/bin/p4sim-switch; simple_switch_grpc on a machine with BMv2)
runs as its own process inside a private network namespace with two veth ports, given
only flags that simple_switch_grpc's --help lists (tests/real_toolchain/toolchain/
simple_switch_grpc.help.txt): ``--no-p4 -i 1@s1 -i 2@s2 -- --grpc-server-addr
127.0.0.1:PORT --cpu-port 255``.  No --thrift-port: simple_switch_grpc built without
Thrift refuses it (bmv2-facts.md), and p4sim-switch, like simple_switch_grpc, then opens
no control channel at all.  The namespace's gRPC port is relayed to a
loopback port out here, since gRPC opens its own sockets.

$P4C (default .venv/bin/p4sim-compile; p4c-bm2-ss on a machine with p4c) compiles
p4/spec_features.p4 once per session, with p4c-bm2-ss's own flags.
"""
from __future__ import annotations

import itertools
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from google.protobuf import text_format
from p4.config.v1 import p4info_pb2

from control.launch import ManagedProcess, default_switch_binary
from lab.namespace import Netns

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = Path(__file__).resolve().parent / "p4" / "spec_features.p4"
CPU_PORT = 255
GRPC_PORT = 9559
DATA_PORTS = (1, 2)
READY_TIMEOUT = 60.0


@dataclass(frozen=True)
class Program:
    """A compiled program: its P4Info and its BMv2 JSON (the device config)."""
    p4info: p4info_pb2.P4Info = field(repr=False)
    device_config: bytes = field(repr=False)

    def id_of(self, name: str) -> int:
        """P4Info ID of any object, by full name or alias."""
        for kind in ("tables", "actions", "action_profiles", "counters", "direct_counters",
                     "meters", "direct_meters", "registers", "digests", "value_sets",
                     "controller_packet_metadata"):
            for obj in getattr(self.p4info, kind):
                if name in (obj.preamble.name, obj.preamble.alias):
                    return obj.preamble.id
        raise KeyError(f"{PROGRAM.name} has no P4Info object named {name!r}")

    def table(self, name: str) -> p4info_pb2.Table:
        return next(t for t in self.p4info.tables
                    if name in (t.preamble.name, t.preamble.alias))


def compiler() -> str:
    return os.environ.get("P4C") or str(ROOT / ".venv/bin/p4sim-compile")


def compile_program(out_dir: Path) -> Program:
    """$P4C on the suite's program; AssertionError with the compiler's messages."""
    json_path, p4info_path = out_dir / "spec_features.json", out_dir / "spec_features.p4info.txtpb"
    command = [compiler(), "--arch", "v1model", "-o", str(json_path),
               "--p4runtime-files", str(p4info_path), str(PROGRAM)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, (f"{' '.join(command)} exited {done.returncode}:\n"
                                  f"{done.stdout}{done.stderr}")
    p4info = text_format.Parse(p4info_path.read_text(), p4info_pb2.P4Info())
    return Program(p4info, json_path.read_bytes())


class SwitchUnderTest:
    """$SWITCH in its own namespace; `address` reaches its gRPC server from here."""

    _names = itertools.count()

    def __init__(self, log_dir: Path) -> None:
        self.binary = default_switch_binary()
        self._election_id = 0
        self.netns = Netns(f"p4rts{os.getpid()}-{next(self._names)}", list(DATA_PORTS))
        self.netns.__enter__()
        try:
            interfaces = [arg for port in DATA_PORTS for arg in ("-i", f"{port}@s{port}")]
            argv = self.netns.command(
                self.binary, "--no-p4", *interfaces, "--",
                "--grpc-server-addr", f"127.0.0.1:{GRPC_PORT}", "--cpu-port", str(CPU_PORT))
            self.process = ManagedProcess("switch", argv, log_dir / f"{self.netns.name}.log")
            self.process.wait_until(lambda: self.netns.accepts_tcp(GRPC_PORT, 1.0),
                                    f"its gRPC server 127.0.0.1:{GRPC_PORT} accepted",
                                    READY_TIMEOUT)
            self.address = self.netns.forward_tcp(GRPC_PORT).address
        except BaseException:
            self.close()
            raise

    def next_election_id(self) -> int:
        """A higher election ID than any handed out before: a test's controller becomes
        primary even while the server still tears down the previous test's stream."""
        self._election_id += 10
        return self._election_id

    def close(self) -> None:
        process = getattr(self, "process", None)
        if process is not None:
            process.stop()
        self.netns.close()


def make_log_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="p4rt-spec-"))
