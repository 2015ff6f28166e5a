"""Packets per second through the l3_lpm reference program, in process (no I/O).

Runs every v1model stage the core provides (parse, verify checksums, ingress,
egress, update checksums, deparse) with a 100-route LPM table, and prints figures.
Usage: python -m bench.switch_core [--packets N] [--json PATH]
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from p4sim.switch.program import Program
from p4sim.switch.runtime_api import LpmParam
from p4sim.reference import reference_dir

DEFAULT_JSON = reference_dir() / "p4c-out/l3_lpm.json"
PACKET = bytes.fromhex(
    "000000000001000000000002080045000024000100004011AD12C0A8010A0A01020304D2005000106FA5"
    "7061796C6F616421")


def build(json_path: Path) -> Program:
    with open(json_path) as fh:
        program = Program.load(json.load(fh))
    table = program.runtime.tables["IngressImpl.ipv4_lpm"]
    for i in range(100):
        table.add_entry([LpmParam((10 << 24) | (i << 16), 16)], "IngressImpl.forward",
                        [1 + i % 8, 0xA0B, 0xC0D])
    table.add_entry([LpmParam(10 << 24, 8)], "IngressImpl.forward", [2, 0xA0B, 0xC0D])
    return program


def one_packet(program: Program, data: bytes) -> bytes | None:
    pkt = program.new_packet(data, 1)
    program.process_ingress_side(pkt)          # parse, verify checksums, ingress
    std = program.layout.std
    espec = pkt.f[std.egress_spec]
    if espec == 511:
        return None
    pkt.f[std.egress_port] = espec
    program.egress(pkt)
    return program.finish_egress_side(pkt)     # update checksums, deparse


def run(packets: int, json_path: Path) -> dict[str, float]:
    program = build(json_path)
    out = one_packet(program, PACKET)
    assert out is not None and out[:6] == bytes.fromhex("000000000A0B"), "forwarding broken"
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(packets):
            one_packet(program, PACKET)
        rounds.append(packets / (time.perf_counter() - start))
    clock = time.perf_counter_ns
    latencies = []
    for _ in range(packets):
        t0 = clock()
        one_packet(program, PACKET)
        latencies.append((clock() - t0) / 1000)
    latencies.sort()
    return {"best_pps": max(rounds), "median_pps": statistics.median(rounds),
            "us_per_packet": 1e6 / statistics.median(rounds),
            "p50_us": latencies[len(latencies) // 2],
            "p99_us": latencies[int(len(latencies) * 0.99)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=20000)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    args = parser.parse_args()
    figures = run(args.packets, args.json)
    print(f"switch core, l3_lpm, {args.packets} packets x 5 rounds")
    print(f"  median {figures['median_pps']:,.0f} pps ({figures['us_per_packet']:.1f} us/packet)")
    print(f"  best   {figures['best_pps']:,.0f} pps")
    print(f"  latency per packet: p50 {figures['p50_us']:.1f} us, p99 {figures['p99_us']:.1f} us")


if __name__ == "__main__":
    main()
