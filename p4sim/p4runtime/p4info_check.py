"""A P4Info must be consistent in itself before the server indexes it.

Every object the server later translates is checked here once, so that a bad P4Info
is refused with INVALID_ARGUMENT naming the object, instead of being accepted and
failing each Write that touches it (a KeyError surfacing as UNKNOWN).  The rules are
those of p4info.proto and the P4Runtime spec: IDs non-zero, unique and carrying their
kind's prefix; names unique per kind; widths and sizes positive; enums known; every
cross reference (action refs, implementation, direct resources, profile tables)
resolving to an object of the right kind that points back.
"""
from __future__ import annotations

from typing import Any, Iterable

from p4.config.v1 import p4info_pb2

from p4sim.p4runtime.errors import invalid
from p4sim.p4runtime.p4info_index import ID_PREFIX

MatchType = p4info_pb2.MatchField.MatchType
CounterUnit = p4info_pb2.CounterSpec.Unit
MeterUnit = p4info_pb2.MeterSpec.Unit
_MATCH_TYPES = {MatchType.EXACT, MatchType.LPM, MatchType.TERNARY, MatchType.RANGE,
                MatchType.OPTIONAL}
_COUNTER_UNITS = {CounterUnit.BYTES, CounterUnit.PACKETS, CounterUnit.BOTH}
_METER_UNITS = {MeterUnit.BYTES, MeterUnit.PACKETS}
_SCOPES = set(p4info_pb2.ActionRef.Scope.values())
_IDLE = set(p4info_pb2.Table.IdleTimeoutBehavior.values())
# P4Info kind (repeated field of P4Info) -> ID prefix kind.
_KINDS = {"tables": "table", "actions": "action", "action_profiles": "action_profile",
          "counters": "counter", "direct_counters": "direct_counter", "meters": "meter",
          "direct_meters": "direct_meter", "registers": "register", "digests": "digest",
          "value_sets": "value_set", "controller_packet_metadata": "controller_header"}


def _label(kind: str, obj: Any) -> str:
    name = obj.preamble.name or f"#{obj.preamble.id:#x}"
    return f"P4Info {kind.replace('_', ' ')} '{name}'"


def _check_preambles(p4info: p4info_pb2.P4Info) -> None:
    seen: dict[int, str] = {}
    for field, kind in _KINDS.items():
        names: set[str] = set()
        for obj in getattr(p4info, field):
            where = _label(kind, obj)
            oid, name = obj.preamble.id, obj.preamble.name
            if not name:
                raise invalid(f"{where}: the preamble has no name")
            if name in names:
                raise invalid(f"{where}: the name is used twice")
            names.add(name)
            if oid == 0:
                raise invalid(f"{where}: ID 0 is reserved (wildcard)")
            if oid >> 24 != ID_PREFIX[kind]:
                raise invalid(f"{where}: ID {oid:#010x} lacks the {kind.replace('_', ' ')} "
                              f"prefix {ID_PREFIX[kind]:#04x}")
            if oid in seen:
                raise invalid(f"{where}: ID {oid:#x} is also used by '{seen[oid]}'")
            seen[oid] = name


def _check_fields(where: str, what: str, fields: Iterable[Any], named: bool = True
                  ) -> None:
    """Match fields, params and metadata: unique non-zero IDs and names, width > 0
    (p4c names no value set field)."""
    ids: set[int] = set()
    names: set[str] = set()
    for f in fields:
        label = f"{where} {what} '{f.name or f.id}'"
        if f.id < 1:
            raise invalid(f"{label}: ID {f.id} (IDs start at 1)")
        if f.id in ids:
            raise invalid(f"{label}: ID {f.id} is used twice")
        if named and not f.name:
            raise invalid(f"{label}: no name")
        if f.name and f.name in names:
            raise invalid(f"{label}: the name is used twice")
        if f.bitwidth <= 0:
            raise invalid(f"{label}: bitwidth {f.bitwidth} (must be at least 1)")
        ids.add(f.id)
        names.add(f.name)


def _check_match_types(where: str, fields: Iterable[p4info_pb2.MatchField]) -> None:
    for f in fields:
        if f.WhichOneof("match") == "other_match_type":
            raise invalid(f"{where} match field '{f.name}': match kind "
                          f"'{f.other_match_type}' is not supported by this target")
        if f.match_type not in _MATCH_TYPES:
            raise invalid(f"{where} match field '{f.name}': match_type {f.match_type} is "
                          "not EXACT, LPM, TERNARY, RANGE or OPTIONAL")


