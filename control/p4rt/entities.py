"""Build P4Runtime entities by name from a P4Info, with values given as text or ints.

Match values use the shared codec's text forms ('10.0.0.0/8', '0x0a&&&0xff',
'4790..4799', '00:00:0a:00:01:01', '*'), so the controller never hand-encodes bytes.
"""
from __future__ import annotations

from typing import Any, Mapping, TypeAlias

from google.protobuf import json_format, text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime.codec import encode_field_match, encode_int, parse_match, parse_value

Value = int | str
INSERT = p4runtime_pb2.Update.INSERT
MODIFY = p4runtime_pb2.Update.MODIFY
DELETE = p4runtime_pb2.Update.DELETE


def load_p4info(path: str) -> p4info_pb2.P4Info:
    """Read a P4Info file in text (.txt/.txtpb), binary (.bin) or JSON (.json) form,
    the formats p4c's --p4runtime-files writes."""
    info = p4info_pb2.P4Info()
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".bin"):
        info.ParseFromString(data)
    elif path.endswith(".json"):
        json_format.Parse(data.decode(), info)
    else:
        text_format.Parse(data.decode(), info)
    return info


class P4Names:
    """Name -> P4Info object lookups, with errors that list what does exist."""

    def __init__(self, p4info: p4info_pb2.P4Info):
        self.p4info = p4info
        self._by_kind: dict[str, dict[str, object]] = {}
        for kind in ("tables", "actions", "action_profiles", "counters", "direct_counters",
                     "meters", "direct_meters", "registers", "value_sets", "digests",
                     "controller_packet_metadata"):
            objs: dict[str, object] = {}
            for obj in getattr(p4info, kind):
                objs[obj.preamble.name] = obj
                objs.setdefault(obj.preamble.alias, obj)
            self._by_kind[kind] = objs

    def get(self, kind: str, name: str) -> Any:
        """The P4Info object of a section ("tables", "actions", ...) by name or alias."""
        try:
            return self._by_kind[kind][name]
        except KeyError:
            known = ", ".join(sorted(n for n in self._by_kind[kind] if "." in n)) or "none"
            raise KeyError(f"no {kind[:-1].replace('_', ' ')} named {name!r} (known: {known})") from None

    def id(self, kind: str, name: str) -> int:
        return self.get(kind, name).preamble.id

    # ---------------------------------------------------------------- table entries
    def table_entry(self, table: str, match: Mapping[str, Value] | None = None,
                    action: str | None = None, params: Mapping[str, Value] | None = None,
                    priority: int = 0, member_id: int | None = None,
                    group_id: int | None = None) -> p4runtime_pb2.TableEntry:
        info = self.get("tables", table)
        entry = p4runtime_pb2.TableEntry(table_id=info.preamble.id, priority=priority)
        fields = {f.name: f for f in info.match_fields}
        for name, value in (match or {}).items():
            if name not in fields:
                raise KeyError(f"table {table!r} has no match field {name!r} "
                               f"(fields: {', '.join(fields)})")
            fm = _field_match(fields[name], value)
            if fm is not None:
                entry.match.append(fm)
        if action is not None:
            entry.action.action.CopyFrom(self.action(action, params))
        elif member_id is not None:
            entry.action.action_profile_member_id = member_id
        elif group_id is not None:
            entry.action.action_profile_group_id = group_id
        return entry

    def default_entry(self, table: str, action: str,
                      params: Mapping[str, Value] | None = None) -> p4runtime_pb2.TableEntry:
        entry = p4runtime_pb2.TableEntry(table_id=self.id("tables", table), is_default_action=True)
        entry.action.action.CopyFrom(self.action(action, params))
        return entry

    def action(self, action: str, params: Mapping[str, Value] | None = None) -> p4runtime_pb2.Action:
        info = self.get("actions", action)
        declared = {p.name: p for p in info.params}
        given = dict(params or {})
        missing = [n for n in declared if n not in given]
        extra = [n for n in given if n not in declared]
        if missing or extra:
            raise KeyError(f"action {action!r}: missing params {missing}, unknown params {extra}")
        msg = p4runtime_pb2.Action(action_id=info.preamble.id)
        for p in info.params:
            value = given[p.name]
            number = value if isinstance(value, int) else parse_value(value, p.bitwidth)
            msg.params.add(param_id=p.id, value=encode_int(number, p.bitwidth, f"{action}.{p.name}"))
        return msg

    # ---------------------------------------------------------------- action profiles
    def member(self, profile: str, member_id: int, action: str,
               params: Mapping[str, Value] | None = None) -> p4runtime_pb2.ActionProfileMember:
        return p4runtime_pb2.ActionProfileMember(
            action_profile_id=self.id("action_profiles", profile), member_id=member_id,
            action=self.action(action, params))

    def group(self, profile: str, group_id: int, weights: Mapping[int, int],
              max_size: int = 0) -> p4runtime_pb2.ActionProfileGroup:
        group = p4runtime_pb2.ActionProfileGroup(
            action_profile_id=self.id("action_profiles", profile), group_id=group_id,
            max_size=max_size)
        for member_id, weight in weights.items():
            group.members.add(member_id=member_id, weight=weight)
        return group

    # ---------------------------------------------------------------- other entities
    def counter(self, name: str, index: int | None = None) -> p4runtime_pb2.CounterEntry:
        entry = p4runtime_pb2.CounterEntry(counter_id=self.id("counters", name))
        if index is not None:
            entry.index.index = index
        return entry

    def register(self, name: str, index: int | None = None) -> p4runtime_pb2.RegisterEntry:
        entry = p4runtime_pb2.RegisterEntry(register_id=self.id("registers", name))
        if index is not None:
            entry.index.index = index
        return entry

    def meter_config(self, name: str, index: int, cir: int, cburst: int, pir: int,
                     pburst: int) -> p4runtime_pb2.MeterEntry:
        entry = p4runtime_pb2.MeterEntry(meter_id=self.id("meters", name))
        entry.index.index = index
        entry.config.cir, entry.config.cburst = cir, cburst
        entry.config.pir, entry.config.pburst = pir, pburst
        return entry

    def value_set(self, name: str, values: list[Value | Mapping[str, Value]]) -> p4runtime_pb2.ValueSetEntry:
        """Members given as a plain value (a value set of one field, which P4Info leaves
        unnamed) or as a mapping from field name to value."""
        info = self.get("value_sets", name)
        entry = p4runtime_pb2.ValueSetEntry(value_set_id=info.preamble.id)
        fields = list(info.match)
        for value in values:
            if not isinstance(value, Mapping):
                if len(fields) != 1:
                    raise KeyError(f"value set {name!r} has {len(fields)} fields: give a mapping")
                value = {fields[0].name: value}
            member = entry.members.add()
            for mf in fields:
                if mf.name not in value:
                    raise KeyError(f"value set {name!r}: a member lacks field {mf.name!r} "
                                   f"(fields: {', '.join(f.name for f in fields)})")
                fm = _field_match(mf, value[mf.name])
                if fm is not None:
                    member.match.append(fm)
        return entry


