"""A Mininet switch that runs p4sim-switch, or simple_switch_grpc, on its Mininet ports.

Topologies written for BMv2 (p4lang tutorials, p4-utils, p4-learning) start each P4
switch from Mininet with its interfaces as ``-i PORT@IFNAME``; this class does the same
for either target, so a topology changes only its ``switch=`` class.  The binary is the
``binary`` argument, else the switch TARGET / SWITCH select (lab/target.py:
``$SWITCH`` as the Makefile exports it, else ``simple_switch_grpc`` for
``TARGET=bmv2``, else the venv's p4sim-switch).

The switch runs in the root namespace (Mininet's default for switches) on a loopback
gRPC port; it is ready when that port accepts a connection (what works for both
targets: simple_switch_grpc prints no ready line) and is stopped by its PID.
"""
from __future__ import annotations

import socket
import tempfile
from pathlib import Path
from typing import Any

from mininet.node import Switch  # type: ignore[import-untyped, import-not-found, unused-ignore]

from lab.errors import LabError
from lab.process import ManagedProcess
from lab.readiness import tcp_accepts
from lab.switch import is_bmv2
from lab.target import Target

READY_TIMEOUT = 60.0


def switch_binary(binary: str | None = None) -> str:
    """Which switch program to run: the argument, else what TARGET / SWITCH select."""
    return binary or Target.from_environment().switch


def free_tcp_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now (the kernel's choice), for a gRPC server."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class P4RuntimeSwitch(Switch):  # type: ignore[misc]
    """A P4Runtime switch (p4sim-switch or simple_switch_grpc) for Mininet.

    json_path: BMv2 JSON to load at start, or None to start with no program
        (``--no-p4``) and push one over P4Runtime.
    grpc_port: gRPC port on ``grpc_host`` (default: a free port, see ``grpc_address``).
    device_id: P4Runtime device id (default: the number in the switch's name, s3 -> 3).
    thrift_port: p4sim's control channel (p4sim-cli); never given to simple_switch_grpc,
        which has no Thrift server.
    cpu_port, log_console, log_level, pcap_dir: the simple_switch_grpc options.
    switch_args: any further options, placed before ``--``.
    sw_path, pcap_dump: the names BMv2 tutorials' topologies pass (the binary; a
        pcap directory, or True for the current one), so they work unchanged.
    """

    def __init__(self, name: str, json_path: str | None = None, grpc_port: int | None = None,
                 grpc_host: str = "127.0.0.1", device_id: int | None = None,
                 thrift_port: int | None = None, cpu_port: int | None = None,
                 log_console: bool = False, log_level: str | None = None,
                 pcap_dir: str | None = None, log_dir: str | None = None,
                 binary: str | None = None, switch_args: list[str] | None = None,
                 ready_timeout: float = READY_TIMEOUT, sw_path: str | None = None,
                 pcap_dump: str | bool | None = None, **params: Any) -> None:
        super().__init__(name, **params)
        self.binary = switch_binary(binary or sw_path)
        if pcap_dump and not pcap_dir:
            pcap_dir = "." if pcap_dump is True else str(pcap_dump)
        self.json_path = json_path
        self.grpc_host = grpc_host
        self.grpc_port = grpc_port if grpc_port is not None else free_tcp_port(grpc_host)
        self.device_id = device_id if device_id is not None else int(self.dpid, 16)
        self.thrift_port = thrift_port
        self.cpu_port = cpu_port
        self.log_console = log_console
        self.log_level = log_level
        self.pcap_dir = pcap_dir
        self.log_path = Path(log_dir or tempfile.gettempdir()) / f"p4s.{name}.log"
        self.switch_args = list(switch_args or [])
        self.ready_timeout = ready_timeout
        self.process: ManagedProcess | None = None

    @property
    def grpc_address(self) -> str:
        return f"{self.grpc_host}:{self.grpc_port}"

    @property
    def is_bmv2(self) -> bool:
        return is_bmv2(self.binary)

    def command(self) -> list[str]:
        """The switch's command line: its Mininet ports as -i N@IFNAME."""
        argv = [self.binary, "--device-id", str(self.device_id)]
        for port, intf in sorted(self.intfs.items()):
            if intf.name != "lo":
                argv += ["-i", f"{port}@{intf.name}"]
        if self.thrift_port is not None:
            if self.is_bmv2:
                raise LabError(f"{self.name}: simple_switch_grpc serves no Thrift; "
                                  f"give no thrift_port")
            argv += ["--thrift-port", str(self.thrift_port)]
        if self.pcap_dir:
            argv.append(f"--pcap={self.pcap_dir}")   # BMv2 takes its value only after =
        if self.log_console:
            argv.append("--log-console")
        if self.log_level:
            argv += ["-L", self.log_level]
        argv += self.switch_args
        argv.append(self.json_path if self.json_path else "--no-p4")
        argv += ["--", "--grpc-server-addr", self.grpc_address]
        if self.cpu_port is not None:
            argv += ["--cpu-port", str(self.cpu_port)]
        return argv

    def start(self, controllers: list[Any]) -> None:
        """Start the switch process and return once its gRPC port accepts."""
        if self.process is not None and self.process.running():
            return
        if tcp_accepts(self.grpc_host, self.grpc_port):
            raise LabError(f"{self.name}: something already listens on {self.grpc_address}")
        self.process = ManagedProcess(self.name, self.command(), self.log_path)
        try:
            self.process.wait_until(lambda: tcp_accepts(self.grpc_host, self.grpc_port),
                                    f"its gRPC server {self.grpc_address} accepted",
                                    self.ready_timeout)
        except LabError:
            self.process.stop()
            raise

    def stop(self, deleteIntfs: bool = True) -> None:  # noqa: N803 (Mininet's name)
        """Stop the switch process (SIGTERM, then SIGKILL), then its interfaces."""
        if self.process is not None:
            self.process.stop()
        super().stop(deleteIntfs)
