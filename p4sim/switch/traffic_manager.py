"""Traffic manager: per egress port, per priority egress queues with a port shaper.

`standard_metadata.priority` picks the queue; with N priority queues, priority N-1 is
served first and a priority >= N is refused (BMv2 drops such packets with an error).
Each (port, priority) queue has its own capacity and may have its own rate (its
packets get departure times at enqueue, as in BMv2's rate-limited queues).  The rate
set for a port as a whole shapes the port: at most `pps` departures per second, each
slot given to the highest-priority queue whose head is due (strict priority).  With
one queue per port this is exactly BMv2's behaviour; with several, `set_queue_rate
PPS PORT` limits the port's total rather than each priority queue separately, so that
a higher priority really drains first under congestion.  Depths reported to the
pipeline (enq_qdepth, deq_qdepth) are packet counts of the whole port, as in BMv2.

Not thread-safe by itself: the switch serialises access with its configuration lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from p4sim.switch.queues import EgressQueue, rate_to_gap_ns


class TrafficManagerError(ValueError):
    """A bad queue configuration request (unknown priority, negative depth...)."""


@dataclass
class _PortQueues:
    """The priority queues of one port (index = priority) and the port's shaper."""

    queues: list[EgressQueue]
    gap_ns: int = 0
    next_slot_ns: int = -(1 << 62)
    size: int = 0
    paused: bool = False   # its link refuses frames (the socket's buffer is full)


@dataclass
class QueueSettings:
    """Defaults, per-port rates and per-queue overrides (queue = (port, priority))."""

    depth: int
    port_rate: float | None
    depth_of: dict[tuple[int, int], int] = field(default_factory=dict)
    rate_of_port: dict[int, float | None] = field(default_factory=dict)
    rate_of_queue: dict[tuple[int, int], float | None] = field(default_factory=dict)


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
        keys = self._select(port, priority)
        if port is None:
            self._settings.depth = depth
            self._settings.depth_of.clear()
        for key in keys:
            self._settings.depth_of[key] = depth
        for queue in self._existing(port, priority):
            queue.capacity = depth

    def set_rate(self, pps: float | None, port: int | None = None,
                 priority: int | None = None) -> None:
        """Drain rate in packets/s (0/None = unlimited) of every port, one port's
        shaper (clearing that port's per-queue rates), or one priority queue."""
        _check_rate(pps)
        settings = self._settings
        self._select(port, priority)
        if port is None:
            settings.port_rate = pps
            settings.rate_of_port.clear()
            settings.rate_of_queue.clear()
        elif priority is None:
            settings.rate_of_port[port] = pps
            for key in [k for k in settings.rate_of_queue if k[0] == port]:
                del settings.rate_of_queue[key]
        else:
            settings.rate_of_queue[(port, priority)] = pps
        ports = self._ports.items() if port is None else (
            [(port, self._ports[port])] if port in self._ports else [])
        for number, pq in ports:
            pq.gap_ns = rate_to_gap_ns(self._port_rate(number))
            for index, queue in enumerate(pq.queues):
                queue.set_rate(settings.rate_of_queue.get((number, index)))

    def queue_config(self, port: int, priority: int = 0) -> tuple[int, float | None]:
        """(depth, rate) of a queue: its own rate if it has one, else its port's."""
        self._check_priority(priority)
        key = (port, priority)
        settings = self._settings
        rate = settings.rate_of_queue.get(key, self._port_rate(port))
        return settings.depth_of.get(key, settings.depth), rate

    def _port_rate(self, port: int) -> float | None:
        return self._settings.rate_of_port.get(port, self._settings.port_rate)

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

    def depart_now(self, port: int, priority: int, now_ns: int) -> bool:
        """Whether a packet may skip the queue because it would leave at once.

        True when nothing waits on the port and neither the queue's rate nor the port
        shaper holds it back; the rate state then advances exactly as if the packet
        had been enqueued and dequeued now (the caller reports depths of 0).
        """
        pq = self._ports.get(port)
        if pq is None:
            pq = self._create_port(port, now_ns)
        if pq.size or pq.paused:
            return False
        queue = pq.queues[priority]
        if queue.capacity == 0:
            return False
        if queue.gap_ns:
            if queue.last_departure_ns + queue.gap_ns > now_ns:
                return False
        if pq.gap_ns:
            if pq.next_slot_ns > now_ns:
                return False
            pq.next_slot_ns = now_ns + pq.gap_ns
        queue.last_departure_ns = now_ns
        return True

    def pause(self, port: int) -> None:
        """Hold the port's packets (its link is full) until resume(): they wait, and
        tail-drop, in the queues, whose depths the pipeline then sees."""
        pq = self._ports.get(port)
        if pq is None:
            pq = self._create_port(port, 0)
        pq.paused = True

    def resume(self, port: int) -> None:
        pq = self._ports.get(port)
        if pq is not None:
            pq.paused = False

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
                if pq.paused:
                    continue
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
        """Earliest time a queued packet may leave (None when empty)."""
        earliest = None
        for pq in self._busy.values():
            if pq.paused:
                continue   # resume() comes with the socket's writability, not a time
            heads = [q.items[0][0] for q in pq.queues if q.items]
            when = max(min(heads), pq.next_slot_ns)
            if earliest is None or when < earliest:
                earliest = when
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
        if pq.next_slot_ns > now_ns:
            return None
        for priority in range(len(pq.queues) - 1, -1, -1):
            items = pq.queues[priority].items
            if items and items[0][0] <= now_ns:
                ready = items[0][0]
                if pq.gap_ns:
                    slot = ready if ready > pq.next_slot_ns else pq.next_slot_ns
                    pq.next_slot_ns = slot + pq.gap_ns
                pq.size -= 1
                self.total -= 1
                return priority, items.popleft()[1]
        return None

    def _create_port(self, port: int, now_ns: int) -> _PortQueues:
        queues = []
        for priority in range(self.priority_queues):
            depth = self._settings.depth_of.get((port, priority), self._settings.depth)
            rate = self._settings.rate_of_queue.get((port, priority))
            queues.append(EgressQueue(depth, rate, now_ns))
        pq = _PortQueues(queues, gap_ns=rate_to_gap_ns(self._port_rate(port)))
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
