"""Execute parsed STF statements against a target and judge the outputs."""
from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from p4sim.stf import commands as c
from p4sim.stf.entries import located, resolve_add, resolve_default
from p4sim.stf.errors import StfError
from p4sim.stf.expectations import Verdict, check_outputs
from p4sim.stf.observe import Observation, read_back
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.target import Target, TargetCommandError

_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge}


@dataclass
class StfResult:
    """What one STF run found; ``report`` is the text the CLI prints."""

    verdict: Verdict
    command_errors: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    observed: Observation | None = None  # with run_statements(..., observe=True)

    @property
    def passed(self) -> bool:
        return self.verdict.passed and not self.command_errors

    @property
    def report(self) -> str:
        met = sum(1 for o in self.verdict.outcomes if o.met)
        lines = [*self.log, self.verdict.render(), *self.command_errors]
        summary = (f"{'PASS' if self.passed else 'FAIL'}: {met}/{len(self.verdict.outcomes)} "
                   f"expectations met, {len(self.verdict.unexpected)} unexpected packet(s), "
                   f"{len(self.command_errors)} command error(s)")
        return "\n".join(line for line in [*lines, summary] if line)


def stf_ports(statements: list[c.Command]) -> list[int]:
    """Every port a packet enters or is expected on (the ports a target must have)."""
    return sorted({s.port for s in statements if isinstance(s, (c.SendPacket, c.Expect))})


def run_statements(info: ProgramInfo, statements: list[c.Command], target: Target,
                   observe: bool = False) -> StfResult:
    """Run every statement in order, then compare all outputs with the expectations.

    With ``observe`` the result also holds the packets out and every extern cell read
    back at the end (for comparing two runs, not just judging one)."""
    runner = _Runner(info, target)
    for statement in statements:
        try:
            runner.execute(statement)
        except StfError as exc:
            runner.errors.append(str(exc))
        except TargetCommandError as exc:
            runner.errors.append(f"{statement.location}: error: {exc}")
    try:
        target.wait_idle()
    except TargetCommandError as exc:
        runner.errors.append(f"error: {exc}")
    outputs = target.outputs()
    verdict = check_outputs(runner.expects, outputs)
    observed = Observation(outputs, read_back(info, target, runner.added)) if observe else None
    return StfResult(verdict, runner.errors, runner.log, observed)


