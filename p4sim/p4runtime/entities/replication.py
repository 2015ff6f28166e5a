"""PacketReplicationEngineEntry: multicast groups and clone sessions.

A clone session with one replica of instance 0 maps onto a port; any other session
gets a multicast group of its own, taken from the top of the 16-bit group space
(so a client that later inserts that very group ID gets ALREADY_EXISTS).
"""
from __future__ import annotations

from typing import Iterator

from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import codec
from p4sim.p4runtime.errors import Code, P4RuntimeError, invalid, not_found
from p4sim.p4runtime.pipeline_state import PipelineState
from p4sim.switch.pre import CloneSession, PacketReplicationEngine, PreError

Update = p4runtime_pb2.Update


def _replica_list(replicas) -> list[tuple[int, int]]:
    result = []
    for replica in replicas:
        if replica.WhichOneof("port_kind") == "port":
            try:
                port = codec.decode_int(replica.port, 32, "replica port")
            except codec.CodecError as exc:
                raise P4RuntimeError(Code.OUT_OF_RANGE, str(exc)) from None
        else:
            port = replica.egress_port
        if replica.instance > 0xFFFF:
            raise invalid(f"replica instance {replica.instance} is above 65535")
        result.append((port, replica.instance))
    if len(set(result)) != len(result):
        raise invalid(f"duplicate (port, instance) replica in {result}")
    return result