def _field_match(mf: p4info_pb2.MatchField, value: Value) -> p4runtime_pb2.FieldMatch | None:
    """One match field from its text form (an int is its decimal text); None for a
    don't-care match, which P4Runtime messages omit."""
    text = value if isinstance(value, str) else str(value)
    return encode_field_match(mf.id, parse_match(text, mf.match_type, mf.bitwidth), mf.bitwidth)


def clone_session(session_id: int, port: int, truncate: int = 0) -> p4runtime_pb2.CloneSessionEntry:
    entry = p4runtime_pb2.CloneSessionEntry(session_id=session_id, packet_length_bytes=truncate)
    entry.replicas.add(egress_port=port, instance=0)
    return entry


def multicast_group(group_id: int, replicas: list[tuple[int, int]]) -> p4runtime_pb2.MulticastGroupEntry:
    entry = p4runtime_pb2.MulticastGroupEntry(multicast_group_id=group_id)
    for port, rid in replicas:
        entry.replicas.add(egress_port=port, instance=rid)
    return entry


def update(kind: int, **entity) -> p4runtime_pb2.Update:
    """``update(INSERT, table_entry=...)``: one Update wrapping one entity."""
    return p4runtime_pb2.Update(type=kind, entity=p4runtime_pb2.Entity(**entity))


PreEntry: TypeAlias = p4runtime_pb2.CloneSessionEntry | p4runtime_pb2.MulticastGroupEntry


def pre_entry(entry: PreEntry) -> p4runtime_pb2.PacketReplicationEngineEntry:
    """A clone session or multicast group wrapped as the Entity field P4Runtime carries
    both in."""
    pre = p4runtime_pb2.PacketReplicationEngineEntry()
    if isinstance(entry, p4runtime_pb2.CloneSessionEntry):
        pre.clone_session_entry.CopyFrom(entry)
    else:
        pre.multicast_group_entry.CopyFrom(entry)
    return pre


def pre_update(kind: int, entry: PreEntry) -> p4runtime_pb2.Update:
    """An Update of a clone session or multicast group (PacketReplicationEngineEntry)."""
    return update(kind, packet_replication_engine_entry=pre_entry(entry))
