"""How long a sprayed packet may trail packets sent after it before it counts as lost.

Spraying sends a flow's packets over paths of unequal delay, so being overtaken is
normal: a packet on the slow path is acked one path-delay difference after the
packets that overtook it. ``loss_age`` is how long an overtaken packet may be in
flight: the slowest recent round trip (the largest of the last RTT samples: the slow
path's) with a quarter of it to spare, and no less than the smoothed RTT plus its
variation. ``window`` is the same allowance in send time, what the sender judges by
(``SendWindow.detect_overtaken``): a packet is lost once one sent that much later was
acknowledged, i.e. the allowance minus the fastest recent round trip (the path that
overtakes). The allowance doubles every time a presumed loss turns out to have
arrived after all, and that packet's own flight time (``SendWindow.late_samples``)
joins the samples: the slow path's round trip, which no packet presumed lost would
otherwise give.
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
        self.measured = False
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

    def window(self, rtt: RttEstimator) -> float:
        """Seconds of send time by which a newer acknowledged packet must have been
        sent after an unacknowledged one for that one to count as lost. Until
        reordering was measured (``on_reordered``: an overtaken packet arrived, its
        round trip among the samples) or RECENT_SAMPLES round trips were, it is the
        retransmission timeout: a flow's first samples are its fast path's (the slow
        path's packets are the ones still out), and judged by them every packet on
        the slow path was declared lost at once (9-91 spurious losses at the start
        of a flow)."""
        if rtt.srtt is None or not (self.measured or len(self._recent) >= RECENT_SAMPLES):
            return rtt.rto
        fastest = min(self._recent, default=rtt.srtt)
        return max(self.loss_age(rtt) - fastest, FLOOR_S)

    def on_reordered(self) -> None:
        """A packet overtaken by a later one was acknowledged (its round trip is
        among the samples): the allowance can judge from now on."""
        self.measured = True

    def on_late_arrival(self, count: int = 1) -> None:
        """``count`` packets presumed lost arrived: the paths reorder more than
        allowed."""
        self.measured = True
        for _ in range(count):
            self.multiplier = min(self.multiplier * 2, MAX_MULTIPLIER)
            self.widened += 1
