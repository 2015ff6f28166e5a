"""Comparison 2: a semantic diff of two P4Infos (p4c's and p4sim's).

Objects are matched by name, not by position, and references between objects (action
refs, implementation and direct-resource ids) by the name they point to, so one wrong id
is reported once, on the object that carries it. Each difference names the object, the
field path and both values: ``table I.t: action_refs[1].annotations: p4c [...] vs p4sim []``.
An empty message that only one side writes (``type_info {}``) is a note, not a difference.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable

# top-level repeated fields whose elements carry a preamble, and how the report calls them
ENTITY_KINDS = MappingProxyType({
    "tables": "table", "actions": "action", "action_profiles": "action_profile",
    "counters": "counter", "direct_counters": "direct_counter", "meters": "meter",
    "direct_meters": "direct_meter", "controller_packet_metadata": "controller_packet_metadata",
    "value_sets": "value_set", "registers": "register", "digests": "digest",
})
# fields holding the id of another object: compared by the name the id resolves to
ID_REFERENCES = frozenset({"implementation_id", "const_default_action_id", "direct_table_id",
                           "table_ids", "direct_resource_ids", "action_id"})


class P4InfoParseError(Exception):
    """A P4Info text file protobuf cannot parse (the message says where)."""


def parse_p4info(text: str, where: str) -> Any:
    """``p4.config.v1.P4Info`` from its text format."""
    from google.protobuf import text_format
    from p4.config.v1 import p4info_pb2
    try:
        return text_format.Parse(text, p4info_pb2.P4Info())
    except text_format.ParseError as exc:
        raise P4InfoParseError(f"{where}: not a P4Info text file: {exc}") from None


@dataclass
class _Diff:
    p4c_names: dict[int, str]
    p4sim_names: dict[int, str]
    details: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def differ(self, where: str, p4c: Any, p4sim: Any) -> None:
        self.details.append(f"{where}: p4c {p4c} vs p4sim {p4sim}")


def diff_p4info(p4c: Any, p4sim: Any) -> tuple[list[str], list[str]]:
    """(differences, notes) between p4c's P4Info and p4sim's, both ``P4Info`` messages."""
    diff = _Diff(_names(p4c), _names(p4sim))
    for message_field in p4c.DESCRIPTOR.fields:
        name = message_field.name
        if name in ENTITY_KINDS:
            _diff_entities(diff, ENTITY_KINDS[name], getattr(p4c, name), getattr(p4sim, name))
        elif name == "externs":
            _diff_externs(diff, p4c.externs, p4sim.externs)
        else:
            _diff_field(diff, name, message_field, p4c, p4sim)
    return diff.details, diff.notes


def _names(p4info: Any) -> dict[int, str]:
    names = {}
    for list_name, kind in ENTITY_KINDS.items():
        for entity in getattr(p4info, list_name):
            names[entity.preamble.id] = f"{kind} {entity.preamble.name}"
    for extern in p4info.externs:
        for instance in extern.instances:
            names[instance.preamble.id] = f"{extern.extern_type_name} {instance.preamble.name}"
    return names


def _diff_entities(diff: _Diff, kind: str, p4c: Any, p4sim: Any) -> None:
    ours = {e.preamble.name: e for e in p4sim}
    theirs = {e.preamble.name: e for e in p4c}
    for name, entity in theirs.items():
        if name not in ours:
            diff.details.append(f"{kind} {name}: in p4c (id {entity.preamble.id}), missing in p4sim")
        else:
            _diff_message(diff, f"{kind} {name}: ", entity, ours[name])
    for name, entity in ours.items():
        if name not in theirs:
            diff.details.append(f"{kind} {name}: in p4sim (id {entity.preamble.id}), not in p4c")
    common, mine = [n for n in theirs if n in ours], [n for n in ours if n in theirs]
    if common != mine:
        first = next(i for i, (x, y) in enumerate(zip(common, mine)) if x != y)
        diff.notes.append(f"{kind}s listed in another order (from [{first}]: p4c {common[first]}, "
                          f"p4sim {mine[first]})")


def _diff_externs(diff: _Diff, p4c: Any, p4sim: Any) -> None:
    ours = {e.extern_type_name: e for e in p4sim}
    for extern in p4c:
        if extern.extern_type_name not in ours:
            diff.details.append(f"extern type {extern.extern_type_name}: in p4c, missing in p4sim")
            continue
        mine = ours.pop(extern.extern_type_name)
        if extern.extern_type_id != mine.extern_type_id:
            diff.differ(f"extern type {extern.extern_type_name}: extern_type_id",
                        extern.extern_type_id, mine.extern_type_id)
        _diff_entities(diff, extern.extern_type_name, extern.instances, mine.instances)
    for name in ours:
        diff.details.append(f"extern type {name}: in p4sim, not in p4c")


def _diff_message(diff: _Diff, where: str, p4c: Any, p4sim: Any, skip: tuple[str, ...] = ()) -> None:
    for message_field in p4c.DESCRIPTOR.fields:
        if message_field.name not in skip:
            _diff_field(diff, where + message_field.name, message_field, p4c, p4sim)


def _diff_field(diff: _Diff, where: str, message_field: Any, p4c: Any, p4sim: Any) -> None:
    name = message_field.name
    a, b = getattr(p4c, name), getattr(p4sim, name)
    repeated = message_field.label == message_field.LABEL_REPEATED
    is_message = message_field.type == message_field.TYPE_MESSAGE
    if name in ID_REFERENCES:
        _diff_references(diff, where, list(a) if repeated else a, list(b) if repeated else b)
    elif repeated and is_message and message_field.message_type.GetOptions().map_entry:
        _diff_map(diff, where, message_field.message_type.fields_by_name["value"], a, b)
    elif repeated and is_message:
        _diff_repeated(diff, where, name, a, b)
    elif repeated:
        if list(a) != list(b):
            diff.differ(where, _show(message_field, list(a)), _show(message_field, list(b)))
    elif is_message:
        has_a, has_b = p4c.HasField(name), p4sim.HasField(name)
        if not has_a and not has_b:
            return
        before = len(diff.details)
        _diff_message(diff, where + ".", a, b)
        if len(diff.details) == before and has_a != has_b:
            diff.notes.append(f"{where}: p4c {'writes' if has_a else 'omits'} it, p4sim "
                              f"{'writes' if has_b else 'omits'} it (the same contents)")
    elif a != b:
        diff.differ(where, _show(message_field, a), _show(message_field, b))


def _diff_references(diff: _Diff, where: str, a: Any, b: Any) -> None:
    def named(ids: Any, names: dict[int, str]) -> Any:
        if isinstance(ids, list):
            return [names.get(i, str(i)) for i in ids]
        return names.get(ids, str(ids)) if ids else "none"
    if named(a, diff.p4c_names) != named(b, diff.p4sim_names):
        diff.differ(where, json.dumps(named(a, diff.p4c_names)), json.dumps(named(b, diff.p4sim_names)))


def _element_key(name: str, diff_side: dict[int, str]) -> Callable[[Any], Any]:
    if name == "action_refs":
        return lambda ref: diff_side.get(ref.id, f"id {ref.id}")
    return lambda element: element.id if "id" in element.DESCRIPTOR.fields_by_name else None


def _diff_repeated(diff: _Diff, where: str, name: str, a: Any, b: Any) -> None:
    key_a, key_b = _element_key(name, diff.p4c_names), _element_key(name, diff.p4sim_names)
    if len(a) and key_a(a[0]) is None:  # no identity: compare by position
        for index in range(max(len(a), len(b))):
            label = f"{where}[{index}]"
            if index >= len(a) or index >= len(b):
                diff.differ(label, "absent" if index >= len(a) else "present",
                            "absent" if index >= len(b) else "present")
            else:
                _diff_message(diff, label + ".", a[index], b[index])
        return
    ours = {key_b(e): (i, e) for i, e in enumerate(b)}
    theirs = {key_a(e): (i, e) for i, e in enumerate(a)}
    for key, (index, element) in theirs.items():
        label = f"{where}[{index}]"
        if key not in ours:
            diff.details.append(f"{label}: p4c has {_describe(key, element)}, p4sim does not")
            continue
        other_index, other = ours[key]
        # an action ref's id is the action's: a wrong one is reported on the action
        _diff_message(diff, label + ".", element, other, ("id",) if name == "action_refs" else ())
        if other_index != index:
            diff.notes.append(f"{label}: {_describe(key, element)} is at [{other_index}] in p4sim")
    for key, (index, element) in ours.items():
        if key not in theirs:
            diff.details.append(f"{where}[{index}]: p4sim has {_describe(key, element)}, p4c does not")


def _describe(key: Any, element: Any) -> str:
    element_name = getattr(element, "name", "")
    return f"id {key} ({element_name})" if element_name else str(key)


def _diff_map(diff: _Diff, where: str, value_field: Any, a: Any, b: Any) -> None:
    for key in sorted(set(a) | set(b)):
        label = f'{where}["{key}"]'
        if key not in b:
            diff.details.append(f"{label}: in p4c, missing in p4sim")
        elif key not in a:
            diff.details.append(f"{label}: in p4sim, not in p4c")
        elif value_field.type == value_field.TYPE_MESSAGE:
            _diff_message(diff, label + ".", a[key], b[key])
        elif a[key] != b[key]:
            diff.differ(label, _show(value_field, a[key]), _show(value_field, b[key]))


def _show(message_field: Any, value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(message_field, v) for v in value) + "]"
    if message_field.type == message_field.TYPE_ENUM:
        named = message_field.enum_type.values_by_number.get(value)
        return named.name if named else str(value)
    if isinstance(value, bytes):
        return "0x" + value.hex()
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)
