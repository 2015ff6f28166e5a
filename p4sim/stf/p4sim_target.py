"""Runs an STF test in-process against p4sim's switch (no interfaces, no root)."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Iterator

from p4sim.stf.entries import ResolvedAction, ResolvedEntry, ResolvedKey
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.target import ProgramLoadFailed, TargetCommandError
from p4sim.switch.errors import LoadError
from p4sim.switch.pre import CloneSession, PreError
from p4sim.switch.pre_commands import MulticastNodes
from p4sim.switch.runtime_api import (ExactParam, LpmParam, MatchParam, MeterConfig, OptionalParam,
                                      RangeParam, TableError, TernaryParam, ValidParam)
from p4sim.switch.switch import Switch

IDLE_TIMEOUT_S = 30.0
MICROS_PER_SECOND = 1e6  # simple_switch_CLI's meter rates are per microsecond


@contextmanager
def _refused() -> Iterator[None]:
    """The switch's own refusals (bad entry, unknown group...) as the runner expects them."""
    try:
        yield
    except (TableError, PreError) as exc:
        raise TargetCommandError(str(exc)) from None


class P4simTarget:
    """A p4sim Switch with the program loaded and an output listener attached."""

    def __init__(self, program: dict[str, Any], info: ProgramInfo) -> None:
        self._info = info
        self._lock = threading.Lock()
        self._outputs: list[tuple[int, bytes]] = []
        self._switch = Switch(ports=None)
        # simple_switch_CLI's node handles, as the p4sim-cli control channel keeps them
        self._multicast = MulticastNodes(self._switch.pre)
        try:
            self._switch.load_program(program)
        except LoadError as exc:
            raise ProgramLoadFailed(f"p4sim could not load the program: {exc}") from None
        self._switch.add_output_listener(self._on_output)
        self._switch.start()

    def _on_output(self, port: int, data: bytes) -> None:
        with self._lock:
            self._outputs.append((port, bytes(data)))

    def _runtime(self) -> Any:
        return self._switch.runtime

    # --- tables ----------------------------------------------------------------------

    def add_entry(self, entry: ResolvedEntry) -> int:
        table = self._runtime().tables[entry.table]
        keys = [_match_param(key) for key in entry.keys]
        priority = entry.bmv2_priority or 0
        info = self._info.tables[entry.table]
        with _refused():
            if info.kind == "indirect" and info.action_profile:
                profile = self._runtime().action_profiles[info.action_profile]
                member = profile.add_member(entry.action.name, list(entry.action.args))
                return table.add_indirect_entry(keys, member=member, priority=priority)
            if info.kind != "simple":
                raise TargetCommandError(f"table {entry.table} is {info.kind}: STF cannot add "
                                         "entries to action-selector tables")
            return table.add_entry(keys, entry.action.name, list(entry.action.args), priority)

    def set_default(self, table: str, action: ResolvedAction) -> None:
        with _refused():
            self._runtime().tables[table].set_default_action(action.name, list(action.args))

    def clear_tables(self) -> None:
        for table in self._runtime().tables.values():
            if not table.is_const:
                table.clear()

    # --- replication -----------------------------------------------------------------

    def mirroring_add(self, session: int, port: int | None, mcast_group: int | None) -> None:
        with _refused():
            self._switch.pre.set_clone_session(session, CloneSession(port=port, mcast_grp=mcast_group))

    def mirroring_delete(self, session: int) -> None:
        with _refused():
            self._switch.pre.delete_clone_session(session)

    def mirroring_get(self, session: int) -> str:
        config = self._switch.pre.clone_session(session)
        if config is None:
            raise TargetCommandError(f"clone session {session} does not exist")
        return f"port={config.port} mgid={config.mcast_grp}"

    def mc_group_create(self, group: int) -> None:
        with _refused():
            self._multicast.create_group(group)

    def mc_node_update(self, node: int, ports: tuple[int, ...]) -> None:
        with _refused():
            self._multicast.update_node(node, list(ports))

    def mc_node_create(self, rid: int, ports: tuple[int, ...]) -> int:
        with _refused():
            return self._multicast.create_node(rid, list(ports))

    def mc_node_associate(self, group: int, node: int) -> None:
        with _refused():
            self._multicast.associate(group, node)

    # --- externs ---------------------------------------------------------------------

    def read_counter(self, name: str, index: int) -> tuple[int, int]:
        with _refused():
            return tuple(self._runtime().counters[name].read(index))

    def read_direct_counter(self, table: str, handle: int) -> tuple[int, int]:
        with _refused():
            return tuple(self._runtime().tables[table].read_direct_counter(handle))

    def write_counter(self, name: str, index: int, byte_count: int, packets: int) -> None:
        with _refused():
            self._runtime().counters[name].write(index, byte_count, packets)

    def read_register(self, name: str, index: int) -> int:
        with _refused():
            return int(self._runtime().registers[name].read(index))

    def write_register(self, name: str, index: int, value: int) -> None:
        with _refused():
            self._runtime().registers[name].write(index, value)

    def reset_register(self, name: str) -> None:
        self._runtime().registers[name].reset()

    def meter_set_rates(self, name: str, index: int, rates: tuple[tuple[float, int], ...]) -> None:
        (cir, cburst), (pir, pburst) = rates
        with _refused():
            self._runtime().meters[name].set_config(index, MeterConfig(
                cir=cir * MICROS_PER_SECOND, cburst=cburst,
                pir=pir * MICROS_PER_SECOND, pburst=pburst))

    def meter_get_rates(self, name: str, index: int) -> list[tuple[float, int]] | None:
        with _refused():
            config = self._runtime().meters[name].get_config(index)
        if config is None:
            return None
        return [(config.cir / MICROS_PER_SECOND, config.cburst),
                (config.pir / MICROS_PER_SECOND, config.pburst)]

    def read_meter(self, name: str, index: int) -> tuple[float, int, float, int] | None:
        """A meter cell's (cir, cburst, pir, pburst), None when unconfigured (observe.py)."""
        with _refused():
            config = self._runtime().meters[name].get_config(index)
        return None if config is None else (config.cir, config.cburst, config.pir, config.pburst)

    # --- packets ---------------------------------------------------------------------

    def send(self, port: int, data: bytes) -> None:
        self._switch.inject(port, data)

    def wait_idle(self) -> None:
        if not self._switch.wait_idle(IDLE_TIMEOUT_S):
            raise TargetCommandError(f"p4sim switch still busy after {IDLE_TIMEOUT_S:.0f} s")

    def outputs(self) -> list[tuple[int, bytes]]:
        with self._lock:
            return list(self._outputs)

    def close(self) -> None:
        self._switch.stop()


def _match_param(key: ResolvedKey) -> MatchParam:
    """The runtime API's form of a resolved key (values masked as BMv2 stores them)."""
    if key.match_kind == "lpm":
        prefix = key.prefix_len or 0
        mask = ((1 << key.bitwidth) - 1) ^ ((1 << (key.bitwidth - prefix)) - 1)
        return LpmParam(key.value & mask, prefix)
    if key.match_kind == "ternary":
        mask = key.mask or 0
        return TernaryParam(key.value & mask, mask)
    if key.match_kind == "range":
        return RangeParam(key.value, key.high if key.high is not None else key.value)
    if key.match_kind == "optional":
        return OptionalParam(None if key.wildcard else key.value)
    if key.match_kind == "valid":
        return ValidParam(bool(key.value))
    return ExactParam(key.value)
