"""p4sim-switch accepts every option of simple_switch_grpc's recorded --help, acts on
those it can (log file, flush, packet dump, version lines), and opens only what
simple_switch_grpc opens (its gRPC server; no control channel without --thrift-port).

The flags are read from tests/real_toolchain/toolchain/simple_switch_grpc.help.txt,
not listed here.  Tests needing a namespace (veth ports, raw sockets) need root.
"""
from __future__ import annotations

import json
import logging
import os
import re
import struct
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from lab.namespace import Netns
from lab.packet_socket import receive
from p4sim.reference import reference_dir
from p4sim.target.switch_cli import build_parser, json_version_line, notices, parse_args
from p4sim.switch.control_channel import ControlClient
from p4sim.switch.log_file import LogFile, rotated_name
from p4sim.switch.switch import Switch
from p4sim.switch.table_commands import table_add_request

HELP_DIR = Path(__file__).resolve().parents[1] / "real_toolchain" / "toolchain"
SWITCH = str(Path(sys.executable).with_name("p4sim-switch"))
L3_LPM = reference_dir() / "p4c-out" / "l3_lpm.json"


@dataclass(frozen=True)
class HelpFlag:
    names: tuple[str, ...]     # e.g. ("-i", "--interface")
    value: str                 # "none", "required" or "optional" (--pcap [=arg(=.)])
    target: bool               # a target option (after `--`)

    @property
    def name(self) -> str:
        return self.names[-1]


_OPTION = re.compile(r"^  (?:(-\w) \[ (--[\w-]+) \]|(--[\w-]+))"
                     r"(?P<value> \[=arg[^\]]*\]| arg(?: \(=[^)]*\))?)?(?:\s|$)")


def help_flags(text: str) -> list[HelpFlag]:
    """Every option of a boost::program_options help text (BMv2's format)."""
    flags, target = [], False
    for line in text.splitlines():
        if line.startswith("Target options"):
            target = True
        match = _OPTION.match(line)
        if not match:
            continue
        names = tuple(n for n in match.group(1, 2, 3) if n)
        spec = match.group("value") or ""
        value = "optional" if spec.startswith(" [=") else "required" if spec else "none"
        flags.append(HelpFlag(names, value, target))
    return flags


GRPC_FLAGS = help_flags((HELP_DIR / "simple_switch_grpc.help.txt").read_text())
EXITING = {"--help", "--version", "--json-version"}   # print and exit 0


def sample_value(flag: HelpFlag, tmp: Path) -> str:
    """A valid value for an option that takes one (one that p4sim can act on)."""
    special = {"--interface": "1@s1", "--thrift-port": "9090", "--log-file": str(tmp / "sw.log"),
               "--log-level": "info", "--grpc-server-addr": "127.0.0.1:50051",
               "--cpu-port": "255", "--drop-port": "511", "--max-port-count": "512",
               "--device-id": "0", "--log-file-max-size": "1000000", "--pcap": str(tmp)}
    return special.get(flag.name, "1")


def flag_words(flag: HelpFlag, tmp: Path, use_short: bool = False) -> list[str]:
    name = flag.names[0] if use_short else flag.name
    if flag.value == "none":
        return [name]
    if flag.value == "optional":
        return [f"{name}={sample_value(flag, tmp)}"]
    return [name, sample_value(flag, tmp)]


def argv_with(flags: list[HelpFlag], tmp: Path, use_short: bool = False) -> list[str]:
    """General options, then `--`, then target options, as simple_switch_grpc wants."""
    general = [w for f in flags if not f.target for w in flag_words(f, tmp, use_short)]
    target = [w for f in flags if f.target for w in flag_words(f, tmp, use_short)]
    return general + (["--", *target] if target else [])


def test_the_help_file_yields_every_flag_of_both_sections():
    names = {f.name for f in GRPC_FLAGS}
    assert (sum(not f.target for f in GRPC_FLAGS), sum(f.target for f in GRPC_FLAGS)) == (21, 15)
    assert {"--nanolog", "--log-file", "--log-flush", "--dump-packet-data",
            "--notifications-addr", "--max-port-count"} <= names
    assert {f.name for f in GRPC_FLAGS if f.target} >= {"--grpc-server-addr", "--cpu-port",
                                                        "--drop-port", "--load-modules"}
    assert [f.name for f in GRPC_FLAGS if f.value == "optional"] == ["--pcap"]
    assert ("-i", "--interface") in {f.names for f in GRPC_FLAGS}


@pytest.mark.parametrize("flag", [f for f in GRPC_FLAGS if f.name not in EXITING],
                         ids=lambda f: f.name)
