"""Sprayed vs pinned UEC transfers over two_leaves: goodput, retransmissions, FCT.

Brings up the fabric (control/launch.py), programs it with fabricctl and moves the same
number of bytes h1 -> h2 with the project's endpoints, once with a new entropy value
per packet (spray) and once with one per flow (pin), a few times each; prints the
median of each figure and how the packets split over the two parallel links. Root.

    .venv/bin/python bench/fabric_transfer.py [--bytes N] [--runs N] [--bottleneck-pps PPS]

Two scenarios: links at full speed (the software switches are the limit), then leaf1's
two fabric ports limited to a queue rate, where spraying can use both links' capacity
and a pinned flow only one.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from control.launch import FabricNetwork, LaunchError, run_transfer, start_controller
from p4sim.netns import can_run

ROOT = Path(__file__).resolve().parents[1]
TOPOLOGY = ROOT / "topologies/two_leaves.toml"
POLICY = ROOT / "topologies/two_leaves.policy.toml"
P4INFO = ROOT / "build/fabric.p4info.txtpb"
LINK_PORTS = (2, 3)
PROBE = ("-m", "control.probe")  # reads P4Runtime state inside the switch namespace


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bytes", type=int, default=256 * 1024)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--bottleneck-pps", type=float, default=200.0,
                        help="egress rate of leaf1's fabric ports in the second scenario (0: skip it)")
    args = parser.parse_args(argv)
    if not can_run():
        print("bench/fabric_transfer.py: skipped, needs root and `ip netns`")
        return 0
    if not P4INFO.exists():
        print(f"{P4INFO}: missing; run `make build`", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="ln-bench-") as work, \
            FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-bench") as net:
        start_controller(net, POLICY)
        scenarios = [("links at full speed", None)]
        if args.bottleneck_pps:
            scenarios.append((f"links limited to {args.bottleneck_pps:.0f} pps each", args.bottleneck_pps))
        for title, rate in scenarios:
            if rate:
                for port in LINK_PORTS:
                    net.set_queue_rate("leaf1", port, rate)
            rows = [(mode, *_measure(net, mode, args, Path(work) / title.replace(" ", "_")))
                    for mode in ("spray", "pin")]
            _print_table(title, args.bytes, rows)
    return 0


def _measure(net: FabricNetwork, mode: str, args: argparse.Namespace, work: Path) -> tuple[list, list]:
    """``args.runs`` transfers in one mode; their results and per-run link splits."""
    results, splits = [], []
    for run in range(args.runs):
        before = _port_tx(net)
        transfer = run_transfer(net, "h1", "h2", args.bytes, work / f"{mode}{run}",
                                ev_mode=mode, timeout=300)
        after = _port_tx(net)
        if transfer.delivered_sha256 != transfer.sender["sha256"]:
            raise LaunchError(f"{mode} run {run}: delivered data differs from what was sent")
        splits.append(tuple(after.get(p, 0) - before.get(p, 0) for p in LINK_PORTS))
        results.append(transfer)
    return results, splits


def _port_tx(net: FabricNetwork) -> dict[int, int]:
    """leaf1's per-port transmit counters, read inside the switch namespace."""
    leaf1 = net.topology.switch("leaf1")
    probe = net.switch_exec([sys.executable, *PROBE, "counter", leaf1.grpc, str(leaf1.device_id),
                             str(P4INFO), "FabricEgress.port_tx"])
    if probe.wait(60) != 0:
        raise LaunchError(f"reading counters failed:\n{probe.output}")
    return {int(k): v for k, v in json.loads(probe.output.strip().splitlines()[-1]).items()}


def _print_table(title: str, nbytes: int, rows: list) -> None:
    print(f"two_leaves, h1 -> h2, {nbytes} bytes per transfer, {title}; median of "
          f"{len(rows[0][1])} run(s) per mode")
    print(f"  {'mode':<6} {'goodput Mb/s':>12} {'FCT s':>8} {'retransmits':>11} {'NACKs':>6}  "
          f"packets on link 2/link 3, per run")
    for mode, results, splits in rows:
        goodput = statistics.median(r.sender["goodput_bps"] for r in results) / 1e6
        fct = statistics.median(r.sender["fct_s"] for r in results)
        retx = statistics.median(r.sender["retransmissions"] for r in results)
        nacks = statistics.median(r.receiver.get("nacks", 0) for r in results)
        split = ", ".join(f"{a}/{b}" for a, b in splits)
        print(f"  {mode:<6} {goodput:>12.3f} {fct:>8.3f} {retx:>11.0f} {nacks:>6.0f}  {split}")


if __name__ == "__main__":
    sys.exit(main())
