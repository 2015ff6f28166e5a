"""UEC-style receiver: serves many concurrent flows (PDCs, told apart by the sender's
address and PDC id) on one UDP port, delivers each flow's bytes in order, acknowledges
with coalesced ACK_CCs (cumulative PSN, SACK bitmap and credit in one packet), NACKs
trimmed packets, and paces all its senders with one shared credit budget
(``credit_budget``) that follows the rate data arrives at.

Run inside a host namespace (root):
``python -m endpoints.receiver --bind IP [--port 4793] [--flows N] [--out FILE |
--out-dir DIR] [--summary JSON]``. It prints ``receiver ready`` once listening, and
exits after N flows (default 1) were closed by their senders, or on ``--timeout``.
"""
from __future__ import annotations

import argparse
import random
import signal
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Hashable

from wire_formats.layers import CTL_CREDIT, UDP_PORT_UEC

from .credit_budget import CreditBudget
from .entropy import EntropyWalk
from .protocol import ReorderBuffer
from .rawsock import RawUdpSocket
from .rx_flow import ACK_CAUSES, ReceiverFlow
from .summary import TransferSummary, goodput
from wire_formats.uec_datagram import Flow, Received, UecWire, is_close, is_credit_request

CREDIT_CARRIERS = ("ack", "control")


@dataclass(frozen=True)
class ReceiverConfig:
    """``credit_rate``: ceiling of the bytes/s granted over all flows (the pace
    itself follows what arrives); ``credit_window``: most bytes granted but not yet
    arrived, over all flows (the shared window starts there and shrinks on trims and
    ECN); ``credit_carrier``: credit rides in the ACK_CC (``ack``, one control packet
    for both) or in separate CONTROL CREDIT packets (``control``: what a switch's
    credit bands can mark); ``ack_every``: data packets per coalesced ACK (the
    sender's ack-request flag, a retransmission or a close are acked at once);
    ``ack_delay``: longest an ACK waits; ``flows``: flows to serve before exiting;
    ``packet``: full data packet payload, bytes (the credit window's step)."""

    bind: str
    port: int = UDP_PORT_UEC
    credit_rate: float = 50e6
    credit_chunk: int = 8 * 1024
    credit_window: int = 32 * 1024
    credit_carrier: str = "ack"
    ack_every: int = 16
    ack_delay: float = 0.005
    reorder_capacity: int = 4096
    timeout: float = 60.0
    flows: int = 1
    packet: int = 1200

    def __post_init__(self) -> None:
        # The budget and buffer check their own arguments; these are the receiver's.
        CreditBudget(rate=self.credit_rate, chunk=self.credit_chunk,
                     window=self.credit_window, packet=self.packet)
        ReorderBuffer(self.reorder_capacity)
        if self.credit_carrier not in CREDIT_CARRIERS:
            raise ValueError(f"credit carrier must be one of {CREDIT_CARRIERS}, "
                             f"got {self.credit_carrier!r}")
        if self.ack_every < 1:
            raise ValueError(f"ack_every must be >= 1 packet, got {self.ack_every}")
        if self.timeout <= 0:
            raise ValueError(f"timeout must be > 0 s, got {self.timeout}")
        if self.flows < 1:
            raise ValueError(f"flows must be >= 1, got {self.flows}")


SinkFactory = Callable[[str, int], "BinaryIO | None"]
"""Opens where a new flow's bytes go, given the sender's IP and PDC id."""


