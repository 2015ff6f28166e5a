"""UEC-style sender: a RUD request stream with PSNs, an entropy value per packet
(spray) or per flow (pin), selective retransmission on NACK, loss detection that
tolerates spraying's reordering (``reordering``), a retransmission timeout for the
rest, and two brakes: receiver-driven credit (beyond a small initial window it sends
only what the receiver granted, in ACK_CCs or CREDIT packets) and its own congestion
window (``congestion``), paced over the RTT: without credit it is cut on trims and ECN
echoes; with credit the receiver, which sees the trims and the marks, cuts what it
grants, and a trim still cuts the window once per RTT (slow start then takes it back),
so a sender whose packets are being trimmed slows down instead of resending at the
pace the trimmed headers and NACKs come back. A NACKed packet waits for credit like
any other (pull-paced), and one trimmed again waits longer each time.

Run inside a host namespace (root):
``python -m endpoints.sender --src IP --dst IP --bytes N [--ev-mode spray|pin]
[--credit on|off] [--wait-for-go] [--summary JSON]``. Exits 0 once every byte is
acknowledged.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import select
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Protocol, TextIO

from wire_formats.layers import (CTL_CLOSE_CMD, CTL_CREDIT_REQUEST, PDS_ACK, PDS_ACK_CC, PDS_NACK,
                            UDP_PORT_UEC)

from .congestion import ECN_DECREASE, TRIM_DECREASE, CongestionWindow
from .entropy import EV_LOW, EntropyWalk
from .protocol import CreditBalance, RttEstimator, SendWindow, Transmission, index_of, psn_of
from .rawsock import RawUdpSocket
from .reordering import ReorderAllowance
from .summary import TransferSummary, goodput
from wire_formats.uec_datagram import Flow, Received, UecWire, is_credit

EV_MODES = ("spray", "pin")
CREDIT_MODES = ("on", "off")
FIRST_RTT_GUESS = 0.005
"""Seconds between window cuts before any RTT sample (the first NACKs of an incast
come before any ACK)."""


@dataclass(frozen=True)
class SenderConfig:
    """``mss``: payload bytes per packet (1200 leaves room for a full INT stack within
    a 1500-byte MTU); ``initial_window``: packets sent before any credit arrives;
    ``credit``: "off" ignores credit (only the congestion window brakes);
    ``pause_at``: new data from this byte offset on waits until the sender's gate
    opens (retransmissions do not), so a test can act at a known point of a transfer."""

    src: str
    dst: str
    port: int = UDP_PORT_UEC
    ev_mode: str = "spray"
    mss: int = 1200
    initial_window: int = 4
    max_window: int = 4096
    timeout: float = 60.0
    close_attempts: int = 3
    credit: str = "on"
    initial_cwnd: int = 8
    pause_at: int | None = None

    def __post_init__(self) -> None:
        if self.ev_mode not in EV_MODES:
            raise ValueError(f"ev_mode must be one of {EV_MODES}, got {self.ev_mode!r}")
        if self.credit not in CREDIT_MODES:
            raise ValueError(f"credit must be one of {CREDIT_MODES}, got {self.credit!r}")
        if self.mss < 1:
            raise ValueError(f"mss must be >= 1 byte, got {self.mss}")
        if self.initial_window < 1:
            raise ValueError(f"initial_window must be >= 1 packet, got {self.initial_window}")
        if self.timeout <= 0:
            raise ValueError(f"timeout must be > 0 s, got {self.timeout}")
        if self.pause_at is not None and self.pause_at < 0:
            raise ValueError(f"pause_at must be >= 0 bytes, got {self.pause_at}")


class Gate(Protocol):
    """What holds new data at ``SenderConfig.pause_at``."""

    def is_open(self, offset: int) -> bool:
        """Asked while new data from ``offset`` waits; True lets it go (for good)."""


CREDIT_PATIENCE_MAX = 4.0
"""Longest wait, seconds, before a sender without credit asks again."""

GATE_POLL = 0.02
"""Seconds between looks at a closed gate."""


class StdinGate:
    """Opens when a line arrives on stdin; says "sender paused at OFFSET" once, when
    the sender first waits at it."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._announced = False

    def is_open(self, offset: int) -> bool:
        if not self._announced:
            print(f"sender paused at {offset}", flush=True)
            self._announced = True
        ready, _, _ = select.select([self._stream], [], [], 0)
        if ready:
            self._stream.readline()
        return bool(ready)


