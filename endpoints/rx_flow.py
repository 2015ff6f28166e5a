"""One PDC as the receiver keeps it: the sender's address and PDC id, its reorder
buffer and delivered bytes, and what its next coalesced ACK_CC must say.

ACKs are coalesced: an arrival only notes what the next ACK reports; one goes out
after ``ack_every`` data packets, when the sender asks (ack-request flag: the last
packet of its burst), for a retransmission, a close or a credit grant, or when the
ACK timer runs out. Each carries the cumulative PSN, the SACK bitmap and any credit.
"""
from __future__ import annotations

import hashlib
import random
from typing import BinaryIO, Hashable

from .entropy import EntropyWalk
from .protocol import SACK_BITS, ReorderBuffer, index_of, psn_of
from .summary import TransferSummary, goodput
from wire_formats.uec_datagram import Flow

ACK_CAUSES = ("count", "sender", "reorder", "request", "close", "credit", "timer")
"""Why an ACK_CC went out: ``ack_every`` packets arrived; the sender asked (ack-request
flag, a retransmission); a duplicate or out-of-window packet (or a trimmed copy of one
held); a stalled sender's credit request; a CLOSE with data still missing; a credit
grant alone; the ACK timer alone."""
MAX_ACK_DELAY = 0.3
"""Longest an ACK waits for more packets, seconds: under the sender's minimum
retransmission timeout (``RttEstimator``'s 0.35 s), whose timer restarts on every
ACK of new data. Long enough that on a slow share of a link (down to 60 packets/s,
16 packets in 0.27 s) the count and the credit grants send the ACKs, not the timer:
on a link shaped in packets/s an ACK costs a data packet's slot, so a flow that is
ACKed every other packet loses a third of its link to its own reverse traffic."""
TIMER_SLACK = 1.25
"""The timer waits this many times the time ``ack_every`` packets take to arrive,
so arrivals that keep their pace reach the count first."""