def test_every_flag_of_simple_switch_grpc_is_accepted(flag, tmp_path):
    for use_short in (False, True) if len(flag.names) > 1 else (False,):
        parse_args(argv_with([flag], tmp_path, use_short))   # SystemExit(2) if refused
    if flag.value == "optional":  # --pcap bare: the current directory
        assert parse_args([flag.name]).pcap == "."


def test_every_flag_is_in_p4sim_switch_help_and_extensions_are_marked():
    text = build_parser().format_help()
    for flag in GRPC_FLAGS:
        for name in flag.names:
            assert re.search(rf"(^|[\s,]){re.escape(name)}([\s,=]|$)", text, re.M), name
    for extension in ("--queue-depth", "--queue-rate", "--no-grpc"):
        line = next(l for l in text.splitlines() if l.strip().startswith(extension))
        block = text[text.index(line):text.index(line) + 200]
        assert "p4sim extension" in block, extension


def test_repeated_interfaces_and_the_port_limit():
    options = parse_args(["-i", "1@a", "--interface", "2@b", "-i", "7@c"])
    assert options.interface == [(1, "a"), (2, "b"), (7, "c")]
    with pytest.raises(SystemExit):
        parse_args(["-i", "1@a", "-i", "2@b", "--max-port-count", "1"])


def test_options_without_effect_are_noted_once_each():
    options = parse_args(["--nanolog", "ipc:///tmp/x", "--notifications-addr", "ipc:///y",
                          "--", "--load-modules", "a.so", "--grpc-server-ssl"])
    lines = notices(options)
    assert len(lines) == 4
    for flag in ("--nanolog", "--notifications-addr", "--load-modules", "--grpc-server-ssl"):
        assert sum(flag in line for line in lines) == 1
    assert notices(parse_args(["--no-p4"])) == []


@pytest.mark.parametrize("words, expected", [
    (["--version"], r"^\d+\.\d+\.\d+\S*\n$"), (["-v"], r"^\d+\.\d+\.\d+\S*\n$"),
    (["--json-version"], r"^2\.\d+\n$"), (["--help"], r"simple_switch_grpc")])
def test_exiting_flags_print_and_exit_0(words, expected):
    done = subprocess.run([SWITCH, *words], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert re.search(expected, done.stdout), done.stdout
    if words == ["--json-version"]:
        assert done.stdout.strip() == json_version_line()


def test_log_file_rotates_and_keeps_max_files(tmp_path):
    path = tmp_path / "switch.log"
    handler = LogFile(path, max_bytes=200, max_files=2, flush_each=True)
    handler.setFormatter(logging.Formatter("%(message)s"))
    for n in range(40):
        handler.emit(logging.makeLogRecord({"msg": f"message {n:03d} " + "x" * 30}))
    handler.close()
    assert path.stat().st_size <= 200
    assert rotated_name(path, 1).exists() and rotated_name(path, 2).exists()
    assert not rotated_name(path, 3).exists()
    assert rotated_name(path, 1).name == "switch.1.log"
    assert "message 039" in path.read_text()


def _listening_tcp_ports(pid: int) -> set[int]:
    """TCP ports in LISTEN state in the network namespace of process `pid`."""
    ports = set()
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def _capabilities(address: str) -> str:
    with grpc.insecure_channel(address) as channel:
        grpc.channel_ready_future(channel).result(timeout=20)
        stub = p4runtime_pb2_grpc.P4RuntimeStub(channel)
        reply = stub.Capabilities(p4runtime_pb2.CapabilitiesRequest(), timeout=20)
        return reply.p4runtime_api_version


@pytest.mark.netns
def test_two_switches_share_a_namespace_and_open_only_their_grpc_ports():
    with Netns(f"pp-{os.getpid()}-pair", []) as ns:
        first = ns.start_switch(["--no-p4", "--", "--grpc-server-addr", "127.0.0.1:50051"])
        second = ns.start_switch(["--no-p4", "--device-id", "1",
                                  "--", "--grpc-server-addr", "127.0.0.1:50052"])
        assert "thrift off" in first.ready_line and "thrift off" in second.ready_line
        assert _listening_tcp_ports(first.process.pid) == {50051, 50052}
        for port in (50051, 50052):
            assert _capabilities(ns.forward_tcp(port).address)
        for switch in (first, second):
            status, stderr = switch.terminate()
            assert status == 0, stderr


@pytest.mark.netns
def test_a_switch_started_with_every_flag_runs_and_exits_0(tmp_path):
    # --use-files turns the -i interfaces into pcap files: test_pcap_file_ports.py
    flags = [f for f in GRPC_FLAGS if f.name not in EXITING and f.name not in ("--no-p4", "--use-files")]
    args = argv_with(flags, tmp_path)
    with Netns(f"pp-{os.getpid()}-flags", [1]) as ns:
        switch = ns.start_switch([str(L3_LPM), *args])
        assert "grpc 127.0.0.1:50051" in switch.ready_line and "thrift 9090" in switch.ready_line
        assert _listening_tcp_ports(switch.process.pid) == {9090, 50051}
        status, stderr = switch.terminate()
    assert status == 0, stderr
    for name in ("--nanolog", "--notifications-addr", "--load-modules", "--grpc-server-ssl",
                 "--max-mc-groups", "--dp-grpc-server-addr"):
        assert stderr.count(f"note: {name} has no effect") == 1, (name, stderr)
    assert (tmp_path / "s1_in.pcap").exists()


def _ipv4_frame(seq: int, dst: bytes = bytes([10, 1, 2, 3])) -> bytes:
    body = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 46, seq, 0, 64, 17, 0,
                       bytes([192, 168, 1, 10]), dst)
    words = struct.unpack("!10H", body)
    total = sum(words)
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    header = body[:10] + struct.pack("!H", ~total & 0xFFFF) + body[12:]
    return bytes.fromhex("000000000001" "000000000002" "0800") + header + bytes(26)