class Replication:
    def __init__(self, state: PipelineState, pre: PacketReplicationEngine):
        self.state = state
        self.pre = pre

    def write(self, kind: int, msg: p4runtime_pb2.PacketReplicationEngineEntry) -> None:
        which = msg.WhichOneof("type")
        try:
            if which == "multicast_group_entry":
                self._write_group(kind, msg.multicast_group_entry)
            elif which == "clone_session_entry":
                self._write_session(kind, msg.clone_session_entry)
            else:
                raise invalid("empty PacketReplicationEngineEntry")
        except PreError as exc:
            raise invalid(str(exc)) from None

    # -- multicast groups --------------------------------------------------------------
    def _user_groups(self) -> dict[int, list[tuple[int, int]]]:
        hidden = set(self.state.clone_groups.values())
        return {g: r for g, r in self.pre.groups().items() if g not in hidden}

    def _write_group(self, kind: int, entry: p4runtime_pb2.MulticastGroupEntry) -> None:
        gid = entry.multicast_group_id
        if gid == 0:
            raise invalid("multicast group ID 0 is reserved")
        if gid > PacketReplicationEngine.MAX_GROUP_ID:
            raise P4RuntimeError(Code.OUT_OF_RANGE, f"multicast group ID {gid} is above "
                                 f"{PacketReplicationEngine.MAX_GROUP_ID}")
        exists = gid in self.pre.groups()
        if kind == Update.INSERT:
            if exists:
                raise P4RuntimeError(Code.ALREADY_EXISTS,
                                     f"multicast group {gid} already exists")
            replicas = _replica_list(entry.replicas)
            self.pre.create_group(gid)
            self.pre.set_group_replicas(gid, replicas)
            self.state.mcast_entries[gid] = entry
            return
        if not exists or gid in self.state.clone_groups.values():
            raise not_found(f"multicast group {gid} does not exist")
        if kind == Update.MODIFY:
            self.pre.set_group_replicas(gid, _replica_list(entry.replicas))
            self.state.mcast_entries[gid] = entry
        elif kind == Update.DELETE:
            self.pre.delete_group(gid)
            self.state.mcast_entries.pop(gid, None)
        else:
            raise invalid(f"unknown update type {kind}")

    # -- clone sessions ----------------------------------------------------------------
    def _free_group_id(self) -> int:
        used = set(self.pre.groups())
        for gid in range(PacketReplicationEngine.MAX_GROUP_ID, 0, -1):
            if gid not in used:
                return gid
        raise P4RuntimeError(Code.RESOURCE_EXHAUSTED, "no multicast group ID left for a "
                                                      "clone session")

    def _release_group(self, sid: int) -> None:
        gid = self.state.clone_groups.pop(sid, None)
        if gid is not None:
            self.pre.delete_group(gid)

    def _write_session(self, kind: int, entry: p4runtime_pb2.CloneSessionEntry) -> None:
        sid = entry.session_id
        if sid == 0:
            raise invalid("clone session ID 0 is reserved")
        exists = sid in self.pre.clone_sessions()
        if kind == Update.INSERT and exists:
            raise P4RuntimeError(Code.ALREADY_EXISTS, f"clone session {sid} already exists")
        if kind in (Update.MODIFY, Update.DELETE) and not exists:
            raise not_found(f"clone session {sid} does not exist")
        if kind == Update.DELETE:
            self.pre.delete_clone_session(sid)
            self._release_group(sid)
            self.state.clone_entries.pop(sid, None)
            return
        if entry.packet_length_bytes < 0:
            raise invalid("packet_length_bytes is negative")
        replicas = _replica_list(entry.replicas)
        common = dict(truncate=entry.packet_length_bytes, cos=entry.class_of_service)
        if len(replicas) == 1 and replicas[0][1] == 0:
            session = CloneSession(port=replicas[0][0], **common)
            self.pre.set_clone_session(sid, session)
            self._release_group(sid)
        else:
            gid = self.state.clone_groups.get(sid)
            if gid is None:
                gid = self._free_group_id()
                self.pre.create_group(gid)
                self.state.clone_groups[sid] = gid
            self.pre.set_group_replicas(gid, replicas)
            self.pre.set_clone_session(sid, CloneSession(mcast_grp=gid, **common))
        self.state.clone_entries[sid] = entry

    # -- reads -------------------------------------------------------------------------
    def read(self, query: p4runtime_pb2.PacketReplicationEngineEntry
             ) -> Iterator[p4runtime_pb2.PacketReplicationEngineEntry]:
        which = query.WhichOneof("type")
        if which == "multicast_group_entry":
            wanted = query.multicast_group_entry.multicast_group_id
            groups = self._user_groups()
            if wanted and wanted not in groups:
                raise not_found(f"multicast group {wanted} does not exist")
            for gid in sorted(groups):
                if wanted and gid != wanted:
                    continue
                out = p4runtime_pb2.MulticastGroupEntry(multicast_group_id=gid)
                written = self.state.mcast_entries.get(gid)
                if written is not None:
                    out.metadata = written.metadata
                for port, rid in groups[gid]:
                    out.replicas.add(egress_port=port, instance=rid)
                yield p4runtime_pb2.PacketReplicationEngineEntry(multicast_group_entry=out)
        elif which == "clone_session_entry":
            wanted = query.clone_session_entry.session_id
            sessions = self.pre.clone_sessions()
            if wanted and wanted not in sessions:
                raise not_found(f"clone session {wanted} does not exist")
            for sid in sorted(sessions):
                if wanted and sid != wanted:
                    continue
                yield p4runtime_pb2.PacketReplicationEngineEntry(
                    clone_session_entry=self._session_msg(sid, sessions[sid]))
        else:
            raise invalid("a PacketReplicationEngineEntry read must name multicast "
                          "groups or clone sessions")

    def _session_msg(self, sid: int, session: CloneSession
                     ) -> p4runtime_pb2.CloneSessionEntry:
        out = p4runtime_pb2.CloneSessionEntry(
            session_id=sid, class_of_service=session.cos,
            packet_length_bytes=session.truncate)
        if session.port is not None:
            out.replicas.add(egress_port=session.port, instance=0)
        if session.mcast_grp is not None:
            for port, rid in self.pre.groups().get(session.mcast_grp, []):
                out.replicas.add(egress_port=port, instance=rid)
        return out
