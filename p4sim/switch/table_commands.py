"""Table commands in simple_switch_CLI's syntax, turned into runtime API calls.

  table_add TABLE ACTION KEY... => ARG... [PRIORITY]
  table_set_default TABLE ACTION ARG...
  table_indirect_add[_with_group] TABLE KEY... => MEMBER|GROUP [PRIORITY]
  act_prof_create_member PROFILE ACTION ARG...
  act_prof_create_group PROFILE
  act_prof_add_member_to_group PROFILE MEMBER GROUP
Keys by match kind: exact `V`, lpm `V/LEN`, ternary `V&&&MASK`, range `LO->HI`,
optional `V` or `*`, valid `0|1`.  Values: decimal, 0x hex, MAC `aa:bb:..`, IPv4
`a.b.c.d`.  TABLE and ACTION are JSON names or an unambiguous last component
(`ipv4_lpm` for `IngressImpl.ipv4_lpm`).  Priorities follow bm_sim (smaller wins).
"""

from __future__ import annotations

import ipaddress
from typing import Any, Iterable

from p4sim.switch.runtime_api import (ExactParam, KeyField, LpmParam, MatchParam,
                                      OptionalParam, RangeParam, TernaryParam, ValidParam)


class CommandError(ValueError):
    """A table command that cannot be understood; the message says which part."""


def parse_value(text: str, bitwidth: int, what: str) -> int:
    """An unsigned value that must fit in `bitwidth` bits."""
    try:
        if text.count(":") == 5:
            value = int(text.replace(":", ""), 16)
        elif text.count(".") == 3:
            value = int(ipaddress.IPv4Address(text))
        else:
            value = int(text, 0)
    except ValueError:
        raise CommandError(f"{what}: {text!r} is not a number, MAC or IPv4 address") from None
    if value < 0 or value >= 1 << bitwidth:
        raise CommandError(f"{what}: {text} does not fit in {bitwidth} bits")
    return value


def parse_key(text: str, field: KeyField) -> MatchParam:
    what = f"key {field.name} ({field.match_kind})"
    kind = field.match_kind
    width = field.bitwidth
    if kind == "exact":
        return ExactParam(parse_value(text, width, what))
    if kind == "lpm":
        value, sep, length = text.partition("/")
        prefix = int(length) if sep and length.isdigit() else width if not sep else -1
        if not 0 <= prefix <= width:
            raise CommandError(f"{what}: prefix length in {text!r} must be 0..{width}")
        return LpmParam(parse_value(value, width, what), prefix)
    if kind == "ternary":
        value, sep, mask = text.partition("&&&")
        if not sep:
            raise CommandError(f"{what}: expected VALUE&&&MASK, got {text!r}")
        return TernaryParam(parse_value(value, width, what), parse_value(mask, width, what))
    if kind == "range":
        low, sep, high = text.partition("->")
        if not sep:
            raise CommandError(f"{what}: expected LOW->HIGH, got {text!r}")
        return RangeParam(parse_value(low, width, what), parse_value(high, width, what))
    if kind == "optional":
        return OptionalParam(None if text == "*" else parse_value(text, width, what))
    if kind == "valid":
        if text.lower() not in ("0", "1", "true", "false"):
            raise CommandError(f"{what}: expected 0/1 or true/false, got {text!r}")
        return ValidParam(text.lower() in ("1", "true"))
    raise CommandError(f"{what}: match kind not supported by table_add")


def resolve(name: str, known: Iterable[str], what: str) -> str:
    """The JSON name for `name`: itself, or the only name whose last part it is."""
    names = list(known)
    if name in names:
        return name
    matches = [n for n in names if n.rsplit(".", 1)[-1] == name]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise CommandError(f"{what} {name!r} is ambiguous: {', '.join(sorted(matches))}")
    raise CommandError(f"unknown {what} {name!r}; known: {', '.join(sorted(names))}")


