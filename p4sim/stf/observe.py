"""What an STF run leaves behind: the packets out and the externs' final state.

The conformance harness runs one STF file on two programs (p4c's JSON and p4sim's) and
compares everything observable, so the run reads back every counter, register and
meter cell after the last statement instead of only the cells the STF file checks.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.target import Target, TargetCommandError


@runtime_checkable
class MeterReader(Protocol):
    """A target that can report a meter cell's configuration (p4sim's in-process one)."""

    def read_meter(self, name: str, index: int) -> tuple[float, int, float, int] | None:
        """(cir, cburst, pir, pburst), or None when the cell is unconfigured."""


@dataclass
class Observation:
    """Packets out in order, and extern cells by ``kind name[index]`` -> value."""

    outputs: list[tuple[int, bytes]] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)

    def by_port(self) -> dict[int, list[bytes]]:
        ports: dict[int, list[bytes]] = {}
        for port, data in self.outputs:
            ports.setdefault(port, []).append(data)
        return ports


def read_back(info: ProgramInfo, target: Target, entries: list[tuple[str, int]]) -> dict[str, Any]:
    """Every counter, register and meter cell (direct counters: of the entries the run
    added, ``entries`` being (table, handle)); a refused read is kept as its message."""
    state: dict[str, Any] = {}

    def cell(key: str, read: Any) -> None:
        try:
            state[key] = read()
        except TargetCommandError as exc:
            state[key] = f"read failed: {exc}"

    for counter in info.counters.values():
        if counter.is_direct:
            for table, handle in entries:
                if table == counter.table:
                    cell(f"counter {counter.name}[entry {handle}]",
                         lambda t=table, h=handle: _counter(target.read_direct_counter(t, h)))
        else:
            for index in range(counter.size):
                cell(f"counter {counter.name}[{index}]",
                     lambda n=counter.name, i=index: _counter(target.read_counter(n, i)))
    for register in info.registers.values():
        for index in range(register.size):
            cell(f"register {register.name}[{index}]",
                 lambda n=register.name, i=index: target.read_register(n, i))
    if isinstance(target, MeterReader):
        for meter in info.meters.values():
            for index in range(0 if meter.is_direct else meter.size):
                cell(f"meter {meter.name}[{index}]",
                     lambda n=meter.name, i=index: target.read_meter(n, i))
    return state


def _counter(value: tuple[int, int]) -> dict[str, int]:
    byte_count, packets = value
    return {"packets": packets, "bytes": byte_count}