class Receiver:
    """Serves flows until ``config.flows`` have closed; ``run`` returns the summary."""

    def __init__(self, config: ReceiverConfig, sock: RawUdpSocket,
                 sinks: SinkFactory | None = None, rng: random.Random | None = None) -> None:
        self.config = config
        self._sock = sock
        self._wire = sock.wire
        self._sinks = sinks
        self._rng = rng or random.Random()
        # One walk for every flow's sprayed control packets: they all leave this host.
        self._evs = EntropyWalk(self._rng)
        self.budget = CreditBudget(rate=config.credit_rate, chunk=config.credit_chunk,
                                   window=config.credit_window, packet=config.packet)
        self.flows: dict[Hashable, ReceiverFlow] = {}
        self._largest_payload = config.packet
        self._closed = 0
        self.foreign = 0

    # -------------------------------------------------------------- main loop
    def run(self, on_ready: Callable[[], None] | None = None) -> TransferSummary:
        if on_ready is not None:
            on_ready()
        deadline = time.monotonic() + self.config.timeout
        while self._closed < self.config.flows:
            now = time.monotonic()
            if now >= deadline:
                break
            for packet in self._sock.receive(self._wake(now, deadline) - now):
                self._handle(packet, time.monotonic())
            self._reply(time.monotonic())
        return self.summary(time.monotonic())

    def _wake(self, now: float, deadline: float) -> float:
        times = [deadline]
        times += [f.ack_due for f in self.flows.values() if f.ack_due is not None]
        due = self.budget.next_due(now)
        if due is not None:
            times.append(due)
        return min(times)

    def _reply(self, now: float) -> None:
        """The grants due now, then one coalesced ACK for every flow that wants one."""
        for key, amount in self.budget.take_grants(now):
            flow = self.flows[key]
            if self.config.credit_carrier == "ack":
                flow.credit_pending += amount
            else:
                self._send(flow, self._wire.control_packet(
                    flow.flow, flow.control_entropy(), CTL_CREDIT, credit=amount))
                flow.counts["credits"] += 1
                flow.counts["credit_bytes"] += amount
                flow.counts["control_packets"] += 1
        for flow in self.flows.values():
            if not flow.closed and flow.ack_wanted(now):
                self._send_ack(flow)

    # -------------------------------------------------------------- packets
    def _handle(self, packet: Received, now: float) -> None:
        key = (packet.src, packet.pds.spdcid)
        flow = self.flows.get(key)
        if flow is None:
            if not ((packet.is_data or is_close(packet)) and packet.pds.syn):
                self.foreign += 1
                return
            flow = self._adopt(key, packet)
        if packet.is_data:
            if not flow.closed:
                self._on_data(flow, packet, now)
        elif is_credit_request(packet):
            self.budget.request(key, packet.pds.credit)
            flow.want_ack("request")
        elif is_close(packet):
            self._on_close(flow, packet)

    def _adopt(self, key: Hashable, packet: Received) -> ReceiverFlow:
        pds = packet.pds
        flow = Flow(src=self.config.bind, dst=packet.src,
                    own_pdcid=self._rng.randrange(1, 1 << 16), peer_pdcid=pds.spdcid)
        # A SYN packet's clear PSN is the flow's first PSN (nothing is acked yet); an
        # empty flow opens and closes with one CLOSE_CMD at its first PSN.
        first = pds.psn - pds.clear_psn_offset if packet.is_data else pds.psn
        sink = self._sinks(packet.src, pds.spdcid) if self._sinks is not None else None
        state = ReceiverFlow(key, flow, first % (1 << 32), packet.sport,
                             self.config.reorder_capacity, sink, self._rng, evs=self._evs)
        self.flows[key] = state
        self.budget.add(key)
        return state

    def _on_data(self, flow: ReceiverFlow, packet: Received, now: float) -> None:
        pds = packet.pds
        counts = flow.counts
        counts["packets"] += 1
        if flow.first_arrival is None:
            flow.first_arrival = now
        if pds.retrans:
            counts["retransmissions"] += 1
        if pds.ackreq:
            counts["ack_requests"] += 1
        if packet.ce:
            counts["ecn_marked"] += 1
            flow.ce_pending = True
        flow.note_entropy(packet.sport)
        index = flow.index(pds.psn)
        if not packet.trimmed:
            self._largest_payload = max(self._largest_payload, len(packet.payload))
        # A trimmed packet spent the credit of a full one, and has left the network.
        size = self._largest_payload if packet.trimmed else len(packet.payload)
        if hasattr(pds, "credit_target"):
            self.budget.report_pending(flow.key, pds.credit_target)
        self.budget.on_arrival(flow.key, size, trimmed=packet.trimmed, ce=packet.ce)
        if packet.trimmed:
            counts["trimmed"] += 1
            if flow.buffer.has(index):      # a trimmed copy of one we hold: ack it
                counts["trimmed_duplicates"] += 1
                flow.want_ack("reorder")
                return
            self._send(flow, self._wire.nack_packet(flow.flow, flow.control_entropy(),
                                                    pds.psn))
            counts["nacks"] += 1
            counts["control_packets"] += 1
            return
        status = flow.accept(index, packet.payload, now)
        flow.note_trigger(index, bool(pds.retrans), kept=status != "beyond")
        urgent = "reorder" if status != "new" else \
            "sender" if pds.ackreq or pds.retrans else None
        flow.schedule_ack(now, urgent=urgent, ack_every=self.config.ack_every,
                          delay=self.config.ack_delay)

    def _on_close(self, flow: ReceiverFlow, packet: Received) -> None:
        end = flow.index(packet.pds.psn)
        if flow.closed or (end == flow.buffer.next_expected and not flow.buffer.out_of_order):
            self._send(flow, self._wire.plain_ack_packet(flow.flow, flow.control_entropy(),
                                                         packet.pds.psn))
            flow.counts["control_packets"] += 1
            if not flow.closed:
                flow.closed = True
                self._closed += 1
                self.budget.remove(flow.key)
        else:
            flow.want_ack("close")

    # -------------------------------------------------------------- replies
    def _send_ack(self, flow: ReceiverFlow) -> None:
        fields = flow.ack_fields()
        self._send(flow, self._wire.ack_cc_packet(
            flow.flow, flow.control_entropy(), fields["cack_psn"], fields["ack_psn_offset"],
            fields["sack_bitmap"], fields["ooo_count"], ecn_marked=bool(fields["ecn_marked"]),
            retrans=bool(fields["retrans"]), sack_psn_offset=fields["sack_psn_offset"],
            credit=flow.credit_pending))
        flow.acked()

    def _send(self, flow: ReceiverFlow, datagram: bytes) -> None:
        self._sock.send(datagram, flow.flow.dst)

    # -------------------------------------------------------------- report
    def summary(self, now: float) -> TransferSummary:
        """All flows together, with each flow's own summary under ``flows``."""
        per_flow = [flow.summary(now) for flow in self.flows.values()]
        starts = [f.first_arrival for f in self.flows.values() if f.first_arrival is not None]
        ends = [f.last_delivery for f in self.flows.values() if f.last_delivery is not None]
        complete = self._closed >= self.config.flows
        span = max((max(ends) if complete and ends else now) - min(starts), 0.0) \
            if starts else 0.0
        delivered = sum(s.bytes for s in per_flow)

        def total(name: str) -> int:
            return sum(int(getattr(s, name)) for s in per_flow)
        only = per_flow[0] if len(per_flow) == 1 else None
        return TransferSummary(
            role="receiver", bytes=delivered, goodput_bps=goodput(delivered, span),
            retransmissions=total("retransmissions"), nacks=total("nacks"), fct_s=span,
            sha256=only.sha256 if only else ("" if per_flow else _EMPTY_SHA256),
            complete=complete, packets=total("packets"), trimmed=total("trimmed"),
            ecn_marked=total("ecn_marked"), duplicates=total("duplicates"),
            trimmed_duplicates=total("trimmed_duplicates"),
            ack_requests=total("ack_requests"), control_packets=total("control_packets"), credits=total("credits"),
            credit_bytes=total("credit_bytes"), peer=only.peer if only else "",
            pdcid=only.pdcid if only else 0, credit_window=int(self.budget.window),
            window_decreases=self.budget.decreases,
            acks_by_cause={cause: sum(s.acks_by_cause.get(cause, 0) for s in per_flow)
                           for cause in ACK_CAUSES},
            flows=[s.to_dict() for s in per_flow])


_EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


# ---------------------------------------------------------------- command line
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m endpoints.receiver",
                                     description="UEC-style receiver over raw sockets")
    parser.add_argument("--bind", required=True, help="local IPv4 address to receive on")
    parser.add_argument("--port", type=int, default=UDP_PORT_UEC)
    parser.add_argument("--flows", type=int, default=1,
                        help="exit once this many flows were closed (default 1)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--out", help="file that receives the delivered bytes, in order "
                                      "(one flow: --flows 1)")
    output.add_argument("--out-dir", help="directory that receives each flow's bytes as "
                                          "<sender IP>-<sender PDC id>.bin")
    parser.add_argument("--summary", help="write the summary JSON here too")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="give up after this many seconds (default 60)")
    parser.add_argument("--credit-rate", type=float, default=50e6,
                        help="ceiling of the credit granted over all flows, bytes/s "
                             "(default 50e6; the pace follows what arrives)")
    parser.add_argument("--credit-chunk", type=int, default=8 * 1024,
                        help="largest single grant, bytes (default 8192)")
    parser.add_argument("--credit-window", type=int, default=32 * 1024,
                        help="most bytes granted but not yet arrived, over all flows "
                             "(default 32768; shrinks on trims and ECN)")
    parser.add_argument("--credit-carrier", choices=CREDIT_CARRIERS, default="ack",
                        help="credit in the ACK_CC (ack, default) or in CONTROL CREDIT "
                             "packets (control: switch credit bands can mark them)")
    parser.add_argument("--ack-every", type=int, default=16,
                        help="data packets per coalesced ACK (default 16)")
    return parser


