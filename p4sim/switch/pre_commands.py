"""simple_switch_CLI's multicast commands on top of the PRE's (port, rid) groups.

BMv2's CLI builds groups out of "nodes" (one rid, a set of ports) associated with
groups: mc_mgrp_create GID, mc_node_create RID PORT... (prints a node handle),
mc_node_associate GID HANDLE, mc_node_dissociate GID HANDLE, mc_node_destroy HANDLE,
mc_mgrp_destroy GID.  This keeps the node table and rewrites the group's replica list
after every change.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from p4sim.switch.pre import PacketReplicationEngine, PreError


class McError(PreError):
    """A refused node/group operation, with simple_switch's McOperationErrorCode name
    (INVALID_L1_HANDLE, INVALID_MGID, ERROR) for the CLI's "Invalid PRE operation"."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class _Node:
    rid: int
    ports: tuple[int, ...]
    groups: set[int] = field(default_factory=set)


class MulticastNodes:
    """Node bookkeeping for one switch's PRE (the control channel owns one)."""

    def __init__(self, pre: PacketReplicationEngine) -> None:
        self._pre = pre
        self._nodes: dict[int, _Node] = {}
        self._members: dict[int, list[int]] = {}   # group -> node handles, in order
        self._next_handle = 0
        self._lock = threading.Lock()

    def create_group(self, gid: int) -> None:
        with self._lock:
            self._pre.create_group(gid)
            self._members[gid] = []

    def destroy_group(self, gid: int) -> None:
        with self._lock:
            self._pre.delete_group(gid)
            for handle in self._members.pop(gid, []):
                self._nodes[handle].groups.discard(gid)

    def create_node(self, rid: int, ports: list[int]) -> int:
        if not 0 <= rid <= 0xFFFF:
            raise McError("ERROR", f"rid {rid} out of range 0..65535")
        if any(port < 0 for port in ports):
            raise McError("ERROR", f"negative port in {ports}")
        with self._lock:
            handle = self._next_handle
            self._next_handle += 1
            self._nodes[handle] = _Node(rid, tuple(dict.fromkeys(ports)))
            return handle

    def update_node(self, handle: int, ports: list[int]) -> None:
        """mc_node_update: the node keeps its handle, rid and groups; every group it is
        in replicates to the new ports from now on."""
        if any(port < 0 for port in ports):
            raise McError("ERROR", f"negative port in {ports}")
        with self._lock:
            node = self._node(handle)
            before, node.ports = node.ports, tuple(dict.fromkeys(ports))
            published: list[int] = []
            try:
                for gid in sorted(node.groups):
                    self._publish(gid, self._members[gid])
                    published.append(gid)
            except PreError:
                node.ports = before  # a refused update changes nothing
                for gid in published:
                    self._publish(gid, self._members[gid])
                raise

    def destroy_node(self, handle: int) -> None:
        with self._lock:
            node = self._node(handle)
            if node.groups:
                raise McError("ERROR", f"node {handle} is still associated with "
                                       f"group(s) {sorted(node.groups)}")
            del self._nodes[handle]

    def associate(self, gid: int, handle: int) -> None:
        with self._lock:
            node = self._node(handle)
            members = self._group(gid)
            if handle in members:
                raise McError("ERROR", f"node {handle} is already in group {gid}")
            self._publish(gid, members + [handle])
            members.append(handle)
            node.groups.add(gid)

    def dissociate(self, gid: int, handle: int) -> None:
        with self._lock:
            node = self._node(handle)
            members = self._group(gid)
            if handle not in members:
                raise McError("ERROR", f"node {handle} is not in group {gid}")
            remaining = [h for h in members if h != handle]
            self._publish(gid, remaining)
            self._members[gid] = remaining
            node.groups.discard(gid)

    def _publish(self, gid: int, handles: list[int]) -> None:
        replicas = [(port, self._nodes[h].rid) for h in handles for port in self._nodes[h].ports]
        self._pre.set_group_replicas(gid, replicas)

    def _node(self, handle: int) -> _Node:
        if handle not in self._nodes:
            raise McError("INVALID_L1_HANDLE", f"no multicast node with handle {handle}")
        return self._nodes[handle]

    def _group(self, gid: int) -> list[int]:
        if gid not in self._members:
            raise McError("INVALID_MGID",
                          f"multicast group {gid} was not created with mc_mgrp_create")
        return self._members[gid]
