"""Turn STF ``add``/``setdefault`` statements into target-neutral table operations.

Both targets (p4sim in-process, BMv2 through its CLI) receive the same resolved
entry, so the STF meaning of a key value is decided once, here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from p4sim.stf import commands as c
from p4sim.stf.errors import StfError, StfLocation
from p4sim.stf.program_info import (ActionInfo, KeyInfo, NameError_, ProgramInfo, TableInfo,
                                    table_action, table_key)
from p4sim.stf.values import (KeyValue, MaskedValue, PlainValue, PrefixValue, RangeValue,
                              parse_key_value)

T = TypeVar("T")

# STF priorities grow with precedence; BMv2's shrink (p4c's runner maps p to 10000 - p).
BMV2_PRIORITY_BASE = 10000


@dataclass(frozen=True)
class ResolvedKey:
    """One key field's match, in the terms of its match kind."""

    match_kind: str
    bitwidth: int
    value: int = 0
    mask: int | None = None  # ternary
    prefix_len: int | None = None  # lpm
    high: int | None = None  # range: value is the low end
    wildcard: bool = False  # optional: matches anything


@dataclass(frozen=True)
class ResolvedAction:
    name: str  # the JSON action name
    args: tuple[int, ...]  # in the action's parameter order


@dataclass(frozen=True)
class ResolvedEntry:
    table: str
    keys: tuple[ResolvedKey, ...]
    action: ResolvedAction
    bmv2_priority: int | None  # None for tables that order entries without one


def resolve_add(info: ProgramInfo, command: c.AddEntry) -> ResolvedEntry:
    """The entry an ``add`` asks for, checked against the program."""
    table = _table(info, command.table, command)
    values: dict[int, c.KeyMatch] = {}
    for key in command.keys:
        index = located(key.location, table_key, table, key.name)
        if index in values:
            raise StfError(key.location, f"key '{table.keys[index].name}' given twice")
        values[index] = key
    keys = tuple(_resolve_key(spec, values.get(i)) for i, spec in enumerate(table.keys))
    priority = None
    if table.needs_priority:
        if command.priority is None:
            raise StfError(command.location,
                           f"table {table.name} matches by {table.match_type}: its entries need a priority "
                           f"('add {command.table} PRIORITY ...')")
        priority = BMV2_PRIORITY_BASE - command.priority
    return ResolvedEntry(table.name, keys, resolve_action(table, command.action), priority)


def resolve_default(info: ProgramInfo, command: c.SetDefault) -> tuple[str, ResolvedAction]:
    """The table and action a ``setdefault`` asks for."""
    table = _table(info, command.table, command)
    return table.name, resolve_action(table, command.action)


def resolve_action(table: TableInfo, call: c.ActionCall) -> ResolvedAction:
    action = located(call.location, table_action, table, call.name)
    return ResolvedAction(action.name, _action_args(action, call))


def located(location: StfLocation, lookup: Callable[..., T], *args: Any) -> T:
    """``lookup(*args)`` (a ProgramInfo name lookup), its NameError_ turned into an
    StfError at the STF statement or word that named the missing thing."""
    try:
        return lookup(*args)
    except NameError_ as exc:
        raise StfError(location, str(exc)) from None


def _table(info: ProgramInfo, name: str, command: c.AddEntry | c.SetDefault) -> TableInfo:
    return located(command.location, info.table, name)


def _action_args(action: ActionInfo, call: c.ActionCall) -> tuple[int, ...]:
    given = dict(call.args)
    names = [name for name, _ in action.params]
    unknown = [name for name in given if name not in names]
    if unknown:
        raise StfError(call.location, f"action {action.name} has no parameter '{unknown[0]}' "
                                      f"(parameters: {', '.join(names) or 'none'})")
    missing = [name for name in names if name not in given]
    if missing:
        raise StfError(call.location, f"action {action.name} needs parameter '{missing[0]}'")
    for name, width in action.params:
        if given[name] >= 1 << width:
            raise StfError(call.location, f"value {given[name]:#x} of '{name}' does not fit in {width} bits")
    return tuple(given[name] for name in names)


def _resolve_key(spec: KeyInfo, key: c.KeyMatch | None) -> ResolvedKey:
    if key is None:
        return _unspecified(spec)
    try:
        value = parse_key_value(key.text)
    except ValueError as exc:
        raise StfError(key.location, f"bad value for key '{spec.name}': {exc}") from None
    try:
        resolved = _KIND_RESOLVERS[spec.match_kind](spec, value)
    except KeyError:
        raise StfError(key.location, f"key '{spec.name}' has unsupported match kind {spec.match_kind}") from None
    except ValueError as exc:
        raise StfError(key.location, f"key '{spec.name}' ({spec.match_kind}): {exc}") from None
    _check_fits(spec, resolved, key)
    return resolved