def _action_args(table: Any, action: str, args: list[str]) -> tuple[str, list[int]]:
    """Action name and argument values (their widths are checked by the table)."""
    name = resolve(action, table.action_names, f"action of {table.name}")
    return name, [parse_value(text, 4096, f"action argument {i}") for i, text in enumerate(args)]


def table_add(runtime: Any, table: str, action: str, keys: list[str], args: list[str],
              priority: int | None = None) -> int:
    """Add one entry; returns its handle (TableError propagates unchanged)."""
    table_name = resolve(table, runtime.tables, "table")
    runtime_table = runtime.tables[table_name]
    spec = runtime_table.key_spec
    if len(keys) != len(spec):
        raise CommandError(f"table {table_name} has {len(spec)} key field(s) "
                           f"({', '.join(f.name for f in spec)}), got {len(keys)}")
    params = [parse_key(text, field) for text, field in zip(keys, spec)]
    action_name, values = _action_args(runtime_table, action, args)
    return runtime_table.add_entry(params, action_name, values, priority or 0)


def table_set_default(runtime: Any, table: str, action: str, args: list[str]) -> None:
    table_name = resolve(table, runtime.tables, "table")
    runtime_table = runtime.tables[table_name]
    action_name, values = _action_args(runtime_table, action, args)
    runtime_table.set_default_action(action_name, values)


def table_add_request(runtime: Any, table: str, action: str, keys: list[str],
                      args: list[str]) -> int:
    """Switch side of table_add: splits a trailing priority off the arguments."""
    table_name = resolve(table, runtime.tables, "table")
    args, priority = _split_priority(runtime.tables[table_name], args)
    return table_add(runtime, table_name, action, keys, args, priority)


def _split_priority(runtime_table: Any, args: list[str]) -> tuple[list[str], int | None]:
    kinds = {f.match_kind for f in runtime_table.key_spec}
    if not kinds & {"ternary", "range", "optional"}:
        return args, None
    if not args:
        raise CommandError(f"table {runtime_table.name} needs a priority after the arguments")
    return args[:-1], parse_value(args[-1], 32, "priority")


def table_indirect_add_request(runtime: Any, table: str, keys: list[str], args: list[str],
                               with_group: bool) -> int:
    """table_indirect_add(_with_group): an entry pointing at a member or a group."""
    table_name = resolve(table, runtime.tables, "table")
    runtime_table = runtime.tables[table_name]
    args, priority = _split_priority(runtime_table, args)
    if len(args) != 1:
        raise CommandError(f"expected one {'group' if with_group else 'member'} handle "
                           f"after =>, got {args}")
    spec = runtime_table.key_spec
    if len(keys) != len(spec):
        raise CommandError(f"table {table_name} has {len(spec)} key field(s), got {len(keys)}")
    params = [parse_key(text, field) for text, field in zip(keys, spec)]
    handle = parse_value(args[0], 32, "handle")
    if with_group:
        return runtime_table.add_indirect_entry(params, group=handle, priority=priority or 0)
    return runtime_table.add_indirect_entry(params, member=handle, priority=priority or 0)


def act_prof_create_member(runtime: Any, profile: str, action: str, args: list[str]) -> int:
    prof = runtime.action_profiles[resolve(profile, runtime.action_profiles, "action profile")]
    name = resolve(action, prof.actions, f"action of {prof.name}")
    values = [parse_value(text, 4096, f"action argument {i}") for i, text in enumerate(args)]
    return prof.add_member(name, values)


def act_prof_create_group(runtime: Any, profile: str) -> int:
    return runtime.action_profiles[
        resolve(profile, runtime.action_profiles, "action profile")].create_group()


def act_prof_add_member_to_group(runtime: Any, profile: str, member: str, group: str) -> None:
    prof = runtime.action_profiles[resolve(profile, runtime.action_profiles, "action profile")]
    prof.add_member_to_group(parse_value(group, 32, "group"), parse_value(member, 32, "member"))
