"""A receiver's one credit budget, shared by every flow it serves (receiver-driven,
NDP/EQDS-style pull pacing).

No more than ``window`` bytes are granted and not yet seen arriving, summed over all
flows; each arrival (trimmed or not: either way the packet has left the network) frees
its bytes, and the freed credit goes round-robin to the flows that still want some. So
grants leave at the rate data arrives (the bottleneck's rate, whatever it is, with no
rate set by hand), and each of N busy senders gets about 1/N of it.

The window itself follows what arrives: a trimmed arrival halves it and a CE-marked
one cuts it by a fifth, at most once per window of arrivals (about one RTT), and a
window of clean arrivals adds one packet. So a queue that trims makes the receiver
pull less, instead of re-granting credit for every cut packet, which is what let a
window of PSNs cycle through trim, NACK and resend forever.

A token bucket at ``rate`` (a ceiling, e.g. the receiver's link) caps the grant rate.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

from .congestion import ECN_DECREASE, TRIM_DECREASE


@dataclass
class _FlowCredit:
    pending: int = 0        # bytes the sender last said it still has to send
    outstanding: int = 0    # bytes granted and not yet seen arriving

    @property
    def demand(self) -> int:
        return max(self.pending - self.outstanding, 0)


class CreditBudget:
    """``packet``: bytes of a full data packet (the unit of the window's steps and its
    floor of two packets); ``chunk``: largest single grant."""

    def __init__(self, *, rate: float, chunk: int, window: int, packet: int = 1200,
                 initial_window: int | None = None) -> None:
        if rate <= 0:
            raise ValueError(f"credit rate must be > 0 bytes/s, got {rate}")
        if chunk <= 0:
            raise ValueError(f"credit chunk must be > 0 bytes, got {chunk}")
        if window < chunk:
            raise ValueError(f"credit window ({window} B) must hold one chunk ({chunk} B)")
        if packet <= 0:
            raise ValueError(f"credit packet size must be > 0 bytes, got {packet}")
        self.rate = rate
        self.chunk = chunk
        self.packet = packet
        self.max_window = float(window)
        self.min_window = float(min(2 * packet, window))
        start = window if initial_window is None else initial_window
        self.window = min(max(float(start), self.min_window), self.max_window)
        self.granted = 0
        self.decreases = 0
        self._flows: dict[Hashable, _FlowCredit] = {}
        self._turn = 0
        self._since_decrease = 0
        self._decrease_guard = 0.0
        self._since_increase = 0
        self._burst = float(max(2 * chunk, packet))
        self._tokens = self._burst
        self._stamp: float | None = None

    # -------------------------------------------------------------- flows
    def add(self, key: Hashable) -> None:
        self._flows.setdefault(key, _FlowCredit())

    def remove(self, key: Hashable) -> None:
        """The flow ended: whatever it was granted and never used is free again."""
        self._flows.pop(key, None)

    def report_pending(self, key: Hashable, pending: int) -> None:
        """The sender's count (carried in its data packets) of bytes it still has to
        send; what it lacks is that minus the credit it holds or has in flight. A
        sender with nothing left to send holds no credit (it drops grants beyond its
        need): what we counted beyond its data in flight was never usable, so its
        outstanding restarts from zero (its last packets may arrive uncounted)."""
        if key in self._flows:
            flow = self._flows[key]
            flow.pending = max(pending, 0)
            if flow.pending == 0:
                flow.outstanding = 0

    def request(self, key: Hashable, need: int) -> None:
        """A sender is stalled without credit and lacks ``need`` bytes: credit was
        lost on the way, or it counts credit its sender could not use (stale demand).
        Either way this flow's count is no longer what it has in the network, so its
        outstanding restarts from zero (for at most its own share, more than the
        window may be in flight). Only its own: every other flow's sender that holds
        less than we count stalls too and says so, while a reset of every flow let
        each request put a whole extra window into the bottleneck's queue."""
        if key in self._flows:
            self._flows[key].outstanding = 0
            self._flows[key].pending = max(need, 0)

    def demand(self, key: Hashable) -> int:
        return self._flows[key].demand if key in self._flows else 0

    @property
    def outstanding(self) -> int:
        """Granted bytes, over all flows, not yet seen arriving."""
        return sum(flow.outstanding for flow in self._flows.values())

    # -------------------------------------------------------------- arrivals
    def on_arrival(self, key: Hashable, size: int, *, trimmed: bool = False,
                   ce: bool = False) -> None:
        """A data packet that spent ``size`` bytes of credit arrived."""
        flow = self._flows.get(key)
        if flow is not None:
            flow.outstanding = max(flow.outstanding - size, 0)
        self._since_decrease += size
        self._since_increase += size
        factor = TRIM_DECREASE if trimmed else ECN_DECREASE if ce else None
        if factor is not None:
            self._since_increase = 0
            # The data in flight when the window was cut still arrives marked: wait
            # for that much before cutting again.
            if self._since_decrease >= self._decrease_guard:
                self._decrease_guard = self.window
                self.window = max(self.window * factor, self.min_window)
                self._since_decrease = 0
                self.decreases += 1
        elif self._since_increase >= self.window:
            self.window = min(self.window + self.packet, self.max_window)
            self._since_increase = 0

    # -------------------------------------------------------------- grants
    def _unit(self) -> int:
        """Smallest grant worth a packet of its own: a quarter window (at least two
        data packets, at most a chunk), so a window is granted in about four steps and
        no ACK carries credit for less than two packets (unless that is all a flow
        still lacks). (Half-window grants halved the grant ACKs but doubled the bursts
        a sender sends at once, and on the four-leaf fabric trebled the trims.)"""
        return int(min(self.chunk, max(self.window / 4, 2 * self.packet)))

    def _refill(self, now: float) -> None:
        if self._stamp is not None:
            self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def _next_amount(self, flow: _FlowCredit) -> int:
        """What ``flow`` would be granted now (0: it must wait for more free window)."""
        free = int(self.window) - self.outstanding
        amount = min(self.chunk, flow.demand, free)
        return amount if amount > 0 and amount >= min(self._unit(), flow.demand) else 0

    def _candidates(self) -> list[tuple[Hashable, _FlowCredit]]:
        """Flows in round-robin order, starting with the one whose turn it is."""
        items = list(self._flows.items())
        if not items:
            return []
        turn = self._turn % len(items)
        return items[turn:] + items[:turn]

    def take_grants(self, now: float) -> list[tuple[Hashable, int]]:
        """The grants due now, as (flow, bytes); the caller sends each."""
        self._refill(now)
        grants: list[tuple[Hashable, int]] = []
        progress = True
        while progress:
            progress = False
            for position, (key, flow) in enumerate(self._candidates()):
                amount = self._next_amount(flow)
                if amount == 0:
                    continue
                if self._tokens < amount:
                    return grants
                self._tokens -= amount
                flow.outstanding += amount
                self.granted += amount
                grants.append((key, amount))
                self._turn += position + 1
                progress = True
                break
        return grants

    def next_due(self, now: float) -> float | None:
        """When the token bucket allows the next grant (None: only an arrival or new
        demand can make one due)."""
        amounts = [a for a in (self._next_amount(f) for f in self._flows.values()) if a]
        if not amounts:
            return None
        self._refill(now)
        return now + max(min(amounts) - self._tokens, 0.0) / self.rate