class _Runner:
    def __init__(self, info: ProgramInfo, target: Target) -> None:
        self.info = info
        self.target = target
        self.expects: list[c.Expect] = []
        self.errors: list[str] = []
        self.log: list[str] = []
        self.entry_ids: dict[str, tuple[str, int]] = {}  # ID -> (table, handle)
        self.added: list[tuple[str, int]] = []  # (table, handle) of every entry added

    def execute(self, statement: c.Command) -> None:
        handler = getattr(self, "_do_" + type(statement).__name__)
        handler(statement)

    def _counter(self, name: str, location: Any) -> str:
        return located(location, self.info.counter, name).name

    def _register(self, name: str, location: Any) -> str:
        return located(location, self.info.register, name).name

    def _do_AddEntry(self, s: c.AddEntry) -> None:
        entry = resolve_add(self.info, s)
        handle = self.target.add_entry(entry)
        self.added.append((entry.table, handle))
        if s.entry_id is not None:
            self.entry_ids[s.entry_id] = (entry.table, handle)

    def _do_SetDefault(self, s: c.SetDefault) -> None:
        table, action = resolve_default(self.info, s)
        self.target.set_default(table, action)

    def _do_RemoveAll(self, s: c.RemoveAll) -> None:
        self.target.clear_tables()

    def _do_SendPacket(self, s: c.SendPacket) -> None:
        self.target.send(s.port, s.data)

    def _do_Expect(self, s: c.Expect) -> None:
        self.expects.append(s)

    def _do_Wait(self, s: c.Wait) -> None:
        self.target.wait_idle()

    def _do_MirroringAdd(self, s: c.MirroringAdd) -> None:
        self.target.mirroring_add(s.session, s.port, s.mcast_group)

    def _do_MirroringDelete(self, s: c.MirroringDelete) -> None:
        self.target.mirroring_delete(s.session)

    def _do_MirroringGet(self, s: c.MirroringGet) -> None:
        self.log.append(f"mirroring session {s.session} (line {s.location.line}): "
                        f"{self.target.mirroring_get(s.session)}")

    def _do_McNodeUpdate(self, s: c.McNodeUpdate) -> None:
        self.target.mc_node_update(s.node, s.ports)

    def _do_McGroupCreate(self, s: c.McGroupCreate) -> None:
        self.target.mc_group_create(s.group)

    def _do_McNodeCreate(self, s: c.McNodeCreate) -> None:
        self.target.mc_node_create(s.rid, s.ports)

    def _do_McNodeAssociate(self, s: c.McNodeAssociate) -> None:
        self.target.mc_node_associate(s.group, s.node)

    def _do_CounterRead(self, s: c.CounterRead) -> None:
        name = self._counter(s.counter, s.location)
        self.target.wait_idle()
        byte_count, packets = self.target.read_counter(name, s.index)
        self.log.append(f"counter {name}[{s.index}] (line {s.location.line}): "
                        f"packets={packets} bytes={byte_count}")

    def _do_CounterWrite(self, s: c.CounterWrite) -> None:
        name = self._counter(s.counter, s.location)
        self.target.wait_idle()
        self.target.write_counter(name, s.index, s.byte_count, s.packets)

    def _do_CheckCounter(self, s: c.CheckCounter) -> None:
        counter = self.info.counters.get(self._counter(s.counter, s.location))
        assert counter is not None
        self.target.wait_idle()
        if isinstance(s.index, str):
            if s.index not in self.entry_ids:
                raise StfError(s.location, f"no entry was added with '= {s.index}'")
            table, handle = self.entry_ids[s.index]
            byte_count, packets = self.target.read_direct_counter(table, handle)
        elif counter.is_direct:
            raise StfError(s.location, f"{counter.name} is a direct counter: name the entry with "
                                       f"'add ... = ID' and check it as {s.counter}($ID)")
        else:
            byte_count, packets = self.target.read_counter(counter.name, s.index)
        actual = packets if s.count_type == "packets" else byte_count
        ok = _COMPARE[s.operator](actual, s.value)
        line = (f"check_counter {counter.name}({s.index}) {s.count_type} {s.operator} {s.value} "
                f"(line {s.location.line}): {'ok' if ok else 'FAILED'}, "
                f"packets={packets} bytes={byte_count}")
        self.log.append(line)
        if not ok:
            self.errors.append(f"{s.location}: error: counter check failed: {s.count_type} is {actual}, "
                               f"expected {s.operator} {s.value}")

    def _do_RegisterRead(self, s: c.RegisterRead) -> None:
        name = self._register(s.register, s.location)
        self.target.wait_idle()
        value = self.target.read_register(name, s.index)
        self.log.append(f"register {name}[{s.index}] (line {s.location.line}) = {value} ({value:#x})")

    def _do_RegisterWrite(self, s: c.RegisterWrite) -> None:
        name = self._register(s.register, s.location)
        self.target.wait_idle()
        self.target.write_register(name, s.index, s.value)

    def _do_RegisterReset(self, s: c.RegisterReset) -> None:
        name = self._register(s.register, s.location)
        self.target.wait_idle()
        self.target.reset_register(name)

    def _meter(self, name: str, location: Any) -> Any:
        meter = located(location, self.info.meter, name)
        if meter.is_direct:
            raise StfError(location, f"{meter.name} is a direct meter: simple_switch_CLI sets "
                                     "direct meters per table entry, which STF cannot name")
        return meter

    def _do_MeterSetRates(self, s: c.MeterSetRates) -> None:
        meter = self._meter(s.meter, s.location)
        if len(s.rates) != 2:
            raise StfError(s.location, f"v1model meters take 2 rates (committed, peak), "
                                       f"got {len(s.rates)}")
        if s.index is not None and not 0 <= s.index < meter.size:
            raise StfError(s.location, f"index {s.index} out of range for {meter.name} "
                                       f"(size {meter.size})")
        self.target.wait_idle()
        for index in range(meter.size) if s.index is None else [s.index]:
            self.target.meter_set_rates(meter.name, index, s.rates)

    def _do_MeterGetRates(self, s: c.MeterGetRates) -> None:
        meter = self._meter(s.meter, s.location)
        self.target.wait_idle()
        rates = self.target.meter_get_rates(meter.name, s.index)
        shown = ("not configured" if rates is None else
                 ", ".join(f"{n}: info rate = {r}, burst size = {b}" for n, (r, b) in enumerate(rates)))
        self.log.append(f"meter {meter.name}[{s.index}] (line {s.location.line}): {shown}")
