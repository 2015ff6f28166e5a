"""Reliability logic of the endpoints (PSNs, SACK, reorder buffer, send window, RTT),
free of sockets and clocks so it can be tested on its own. The receiver's shared credit
is in ``credit_budget``, the sender's rate in ``congestion`` and ``reordering``.

Everything here counts packets by *index* (0 = the flow's first packet); the wire
carries PSN = initial PSN + index modulo 2**32 (``psn_of`` / ``index_of``).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterable

PSN_MODULO = 1 << 32
SACK_BITS = 64


def psn_of(initial_psn: int, index: int) -> int:
    return (initial_psn + index) % PSN_MODULO


def index_of(initial_psn: int, psn: int) -> int:
    """Signed distance from the initial PSN (negative: before the flow began)."""
    delta = (psn - initial_psn) % PSN_MODULO
    return delta - PSN_MODULO if delta >= PSN_MODULO // 2 else delta


# ---------------------------------------------------------------- SACK bitmap
def sack_bitmap(next_expected: int, received: Iterable[int]) -> int:
    """The 64-bit SACK bitmap: bit i (least significant first) set when index
    ``next_expected + i`` has arrived. Indexes outside the 64 are left out."""
    bitmap = 0
    for index in received:
        offset = index - next_expected
        if 0 <= offset < SACK_BITS:
            bitmap |= 1 << offset
    return bitmap


def sacked_indexes(next_expected: int, bitmap: int) -> list[int]:
    """The indexes a SACK bitmap acknowledges (inverse of ``sack_bitmap``)."""
    return [next_expected + i for i in range(SACK_BITS) if bitmap >> i & 1]


# ---------------------------------------------------------------- receiver side
class ReorderBuffer:
    """Holds packets that arrived ahead of a gap and releases payloads to the
    application strictly in index order."""

    def __init__(self, capacity: int = 4096) -> None:
        if capacity < 1:
            raise ValueError(f"reorder buffer capacity must be >= 1, got {capacity}")
        self.capacity = capacity
        self.next_expected = 0
        self._pending: dict[int, bytes] = {}

    def offer(self, index: int, payload: bytes) -> str:
        """Accepts one packet; returns "new", "duplicate" or "beyond" (too far ahead
        to buffer: the sender will retransmit it)."""
        if index < self.next_expected or index in self._pending:
            return "duplicate"
        if index >= self.next_expected + self.capacity:
            return "beyond"
        self._pending[index] = payload
        return "new"

    def has(self, index: int) -> bool:
        return index < self.next_expected or index in self._pending

    def pop_in_order(self) -> list[bytes]:
        """Payloads that are now contiguous from the last delivered one."""
        ready: list[bytes] = []
        while self.next_expected in self._pending:
            ready.append(self._pending.pop(self.next_expected))
            self.next_expected += 1
        return ready

    @property
    def out_of_order(self) -> int:
        """Packets held behind a gap."""
        return len(self._pending)

    def sack(self, base: int | None = None) -> int:
        """SACK bitmap of the held packets from ``base`` (default: the gap) on."""
        return sack_bitmap(self.next_expected if base is None else base, self._pending)


# ---------------------------------------------------------------- sender side
class CreditBalance:
    """The sender's credit: what it may still send, in payload bytes."""

    def __init__(self, initial: int) -> None:
        if initial < 0:
            raise ValueError(f"initial credit must be >= 0 bytes, got {initial}")
        self.available = initial
        self.received = 0

    def grant(self, amount: int, limit: int) -> None:
        """Adds a grant; the balance never exceeds ``limit`` (the bytes still to send):
        grants beyond the sender's need are worthless and must not pile up."""
        self.received += amount
        self.available = min(self.available + amount, max(limit, 0))

    def try_consume(self, amount: int) -> bool:
        if amount > self.available:
            return False
        self.available -= amount
        return True


@dataclass(frozen=True)
class Transmission:
    """What to send next: a packet index, and whether it was sent before."""

    index: int
    retransmit: bool


