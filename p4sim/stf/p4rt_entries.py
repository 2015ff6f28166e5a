"""STF's resolved table operations as P4Runtime messages, by P4Info ids.

Keys and action parameters are matched to the P4Info by position: p4c numbers match
fields and parameters in declaration order, the order the BMv2 JSON lists them in
(which is the order entries.py resolves them in).

Priorities: an STF priority grows with precedence (p4c's runner hands BMv2's CLI
``10000 - p``, where the smaller number wins), and so does a P4Runtime priority, so the
STF meaning is kept by sending ``p + 1`` (P4Runtime reserves 0 for "no priority";
adding one keeps the order of every pair of entries, STF priority 0 included).
"""
from __future__ import annotations

from typing import Any

from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from control.p4rt.entities import P4Names
from p4sim.p4runtime import codec
from p4sim.stf.entries import BMV2_PRIORITY_BASE, ResolvedAction, ResolvedEntry, ResolvedKey
from p4sim.stf.target import TargetCommandError

INT32_MAX = (1 << 31) - 1


def p4runtime_priority(bmv2_priority: int | None) -> int:
    """The P4Runtime priority of a resolved entry (0 for tables without priorities)."""
    if bmv2_priority is None:
        return 0
    priority = BMV2_PRIORITY_BASE - bmv2_priority + 1
    if not 1 <= priority <= INT32_MAX:
        raise TargetCommandError(f"STF priority {priority - 1} does not fit a P4Runtime priority "
                                 f"(0 .. {INT32_MAX - 1})")
    return priority


def lookup(names: P4Names, kind: str, name: str) -> Any:
    """The P4Info object called ``name``; TargetCommandError when the P4Info lacks it
    (a P4Info that does not describe the BMv2 JSON)."""
    try:
        return names.get(kind, name)
    except KeyError as exc:
        raise TargetCommandError(f"the P4Info does not describe the JSON: {exc.args[0]}") from None


def action_message(names: P4Names, action: ResolvedAction) -> p4runtime_pb2.Action:
    info = lookup(names, "actions", action.name)
    params = list(info.params)
    if len(params) != len(action.args):
        raise TargetCommandError(f"action {action.name} has {len(params)} parameter(s) in the "
                                 f"P4Info but {len(action.args)} in the BMv2 JSON")
    message = p4runtime_pb2.Action(action_id=info.preamble.id)
    for param, value in zip(params, action.args):
        message.params.add(param_id=param.id,
                           value=_encode(value, param.bitwidth, f"{action.name}.{param.name}"))
    return message


def match_fields(names: P4Names, entry: ResolvedEntry) -> tuple[int, list[p4runtime_pb2.FieldMatch]]:
    """The table id and the entry's FieldMatch list (don't-care fields omitted)."""
    info = lookup(names, "tables", entry.table)
    fields = list(info.match_fields)
    if len(fields) != len(entry.keys):
        raise TargetCommandError(f"table {entry.table} has {len(fields)} match field(s) in the "
                                 f"P4Info but {len(entry.keys)} in the BMv2 JSON")
    matches = []
    for field, key in zip(fields, entry.keys):
        try:
            encoded = codec.encode_field_match(field.id, _match(key, field), field.bitwidth)
        except codec.CodecError as exc:
            raise TargetCommandError(f"table {entry.table} field {field.name}: {exc}") from None
        if encoded is not None:
            matches.append(encoded)
    return info.preamble.id, matches


def table_entry(names: P4Names, entry: ResolvedEntry) -> p4runtime_pb2.TableEntry:
    """The TableEntry of an ``add`` on a direct table (its action inline)."""
    table_id, matches = match_fields(names, entry)
    message = p4runtime_pb2.TableEntry(table_id=table_id, priority=p4runtime_priority(entry.bmv2_priority))
    message.match.extend(matches)
    message.action.action.CopyFrom(action_message(names, entry.action))
    return message


def default_entry(names: P4Names, table: str, action: ResolvedAction) -> p4runtime_pb2.TableEntry:
    message = p4runtime_pb2.TableEntry(table_id=lookup(names, "tables", table).preamble.id,
                                       is_default_action=True)
    message.action.action.CopyFrom(action_message(names, action))
    return message


def _match(key: ResolvedKey, field: p4info_pb2.MatchField) -> codec.Match:
    """The codec's match value, with bits outside the mask cleared as P4Runtime requires
    (BMv2's CLI clears them too)."""
    width = field.bitwidth
    full = (1 << width) - 1
    kind = field.match_type
    if kind == p4info_pb2.MatchField.LPM:
        prefix = key.prefix_len or 0
        return codec.LpmMatch(key.value & (full ^ ((1 << (width - prefix)) - 1)), prefix)
    if kind == p4info_pb2.MatchField.TERNARY:
        mask = key.mask if key.mask is not None else full
        return codec.TernaryMatch(key.value & mask, mask)
    if kind == p4info_pb2.MatchField.RANGE:
        return codec.RangeMatch(key.value, key.high if key.high is not None else key.value)
    if kind == p4info_pb2.MatchField.OPTIONAL:
        return _optional(key, field)
    return codec.ExactMatch(key.value)


def _optional(key: ResolvedKey, field: p4info_pb2.MatchField) -> codec.OptionalMatch:
    """p4c writes an optional key as ternary in the BMv2 JSON, so the STF value may come
    resolved as ternary: mask 0 is the wildcard, a full mask one value, nothing between."""
    if key.match_kind != "ternary":
        return codec.OptionalMatch(None if key.wildcard else key.value)
    full = (1 << field.bitwidth) - 1
    if key.mask == 0:
        return codec.OptionalMatch(None)
    if key.mask == full:
        return codec.OptionalMatch(key.value)
    raise TargetCommandError(f"optional key {field.name}: mask {key.mask:#x} is neither 0 (any "
                             f"value) nor all {field.bitwidth} bits (one value)")


def _encode(value: int, bitwidth: int, what: str) -> bytes:
    try:
        return codec.encode_int(value, bitwidth, what)
    except codec.CodecError as exc:
        raise TargetCommandError(str(exc)) from None
