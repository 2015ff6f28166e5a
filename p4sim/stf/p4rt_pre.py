"""STF's multicast and mirroring commands on a P4Runtime switch.

simple_switch_CLI builds a group from "nodes" (one RID, some ports); P4Runtime has only
a group's list of (port, instance) replicas. MulticastNodes (the same bookkeeping the
in-process target uses, so node handles and errors are the same) keeps the nodes and
calls this engine with each group's new replica list, which it writes as a
MulticastGroupEntry (the node's RID becomes each replica's instance).

``mirroring_add_mc`` (a clone session replicating to a multicast group) has no P4Runtime
form: such a session is written with the group's current replicas, and rewritten when
the group changes.
"""
from __future__ import annotations

from p4.v1 import p4runtime_pb2

from control.p4rt.client import SwitchConnection
from control.p4rt.entities import INSERT, MODIFY, DELETE, clone_session, multicast_group, pre_update
from control.p4rt.errors import P4RuntimeError
from p4sim.switch.pre import PreError

Replicas = list[tuple[int, int]]  # (port, rid)


class P4RuntimeReplication:
    """The ``create_group`` / ``set_group_replicas`` / ``delete_group`` engine that
    MulticastNodes drives, plus clone sessions; failures are PreError."""

    def __init__(self, connection: SwitchConnection) -> None:
        self._connection = connection
        self._groups: dict[int, Replicas] = {}
        self._sessions: dict[int, int | None] = {}  # session -> the group it mirrors, if any

    def _write(self, kind: int, entry: p4runtime_pb2.CloneSessionEntry | p4runtime_pb2.MulticastGroupEntry,
               what: str) -> None:
        try:
            self._connection.write([pre_update(kind, entry)])
        except P4RuntimeError as exc:
            raise PreError(f"{what}: {exc}") from None

    def create_group(self, gid: int) -> None:
        self._write(INSERT, multicast_group(gid, []), f"creating multicast group {gid}")
        self._groups[gid] = []

    def set_group_replicas(self, gid: int, replicas: Replicas) -> None:
        entry = p4runtime_pb2.MulticastGroupEntry(multicast_group_id=gid)
        for port, rid in replicas:
            entry.replicas.add(egress_port=port, instance=rid)
        self._write(MODIFY, entry, f"setting the replicas of multicast group {gid}")
        self._groups[gid] = list(replicas)
        for session, group in self._sessions.items():
            if group == gid:
                self._write_session(session, list(replicas), MODIFY)

    def delete_group(self, gid: int) -> None:
        self._write(DELETE, multicast_group(gid, []), f"deleting multicast group {gid}")
        self._groups.pop(gid, None)

    def mirror(self, session: int, port: int | None, mcast_group: int | None) -> None:
        """mirroring_add SESSION PORT, or mirroring_add_mc SESSION GROUP."""
        kind = MODIFY if session in self._sessions else INSERT
        if port is not None:
            self._write(kind, clone_session(session, port), f"clone session {session}")
            self._sessions[session] = None
            return
        assert mcast_group is not None
        if mcast_group not in self._groups:
            raise PreError(f"clone session {session}: multicast group {mcast_group} was not "
                           "created with mc_mgrp_create (P4Runtime clone sessions list their "
                           "replicas, so the group must exist first)")
        self._write_session(session, self._groups[mcast_group], kind)
        self._sessions[session] = mcast_group

    def delete_session(self, session: int) -> None:
        """mirroring_delete SESSION."""
        if session not in self._sessions:
            raise PreError(f"clone session {session} does not exist")
        self._write(DELETE, p4runtime_pb2.CloneSessionEntry(session_id=session),
                    f"deleting clone session {session}")
        del self._sessions[session]

    def _write_session(self, session: int, replicas: Replicas, kind: int) -> None:
        entry = p4runtime_pb2.CloneSessionEntry(session_id=session)
        for port, rid in replicas:
            entry.replicas.add(egress_port=port, instance=rid)
        self._write(kind, entry, f"clone session {session}")
