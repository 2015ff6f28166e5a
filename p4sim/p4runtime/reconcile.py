"""RECONCILE_AND_COMMIT with a new program: carry the forwarding state across.

The state the controller wrote (action profile members and groups, table entries and
default actions, multicast groups, clone sessions, value sets, digest configs) is read
from the old pipeline as P4Runtime entities and written into the new one in dependency
order.  P4Info IDs are derived from names, so an entity whose table, action or
profile survived under the same name lands again; one that no longer fits the new
program is dropped and counted.  Counter, meter and register contents start afresh.
"""
from __future__ import annotations

import logging

from p4.v1 import p4runtime_pb2

from p4sim.p4runtime.dispatch import EntityHandlers

log = logging.getLogger(__name__)
Update = p4runtime_pb2.Update


def _read(handlers: EntityHandlers, **query) -> list[p4runtime_pb2.Entity]:
    found: list[bytes] = []
    handlers.read(p4runtime_pb2.Entity(**query), found.append)
    return [p4runtime_pb2.Entity.FromString(data) for data in found]


def snapshot(handlers: EntityHandlers, index) -> list[p4runtime_pb2.Update]:
    """Updates that rebuild the controller-written state, in dependency order."""
    updates: list[p4runtime_pb2.Update] = []

    def add(kind: int, entities: list[p4runtime_pb2.Entity]) -> None:
        updates.extend(Update(type=kind, entity=e) for e in entities)

    add(Update.INSERT, _read(handlers, action_profile_member=p4runtime_pb2
                             .ActionProfileMember()))
    add(Update.INSERT, _read(handlers, action_profile_group=p4runtime_pb2
                             .ActionProfileGroup()))
    entries = _read(handlers, table_entry=p4runtime_pb2.TableEntry())
    add(Update.INSERT, [e for e in entries if not e.table_entry.is_const])
    for info in index.tables.values():
        if info.proto.const_default_action_id or info.proto.implementation_id:
            continue
        add(Update.MODIFY, _read(handlers, table_entry=p4runtime_pb2.TableEntry(
            table_id=info.id, is_default_action=True)))
    pre = p4runtime_pb2.PacketReplicationEngineEntry
    add(Update.INSERT, _read(handlers, packet_replication_engine_entry=pre(
        multicast_group_entry=p4runtime_pb2.MulticastGroupEntry())))
    add(Update.INSERT, _read(handlers, packet_replication_engine_entry=pre(
        clone_session_entry=p4runtime_pb2.CloneSessionEntry())))
    add(Update.MODIFY, _read(handlers, value_set_entry=p4runtime_pb2.ValueSetEntry()))
    add(Update.INSERT, _read(handlers, digest_entry=p4runtime_pb2.DigestEntry()))
    return updates


def replay(handlers: EntityHandlers, updates: list[p4runtime_pb2.Update]) -> int:
    """Apply a snapshot to a fresh pipeline; the number of entities that did not fit."""
    dropped = 0
    for update in updates:
        error = handlers.write(update)
        if error is not None:
            dropped += 1
            log.info("reconcile: dropped %s (%s)", update.entity.WhichOneof("entity"),
                     error)
    return dropped
