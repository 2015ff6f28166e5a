"""``--target bmv2-thrift``: an STF test on BMv2 ``simple_switch`` (Thrift) in a private namespace.

simple_switch is driven through ``simple_switch_CLI`` (one CLI run per command, so
each reply is checked). The project's target is simple_switch_grpc (grpc_target.py);
this one stays because it is BMv2's only way to reach registers (PI answers
RegisterEntry reads and writes with UNIMPLEMENTED). Packets and "idle" are veth_ports.py.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from p4sim.stf.entries import ResolvedAction, ResolvedEntry, ResolvedKey
from p4sim.stf.errors import TargetUnavailable
from lab.errors import LabError
from lab.process import ManagedProcess
from p4sim.stf.target import TargetCommandError
from p4sim.stf.veth_ports import VethPacketIO, VethPorts

SWITCH_BINARY = "simple_switch"
CLI_BINARY = "simple_switch_CLI"
THRIFT_PORT = 9090
START_TIMEOUT_S = 30.0


def check_bmv2_available() -> None:
    """Raise TargetUnavailable naming whatever is missing."""
    needed = (SWITCH_BINARY, CLI_BINARY, "ip")
    missing = [b for b in needed if shutil.which(b) is None]
    if missing:
        raise TargetUnavailable(f"--target bmv2-thrift needs {', '.join(needed)} on PATH "
                                f"(not found: {', '.join(missing)})")
    if os.geteuid() != 0:
        raise TargetUnavailable("--target bmv2-thrift needs root (it creates a network namespace and veth pairs)")


class Bmv2Target(VethPacketIO):
    """simple_switch with one veth pair per STF port, in namespace ``st<pid>``."""

    def __init__(self, program: dict[str, Any], ports: list[int]) -> None:
        check_bmv2_available()
        self._workdir = tempfile.mkdtemp(prefix="p4sim-stf-bmv2-")
        self._process: ManagedProcess | None = None
        self._ports: VethPorts | None = None
        try:
            self._ports = VethPorts("st", ports)
            self._start_switch(program)
            self._ports.open()
        except (LabError, OSError) as exc:
            self.close()
            raise TargetUnavailable(f"could not start BMv2: {exc}") from None
        except BaseException:
            self.close()
            raise

    def _start_switch(self, program: dict[str, Any]) -> None:
        assert self._ports is not None
        json_path = os.path.join(self._workdir, "program.json")
        with open(json_path, "w", encoding="utf-8") as handle:
            json.dump(program, handle)
        self._process = ManagedProcess(
            SWITCH_BINARY, self._ports.command(SWITCH_BINARY, "--thrift-port", str(THRIFT_PORT),
                                               *self._ports.interface_args(), json_path),
            Path(self._workdir) / "switch.log")
        namespace = self._ports.namespace
        try:
            self._process.wait_until(lambda: namespace.accepts_tcp(THRIFT_PORT, 0.2),
                                     f"its Thrift port {THRIFT_PORT} open", START_TIMEOUT_S)
        except LabError as exc:
            raise TargetUnavailable(f"{exc}\n(log: {self._workdir}/switch.log)") from None

    def _cli(self, command: str) -> str:
        result = subprocess.run(self._namespace().command(CLI_BINARY, "--thrift-port", str(THRIFT_PORT)),
                                input=command + "\n", capture_output=True, text=True, check=False)
        output = result.stdout + result.stderr
        if result.returncode != 0 or re.search(r"\bError\b|Invalid|error:", output):
            raise TargetCommandError(f"simple_switch_CLI '{command}': {output.strip()}")
        return output

    # --- tables ----------------------------------------------------------------------

    def add_entry(self, entry: ResolvedEntry) -> int:
        keys = " ".join(_cli_key(key) for key in entry.keys)
        args = " ".join(str(a) for a in entry.action.args)
        priority = f" {entry.bmv2_priority}" if entry.bmv2_priority is not None else ""
        output = self._cli(f"table_add {entry.table} {entry.action.name} {keys} => {args}{priority}")
        match = re.search(r"handle (\d+)", output)
        if not match:
            raise TargetCommandError(f"table_add gave no handle: {output.strip()}")
        return int(match.group(1))

    def set_default(self, table: str, action: ResolvedAction) -> None:
        args = " ".join(str(a) for a in action.args)
        self._cli(f"table_set_default {table} {action.name} {args}".rstrip())

    def clear_tables(self) -> None:
        output = self._cli("show_tables")
        for line in output.splitlines():
            match = re.match(r"\s*(\S+)\s+\[", line)
            if match:
                self._cli(f"table_clear {match.group(1)}")

    # --- replication -----------------------------------------------------------------

    def mirroring_add(self, session: int, port: int | None, mcast_group: int | None) -> None:
        if port is not None:
            self._cli(f"mirroring_add {session} {port}")
        else:
            self._cli(f"mirroring_add_mc {session} {mcast_group}")

    def mirroring_delete(self, session: int) -> None:
        self._cli(f"mirroring_delete {session}")

    def mirroring_get(self, session: int) -> str:
        return self._cli(f"mirroring_get {session}").strip()

    def mc_group_create(self, group: int) -> None:
        self._cli(f"mc_mgrp_create {group}")

    def mc_node_update(self, node: int, ports: tuple[int, ...]) -> None:
        self._cli(f"mc_node_update {node} {' '.join(map(str, ports))}")

    def mc_node_create(self, rid: int, ports: tuple[int, ...]) -> int:
        output = self._cli(f"mc_node_create {rid} {' '.join(map(str, ports))}")
        match = re.search(r"handle (\d+)", output)
        if not match:
            raise TargetCommandError(f"mc_node_create gave no handle: {output.strip()}")
        return int(match.group(1))

    def mc_node_associate(self, group: int, node: int) -> None:
        self._cli(f"mc_node_associate {group} {node}")

    # --- externs ---------------------------------------------------------------------

    def read_counter(self, name: str, index: int) -> tuple[int, int]:
        return _counter_value(self._cli(f"counter_read {name} {index}"))

    def read_direct_counter(self, table: str, handle: int) -> tuple[int, int]:
        raise TargetCommandError("direct counters are read through their counter name on BMv2; "
                                 "use counter_read COUNTER HANDLE")

    def write_counter(self, name: str, index: int, byte_count: int, packets: int) -> None:
        self._cli(f"counter_write {name} {index} {packets} {byte_count}")

    def read_register(self, name: str, index: int) -> int:
        match = re.search(r"=\s*(\d+)", self._cli(f"register_read {name} {index}"))
        if not match:
            raise TargetCommandError(f"register_read {name} {index}: no value in the reply")
        return int(match.group(1))

    def write_register(self, name: str, index: int, value: int) -> None:
        self._cli(f"register_write {name} {index} {value}")

    def reset_register(self, name: str) -> None:
        self._cli(f"register_reset {name}")

    # --- packets ---------------------------------------------------------------------

    def meter_set_rates(self, name: str, index: int, rates: tuple[tuple[float, int], ...]) -> None:
        self._cli(f"meter_set_rates {name} {index} "
                  + " ".join(f"{rate!r}:{burst}" for rate, burst in rates))

    def meter_get_rates(self, name: str, index: int) -> list[tuple[float, int]] | None:
        output = self._cli(f"meter_get_rates {name} {index}")
        rates = [(float(rate), int(burst)) for rate, burst in
                 re.findall(r"info rate = ([0-9.e+-]+), burst size = (\d+)", output)]
        return rates or None

    def close(self) -> None:
        if self._process is not None:
            self._process.stop()
        if self._ports is not None:
            self._ports.close()
        shutil.rmtree(self._workdir, ignore_errors=True)

    def _namespace(self) -> Any:
        assert self._ports is not None
        return self._ports.namespace


def _cli_key(key: ResolvedKey) -> str:
    if key.match_kind == "lpm":
        return f"{key.value:#x}/{key.prefix_len}"
    if key.match_kind == "ternary":
        return f"{key.value:#x}&&&{key.mask:#x}"
    if key.match_kind == "range":
        return f"{key.value:#x}->{key.high:#x}"
    if key.match_kind == "optional":
        full = (1 << key.bitwidth) - 1
        return "0&&&0" if key.wildcard else f"{key.value:#x}&&&{full:#x}"
    return f"{key.value:#x}"


def _counter_value(output: str) -> tuple[int, int]:
    match = re.search(r"packets=(\d+),\s*bytes=(\d+)", output)
    if not match:
        raise TargetCommandError(f"no counter value in the CLI reply: {output.strip()}")
    return int(match.group(2)), int(match.group(1))
