"""Telemetry reports decoded per second, by the fast decoder and by the scapy one,
and decoded reports stored per second in a file store (the collector's other cost).

Reports look like the fabric's: every supported INT instruction, 1 to 4 hops embedded
in the inner Ethernet/IPv4/UDP packet carrying a UEC request. Both decoders get the
same reports.

  python bench/collector_decode.py [--reports 20000] [--seconds 2]
"""
from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path
from typing import Callable

from control.collector.decode import decode_report_fast, decode_report_scapy
from control.collector.receiver import BATCH
from control.collector.store import Store
from control.collector.synthetic import build_report
from wire_formats.layers import INT_ALL_SUPPORTED, IntHop

TARGET_PER_SECOND = 50_000


def sample_reports(count: int, seed: int = 1) -> list[bytes]:
    rng = random.Random(seed)
    reports = []
    for seq in range(count):
        hops = [IntHop(node_id=n, ingress_port=rng.randrange(8), egress_port=rng.randrange(8),
                       hop_latency=rng.randrange(1000), queue_id=0,
                       queue_occupancy=rng.randrange(64), ingress_ts=rng.getrandbits(48),
                       egress_ts=rng.getrandbits(48), tx_util=0)
                for n in range(rng.randrange(1, 5), 0, -1)]
        # As the sinks send them: the INT-MD packet embedded (control.collector.synthetic).
        reports.append(build_report(hops, seq=seq, instructions=INT_ALL_SUPPORTED,
                                    sport=rng.randrange(49152, 65536), psn=seq))
    return reports


def rate(decode: Callable[[bytes], object], reports: list[bytes], seconds: float) -> float:
    """Reports per second over whole passes of ``reports`` lasting at least ``seconds``."""
    done, start = 0, time.perf_counter()
    while True:
        for data in reports:
            decode(data)
        done += len(reports)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def store_rate(reports: list[bytes]) -> float:
    """Decoded reports stored per second, in the receiver's batches, into a WAL file."""
    decoded = [decode_report_fast(r) for r in reports]
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(str(Path(tmp) / "bench.sqlite"))
        start = time.perf_counter()
        for i in range(0, len(decoded), BATCH):
            store.add_many(decoded[i:i + BATCH])
        elapsed = time.perf_counter() - start
        store.close()
    return len(decoded) / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    reports = sample_reports(args.reports)
    if any(decode_report_fast(r) != decode_report_scapy(r) for r in reports[:500]):
        print("fast and scapy decoders disagree; not benchmarking")
        return 1
    fast = rate(decode_report_fast, reports, args.seconds)
    slow = rate(decode_report_scapy, reports[:2000], args.seconds)
    stored = store_rate(reports[:10_000])
    verdict = "meets" if fast >= TARGET_PER_SECOND else "misses"
    print(f"fast decoder : {fast:10,.0f} reports/s ({verdict} the {TARGET_PER_SECOND:,}/s aim)")
    print(f"scapy decoder: {slow:10,.0f} reports/s")
    print(f"speed-up     : {fast / slow:10.1f}x")
    print(f"store (file) : {stored:10,.0f} reports/s (batches of {BATCH}, SQLite WAL)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