def _unspecified(spec: KeyInfo) -> ResolvedKey:
    """What p4c's runner uses for a key the STF line leaves out."""
    full = (1 << spec.bitwidth) - 1
    return {
        "exact": ResolvedKey("exact", spec.bitwidth, 0),
        "valid": ResolvedKey("valid", spec.bitwidth, 0),
        "lpm": ResolvedKey("lpm", spec.bitwidth, 0, prefix_len=0),
        "ternary": ResolvedKey("ternary", spec.bitwidth, 0, mask=0),
        "range": ResolvedKey("range", spec.bitwidth, 0, high=full),
        "optional": ResolvedKey("optional", spec.bitwidth, 0, wildcard=True),
    }.get(spec.match_kind, ResolvedKey(spec.match_kind, spec.bitwidth, 0))


def _plain_only(value: KeyValue) -> int:
    if not isinstance(value, PlainValue) or value.number.wildcard_digits:
        raise ValueError("expected a plain number")
    return value.number.value


def _exact(spec: KeyInfo, value: KeyValue) -> ResolvedKey:
    return ResolvedKey(spec.match_kind, spec.bitwidth, _plain_only(value))


def _lpm(spec: KeyInfo, value: KeyValue) -> ResolvedKey:
    if isinstance(value, PrefixValue):
        return ResolvedKey("lpm", spec.bitwidth, value.value, prefix_len=value.prefix_len)
    if isinstance(value, PlainValue):
        number = value.number
        prefix = spec.bitwidth if number.is_decimal else number.care_bits
        return ResolvedKey("lpm", spec.bitwidth, number.value, prefix_len=prefix)
    raise ValueError("expected VALUE/PREFIX_LEN or a value with '*' digits")


def _ternary(spec: KeyInfo, value: KeyValue) -> ResolvedKey:
    full = (1 << spec.bitwidth) - 1
    if isinstance(value, MaskedValue):
        return ResolvedKey("ternary", spec.bitwidth, value.value, mask=value.mask)
    if isinstance(value, PlainValue):
        number = value.number
        mask = full if number.is_decimal else number.mask
        return ResolvedKey("ternary", spec.bitwidth, number.value, mask=mask)
    if isinstance(value, PrefixValue):
        mask = full ^ ((1 << (spec.bitwidth - value.prefix_len)) - 1)
        return ResolvedKey("ternary", spec.bitwidth, value.value, mask=mask)
    raise ValueError("expected a value with '*' digits or VALUE&&&MASK")


def _range(spec: KeyInfo, value: KeyValue) -> ResolvedKey:
    if isinstance(value, RangeValue):
        return ResolvedKey("range", spec.bitwidth, value.low, high=value.high)
    number = _plain_only(value)
    return ResolvedKey("range", spec.bitwidth, number, high=number)


def _optional(spec: KeyInfo, value: KeyValue) -> ResolvedKey:
    full = (1 << spec.bitwidth) - 1
    if isinstance(value, MaskedValue) and value.mask in (0, full):
        return ResolvedKey("optional", spec.bitwidth, value.value, wildcard=value.mask == 0)
    if isinstance(value, PlainValue):
        number = value.number
        if number.is_decimal or number.wildcard_digits == 0:
            return ResolvedKey("optional", spec.bitwidth, number.value)
        if number.mask == 0:
            return ResolvedKey("optional", spec.bitwidth, 0, wildcard=True)
    raise ValueError("expected a plain number, or only '*' digits for a wildcard")


_KIND_RESOLVERS = {"exact": _exact, "valid": _exact, "lpm": _lpm, "ternary": _ternary,
                   "range": _range, "optional": _optional}


def _check_fits(spec: KeyInfo, key: ResolvedKey, source: c.KeyMatch) -> None:
    if spec.bitwidth <= 0:
        return
    limit = 1 << spec.bitwidth
    numbers = [key.value] + [n for n in (key.mask, key.high) if n is not None]
    if any(n >= limit for n in numbers):
        raise StfError(source.location, f"value '{source.text}' does not fit key '{spec.name}' "
                                        f"of {spec.bitwidth} bits")
    if key.prefix_len is not None and key.prefix_len > spec.bitwidth:
        raise StfError(source.location, f"prefix length {key.prefix_len} is longer than key "
                                        f"'{spec.name}' ({spec.bitwidth} bits)")