def _check_tables(p4info: p4info_pb2.P4Info) -> None:
    actions = {a.preamble.id for a in p4info.actions}
    profiles = {p.preamble.id: p for p in p4info.action_profiles}
    direct = {c.preamble.id: c for c in p4info.direct_counters}
    direct.update({m.preamble.id: m for m in p4info.direct_meters})
    for t in p4info.tables:
        where = _label("table", t)
        _check_fields(where, "match field", t.match_fields)
        _check_match_types(where, t.match_fields)
        refs: set[int] = set()
        for ref in t.action_refs:
            if ref.id not in actions:
                raise invalid(f"{where}: action ref {ref.id:#x} is not a P4Info action")
            if ref.id in refs:
                raise invalid(f"{where}: action ref {ref.id:#x} is listed twice")
            if ref.scope not in _SCOPES:
                raise invalid(f"{where}: action ref {ref.id:#x} has scope {ref.scope}")
            refs.add(ref.id)
        if t.const_default_action_id and t.const_default_action_id not in refs:
            raise invalid(f"{where}: const default action {t.const_default_action_id:#x} "
                          "is not one of its actions")
        if t.size < 0:
            raise invalid(f"{where}: size {t.size} is negative")
        if t.idle_timeout_behavior not in _IDLE:
            raise invalid(f"{where}: idle_timeout_behavior {t.idle_timeout_behavior}")
        if t.implementation_id:
            profile = profiles.get(t.implementation_id)
            if profile is None:
                raise invalid(f"{where}: implementation_id {t.implementation_id:#x} is not "
                              "a P4Info action profile")
            if t.preamble.id not in profile.table_ids:
                raise invalid(f"{where}: its action profile "
                              f"'{profile.preamble.name}' does not list it")
        kinds: set[int] = set()
        for rid in t.direct_resource_ids:
            resource = direct.get(rid)
            if resource is None:
                raise invalid(f"{where}: direct resource {rid:#x} is not a P4Info direct "
                              "counter or meter")
            if resource.direct_table_id != t.preamble.id:
                raise invalid(f"{where}: direct resource '{resource.preamble.name}' "
                              "belongs to another table")
            if rid >> 24 in kinds:
                raise invalid(f"{where}: more than one direct resource of a kind")
            kinds.add(rid >> 24)


def _check_direct(p4info: p4info_pb2.P4Info) -> None:
    tables = {t.preamble.id: t for t in p4info.tables}
    for kind, items in (("direct_counter", p4info.direct_counters),
                        ("direct_meter", p4info.direct_meters)):
        for obj in items:
            where = _label(kind, obj)
            table = tables.get(obj.direct_table_id)
            if table is None:
                raise invalid(f"{where}: direct_table_id {obj.direct_table_id:#x} is not "
                              "a P4Info table")
            if obj.preamble.id not in table.direct_resource_ids:
                raise invalid(f"{where}: table '{table.preamble.name}' does not list it")


def _check_units(p4info: p4info_pb2.P4Info) -> None:
    for kind, items in (("counter", p4info.counters),
                        ("direct_counter", p4info.direct_counters)):
        for obj in items:
            if obj.spec.unit not in _COUNTER_UNITS:
                raise invalid(f"{_label(kind, obj)}: unit {obj.spec.unit} is not BYTES, "
                              "PACKETS or BOTH")
    for kind, items in (("meter", p4info.meters), ("direct_meter", p4info.direct_meters)):
        for obj in items:
            if obj.spec.unit not in _METER_UNITS:
                raise invalid(f"{_label(kind, obj)}: unit {obj.spec.unit} is not BYTES "
                              "or PACKETS")


def _check_sizes(p4info: p4info_pb2.P4Info) -> None:
    for kind, items in (("counter", p4info.counters), ("meter", p4info.meters),
                        ("register", p4info.registers),
                        ("action_profile", p4info.action_profiles)):
        for obj in items:
            if obj.size <= 0:
                raise invalid(f"{_label(kind, obj)}: size {obj.size} (must be at least 1)")
    for vs in p4info.value_sets:
        where = _label("value_set", vs)
        if vs.size < 0:
            raise invalid(f"{where}: size {vs.size} is negative")
        if not vs.match:
            raise invalid(f"{where}: no match fields")
        _check_fields(where, "match field", vs.match, named=False)
        _check_match_types(where, vs.match)
    for reg in p4info.registers:
        spec = reg.type_spec
        bits = spec.bitstring.WhichOneof("type_spec") if spec.HasField("bitstring") else None
        if bits not in ("bit", "int"):
            raise invalid(f"{_label('register', reg)}: only bit<W> and int<W> registers "
                          "are supported")
        width = getattr(spec.bitstring, str(bits)).bitwidth
        if width <= 0:
            raise invalid(f"{_label('register', reg)}: bitwidth {width} (must be at least 1)")


def _check_profiles(p4info: p4info_pb2.P4Info) -> None:
    tables = {t.preamble.id: t for t in p4info.tables}
    for profile in p4info.action_profiles:
        where = _label("action_profile", profile)
        if profile.max_group_size < 0:
            raise invalid(f"{where}: max_group_size {profile.max_group_size} is negative")
        if len(set(profile.table_ids)) != len(profile.table_ids):
            raise invalid(f"{where}: a table is listed twice")
        for tid in profile.table_ids:
            table = tables.get(tid)
            if table is None:
                raise invalid(f"{where}: table {tid:#x} is not a P4Info table")
            if table.implementation_id != profile.preamble.id:
                raise invalid(f"{where}: table '{table.preamble.name}' has another "
                              "implementation")


def check_p4info(p4info: p4info_pb2.P4Info) -> None:
    """INVALID_ARGUMENT naming the first inconsistent object of a P4Info."""
    _check_preambles(p4info)
    _check_tables(p4info)
    _check_direct(p4info)
    _check_units(p4info)
    _check_sizes(p4info)
    _check_profiles(p4info)
    for action in p4info.actions:
        _check_fields(_label("action", action), "param", action.params)
    for header in p4info.controller_packet_metadata:
        _check_fields(_label("controller_header", header), "metadata", header.metadata)
