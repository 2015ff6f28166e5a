"""Lookups into a P4Info by ID and by name, built once per pipeline config.

Requests name every object by its P4Info ID; the switch names them by the fully
qualified names p4c also writes into the BMv2 JSON.  The index answers both questions
in O(1) and raises NOT_FOUND with the offending ID otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, NamedTuple

from p4.config.v1 import p4info_pb2

from p4sim.p4runtime.errors import invalid, not_found

# The most significant byte of every P4Info ID names the object kind.
ID_PREFIX = {
    "action": 0x01, "table": 0x02, "value_set": 0x03, "controller_header": 0x04,
    "action_profile": 0x11, "counter": 0x12, "direct_counter": 0x13, "meter": 0x14,
    "direct_meter": 0x15, "register": 0x16, "digest": 0x17,
}


class FieldSpec(NamedTuple):
    """A match field or action parameter as plain Python values: protobuf attribute
    access is slow in the pure-Python protobuf runtime and these are read per entry."""
    id: int
    name: str
    bitwidth: int
    match_type: int = 0


_PRIORITY_KINDS = {p4info_pb2.MatchField.TERNARY, p4info_pb2.MatchField.RANGE,
                   p4info_pb2.MatchField.OPTIONAL}


@dataclass
class TableInfo:
    """A P4Info table with its match fields and action IDs at hand."""
    proto: p4info_pb2.Table
    fields_by_id: dict[int, p4info_pb2.MatchField] = field(default_factory=dict)
    action_ids: set[int] = field(default_factory=set)
    direct_counter_id: int = 0
    direct_meter_id: int = 0

    def __post_init__(self) -> None:
        self.id = self.proto.preamble.id
        self.name = self.proto.preamble.name
        self.fields = [FieldSpec(f.id, f.name, f.bitwidth, f.match_type)
                       for f in self.proto.match_fields]
        # Tables with ternary, range or optional fields order entries by priority.
        self.needs_priority = any(f.match_type in _PRIORITY_KINDS for f in self.fields)
        self.scopes = {ref.id: ref.scope for ref in self.proto.action_refs}
        self.is_const = self.proto.is_const_table
        self.implementation_id = self.proto.implementation_id
        self.supports_timeout = (self.proto.idle_timeout_behavior
                                 == p4info_pb2.Table.NOTIFY_CONTROL)


@dataclass
class ActionInfo:
    proto: p4info_pb2.Action

    def __post_init__(self) -> None:
        self.id = self.proto.preamble.id
        self.name = self.proto.preamble.name
        self.params = [FieldSpec(p.id, p.name, p.bitwidth) for p in self.proto.params]
        self.params_by_id = {p.id: p for p in self.params}


class P4InfoIndex:
    """ID and name lookups for one P4Info."""

    def __init__(self, p4info: p4info_pb2.P4Info):
        self.p4info = p4info
        self.tables: dict[int, TableInfo] = {}
        self.actions: dict[int, ActionInfo] = {}
        for table in p4info.tables:
            info = TableInfo(table, {f.id: f for f in table.match_fields},
                             {ref.id for ref in table.action_refs})
            for rid in table.direct_resource_ids:
                if rid >> 24 == ID_PREFIX["direct_counter"]:
                    info.direct_counter_id = rid
                elif rid >> 24 == ID_PREFIX["direct_meter"]:
                    info.direct_meter_id = rid
            self.tables[table.preamble.id] = info
        for action in p4info.actions:
            self.actions[action.preamble.id] = ActionInfo(action)
        self.action_profiles = {a.preamble.id: a for a in p4info.action_profiles}
        self.counters = {c.preamble.id: c for c in p4info.counters}
        self.direct_counters = {c.preamble.id: c for c in p4info.direct_counters}
        self.meters = {m.preamble.id: m for m in p4info.meters}
        self.direct_meters = {m.preamble.id: m for m in p4info.direct_meters}
        self.registers = {r.preamble.id: r for r in p4info.registers}
        self.digests = {d.preamble.id: d for d in p4info.digests}
        self.value_sets = {v.preamble.id: v for v in p4info.value_sets}
        self.controller_headers = {
            c.preamble.name: c for c in p4info.controller_packet_metadata}
        self.action_ids_by_name = {a.name: a.id for a in self.actions.values()}
        self._check_unique_ids()

    def _check_unique_ids(self) -> None:
        seen: dict[int, str] = {}
        groups: list[Iterable[TableInfo | ActionInfo]] = [self.tables.values(),
                                                          self.actions.values()]
        for group in groups:
            for obj in group:
                if obj.id in seen:
                    raise invalid(f"P4Info ID {obj.id:#x} is used by both "
                                  f"'{seen[obj.id]}' and '{obj.name}'")
                seen[obj.id] = obj.name
        for mapping in (self.action_profiles, self.counters, self.direct_counters,
                        self.meters, self.direct_meters, self.registers, self.digests,
                        self.value_sets):
            for oid, obj in mapping.items():
                if oid in seen:
                    raise invalid(f"P4Info ID {oid:#x} is used by both "
                                  f"'{seen[oid]}' and '{obj.preamble.name}'")
                seen[oid] = obj.preamble.name

    def table(self, table_id: int) -> TableInfo:
        try:
            return self.tables[table_id]
        except KeyError:
            raise not_found(f"no table with ID {table_id:#x} in the P4Info") from None

    def action(self, action_id: int) -> ActionInfo:
        try:
            return self.actions[action_id]
        except KeyError:
            raise not_found(f"no action with ID {action_id:#x} in the P4Info") from None

    def lookup(self, kind: str, object_id: int) -> Any:
        """The P4Info message of a counter, meter, register, ... by ID (NOT_FOUND)."""
        mapping = getattr(self, kind)
        try:
            return mapping[object_id]
        except KeyError:
            readable = kind.rstrip("s").replace("_", " ")
            raise not_found(
                f"no {readable} with ID {object_id:#x} in the P4Info") from None
