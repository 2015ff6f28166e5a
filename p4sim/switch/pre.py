"""Packet replication engine: multicast groups and clone (mirror) sessions.

The control plane (P4Runtime thread, STF runner) writes here while the dataplane thread
reads on every multicast or clone.  Writers build new immutable snapshots under a lock
and publish them with one attribute assignment, so the per-packet read path takes no lock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping


class PreError(Exception):
    """An invalid replication-engine request (unknown group, bad replica...)."""


@dataclass(frozen=True)
class CloneSession:
    """Where a clone goes: a port, a multicast group or both (BMv2 allows both).

    `truncate` is the maximum length in bytes of the cloned packet (0 = whole packet),
    as P4Runtime's `CloneSessionEntry.packet_length_bytes`.
    """

    port: int | None = None
    mcast_grp: int | None = None
    truncate: int = 0
    cos: int = 0

    def __post_init__(self) -> None:
        if self.port is None and self.mcast_grp is None:
            raise PreError("clone session needs a port or a multicast group")
        if self.port is not None and self.port < 0:
            raise PreError(f"clone session port {self.port} is negative")
        if self.mcast_grp is not None and self.mcast_grp <= 0:
            raise PreError(f"clone session multicast group {self.mcast_grp} must be > 0")
        if self.truncate < 0:
            raise PreError(f"clone session truncate length {self.truncate} is negative")


Replica = tuple[int, int]  # (egress port, egress_rid)


class PacketReplicationEngine:
    """Multicast groups of (port, rid) replicas and clone sessions, as BMv2's PRE."""

    MAX_GROUP_ID = 0xFFFF

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: Mapping[int, tuple[Replica, ...]] = MappingProxyType({})
        self._sessions: Mapping[int, CloneSession] = MappingProxyType({})

    # -- multicast groups ------------------------------------------------------------
    def create_group(self, gid: int) -> None:
        """Create an empty group; creating an existing group is an error."""
        self._check_gid(gid)
        with self._lock:
            if gid in self._groups:
                raise PreError(f"multicast group {gid} already exists")
            self._publish_groups({**self._groups, gid: ()})

    def delete_group(self, gid: int) -> None:
        with self._lock:
            if gid not in self._groups:
                raise PreError(f"multicast group {gid} does not exist")
            groups = dict(self._groups)
            del groups[gid]
            self._publish_groups(groups)

    def set_group_replicas(self, gid: int, replicas: Iterable[Replica]) -> None:
        """Replace the replicas of an existing group; duplicates are refused."""
        checked = tuple((int(port), int(rid)) for port, rid in replicas)
        for port, rid in checked:
            if port < 0 or rid < 0 or rid > 0xFFFF:
                raise PreError(f"bad replica (port {port}, rid {rid}) for group {gid}")
        if len(set(checked)) != len(checked):
            raise PreError(f"duplicate replica in multicast group {gid}: {list(checked)}")
        with self._lock:
            if gid not in self._groups:
                raise PreError(f"multicast group {gid} does not exist")
            self._publish_groups({**self._groups, gid: checked})

    def groups(self) -> dict[int, list[Replica]]:
        return {gid: list(reps) for gid, reps in self._groups.items()}

    def replicas(self, gid: int) -> tuple[Replica, ...]:
        """Replicas of a group; an unknown group replicates to nothing (as BMv2)."""
        return self._groups.get(gid, ())

    # -- clone sessions --------------------------------------------------------------
    def set_clone_session(self, sid: int, session: CloneSession) -> None:
        """Create or replace a clone session."""
        if not isinstance(session, CloneSession):
            raise PreError(f"clone session {sid}: expected CloneSession, got {session!r}")
        if sid < 0:
            raise PreError(f"clone session id {sid} is negative")
        with self._lock:
            self._sessions = MappingProxyType({**self._sessions, sid: session})

    def delete_clone_session(self, sid: int) -> None:
        with self._lock:
            if sid not in self._sessions:
                raise PreError(f"clone session {sid} does not exist")
            sessions = dict(self._sessions)
            del sessions[sid]
            self._sessions = MappingProxyType(sessions)

    def clone_sessions(self) -> dict[int, CloneSession]:
        return dict(self._sessions)

    def clone_session(self, sid: int) -> CloneSession | None:
        return self._sessions.get(sid)

    def reset(self) -> None:
        """Forget every group and session (a new pipeline config)."""
        with self._lock:
            self._publish_groups({})
            self._sessions = MappingProxyType({})

    # -- helpers ---------------------------------------------------------------------
    def _check_gid(self, gid: int) -> None:
        if not 0 < gid <= self.MAX_GROUP_ID:
            raise PreError(f"multicast group id {gid} out of range 1..{self.MAX_GROUP_ID}")

    def _publish_groups(self, groups: dict[int, tuple[Replica, ...]]) -> None:
        self._groups = MappingProxyType(groups)
