"""UEC-style receiver: delivers one flow's bytes in order, acknowledges with ACK_CC and
a SACK bitmap, NACKs trimmed packets and paces the sender with CREDIT grants.

Run inside a host namespace (root):
``python -m endpoints.receiver --bind IP [--port 4793] [--out FILE] [--summary JSON]``.
It prints ``receiver ready`` once listening, and exits after the sender closed the
PDC (every byte delivered) or on ``--timeout``.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from dataclasses import dataclass
from typing import BinaryIO, Callable

from control.layers import CTL_CREDIT, UDP_PORT_UEC

from .protocol import SACK_BITS, CreditPacer, ReorderBuffer, index_of, psn_of
from .rawsock import RawUdpSocket
from .summary import TransferSummary, goodput
from .wire import Flow, Received, UecWire, is_close, is_credit_request


@dataclass(frozen=True)
class ReceiverConfig:
    """``credit_rate``: bytes/s of credit granted (the pace imposed on the sender);
    ``credit_window``: most bytes granted but not yet arrived; ``ack_every``:
    in-order packets per ACK (out-of-order, retransmitted, trimmed or ack-requesting
    packets are acked at once); ``ack_delay``: longest an ACK waits."""

    bind: str
    port: int = UDP_PORT_UEC
    credit_rate: float = 50e6
    credit_chunk: int = 8 * 1024
    credit_window: int = 32 * 1024
    ack_every: int = 4
    ack_delay: float = 0.002
    reorder_capacity: int = 4096
    timeout: float = 60.0

    def __post_init__(self) -> None:
        # The pacer and buffer check their own arguments; these are the receiver's.
        CreditPacer(self.credit_rate, self.credit_chunk, self.credit_window)
        ReorderBuffer(self.reorder_capacity)
        if self.ack_every < 1:
            raise ValueError(f"ack_every must be >= 1 packet, got {self.ack_every}")
        if self.timeout <= 0:
            raise ValueError(f"timeout must be > 0 s, got {self.timeout}")


@dataclass
class _Peer:
    """The one flow this receiver serves, learnt from its first SYN packet."""

    flow: Flow
    initial_psn: int
    control_ev: int


class Receiver:
    """Serves a single flow; ``run`` returns its summary."""

    def __init__(self, config: ReceiverConfig, sock: RawUdpSocket,
                 sink: BinaryIO | None = None, rng: random.Random | None = None) -> None:
        self.config = config
        self._sock = sock
        self._wire = sock.wire
        self._sink = sink
        self._rng = rng or random.Random()
        self._buffer = ReorderBuffer(config.reorder_capacity)
        self._pacer = CreditPacer(config.credit_rate, config.credit_chunk,
                                  config.credit_window)
        self._largest_payload = 0
        self._hash = hashlib.sha256()
        self._peer: _Peer | None = None
        self._closed = False
        self._unacked = 0
        self._ack_due: float | None = None
        self._ack_ev = 0
        self._ce_pending = False
        self._first_arrival: float | None = None
        self._last_delivery: float | None = None
        self.delivered = 0
        self.counts = {"retransmissions": 0, "nacks": 0, "trimmed": 0, "ecn_marked": 0,
                       "packets": 0, "credits": 0, "credit_bytes": 0, "foreign": 0}

    # -------------------------------------------------------------- main loop
    def run(self, on_ready: Callable[[], None] | None = None) -> TransferSummary:
        if on_ready is not None:
            on_ready()
        deadline = time.monotonic() + self.config.timeout
        while not self._closed:
            now = time.monotonic()
            if now >= deadline:
                break
            wake = min(t for t in (deadline, self._ack_due, self._pacer.next_due(now))
                       if t is not None)
            for packet in self._sock.receive(wake - now):
                self._handle(packet, time.monotonic())
            now = time.monotonic()
            if self._ack_due is not None and now >= self._ack_due:
                self._send_ack(None)
            self._grant_credit(now)
        return self.summary(time.monotonic())

    def summary(self, now: float) -> TransferSummary:
        start = self._first_arrival if self._first_arrival is not None else now
        end = self._last_delivery if self._closed and self._last_delivery else now
        fct = max(end - start, 0.0)
        counts = self.counts
        return TransferSummary(
            role="receiver", bytes=self.delivered, goodput_bps=goodput(self.delivered, fct),
            retransmissions=counts["retransmissions"], nacks=counts["nacks"], fct_s=fct,
            sha256=self._hash.hexdigest(), complete=self._closed, packets=counts["packets"],
            trimmed=counts["trimmed"], ecn_marked=counts["ecn_marked"],
            credits=counts["credits"], credit_bytes=counts["credit_bytes"])

    # -------------------------------------------------------------- packets
    def _handle(self, packet: Received, now: float) -> None:
        if self._peer is None and (packet.is_data or is_close(packet)) and packet.pds.syn:
            self._adopt(packet)
        peer = self._peer
        if peer is None or packet.src != peer.flow.dst or \
                packet.pds.spdcid != peer.flow.peer_pdcid:
            self.counts["foreign"] += 1
            return
        if packet.is_data:
            self._on_data(packet, now)
        elif is_credit_request(packet):
            self._pacer.restart_window()
            self._pacer.set_demand(packet.pds.credit)
            self._send_ack(packet)
        elif is_close(packet):
            self._on_close(packet)

    def _adopt(self, packet: Received) -> None:
        pds = packet.pds
        flow = Flow(src=self.config.bind, dst=packet.src,
                    own_pdcid=self._rng.randrange(1, 1 << 16), peer_pdcid=pds.spdcid)
        # A SYN packet's clear PSN is the flow's first PSN (nothing is acked yet); an
        # empty flow opens and closes with one CLOSE_CMD at its first PSN.
        first = pds.psn - pds.clear_psn_offset if packet.is_data else pds.psn
        self._peer = _Peer(flow=flow, initial_psn=first % (1 << 32),
                           control_ev=self._rng.randrange(49152, 1 << 16))

    def _on_data(self, packet: Received, now: float) -> None:
        assert self._peer is not None
        pds = packet.pds
        counts = self.counts
        counts["packets"] += 1
        if self._first_arrival is None:
            self._first_arrival = now
        if pds.retrans:
            counts["retransmissions"] += 1
        if packet.ce:
            counts["ecn_marked"] += 1
            self._ce_pending = True
        if hasattr(pds, "credit_target"):
            self._pacer.set_demand(pds.credit_target)
        index = index_of(self._peer.initial_psn, pds.psn)
        if not packet.trimmed:
            self._largest_payload = max(self._largest_payload, len(packet.payload))
        # A trimmed packet spent the credit of a full one.
        self._pacer.on_arrival(self._largest_payload if packet.trimmed else len(packet.payload))
        if packet.trimmed:
            counts["trimmed"] += 1
            if not self._buffer.has(index):
                self._send(self._wire.nack_packet(self._peer.flow, packet.sport,
                                                  pds.psn))
                counts["nacks"] += 1
                return
            self._send_ack(packet)
            return
        status = self._buffer.offer(index, packet.payload)
        if status == "new":
            for payload in self._buffer.pop_in_order():
                self._deliver(payload, now)
        self._unacked += 1
        if (status != "new" or pds.ackreq or pds.retrans or self._buffer.out_of_order
                or self._unacked >= self.config.ack_every):
            self._send_ack(packet, delivered=status != "beyond")
        elif self._ack_due is None:
            self._ack_due = now + self.config.ack_delay
            self._ack_ev = packet.sport

    def _deliver(self, payload: bytes, now: float) -> None:
        self._hash.update(payload)
        if self._sink is not None:
            self._sink.write(payload)
        self.delivered += len(payload)
        self._last_delivery = now

    def _on_close(self, packet: Received) -> None:
        assert self._peer is not None
        end = index_of(self._peer.initial_psn, packet.pds.psn)
        if end == self._buffer.next_expected and not self._buffer.out_of_order:
            self._send(self._wire.plain_ack_packet(self._peer.flow, packet.sport,
                                                   packet.pds.psn))
            self._closed = True
        else:
            self._send_ack(packet)

    # -------------------------------------------------------------- replies
    def _send_ack(self, packet: Received | None, delivered: bool = True) -> None:
        """ACK_CC for the flow's state. ``packet`` (if ``delivered``) is named by the
        ACK PSN offset, and the SACK bitmap is placed to cover it: with a hole at the
        cumulative PSN, packets far beyond it are still reported one by one."""
        peer = self._peer
        if peer is None:
            return
        cumulative = self._buffer.next_expected
        cack_psn = psn_of(peer.initial_psn, cumulative - 1)
        ack_psn_offset = 0
        retrans = False
        ev = self._ack_ev
        base = cumulative
        if packet is not None:
            ev = packet.sport
            if packet.is_data:
                retrans = bool(packet.pds.retrans)
            trigger = index_of(peer.initial_psn, packet.pds.psn) if packet.is_data else -1
            if delivered and trigger >= cumulative:   # older ones: covered by cack
                ack_psn_offset = trigger - (cumulative - 1)
                base = max(cumulative, trigger - (SACK_BITS - 1))
        self._send(self._wire.ack_cc_packet(peer.flow, ev, cack_psn, ack_psn_offset,
                                            self._buffer.sack(base), self._buffer.out_of_order,
                                            ecn_marked=self._ce_pending, retrans=retrans,
                                            sack_psn_offset=base - (cumulative - 1)))
        self._ce_pending = False
        self._unacked = 0
        self._ack_due = None

    def _grant_credit(self, now: float) -> None:
        peer = self._peer
        if peer is None:
            return
        while (grant := self._pacer.take_grant(now)) > 0:
            self._send(self._wire.control_packet(peer.flow, peer.control_ev, CTL_CREDIT,
                                                 credit=grant))
            self.counts["credits"] += 1
            self.counts["credit_bytes"] += grant

    def _send(self, datagram: bytes) -> None:
        assert self._peer is not None
        self._sock.send(datagram, self._peer.flow.dst)


# ---------------------------------------------------------------- command line
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m endpoints.receiver",
                                     description="UEC-style receiver over raw sockets")
    parser.add_argument("--bind", required=True, help="local IPv4 address to receive on")
    parser.add_argument("--port", type=int, default=UDP_PORT_UEC)
    parser.add_argument("--out", help="file that receives the delivered bytes, in order")
    parser.add_argument("--summary", help="write the summary JSON here too")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="give up after this many seconds (default 60)")
    parser.add_argument("--credit-rate", type=float, default=50e6,
                        help="credit granted, bytes/s (default 50e6)")
    parser.add_argument("--credit-chunk", type=int, default=8 * 1024,
                        help="largest single CREDIT grant, bytes (default 8192)")
    parser.add_argument("--credit-window", type=int, default=32 * 1024,
                        help="most bytes granted but not yet arrived (default 32768)")
    parser.add_argument("--ack-every", type=int, default=4)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        config = ReceiverConfig(bind=args.bind, port=args.port, credit_rate=args.credit_rate,
                                credit_chunk=args.credit_chunk,
                                credit_window=args.credit_window, ack_every=args.ack_every,
                                timeout=args.timeout)
        sock = RawUdpSocket(args.bind, UecWire(args.port))
    except ValueError as exc:
        print(f"receiver: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"receiver: {exc.strerror}", file=sys.stderr)
        return 2
    sink = open(args.out, "wb") if args.out else None
    try:
        with sock:
            receiver = Receiver(config, sock, sink)
            summary = receiver.run(lambda: print("receiver ready", flush=True))
    finally:
        if sink is not None:
            sink.close()
    print(summary.to_json(), flush=True)
    if args.summary:
        summary.write(args.summary)
    if not summary.complete:
        print(f"receiver: transfer not complete after {args.timeout}s "
              f"({summary.bytes} bytes delivered)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