def _sink_factory(args: argparse.Namespace, stack: ExitStack) -> SinkFactory | None:
    if args.out:
        single: list[BinaryIO] = [stack.enter_context(open(args.out, "wb"))]

        def first_flow(_src: str, _pdcid: int) -> BinaryIO | None:
            return single.pop() if single else None   # --out holds the first flow
        return first_flow
    if args.out_dir:
        directory = Path(args.out_dir)

        def per_flow(src: str, pdcid: int) -> BinaryIO:
            return stack.enter_context(open(directory / f"{src}-{pdcid}.bin", "wb"))
        return per_flow
    return None


class _Terminated(Exception):
    """SIGTERM arrived."""


def _terminate(_signum: int, _frame: object) -> None:
    raise _Terminated


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.out and args.flows > 1:
        print("receiver: --out holds one flow; with --flows > 1 use --out-dir",
              file=sys.stderr)
        return 2
    if args.out_dir and not Path(args.out_dir).is_dir():
        print(f"receiver: --out-dir {args.out_dir}: not a directory", file=sys.stderr)
        return 2
    try:
        config = ReceiverConfig(bind=args.bind, port=args.port, credit_rate=args.credit_rate,
                                credit_chunk=args.credit_chunk,
                                credit_window=args.credit_window,
                                credit_carrier=args.credit_carrier, ack_every=args.ack_every,
                                timeout=args.timeout, flows=args.flows)
        sock = RawUdpSocket(args.bind, UecWire(args.port))
    except ValueError as exc:
        print(f"receiver: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"receiver: {exc.strerror}", file=sys.stderr)
        return 2
    with ExitStack() as stack, sock:
        receiver = Receiver(config, sock, _sink_factory(args, stack))
        signal.signal(signal.SIGTERM, _terminate)
        try:
            summary = receiver.run(lambda: print("receiver ready", flush=True))
        except _Terminated:   # stopped from outside: report what was delivered so far
            summary = receiver.summary(time.monotonic())
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