class Sender:
    """Sends ``data`` as one flow; ``run`` returns the summary. ``gate``: what holds new
    data at ``config.pause_at`` (required with it)."""

    def __init__(self, config: SenderConfig, sock: RawUdpSocket, data: bytes,
                 rng: random.Random | None = None, gate: Gate | None = None) -> None:
        if config.pause_at is not None and gate is None:
            raise ValueError("pause_at needs a gate that says when to go on")
        self.config = config
        self._gate = gate if config.pause_at is not None else None
        self._sock = sock
        self._wire = sock.wire
        self._data = data
        self._rng = rng or random.Random()
        self._flow = Flow(src=config.src, dst=config.dst,
                          own_pdcid=self._rng.randrange(1, 1 << 16))
        self._initial_psn = self._rng.randrange(1 << 32)
        self._pinned_ev = self._rng.randrange(EV_LOW, 1 << 16)
        self._evs = EntropyWalk(self._rng)
        packets = -(-len(data) // config.mss)
        self._window = SendWindow(packets, config.max_window)
        self._credit = CreditBalance(config.initial_window * config.mss)
        self._rtt = RttEstimator()
        self._cwnd = CongestionWindow(config.mss, config.initial_cwnd,
                                      config.max_window * config.mss)
        self._reorder = ReorderAllowance()
        self._late_seen = 0
        self._use_credit = config.credit == "on"
        self._paced_until = 0.0
        self._closed = False
        self._last_credit = 0.0
        self._credit_backoff = 1
        self.evs_used: set[int] = set()
        self.counts = {"retransmissions": 0, "nacks": 0, "timeouts": 0, "losses": 0,
                       "ecn_marked": 0, "packets": 0, "credits": 0, "credit_bytes": 0,
                       "credit_requests": 0, "credits_marked": 0, "control_packets": 0}

    @property
    def initial_psn(self) -> int:
        return self._initial_psn

    @property
    def pdcid(self) -> int:
        return self._flow.own_pdcid

    # -------------------------------------------------------------- main loop
    def run(self) -> TransferSummary:
        start = time.monotonic()
        deadline = start + self.config.timeout
        self._last_credit = start
        window = self._window
        while not window.done:
            # Whatever arrived while we were busy (or descheduled) first: an ACK still
            # in the socket is no reason to declare its packet lost.
            for packet in self._sock.receive(0.0):
                self._handle(packet, time.monotonic())
            now = time.monotonic()
            if now >= deadline or window.done:
                break
            # Loss is judged as each ACK arrives, on send times (``detect_overtaken``);
            # a presumption made under a narrower reordering window than has since
            # been learnt is taken back while its resend still waits.
            reorder_window = self._reorder.window(self._rtt)
            window.revoke_losses(reorder_window)
            self.counts["losses"] += len(window.detect_overtaken(now, reorder_window))
            if window.expire(now, self._rtt.rto):
                self.counts["timeouts"] += 1
                self._rtt.back_off()
            self._send_allowed(now)
            self._ask_for_credit(now)
            for packet in self._sock.receive(self._wait(now, deadline)):
                self._handle(packet, time.monotonic())
        finished = time.monotonic()
        if window.done:
            self._close(deadline)
        return self._summary(finished - start)

    def _wait(self, now: float, deadline: float) -> float:
        wake = deadline
        timer = self._window.timer_start()
        if timer is not None:
            wake = min(wake, timer + self._rtt.rto)
        if self._blocked_on_credit():
            wake = min(wake, self._last_credit + self._credit_patience())
        held = self._window.next_resend_due()
        if held is not None and held > now:
            wake = min(wake, held)
        if self._paced_until > now:
            wake = min(wake, self._paced_until)
        if self._gate is not None:
            wake = min(wake, now + GATE_POLL)
        return max(wake - now, 0.0)

    def _summary(self, fct: float) -> TransferSummary:
        counts = self.counts
        size = len(self._data)
        return TransferSummary(
            role="sender", bytes=size, goodput_bps=goodput(size, fct),
            retransmissions=counts["retransmissions"], nacks=counts["nacks"], fct_s=fct,
            sha256=hashlib.sha256(self._data).hexdigest(), complete=self._window.done,
            packets=counts["packets"], timeouts=counts["timeouts"], losses=counts["losses"],
            ecn_marked=counts["ecn_marked"], credits=counts["credits"],
            credit_bytes=counts["credit_bytes"], srtt_s=self._rtt.srtt or 0.0,
            max_rtt_s=self._rtt.max_sample, credit_requests=counts["credit_requests"],
            credits_marked=counts["credits_marked"],
            entropy_values=len(self.evs_used), late_arrivals=self._window.late_arrivals,
            control_packets=counts["control_packets"], pdcid=self._flow.own_pdcid,
            peer=self.config.dst, window_decreases=self._cwnd.decreases)

    # -------------------------------------------------------------- sending
    def _segment(self, index: int) -> bytes:
        mss = self.config.mss
        return self._data[index * mss:(index + 1) * mss]

    def _pending_bytes(self) -> int:
        return self._window.pending_packets * self.config.mss

    def _blocked_on_credit(self) -> bool:
        if not self._use_credit:
            return False
        nxt = self._window.peek(time.monotonic())
        return nxt is not None and len(self._segment(nxt.index)) > self._credit.available

    def _may_send(self, payload: bytes, now: float) -> bool:
        """The congestion window, its pacing and (with credit) the credit allow
        ``payload``."""
        in_flight = self._window.in_flight_packets * self.config.mss
        if not self._cwnd.allows(in_flight, len(payload)) or now < self._paced_until:
            return False
        return not self._use_credit or len(payload) <= self._credit.available

    def _send_allowed(self, now: float) -> None:
        window = self._window
        while (nxt := window.peek(now)) is not None:
            if self._held(nxt):
                return
            payload = self._segment(nxt.index)
            if not self._may_send(payload, now):
                return
            if self._use_credit:
                self._credit.try_consume(len(payload))
            gap = self._cwnd.pace_gap(len(payload), self._congestion_rtt())
            self._paced_until = max(self._paced_until, now) + gap
            window.on_sent(nxt, now)
            self._send_data(nxt, payload, ackreq=self._wants_ack_now(now))

    def _held(self, tx: Transmission) -> bool:
        """New data at or beyond ``pause_at`` waits for the gate; once open it stays so."""
        if self._gate is None or tx.retransmit:
            return False
        offset = tx.index * self.config.mss
        assert self.config.pause_at is not None
        if offset < self.config.pause_at:
            return False
        if self._gate.is_open(offset):
            self._gate = None
            return False
        return True

    def _wants_ack_now(self, now: float) -> bool:
        """Ask for an ACK at once when only an ACK can let more go: nothing is left to
        send, or the congestion window is full. Short of credit only, the receiver
        knows it and its grant (in the next ACK) is what we wait for."""
        after = self._window.peek(now)
        if after is None:
            return True
        in_flight = self._window.in_flight_packets * self.config.mss
        return not self._cwnd.allows(in_flight, len(self._segment(after.index)))

    def _send_data(self, tx: Transmission, payload: bytes, ackreq: bool) -> None:
        # The credit target tells the receiver the bytes still to send; it knows what
        # it granted and saw arrive, so it works out what we lack.
        demand = self._pending_bytes()
        psn = psn_of(self._initial_psn, tx.index)
        datagram = self._wire.data_packet(
            self._flow, self._entropy(), psn, payload, syn=self._flow.peer_pdcid == 0,
            retrans=tx.retransmit, ackreq=ackreq,
            clear_psn_offset=min(tx.index - self._window.cumulative, 0xFFFF),
            credit_target=demand)
        self._sock.send(datagram, self.config.dst)
        self.counts["packets"] += 1
        if tx.retransmit:
            self.counts["retransmissions"] += 1

    def _entropy(self) -> int:
        ev = self._control_entropy()
        self.evs_used.add(ev)
        return ev

    def _control_entropy(self) -> int:
        return self._pinned_ev if self.config.ev_mode == "pin" \
            else self._evs.next()

    def _credit_patience(self) -> float:
        """How long a sender without credit waits before asking: two RTTs, and no less
        than the retransmission timeout (a receiver that shares its budget among many
        senders leaves each waiting its turn, longer than an RTT of an empty path),
        doubled for every request that went unanswered, up to CREDIT_PATIENCE_MAX."""
        srtt = self._rtt.srtt if self._rtt.srtt is not None else self._rtt.rto / 2
        return min(max(2 * srtt, self._rtt.rto) * self._credit_backoff, CREDIT_PATIENCE_MAX)

    def _ask_for_credit(self, now: float) -> None:
        """Credits can be lost (a switch's credit meter drops them) or reduced (its
        credit bands), so what the receiver counts as outstanding never reaches us: a
        stalled sender asks the receiver again for what it lacks."""
        if not self._blocked_on_credit() or now - self._last_credit < self._credit_patience():
            return
        demand = max(self._pending_bytes() - self._credit.available, self.config.mss)
        self._sock.send(self._wire.control_packet(self._flow, self._control_entropy(),
                                                  CTL_CREDIT_REQUEST, credit=demand),
                        self.config.dst)
        self.counts["credit_requests"] += 1
        self._last_credit = now
        self._credit_backoff = min(self._credit_backoff * 2, 64)

    # -------------------------------------------------------------- receiving
    def _handle(self, packet: Received, now: float) -> None:
        if packet.src != self.config.dst or packet.pds.dpdcid != self._flow.own_pdcid:
            return
        pds = packet.pds
        kind = packet.pds_type
        self.counts["control_packets"] += 1
        if kind == PDS_ACK_CC:
            self._on_ack(pds, now)
        elif kind == PDS_NACK:
            self.counts["nacks"] += 1
            rtt = self._congestion_rtt()
            in_flight = (self._window.in_flight_packets + 1) * self.config.mss
            queued = self._window.on_nack(index_of(self._initial_psn, pds.nack_psn), now, rtt)
            if queued:
                # With credit too (congestion.py says why); there the receiver, which
                # saw the trimmed header arrive, also halved what it grants, so slow
                # start undoes this cut once packets arrive whole again (a cut kept
                # left the sender window-bound long after the queue had drained).
                self._cwnd.on_congestion(now, rtt, TRIM_DECREASE, in_flight,
                                         recover=self._use_credit)
        elif is_credit(packet):
            self.counts["credits_marked"] += pds.marked   # a switch reduced this one
            self._on_credit(pds.credit, now)
        elif kind == PDS_ACK and self._window.done:
            end = psn_of(self._initial_psn, self._window.packets)
            self._closed = self._closed or pds.cack_psn == end

    def _on_ack(self, pds: SimpleNamespace, now: float) -> None:
        if self._flow.peer_pdcid == 0:
            self._flow = Flow(self._flow.src, self._flow.dst, self._flow.own_pdcid,
                              peer_pdcid=pds.spdcid)
        window = self._window
        cumulative = index_of(self._initial_psn, pds.cack_psn) + 1
        base = cumulative - 1 + pds.sack_psn_offset
        sacked = [base + i for i in range(64) if pds.sack_bitmap >> i & 1]
        original = None
        if pds.ack_psn_offset:
            sacked.append(cumulative - 1 + pds.ack_psn_offset)
            if not pds.retrans:
                original = cumulative - 1 + pds.ack_psn_offset
        before = window.acked_packets
        for sample in window.on_ack(cumulative, sacked, now, original,
                                    retransmission_seen=bool(pds.retrans)):
            self._rtt.sample(sample)
            self._reorder.on_sample(sample)
        for sample in window.take_late_samples():
            self._reorder.on_sample(sample)
        if window.overtaken_acked:
            self._reorder.on_reordered()
        self._cwnd.on_acked((window.acked_packets - before) * self.config.mss)
        if window.late_arrivals > self._late_seen:
            self._reorder.on_late_arrival(window.late_arrivals - self._late_seen)
            self._late_seen = window.late_arrivals
        if pds.ecn_marked:
            # With credit the receiver, which saw the CE marks, already pulls less.
            self.counts["ecn_marked"] += 1
            if not self._use_credit:
                self._cwnd.on_congestion(now, self._congestion_rtt(), ECN_DECREASE,
                                         self._window.in_flight_packets * self.config.mss)
        if pds.credit:
            self._on_credit(pds.credit, now)

    def _congestion_rtt(self) -> float:
        """The RTT that spaces window cuts and re-trim hold-offs; before any sample,
        a short guess (the initial RTO would freeze the window for 0.3 s)."""
        return self._rtt.srtt if self._rtt.srtt is not None else FIRST_RTT_GUESS

    def _on_credit(self, amount: int, now: float) -> None:
        self.counts["credits"] += 1
        self.counts["credit_bytes"] += amount
        self._credit.grant(amount, self._pending_bytes())
        self._last_credit = now
        self._credit_backoff = 1

    def _close(self, deadline: float) -> None:
        """Ends the PDC: CLOSE_CMD at the PSN after the last packet, until the receiver
        acknowledges it (a lost confirmation costs nothing: all data is acked)."""
        end = psn_of(self._initial_psn, self._window.packets)
        for _attempt in range(self.config.close_attempts):
            self._sock.send(self._wire.control_packet(self._flow, self._control_entropy(),
                                                      CTL_CLOSE_CMD, psn=end,
                                                      syn=self._flow.peer_pdcid == 0),
                            self.config.dst)
            until = min(time.monotonic() + self._rtt.rto * 2, deadline)
            while not self._closed and (left := until - time.monotonic()) > 0:
                for packet in self._sock.receive(left):
                    self._handle(packet, time.monotonic())
            if self._closed:
                return

    @property
    def closed(self) -> bool:
        return self._closed


# ---------------------------------------------------------------- command line
def payload_for(size: int, seed: int) -> bytes:
    """Reproducible pseudo-random bytes to send (the receiver's sha256 must match)."""
    return random.Random(seed).randbytes(size)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m endpoints.sender",
                                     description="UEC-style sender over raw sockets")
    parser.add_argument("--src", required=True, help="local IPv4 address")
    parser.add_argument("--dst", required=True, help="receiver's IPv4 address")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--bytes", type=int, help="send this many pseudo-random bytes")
    source.add_argument("--file", help="send the contents of this file")
    parser.add_argument("--seed", type=int, default=1, help="seed of the --bytes data")
    parser.add_argument("--ev-mode", choices=EV_MODES, default="spray",
                        help="entropy value per packet (spray) or per flow (pin)")
    parser.add_argument("--port", type=int, default=UDP_PORT_UEC)
    parser.add_argument("--mss", type=int, default=1200, help="payload bytes per packet")
    parser.add_argument("--initial-window", type=int, default=4,
                        help="packets sent before the first credit (default 4)")
    parser.add_argument("--credit", choices=CREDIT_MODES, default="on",
                        help="send only what the receiver granted (on, default), or "
                             "ignore credit and rely on the congestion window (off)")
    parser.add_argument("--wait-for-go", action="store_true",
                        help="print 'sender ready' once the socket is open, then start "
                             "when a line arrives on stdin (synchronised incast starts)")
    parser.add_argument("--pause-at", type=int, metavar="BYTES",
                        help="hold new data from this byte offset on until a line arrives "
                             "on stdin (prints 'sender paused at OFFSET' when it waits)")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--summary", help="write the summary JSON here too")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.bytes is not None and args.bytes < 0:
        print(f"sender: --bytes must be >= 0, got {args.bytes}", file=sys.stderr)
        return 2
    try:
        data = payload_for(args.bytes, args.seed) if args.bytes is not None \
            else Path(args.file).read_bytes()
    except OSError as exc:
        print(f"sender: cannot read --file {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        config = SenderConfig(src=args.src, dst=args.dst, port=args.port,
                              ev_mode=args.ev_mode, mss=args.mss,
                              initial_window=args.initial_window, timeout=args.timeout,
                              credit=args.credit, pause_at=args.pause_at)
        sock = RawUdpSocket(args.src, UecWire(args.port))
    except ValueError as exc:
        print(f"sender: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"sender: {exc.strerror}", file=sys.stderr)
        return 2
    with sock:
        gate = StdinGate(sys.stdin) if args.pause_at is not None else None
        engine = Sender(config, sock, data, gate=gate)
        if args.wait_for_go:
            print("sender ready", flush=True)
            sys.stdin.readline()
        summary = engine.run()
    print(summary.to_json(), flush=True)
    if args.summary:
        summary.write(args.summary)
    if not summary.complete:
        print(f"sender: transfer not acknowledged within {args.timeout}s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
