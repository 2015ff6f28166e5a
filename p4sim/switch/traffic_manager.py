"""Traffic manager: per egress port, per priority egress queues (BMv2 semantics).

`standard_metadata.priority` picks the queue; with N priority queues, priority N-1 is
served first and a priority >= N is refused (BMv2 drops such packets with an error).
Each (port, priority) queue has its own capacity and rate; a dequeue takes the head of
the highest-priority queue whose departure time has come.  Depths reported to the
pipeline (enq_qdepth, deq_qdepth) are the packet counts of the whole port.

Not thread-safe by itself: the switch's dataplane thread owns it and applies
configuration changes (depth, rate) that other threads request.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from p4sim.switch.queues import EgressQueue


class TrafficManagerError(ValueError):
    """A bad queue configuration request (unknown priority, negative depth...)."""


@dataclass
class _PortQueues:
    """The priority queues of one port, index = priority (highest index served first)."""

    queues: list[EgressQueue]
    size: int = 0


@dataclass
class QueueSettings:
    """Defaults for ports not configured individually, plus per-port overrides."""

    depth: int
    rate_pps: float | None
    port_depth: dict[tuple[int, int], int] = field(default_factory=dict)
    port_rate: dict[tuple[int, int], float | None] = field(default_factory=dict)


class TrafficManager:
    """Queues between ingress and egress, with tail-drop and rate-limited draining."""

    def __init__(self, priority_queues: int = 1, depth: int = 64,
                 rate_pps: float | None = None) -> None:
        if not 1 <= priority_queues <= 8:
            raise TrafficManagerError(
                f"priority queues must be 1..8 (standard_metadata.priority is 3 bits), "
                f"got {priority_queues}")
        _check_depth(depth)
        _check_rate(rate_pps)
        self.priority_queues = priority_queues
        self._settings = QueueSettings(depth, rate_pps)
        self._ports: dict[int, _PortQueues] = {}
        self._busy: dict[int, _PortQueues] = {}  # ports holding at least one packet
        self.total = 0

    # -- configuration -----------------------------------------------------------------
    def set_depth(self, depth: int, port: int | None = None,
                  priority: int | None = None) -> None:
        """Capacity in packets of one queue, all queues of a port, or every queue."""
        _check_depth(depth)
        for key in self._select(port, priority):
            self._settings.port_depth[key] = depth
        if port is None:
            self._settings.depth = depth
            self._settings.port_depth.clear()
        for queue in self._existing(port, priority):
            queue.capacity = depth

    def set_rate(self, pps: float | None, port: int | None = None,
                 priority: int | None = None) -> None:
        """Drain rate in packets per second (0/None = unlimited), scoped like set_depth."""
        _check_rate(pps)
        for key in self._select(port, priority):
            self._settings.port_rate[key] = pps
        if port is None:
            self._settings.rate_pps = pps
            self._settings.port_rate.clear()
        for queue in self._existing(port, priority):
            queue.set_rate(pps)

    def queue_config(self, port: int, priority: int = 0) -> tuple[int, float | None]:
        """(depth, rate) a queue has or would have."""
        self._check_priority(priority)
        key = (port, priority)
        return (self._settings.port_depth.get(key, self._settings.depth),
                self._settings.port_rate.get(key, self._settings.rate_pps))

    # -- dataplane -----------------------------------------------------------------------
    def enqueue(self, port: int, priority: int, item: Any, now_ns: int) -> bool:
        """Queue `item`; False on tail drop. The priority must be valid (see accepts)."""
        pq = self._ports.get(port)
        if pq is None:
            pq = self._create_port(port, now_ns)
        if not pq.queues[priority].push(item, now_ns):
            return False
        pq.size += 1
        self.total += 1
        if pq.size == 1:
            self._busy[port] = pq
        return True

    def accepts_priority(self, priority: int) -> bool:
        return 0 <= priority < self.priority_queues

    def port_depth(self, port: int) -> int:
        pq = self._ports.get(port)
        return pq.size if pq is not None else 0

    def pop_ready(self, now_ns: int) -> Iterator[tuple[int, int, Any, int]]:
        """Yield (port, priority, item, depth after pop) for every departure due by now.

        Within a port the highest priority with a due head goes first; each pop
        re-examines the port so a later high-priority arrival overtakes lower queues.
        """
        while self._busy:
            progressed = False
            for port, pq in list(self._busy.items()):
                popped = self._pop_port(pq, now_ns)
                if popped is None:
                    continue
                progressed = True
                priority, item = popped
                if pq.size == 0:
                    del self._busy[port]
                yield port, priority, item, pq.size
            if not progressed:
                return

    def next_departure_ns(self) -> int | None:
        """Earliest departure time among queued packets (None when empty)."""
        earliest = None
        for pq in self._busy.values():
            for queue in pq.queues:
                head = queue.head_departure_ns()
                if head is not None and (earliest is None or head < earliest):
                    earliest = head
        return earliest

    def clear(self) -> int:
        """Drop every queued packet (pipeline swap); return how many were dropped."""
        dropped = self.total
        for pq in self._ports.values():
            for queue in pq.queues:
                queue.items.clear()
            pq.size = 0
        self._busy.clear()
        self.total = 0
        return dropped

    # -- internals -----------------------------------------------------------------------
    def _pop_port(self, pq: _PortQueues, now_ns: int) -> tuple[int, Any] | None:
        for priority in range(len(pq.queues) - 1, -1, -1):
            queue = pq.queues[priority]
            if queue.items and queue.items[0][0] <= now_ns:
                pq.size -= 1
                self.total -= 1
                return priority, queue.pop()
        return None

    def _create_port(self, port: int, now_ns: int) -> _PortQueues:
        queues = []
        for priority in range(self.priority_queues):
            depth, rate = self.queue_config(port, priority)
            queues.append(EgressQueue(depth, rate, now_ns))
        pq = _PortQueues(queues)
        self._ports[port] = pq
        return pq

    def _select(self, port: int | None, priority: int | None) -> list[tuple[int, int]]:
        if priority is not None:
            self._check_priority(priority)
            if port is None:
                raise TrafficManagerError("a priority needs a port")
        if port is None:
            return []
        if port < 0:
            raise TrafficManagerError(f"port {port} is negative")
        priorities = range(self.priority_queues) if priority is None else [priority]
        return [(port, p) for p in priorities]

    def _existing(self, port: int | None, priority: int | None) -> Iterator[EgressQueue]:
        ports = self._ports.values() if port is None else (
            [self._ports[port]] if port in self._ports else [])
        for pq in ports:
            for index, queue in enumerate(pq.queues):
                if priority is None or index == priority:
                    yield queue

    def _check_priority(self, priority: int) -> None:
        if not 0 <= priority < self.priority_queues:
            raise TrafficManagerError(
                f"priority {priority} out of range: this switch has "
                f"{self.priority_queues} priority queue(s) per port")


def _check_depth(depth: int) -> None:
    if not isinstance(depth, int) or depth < 0:
        raise TrafficManagerError(f"queue depth must be a non-negative integer, got {depth!r}")


def _check_rate(pps: float | None) -> None:
    if pps is not None and (not isinstance(pps, (int, float)) or pps < 0):
        raise TrafficManagerError(f"queue rate must be >= 0 packets/s, got {pps!r}")
