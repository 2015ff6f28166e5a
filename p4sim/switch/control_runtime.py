"""Control-channel handlers for the loaded program's objects (simple_switch_CLI's
runtime commands): a description of the program, table reads and removals,
registers, counters, meters and switch_info.

The CLI formats everything itself from `describe` (as simple_switch_CLI does from the
JSON it fetches), so these return plain data: names, ints, lists.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

from p4sim.switch import table_commands
from p4sim.switch.runtime_api import (EntryView, ExactParam, LpmParam, MatchParam, MeterConfig,
                                      OptionalParam, RangeParam, TableError, TableErrorCode,
                                      TernaryParam, ValidParam)

MICROS_PER_SECOND = 1e6
_PARAM_KINDS: dict[type, str] = {ExactParam: "exact", LpmParam: "lpm", TernaryParam: "ternary",
                                 RangeParam: "range", OptionalParam: "optional",
                                 ValidParam: "valid"}


def describe_program(switch: Any) -> dict:
    """Names, match kinds, widths and sizes of everything the CLI can address."""
    program, runtime = switch.program, switch.runtime
    if program is None:
        return {"loaded": False}
    tables = []
    for name, table in runtime.tables.items():
        profile = table.profile
        kind = ("simple" if profile is None else
                "indirect_ws" if profile.has_selector else "indirect")
        tables.append({
            "name": name, "match_type": table.match_type, "type": kind,
            "action_profile": profile.name if profile is not None else None,
            "keys": [list(k) for k in table.key_spec], "actions": list(table.action_names),
            "support_timeout": table.support_timeout})
    actions = {fn.name: [list(p) for p in zip(fn.param_names, fn.param_widths)]
               for fn in program.actions.values()}
    return {
        "loaded": True, "tables": tables,
        "actions": [{"name": n, "params": p} for n, p in actions.items()],
        "action_profiles": [{"name": n, "with_selection": p.has_selector,
                             "actions": list(p.actions)}
                            for n, p in runtime.action_profiles.items()],
        "counters": [{"name": n, "size": c.size} for n, c in runtime.counters.items()],
        "registers": [{"name": n, "size": r.size, "bitwidth": r.bitwidth}
                      for n, r in runtime.registers.items()],
        "meters": [{"name": n, "size": m.size, "type": m.unit, "rate_count": 2}
                   for n, m in runtime.meters.items()],
    }


def match_param_data(param: MatchParam) -> dict:
    """One key element as JSON: its kind and its fields."""
    return {"kind": _PARAM_KINDS[type(param)], **dataclasses.asdict(param)}


def entry_data(entry: EntryView) -> dict:
    return {"handle": entry.handle, "keys": [match_param_data(k) for k in entry.keys],
            "priority": entry.priority, "action": entry.action, "args": entry.args,
            "member": entry.member, "group": entry.group, "ttl_ms": entry.ttl_ms}


def runtime_handlers(switch: Any, thrift_port: Callable[[], int]) -> dict[str, Callable[..., Any]]:
    """The handlers, by command name, for one switch's control channel."""

    def runtime() -> Any:
        if switch.runtime is None:
            raise TableError(TableErrorCode.ERROR, "no program loaded")
        return switch.runtime

    def table(name: str) -> Any:
        tables = runtime().tables
        return tables[table_commands.resolve(name, tables, "table")]

    def profile(name: str) -> Any:
        profiles = runtime().action_profiles
        return profiles[table_commands.resolve(name, profiles, "action profile")]

    def extern(kind: str, name: str) -> Any:
        objects = getattr(runtime(), kind + "s")
        return objects[table_commands.resolve(name, objects, kind)]

    def table_dump(table_name: str) -> dict:
        t = table(table_name)
        default_action, default_args = t.get_default_action()
        result: dict[str, Any] = {
            "entries": [entry_data(e) for e in sorted(t.entries(), key=lambda e: e.handle)],
            "default": {"action": default_action, "args": default_args}}
        if t.profile is not None:
            result["members"] = [{"handle": m.handle, "action": m.action, "args": m.args}
                                 for m in t.profile.members()]
            result["groups"] = [{"handle": g.handle, "members": sorted(g.members)}
                                for g in t.profile.groups()]
        return result

    def table_modify(table_name: str, action: str, handle: int, args: list[str]) -> None:
        t = table(table_name)
        action_name = table_commands.resolve(action, t.action_names, f"action of {t.name}")
        values = [table_commands.parse_value(a, 4096, f"action argument {i}")
                  for i, a in enumerate(args)]
        t.modify_entry(handle, action_name, values)

    def register_read(name: str, index: int | None = None) -> int | list[int]:
        reg = extern("register", name)
        if index is None:
            return [reg.read(i) for i in range(reg.size)]
        return int(reg.read(index))

    def counter_read(name: str, index: int) -> list[int]:
        nbytes, packets = extern("counter", name).read(index)
        return [nbytes, packets]

    def meter_set_rates(name: str, index: int, rates: list[list[float]]) -> None:
        """rates: [[units per microsecond, burst], ...] (committed, then peak), as
        simple_switch_CLI takes them."""
        if len(rates) != 2:
            raise TableError(TableErrorCode.INVALID_METER_OPERATION,
                             f"expected 2 rates (committed, peak), got {len(rates)}")
        (cir, cburst), (pir, pburst) = rates
        extern("meter", name).set_config(index, MeterConfig(
            cir=cir * MICROS_PER_SECOND, cburst=int(cburst),
            pir=pir * MICROS_PER_SECOND, pburst=int(pburst)))

    def meter_get_rates(name: str, index: int) -> list[list[float]] | None:
        config = extern("meter", name).get_config(index)
        if config is None:
            return None
        return [[config.cir / MICROS_PER_SECOND, config.cburst],
                [config.pir / MICROS_PER_SECOND, config.pburst]]

    def switch_info() -> dict:
        return {"device_id": switch.device_id, "thrift_port": thrift_port(),
                "notifications_socket": None, "elogger_socket": None,
                "debugger_socket": None}

    return {
        "describe": lambda: describe_program(switch),
        "table_delete": lambda table_name, handle: table(table_name).delete_entry(handle),
        "table_num_entries": lambda table_name: len(table(table_name).entries()),
        "table_clear": lambda table_name: table(table_name).clear(),
        "table_dump": table_dump,
        "table_modify": table_modify,
        "table_reset_default": lambda table_name: table(table_name).reset_default_action(),
        "act_prof_remove_member_from_group": lambda profile_name, member, group:
            profile(profile_name).remove_member_from_group(group, member),
        "act_prof_delete_member": lambda profile_name, member:
            profile(profile_name).delete_member(member),
        "act_prof_delete_group": lambda profile_name, group:
            profile(profile_name).delete_group(group),
        "register_read": register_read,
        "register_write": lambda name, index, value: extern("register", name).write(index, value),
        "register_reset": lambda name: extern("register", name).reset(),
        "counter_read": counter_read,
        "counter_write": lambda name, index, nbytes, packets:
            extern("counter", name).write(index, nbytes, packets),
        "counter_reset": lambda name: extern("counter", name).reset(),
        "meter_set_rates": meter_set_rates,
        "meter_get_rates": meter_get_rates,
        "switch_info": switch_info,
    }