class ReceiverFlow:
    """``key``: (sender IP, sender's PDC id), how packets are matched to the flow.
    ``evs``: the entropy walk its sprayed control packets take (the receiver's, shared
    by all its flows: they leave by the same uplinks); without one, its own from ``rng``."""

    def __init__(self, key: Hashable, flow: Flow, initial_psn: int, first_ev: int,
                 reorder_capacity: int, sink: BinaryIO | None, rng: random.Random,
                 evs: EntropyWalk | None = None) -> None:
        self.key = key
        self.flow = flow
        self.initial_psn = initial_psn
        self.buffer = ReorderBuffer(reorder_capacity)
        self.sink = sink
        self.closed = False
        self.delivered = 0
        self.first_arrival: float | None = None
        self.last_delivery: float | None = None
        self.counts = {"retransmissions": 0, "nacks": 0, "trimmed": 0, "ecn_marked": 0,
                       "packets": 0, "credits": 0, "credit_bytes": 0, "duplicates": 0,
                       "trimmed_duplicates": 0, "control_packets": 0,
                       "ack_requests": 0}
        # What the next ACK says.
        self.unacked = 0
        self.ack_due: float | None = None
        self.ack_now = False
        self.ack_cause: str | None = None     # why ack_now was set first
        self.acks_by_cause = dict.fromkeys(ACK_CAUSES, 0)
        self.ce_pending = False
        self.credit_pending = 0
        self.trigger: tuple[int, bool] | None = None    # (index, was a retransmission)
        self.retransmission_seen = False     # a retransmission arrived since the last ACK
        self._hash = hashlib.sha256()
        self._evs = evs if evs is not None else EntropyWalk(rng)
        self._first_ev = first_ev
        self._sprayed = False
        self._last_arrival: float | None = None
        self._gap: float | None = None     # smoothed time between data packets

    def index(self, psn: int) -> int:
        return index_of(self.initial_psn, psn)

    # -------------------------------------------------------------- arrivals
    def note_entropy(self, ev: int) -> None:
        self._sprayed = self._sprayed or ev != self._first_ev

    def control_entropy(self) -> int:
        """Entropy of a control packet: sprayed like the data when the data is (the
        walk's next value, ``entropy``), else the flow's own value."""
        return self._evs.next() if self._sprayed else self._first_ev

    def accept(self, index: int, payload: bytes, now: float) -> str:
        """Buffers a data packet and delivers what became contiguous; returns the
        reorder buffer's verdict ("new", "duplicate", "beyond")."""
        status = self.buffer.offer(index, payload)
        if status == "new":
            for ready in self.buffer.pop_in_order():
                self._hash.update(ready)
                if self.sink is not None:
                    self.sink.write(ready)
                self.delivered += len(ready)
                self.last_delivery = now
        elif status == "duplicate":
            self.counts["duplicates"] += 1
        return status

    def note_trigger(self, index: int, retransmission: bool, kept: bool) -> None:
        """A data packet arrived whole (``kept``: it was not too far ahead to
        buffer): the next ACK names it, and its retransmission flag is set if any
        retransmission arrived since the last ACK. Each retransmission is acked at
        once, so an ACK without the flag tells the sender that every packet it newly
        acknowledges arrived as its first copy (reordering, not loss)."""
        self.retransmission_seen = self.retransmission_seen or retransmission
        if kept:
            self.trigger = (index, retransmission)

    def want_ack(self, cause: str) -> None:
        """An ACK must go out at the next reply, for ``cause`` (one of ACK_CAUSES)."""
        self.ack_now = True
        if self.ack_cause is None:
            self.ack_cause = cause

    def schedule_ack(self, now: float, *, urgent: str | None, ack_every: int,
                     delay: float) -> None:
        """Notes one more packet to ACK. The timer waits ``delay``, or for a slow flow
        (a share of a congested link) as long as ``ack_every`` packets take to arrive,
        up to MAX_ACK_DELAY: so while packets keep coming the count sends the ACK, and
        the timer only answers a flow whose packets stopped. ``urgent``: the cause of
        an ACK wanted at once, if any."""
        if self._last_arrival is not None:
            gap = now - self._last_arrival
            self._gap = gap if self._gap is None else 0.875 * self._gap + 0.125 * gap
        self._last_arrival = now
        self.unacked += 1
        if urgent is not None:
            self.want_ack(urgent)
        elif self.unacked >= ack_every:
            self.want_ack("count")
        elif self.ack_due is None:
            spaced = (self._gap or 0.0) * ack_every * TIMER_SLACK
            self.ack_due = now + max(delay, min(spaced, MAX_ACK_DELAY))

    def ack_wanted(self, now: float) -> bool:
        return self.ack_now or self.credit_pending > 0 or \
            (self.ack_due is not None and now >= self.ack_due)

    # -------------------------------------------------------------- the ACK
    def ack_fields(self) -> dict[str, int]:
        """The ACK_CC fields for the flow's state. The last data packet (if it was
        kept) is named by the ACK PSN offset, and the SACK bitmap is placed to cover
        it: with a hole at the cumulative PSN, packets far beyond it are still
        reported one by one."""
        cumulative = self.buffer.next_expected
        ack_psn_offset = 0
        base = cumulative
        retrans = self.retransmission_seen
        if self.trigger is not None:
            trigger, _retransmission = self.trigger
            if trigger >= cumulative and self.buffer.has(trigger):
                ack_psn_offset = trigger - (cumulative - 1)
                base = max(cumulative, trigger - (SACK_BITS - 1))
        return {"cack_psn": psn_of(self.initial_psn, cumulative - 1),
                "ack_psn_offset": ack_psn_offset, "sack_bitmap": self.buffer.sack(base),
                "ooo_count": self.buffer.out_of_order, "retrans": int(retrans),
                "sack_psn_offset": base - (cumulative - 1), "ecn_marked": int(self.ce_pending)}

    def acked(self) -> None:
        """An ACK with the flow's state (and its pending credit) went out."""
        cause = self.ack_cause or ("credit" if self.credit_pending else "timer")
        self.acks_by_cause[cause] += 1
        self.ack_cause = None
        self.unacked = 0
        self.ack_due = None
        self.ack_now = False
        self.ce_pending = False
        self.trigger = None
        self.retransmission_seen = False
        if self.credit_pending:
            self.counts["credits"] += 1
            self.counts["credit_bytes"] += self.credit_pending
            self.credit_pending = 0
        self.counts["control_packets"] += 1

    # -------------------------------------------------------------- report
    def summary(self, now: float) -> TransferSummary:
        start = self.first_arrival if self.first_arrival is not None else now
        end = self.last_delivery if self.closed and self.last_delivery else now
        fct = max(end - start, 0.0)
        counts = self.counts
        src, pdcid = self.flow.dst, self.flow.peer_pdcid
        return TransferSummary(
            role="receiver", bytes=self.delivered, goodput_bps=goodput(self.delivered, fct),
            retransmissions=counts["retransmissions"], nacks=counts["nacks"], fct_s=fct,
            sha256=self._hash.hexdigest(), complete=self.closed, packets=counts["packets"],
            trimmed=counts["trimmed"], ecn_marked=counts["ecn_marked"],
            credits=counts["credits"], credit_bytes=counts["credit_bytes"],
            duplicates=counts["duplicates"], trimmed_duplicates=counts["trimmed_duplicates"],
            control_packets=counts["control_packets"], ack_requests=counts["ack_requests"],
            peer=src, pdcid=pdcid,
            acks_by_cause=dict(self.acks_by_cause))