class SendWindow:
    """Which packets are acknowledged, in flight (with their send time) or waiting to
    be (re)sent. New packets leave no more than ``max_window`` past the oldest
    unacknowledged one (the receiver's reorder capacity).

    A packet trimmed again and again is held back a little longer each time
    (``on_nack``'s hold-off), so a congested path is not fed the same PSNs in a loop.
    ``late_arrivals`` counts packets presumed lost that turned out to have arrived
    (reordering mistaken for loss): the sender widens its reordering allowance.

    The retransmission timer runs from the newest of: the oldest packet's send time,
    the last ACK that acknowledged new data, the last timeout (RFC 6298 5.3 and 5.6).
    A deep queue delays every packet by more than any RTO learnt while it filled, but
    ACKs that keep acknowledging data say the path delivers: only a path that went
    silent for an RTO is a timeout. A packet resent on a guess (timeout or RACK) that
    is then acknowledged says nothing of when its copy left, so its ACK does not move
    the RACK reference (``latest_delivered_sent``): else its first copy's ACK would
    make every packet sent before the resend look overtaken, and lost.

    A packet presumed lost keeps its first send time, and when its first copy is seen
    to have arrived after all (``late_arrivals``) that copy's flight time is kept in
    ``late_samples``: the slow path's round trip, which the reordering allowance must
    learn. Without it the presumption fed itself: every packet on the slow path was
    declared lost before its ACK came, so it gave no RTT sample, the allowance stayed
    at the fast path's RTT and the next slow packets were declared lost too (issue
    12: 64-91 spurious losses in a flow's first 40 ms on two paths 5 ms apart).
    Whose copy an ACK acknowledges is told by its retransmission flag (the receiver
    sets it when any retransmission arrived since its previous ACK, and acknowledges
    each at once) or by its coming back sooner than any round trip after the resend."""

    MAX_HOLDOFF_RTTS = 16

    def __init__(self, packets: int, max_window: int = 4096) -> None:
        if packets < 0 or max_window < 1:
            raise ValueError(f"bad window: packets={packets}, max_window={max_window}")
        self.packets = packets
        self.max_window = max_window
        self.cumulative = 0        # every index below is acknowledged
        self.next_new = 0          # first index never sent
        self.in_flight: dict[int, tuple[float, bool]] = {}   # index -> (sent at, was retx)
        self.latest_delivered_sent = float("-inf")   # send time of the newest acked packet
        self.late_arrivals = 0
        self._acked: set[int] = set()
        self._resend: deque[int] = deque()
        self._not_before: dict[int, float] = {}      # queued index -> earliest resend
        self._trims: dict[int, int] = {}             # index -> times NACKed
        self._presumed_lost: set[int] = set()        # queued or resent on a guess
        self._guessed: set[int] = set()              # resent on a guess, not yet acked
        self._first_sent: dict[int, tuple[float, bool]] = {}   # presumed lost: as in_flight
        self._resent_at: dict[int, float] = {}       # presumed lost: when the resend left
        self._revocable: set[int] = set()            # presumed lost by RACK, not a timeout
        self.late_samples: list[float] = []          # flight times of late first copies
        self.overtaken_acked = 0                     # first copies acked after a later one
        self.min_rtt = float("inf")
        self.last_progress = float("-inf")           # last ACK of new data
        self._last_timeout = float("-inf")

    @property
    def done(self) -> bool:
        return self.cumulative >= self.packets

    def is_acked(self, index: int) -> bool:
        return index < self.cumulative or index in self._acked

    def peek(self, now: float = float("inf")) -> Transmission | None:
        """The next packet to send at ``now``: a due retransmission first, then new
        data."""
        while self._resend and self.is_acked(self._resend[0]):
            self._not_before.pop(self._resend.popleft(), None)
        for index in self._resend:
            if not self.is_acked(index) and self._not_before.get(index, 0.0) <= now:
                return Transmission(index, True)
        if self.next_new < self.packets and self.next_new < self.cumulative + self.max_window:
            return Transmission(self.next_new, False)
        return None

    def next_resend_due(self) -> float | None:
        """When the earliest held-back retransmission becomes due (None: none held)."""
        return min(self._not_before.values(), default=None)

    @property
    def pending_packets(self) -> int:
        """Packets still to be sent (queued retransmissions and new data): the
        sender's demand. Retransmissions acked meanwhile may still be counted."""
        return len(self._resend) + self.packets - self.next_new

    @property
    def in_flight_packets(self) -> int:
        return len(self.in_flight)

    @property
    def acked_packets(self) -> int:
        return self.cumulative + len(self._acked)

    def on_sent(self, sent: Transmission, now: float) -> None:
        if sent.retransmit:
            self._resend.remove(sent.index)
            self._not_before.pop(sent.index, None)
            if sent.index in self._first_sent:
                self._resent_at[sent.index] = now
                self._revocable.discard(sent.index)
        else:
            self.next_new = sent.index + 1
        self.in_flight[sent.index] = (now, sent.retransmit)

    def on_ack(self, cumulative: int, sacked: Iterable[int], now: float,
               original: int | None = None, retransmission_seen: bool = True
               ) -> list[float]:
        """Applies a cumulative ack (every index below ``cumulative``) and SACKed
        indexes; returns RTT samples of newly acked packets sent once (Karn's rule).
        ``original``: an index the ack says arrived in its first transmission;
        ``retransmission_seen``: the ACK's retransmission flag (False: no resend
        arrived since the receiver's previous ACK, so every packet this one newly
        acknowledges arrived as its first copy)."""
        samples: list[float] = []
        newly = [i for i in range(self.cumulative, min(cumulative, self.packets))
                 if i not in self._acked]
        newly += [i for i in sacked if i < self.packets and not self.is_acked(i)
                  and i >= cumulative]
        if newly:
            self.last_progress = max(self.last_progress, now)
        reference = self.latest_delivered_sent      # before this ACK: what overtook
        for index in newly:
            self._acked.add(index)
            guessed = index in self._guessed
            self._guessed.discard(index)
            if index in self._presumed_lost:
                self._presumed_lost.discard(index)
                if self._first_copy_arrived(index, now, original, retransmission_seen):
                    self.late_arrivals += 1
                    first = self._first_sent.get(index)
                    if first is not None:
                        self.late_samples.append(now - first[0])
            self._first_sent.pop(index, None)
            self._resent_at.pop(index, None)
            self._revocable.discard(index)
            self._trims.pop(index, None)
            sent = self.in_flight.pop(index, None)
            if sent is None:
                continue
            if not guessed:
                self.latest_delivered_sent = max(self.latest_delivered_sent, sent[0])
            if not sent[1]:
                samples.append(now - sent[0])
                self.overtaken_acked += sent[0] < reference
        self.min_rtt = min([self.min_rtt, *samples])
        if cumulative > self.cumulative:
            self.cumulative = min(cumulative, self.packets)
        while self.cumulative in self._acked:
            self.cumulative += 1
        self._acked = {i for i in self._acked if i >= self.cumulative}
        return samples

    def _first_copy_arrived(self, index: int, now: float, original: int | None,
                            retransmission_seen: bool) -> bool:
        """Whether an ACK of presumed-lost ``index`` is for its first copy: the
        resend has not left, the ACK names it as an original, no retransmission
        reached the receiver since its last ACK, or the ACK came back sooner after
        the resend than the shortest round trip seen."""
        resent = self._resent_at.get(index)
        return resent is None or index == original or not retransmission_seen or \
            now - resent < self.min_rtt

    def take_late_samples(self) -> list[float]:
        """Flight times of first copies presumed lost that arrived (since the last
        call): round trips of the slowest paths."""
        samples, self.late_samples = self.late_samples, []
        return samples

    def revoke_losses(self, reorder_window: float) -> list[int]:
        """Takes back presumptions of loss (``detect_overtaken``'s) whose resend has
        not left yet and that the newest delivered packet no longer overtakes by
        ``reorder_window`` (the window has grown since): they are in flight again, as
        first sent."""
        cutoff = self.latest_delivered_sent - reorder_window
        revoked = [i for i in self._resend if i in self._revocable and
                   self._first_sent[i][0] > cutoff]
        for index in revoked:
            self._resend.remove(index)
            self._not_before.pop(index, None)
            self._presumed_lost.discard(index)
            self._guessed.discard(index)
            self._revocable.discard(index)
            self.in_flight[index] = self._first_sent.pop(index)
        return revoked

    def _presume_lost(self, index: int, now: float, revocable: bool) -> None:
        self._first_sent[index] = self.in_flight.pop(index)
        self._resent_at.pop(index, None)
        if revocable:
            self._revocable.add(index)
        self._presumed_lost.add(index)
        self._guessed.add(index)
        self._queue(index, now)

    def on_nack(self, index: int, now: float = 0.0, holdoff: float = 0.0) -> bool:
        """A trimmed packet: queue exactly that index again, due after ``holdoff``
        times 2**(n-1) - 1 for its n-th trim (at once the first time). False if it is
        already acked or queued (a duplicate NACK)."""
        if not 0 <= index < self.next_new or self.is_acked(index) or index in self._not_before:
            return False
        trims = self._trims.get(index, 0) + 1
        self._trims[index] = trims
        self._presumed_lost.discard(index)   # the NACK proves it was cut, not late
        self._first_sent.pop(index, None)
        self._resent_at.pop(index, None)
        self._revocable.discard(index)
        self.in_flight.pop(index, None)
        self._queue(index, now + holdoff * min(2 ** (trims - 1) - 1, self.MAX_HOLDOFF_RTTS))
        return True

    def detect_overtaken(self, now: float, reorder_window: float) -> list[int]:
        """Queues for retransmission the packets presumed lost, as RACK (RFC 8985)
        judges them when an ACK arrives: sent ``reorder_window`` seconds or more
        before the newest packet acknowledged (``latest_delivered_sent``). That is
        RACK's "in flight an RTT plus the window" with the RTT of that newest packet,
        which holds whatever delay every packet just met: a stall of the path, the
        receiver or the sender delays them all alike and overtakes none. Against the
        smoothed RTT instead (``detect_losses``) a 15-30 ms stall on a loaded machine
        made a whole window look lost at once (22 of 2,500 packets in one instant).
        Nothing is judged between ACKs: a path gone silent is the timer's."""
        cutoff = self.latest_delivered_sent - reorder_window
        lost = sorted(i for i, (sent, _r) in self.in_flight.items() if sent <= cutoff)
        for index in lost:
            self._presume_lost(index, now, revocable=True)
        return lost

    def detect_losses(self, now: float, age: float) -> list[int]:
        """Queues for retransmission the packets presumed lost by age: sent before a
        packet that has since been acknowledged, and in flight for ``age`` (an RTT
        plus a reordering allowance). The sender judges on the ACK clock
        (``detect_overtaken``); this wall-clock form suits callers without one."""
        lost = sorted(i for i, (sent, _r) in self.in_flight.items()
                      if sent < self.latest_delivered_sent and now - sent >= age)
        for index in lost:
            self._presume_lost(index, now, revocable=True)
        return lost

    def expire(self, now: float, rto: float) -> list[int]:
        """The retransmission timeout, a backstop for losses no later packet reveals
        (the tail of a transfer): once ``timer_start`` is ``rto`` old, queues the
        oldest packet in flight, only that one, and restarts the timer (the caller
        backs the timeout off)."""
        start = self.timer_start()
        if start is None or now - start < rto:
            return []
        oldest = min(self.in_flight.items(), key=lambda item: item[1][0])[0]
        self._presume_lost(oldest, now, revocable=False)
        self._last_timeout = now
        return [oldest]

    def timer_start(self) -> float | None:
        """When the retransmission timer last (re)started; None: nothing in flight."""
        oldest = self.oldest_send_time()
        if oldest is None:
            return None
        return max(oldest, self.last_progress, self._last_timeout)

    def oldest_send_time(self) -> float | None:
        return min((sent for sent, _r in self.in_flight.values()), default=None)

    def oldest_overtaken_send_time(self) -> float | None:
        """Send time of the oldest packet in flight that an acked one overtook."""
        return min((sent for sent, _r in self.in_flight.values()
                    if sent < self.latest_delivered_sent), default=None)

    def _queue(self, index: int, due: float) -> None:
        if index not in self._not_before:
            self._resend.append(index)
            self._not_before[index] = due


