"""What a switch should hold, as keyed entities, and the updates that get it there.

The controller never writes ad hoc: it computes the complete desired state of a switch
and diffs it against what it installed. The same diff installs a fresh switch (after a
restart, against an empty record), repairs groups after a link failure (MODIFY) and
removes what is no longer wanted (DELETE), in an order that respects references.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from p4.v1 import p4runtime_pb2

from control.p4rt.entities import DELETE, INSERT, MODIFY

# Install order: members before the groups that list them, groups before the table
# entries that point at them; deletion runs the stages backwards.
STAGE_BASE = 0      # members, clone sessions, value sets, defaults, meters
STAGE_GROUP = 1
STAGE_TABLE = 2
STAGE_ROUTE = 3

Key = tuple


@dataclass(frozen=True)
class Item:
    """One entity the switch should hold. ``modify_only`` entities (default actions,
    value sets, meter configs) always exist on the switch and are only ever MODIFYed."""

    key: Key
    stage: int
    entity: p4runtime_pb2.Entity
    modify_only: bool = False

    def same_as(self, other: "Item") -> bool:
        return (self.entity.SerializeToString(deterministic=True)
                == other.entity.SerializeToString(deterministic=True))


def entity_key(entity: p4runtime_pb2.Entity) -> Key:
    """The identity of an entity on the switch (what INSERT/MODIFY/DELETE address)."""
    kind = entity.WhichOneof("entity")
    if kind == "table_entry":
        e = entity.table_entry
        match = tuple(sorted(m.SerializeToString(deterministic=True) for m in e.match))
        return ("table", e.table_id, match, e.priority, e.is_default_action)
    if kind == "action_profile_member":
        e = entity.action_profile_member
        return ("member", e.action_profile_id, e.member_id)
    if kind == "action_profile_group":
        e = entity.action_profile_group
        return ("group", e.action_profile_id, e.group_id)
    if kind == "packet_replication_engine_entry":
        pre = entity.packet_replication_engine_entry
        if pre.HasField("clone_session_entry"):
            return ("clone", pre.clone_session_entry.session_id)
        return ("mcast", pre.multicast_group_entry.multicast_group_id)
    if kind == "value_set_entry":
        return ("value_set", entity.value_set_entry.value_set_id)
    if kind == "meter_entry":
        return ("meter", entity.meter_entry.meter_id, entity.meter_entry.index.index)
    raise ValueError(f"no key for entity kind {kind!r}")


def item(stage: int, modify_only: bool = False, **entity) -> Item:
    """``item(STAGE_TABLE, table_entry=...)``: wrap one entity with its key."""
    wrapped = p4runtime_pb2.Entity(**entity)
    return Item(entity_key(wrapped), stage, wrapped, modify_only)


def index_items(items: Iterable[Item]) -> dict[Key, Item]:
    """Items by key; a duplicate key is a bug in the caller and raises."""
    result: dict[Key, Item] = {}
    for it in items:
        if it.key in result:
            raise ValueError(f"two desired entities with the same key {it.key!r}")
        result[it.key] = it
    return result


def plan(installed: Mapping[Key, Item], desired: Mapping[Key, Item]) -> list[list[p4runtime_pb2.Update]]:
    """Write batches, in order, that turn ``installed`` into ``desired``."""
    batches: list[list[p4runtime_pb2.Update]] = []
    stages = sorted({it.stage for it in (*installed.values(), *desired.values())})
    # Inserts and modifies first, referenced before referencing (a group gets its new
    # members and loses its old ones before a member is deleted) ...
    for stage in stages:
        writes = []
        for key, it in desired.items():
            if it.stage != stage:
                continue
            old = installed.get(key)
            if old is None:
                writes.append(_update(MODIFY if it.modify_only else INSERT, it))
            elif not old.same_as(it):
                writes.append(_update(MODIFY, it))
        if writes:
            batches.append(writes)
    # ... then deletes, referencing before referenced.
    for stage in reversed(stages):
        deletes = [_update(DELETE, it) for key, it in installed.items()
                   if it.stage == stage and key not in desired and not it.modify_only]
        if deletes:
            batches.append(deletes)
    return batches


def _update(kind: int, it: Item) -> p4runtime_pb2.Update:
    return p4runtime_pb2.Update(type=kind, entity=it.entity)
