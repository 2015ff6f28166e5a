"""Packets per second an endpoint can build and read with ``UecWire`` (the PDS codecs
learnt from the scapy layers, IPv4/UDP packed by hand), and the one-off cost of
learning the codecs. An endpoint's packet rate is capped by these figures.

Mixes as a sender and a receiver see them: RUD_CC data, ACK_CC with credit, NACK and
CONTROL credit packets; both directions are checked to round-trip before timing.

  python bench/endpoint_codec.py [--packets 2000] [--seconds 2]
"""
from __future__ import annotations

import argparse
import random
import time
from functools import partial
from typing import Callable

from wire_formats.layers import CTL_CREDIT
from wire_formats.pds_codec import PdsCodecs
from wire_formats.uec_datagram import Flow, UecWire

FLOW = Flow(src="10.0.1.1", dst="10.0.2.1", own_pdcid=0x1234, peer_pdcid=0x0042)
PAYLOAD = bytes(1200)


def builders(wire: UecWire, rng: random.Random) -> list[Callable[[], bytes]]:
    """One closure per packet to build, in a sender's and a receiver's mix."""

    def data(psn: int) -> bytes:
        return wire.data_packet(FLOW, 50000 + psn % 64, psn, PAYLOAD, syn=psn == 0,
                                retrans=False, ackreq=True, clear_psn_offset=psn % 7,
                                credit_target=rng.randrange(1 << 20))

    def ack(psn: int) -> bytes:
        return wire.ack_cc_packet(FLOW, 50000, psn, 1, rng.getrandbits(64), psn % 5,
                                  ecn_marked=psn % 3 == 0, retrans=False,
                                  credit=rng.randrange(1 << 20))

    def nack() -> bytes:
        return wire.nack_packet(FLOW, 50000, rng.getrandbits(32))

    def credit() -> bytes:
        return wire.control_packet(FLOW, 50000, CTL_CREDIT, credit=4800)

    made: list[Callable[[], bytes]] = [partial(data, psn) for psn in range(64)]
    made += [partial(ack, psn) for psn in range(32)]
    return made + [nack] * 4 + [credit] * 4


def rate(work: Callable[[], object], per_call: int, seconds: float) -> float:
    """Packets per second of the fastest call of ``work`` (each handling ``per_call``
    packets) over ``seconds``: on a loaded machine the fastest pass is the steadiest."""
    best, start = float("inf"), time.perf_counter()
    while time.perf_counter() - start < seconds:
        begun = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - begun)
    return per_call / best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=2000, help="packets per timed pass")
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    start = time.perf_counter()
    PdsCodecs()
    learn_ms = (time.perf_counter() - start) * 1000
    wire = UecWire()
    rng = random.Random(1)
    mix = builders(wire, rng)
    calls = [mix[i % len(mix)] for i in range(args.packets)]
    packets = [build() for build in calls]
    parsed = [wire.parse(p) for p in packets]
    if any(p is None for p in parsed):
        print("UecWire.parse refused a packet UecWire built; not benchmarking")
        return 1

    def build_all() -> None:
        for build in calls:
            build()

    def parse_all() -> None:
        for packet in packets:
            wire.parse(packet)

    built = rate(build_all, len(calls), args.seconds)
    read = rate(parse_all, len(packets), args.seconds)
    print(f"learn codecs : {learn_ms:10.1f} ms (once per process)")
    print(f"build        : {built:10,.0f} packets/s (data, ACK_CC, NACK, CONTROL mix)")
    print(f"parse        : {read:10,.0f} packets/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
