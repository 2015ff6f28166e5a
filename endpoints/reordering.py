"""How long a sprayed packet may trail packets sent after it before it counts as lost.

Spraying sends a flow's packets over paths of unequal delay, so being overtaken is
normal: a packet on the slow path is acked one path-delay difference after the
packets that overtook it. A packet is declared lost (RACK-style) only once an
acknowledged packet sent after it exists *and* it has been in flight longer than the
slowest recent round trip (the largest of the last RTT samples: the slow path's) with
a quarter of it to spare, and longer than the smoothed RTT plus its variation. The
allowance doubles every time a presumed loss turns out to have arrived after all.
"""
from __future__ import annotations

from collections import deque

from .protocol import RttEstimator

MAX_MULTIPLIER = 16
FLOOR_S = 0.001
"""Allowance for scheduling jitter of a user-space endpoint."""
RECENT_SAMPLES = 64


class ReorderAllowance:
    def __init__(self) -> None:
        self.multiplier = 1
        self.widened = 0
        self._recent: deque[float] = deque(maxlen=RECENT_SAMPLES)

    def on_sample(self, rtt: float) -> None:
        self._recent.append(rtt)

    def loss_age(self, rtt: RttEstimator) -> float:
        """Seconds in flight after which an overtaken packet is presumed lost."""
        if rtt.srtt is None:
            return rtt.rto
        spread = max(4 * rtt.rttvar, rtt.srtt / 4)
        slowest = max(self._recent, default=rtt.srtt)
        return max(rtt.srtt + self.multiplier * spread,
                   slowest * (1 + 0.25 * self.multiplier)) + FLOOR_S

    def on_late_arrival(self, count: int = 1) -> None:
        """``count`` packets presumed lost arrived: the paths reorder more than
        allowed."""
        for _ in range(count):
            self.multiplier = min(self.multiplier * 2, MAX_MULTIPLIER)
            self.widened += 1
