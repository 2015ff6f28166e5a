"""A switch program as a managed process: its command line, its ready line, its
run-time CLI.

Every start-up (demo, launcher, PTF session, STF targets, tests) gives the switch
simple_switch_grpc's own flags, so p4sim-switch and simple_switch_grpc are
interchangeable; p4sim-switch also prints "p4sim-switch ready ..." on stdout once it
serves, which simple_switch_grpc does not (wait for its gRPC port instead).
"""
from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from lab.errors import LabError, ProcessError
from lab.process import ManagedProcess

READY_LINE = "p4sim-switch ready"
BMV2_GRPC = "simple_switch_grpc"


def is_bmv2(binary: str) -> bool:
    """Whether ``binary`` is one of BMv2's switches (simple_switch, simple_switch_grpc)."""
    return Path(binary).name.startswith("simple_switch")


def runtime_cli(binary: str) -> list[str] | None:
    """The run-time (Thrift-port) CLI that matches the switch, or None for
    simple_switch_grpc, which serves P4Runtime only."""
    name = Path(binary).name
    if name == BMV2_GRPC:
        return None
    if name.startswith("simple_switch"):
        return ["simple_switch_CLI"]
    return [sys.executable, "-m", "p4sim.switch.control_cli"]


def switch_command(binary: str, interfaces: Mapping[int, str], *, grpc_address: str,
                   cpu_port: int, program: str | None = None,
                   options: Iterable[str] = (), target_options: Iterable[str] = ()) -> list[str]:
    """``BINARY [OPTIONS] -i N@IFACE ... (PROGRAM | --no-p4) -- --grpc-server-addr A
    --cpu-port N [TARGET_OPTIONS]``: what simple_switch_grpc and p4sim-switch both take."""
    ports = [arg for port in sorted(interfaces) for arg in ("-i", f"{port}@{interfaces[port]}")]
    return [binary, *options, *ports, program if program else "--no-p4", "--",
            "--grpc-server-addr", grpc_address, "--cpu-port", str(cpu_port), *target_options]


class SwitchProcess(ManagedProcess):
    """A running p4sim-switch (stdout and stderr apart); construction returns once it
    printed its ready line (``ready_line``), or raises with its stderr tail."""

    def __init__(self, process: subprocess.Popen, timeout: float, name: str = "p4sim-switch") -> None:
        self._attach(name, process, None)
        try:
            self.ready_line = self.wait_for_line(READY_LINE, timeout).strip()
        except LabError:
            exited = self.popen.poll()
            self.kill()
            status = "" if exited is None else f" (exited, status {exited})"
            raise ProcessError(f"p4sim-switch not ready within {timeout:g} s{status}: "
                               f"{self.stderr[-2000:]}") from None

    @property
    def process(self) -> subprocess.Popen:
        """The switch's Popen (its PID, poll())."""
        return self.popen

    def terminate(self, timeout: float = 15.0) -> tuple[int, str]:
        """SIGTERM, then wait; (exit status, stderr). ProcessError if it ignores SIGTERM."""
        self.popen.send_signal(signal.SIGTERM)
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise ProcessError(f"p4sim-switch ignored SIGTERM for {timeout:g} s") from None
        self.stop()
        return self.popen.returncode, self.stderr