def _wait_for_lines(path: Path, needles: list[str], timeout: float) -> str:
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = path.read_text() if path.exists() else ""
        if all(n in text for n in needles):
            return text
        time.sleep(0.02)
    return text


@pytest.mark.netns
def test_log_file_flush_and_packet_dump(tmp_path):
    log = tmp_path / "switch.log"
    with Netns(f"pp-{os.getpid()}-dump", [1, 2]) as ns:
        switch = ns.start_switch(["-i", "1@s1", "-i", "2@s2", str(L3_LPM), "--no-grpc",
                                  "--thrift-port", "9090", "--log-file", str(log),
                                  "--log-flush", "-L", "info", "--dump-packet-data", "16"])
        with ControlClient.from_socket(ns.tcp_connect(9090)) as client:
            client.call("table_add", table="ipv4_lpm", action="forward",
                        keys=["10.0.0.0/8"], args=["2", "0x0a0b", "0x0c0d"])
        frame = _ipv4_frame(7)
        out = ns.host_socket(2)
        ns.host_socket(1).send(frame)
        assert receive(out, 1, 10), "the switch forwarded nothing"
        # --log-flush: both lines are in the file while the switch still runs.
        text = _wait_for_lines(log, ["Received packet of length 60 on port 1: ",
                                     "Sending packet of length 60 on port 2: "], 10)
        assert f"Received packet of length 60 on port 1: {frame[:16].hex()}" in text, text
        assert re.search(r"Sending packet of length 60 on port 2: [0-9a-f]{32}\n", text), text
        status, stderr = switch.terminate()
    assert status == 0, stderr
    assert "Received packet" not in stderr   # no --log-console: the file only


def test_log_file_without_flush_is_complete_after_exit(tmp_path):
    log = tmp_path / "switch.log"
    process = subprocess.Popen([SWITCH, "--no-p4", "--no-grpc", "--log-file", str(log),
                                "-L", "debug", "--nanolog", "ipc:///tmp/unused.ipc"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("p4sim-switch ready")
    finally:
        process.terminate()
        _out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert err.count("note: --nanolog has no effect") == 1
    assert "ready: device 0, ports none, grpc off, thrift off" in log.read_text()
    assert "ready: device 0" not in err   # no --log-console: the file only


@pytest.mark.parametrize("drop_port", [511, 510])
def test_drop_port_is_what_mark_to_drop_writes_and_what_drops(drop_port):
    """--drop-port 510 makes port 511 an ordinary port (e.g. a CPU port), as on BMv2."""
    assert parse_args(["--", "--drop-port", str(drop_port)]).drop_port == drop_port
    switch = Switch(drop_port=drop_port)
    switch.load_program(json.loads(L3_LPM.read_text()))
    outputs: list[tuple[int, bytes]] = []
    switch.add_output_listener(lambda port, data: outputs.append((port, data)))
    table_add_request(switch.runtime, "ipv4_lpm", "forward", ["10.0.0.0/8"],
                      ["511", "0x0a0b", "0x0c0d"])
    with switch:
        switch.inject(1, _ipv4_frame(1))                          # to port 511
        switch.inject(1, _ipv4_frame(2, bytes([11, 0, 0, 1])))    # default: mark_to_drop
        assert switch.wait_idle(10)
    assert [port for port, _ in outputs] == ([] if drop_port == 511 else [511])
    assert switch.stats.ingress_drops == (2 if drop_port == 511 else 1)


def test_drop_port_must_fit_egress_spec():
    with pytest.raises(SystemExit):
        parse_args(["--", "--drop-port", "512"])
