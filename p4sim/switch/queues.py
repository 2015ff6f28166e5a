"""One egress queue: a FIFO with a capacity in packets and a drain rate in packets/s.

As in BMv2's rate-limited queueing logic, every packet gets its departure time when it
is enqueued: the later of "now" and the previous departure plus 1/rate.  A rate of 0
(or None) means no limit.  Times are integer nanoseconds of a monotonic clock.
"""

from __future__ import annotations

from collections import deque
from typing import Any

NS_PER_S = 1_000_000_000


def rate_to_gap_ns(pps: float | None) -> int:
    """Nanoseconds between two departures at `pps` packets per second (0 = no limit)."""
    if pps is None or pps <= 0:
        return 0
    return max(1, int(NS_PER_S / pps))


class EgressQueue:
    """FIFO of (departure_ns, item); refuses packets beyond its capacity (tail drop)."""

    __slots__ = ("capacity", "rate_pps", "gap_ns", "last_departure_ns", "items")

    def __init__(self, capacity: int, rate_pps: float | None, now_ns: int) -> None:
        self.capacity = capacity
        self.rate_pps = rate_pps
        self.gap_ns = rate_to_gap_ns(rate_pps)
        # An idle queue sends its first packet at once.
        self.last_departure_ns = now_ns - self.gap_ns
        self.items: deque[tuple[int, Any]] = deque()

    def set_rate(self, pps: float | None) -> None:
        self.rate_pps = pps
        self.gap_ns = rate_to_gap_ns(pps)

    def push(self, item: Any, now_ns: int) -> bool:
        """Append `item`; False when the queue is full (the caller counts the drop)."""
        if len(self.items) >= self.capacity:
            return False
        departure = self.last_departure_ns + self.gap_ns
        if departure < now_ns:
            departure = now_ns
        self.last_departure_ns = departure
        self.items.append((departure, item))
        return True

    def pop(self) -> Any:
        return self.items.popleft()[1]

    def __len__(self) -> int:
        return len(self.items)
