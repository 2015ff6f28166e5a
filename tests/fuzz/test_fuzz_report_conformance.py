"""Fuzz: mutated fabric-style reports never crash the collector's decoders; each is
either decoded identically by both or refused by both for one named class of fault.
Seeded and bounded in time; a failure names the seed and the datagram."""
from __future__ import annotations

import random
import time

from control.collector.conformance import REASONS, MalformedReport
from control.collector.decode import decode_reports_fast, decode_reports_scapy
from control.collector.synthetic import build_report
from wire_formats.layers import INT_ALL_SUPPORTED, IntHop

SEED = 1207
SECONDS = 4.0
# Cases run however slowly a loaded machine goes (a few per second there): the seed's
# first 40 cover "ok" and six refusal classes, so the coverage check below depends on
# the seed, not on the machine's speed.
MIN_CASES = 40


def _outcome(decode, data: bytes):
    try:
        return "ok", decode(data)
    except MalformedReport as exc:
        return "refused", exc.reason


def _mutate(rng: random.Random, data: bytes) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(4)
        if kind == 0 and buf:
            buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
        elif kind == 1:
            buf = buf[:rng.randrange(len(buf) + 1)]
        elif kind == 2:
            buf += bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 9)))
        elif buf:
            buf[rng.randrange(min(len(buf), 24))] = rng.randrange(256)  # the headers
    return bytes(buf)


def test_fuzz_mutated_reports():
    print(f"seed {SEED}")
    rng = random.Random(SEED)
    deadline = time.monotonic() + SECONDS
    seen = set()
    cases = 0
    while (time.monotonic() < deadline or cases < MIN_CASES) and cases < 3000:
        hops = [IntHop(node_id=rng.getrandbits(32), ingress_port=rng.randrange(512),
                       egress_port=rng.randrange(512), hop_latency=rng.getrandbits(32),
                       queue_id=0, queue_occupancy=rng.getrandbits(24), ingress_ts=rng.getrandbits(48),
                       egress_ts=rng.getrandbits(48)) for _ in range(rng.randrange(1, 4))]
        data = _mutate(rng, build_report(hops, seq=cases, instructions=INT_ALL_SUPPORTED,
                                         inner_bytes=rng.randrange(40, 200)))
        fast, scapy = _outcome(decode_reports_fast, data), _outcome(decode_reports_scapy, data)
        assert fast == scapy, f"seed {SEED} case {cases}: {data.hex()}"
        if fast[0] == "refused":
            assert fast[1] in REASONS
        seen.add(fast[1] if fast[0] == "refused" else "ok")
        cases += 1
    assert "ok" in seen and len(seen) >= 4, f"seed {SEED}: only {seen} in {cases} cases"