class RttEstimator:
    """RFC 6298 smoothed RTT and retransmission timeout, with exponential back-off.
    The minimum (0.35 s) stays above the receiver's longest ACK delay
    (``rx_flow.MAX_ACK_DELAY``); before any sample the RTO is RFC 6298's 1 s, not a
    guess shorter than the first coalesced ACK can take."""

    def __init__(self, initial_rto: float = 1.0, min_rto: float = 0.35,
                 max_rto: float = 2.0) -> None:
        self.min_rto = min_rto
        self.max_rto = max_rto
        self.srtt: float | None = None
        self.rttvar = 0.0
        self.max_sample = 0.0
        self._rto = initial_rto
        self._backoff = 1

    def sample(self, rtt: float) -> None:
        self.max_sample = max(self.max_sample, rtt)
        if self.srtt is None:
            self.srtt, self.rttvar = rtt, rtt / 2
        else:
            self.rttvar = 0.75 * self.rttvar + 0.25 * abs(self.srtt - rtt)
            self.srtt = 0.875 * self.srtt + 0.125 * rtt
        self._rto = self.srtt + 4 * self.rttvar
        self._backoff = 1

    def back_off(self) -> None:
        self._backoff = min(self._backoff * 2, 64)

    @property
    def rto(self) -> float:
        return min(max(self._rto * self._backoff, self.min_rto), self.max_rto)
