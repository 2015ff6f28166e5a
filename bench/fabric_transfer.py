"""UEC endpoints on the launched fabric: a 3:1 incast through a rate-limited last hop,
with credit on/off and trimming on/off (and, with --spray-pin, sprayed vs pinned
transfers over two_leaves).

Incast: leaf_spine, h1, h2 and h4 each send ``--bytes`` to one receiver process on h3
(the three flows share its credit budget); leaf2's egress queue toward h3 is limited to
``--bottleneck-pps``. For each setting it prints: flows completed (of 3, within the
senders' timeout: a livelock shows as fewer), % of the bottleneck used (goodput
packets/s over the bottleneck's rate), trims (counted by leaf2 / arriving at h3),
retransmissions (and the spurious ones: copies h3 already had), and control packets
(ACK, NACK, credit) per data packet. Root.

    .venv/bin/python bench/fabric_transfer.py [--bytes N] [--bottleneck-pps PPS]
        [--timeout S] [--spray-pin]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from control.experiment.flows import finish_sender, go, start_sender
from control.launch import FabricNetwork, LaunchError, ManagedProcess, run_transfer, start_controller
from lab.namespace import can_run

ROOT = Path(__file__).resolve().parents[1]
P4INFO = ROOT / "build/fabric.p4info.txtpb"
PROBE = ("-m", "control.probe")  # reads P4Runtime state inside the switch namespace
MSS = 1200

INCAST_TOPOLOGY = ROOT / "topologies/leaf_spine.toml"
INCAST_SENDERS = ("h1", "h2", "h4")
INCAST_RECEIVER = "h3"
BOTTLENECK = ("leaf2", 1)     # leaf2's port toward h3
INCAST_POLICY = """# bench/fabric_transfer.py: one tenant, sprayed, ECN and (optionally) trimming.
[spraying]
default = "entropy"

[ecn]
threshold = {ecn}
"""
TRIM_POLICY = """
[trim]
threshold = {trim}

[[trim.classes]]
dscp = 0x0A
length = 64
trimmed_dscp = 0x0B
queue = 7
"""

PAIR_TOPOLOGY = ROOT / "topologies/two_leaves.toml"
PAIR_POLICY = ROOT / "topologies/two_leaves.policy.toml"
LINK_PORTS = (2, 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bytes", type=int, default=128 * 1024, help="per flow")
    parser.add_argument("--bottleneck-pps", type=float, default=300.0,
                        help="egress rate of leaf2's port toward h3 (the incast's last hop)")
    parser.add_argument("--ecn-threshold", type=int, default=6)
    parser.add_argument("--trim-threshold", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="senders give up after this long (a livelocked flow does)")
    parser.add_argument("--spray-pin", action="store_true",
                        help="also compare sprayed and pinned transfers over two_leaves")
    parser.add_argument("--runs", type=int, default=2, help="runs per mode with --spray-pin")
    args = parser.parse_args(argv)
    if not can_run():
        print("bench/fabric_transfer.py: skipped, needs root and `ip netns`")
        return 0
    if not P4INFO.exists():
        print(f"{P4INFO}: missing; run `make build`", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="ln-bench-") as work:
        rows = []
        for trim in (True, False):
            rows += _incast_setting(args, trim, Path(work) / f"trim-{trim}")
        _print_incast(args, rows)
        if args.spray_pin:
            _spray_pin(args, Path(work) / "spray-pin")
    return 0


# ---------------------------------------------------------------- 3:1 incast
@dataclass
class IncastRow:
    credit: bool
    trim: bool
    completed: int
    bottleneck_pct: float
    switch_trims: int
    arrived_trimmed: int
    retransmissions: int
    spurious: int
    control_per_data: float
    fct_s: float


def _incast_setting(args: argparse.Namespace, trim: bool, work: Path) -> list[IncastRow]:
    """One fabric with trimming on or off; the incast with credit on, then off."""
    work.mkdir(parents=True)
    policy = work / "policy.toml"
    text = INCAST_POLICY.format(ecn=args.ecn_threshold)
    if trim:
        text += TRIM_POLICY.format(trim=args.trim_threshold)
    policy.write_text(text)
    rows = []
    with FabricNetwork(INCAST_TOPOLOGY, tag=f"ln{os.getpid()}-inc") as net:
        start_controller(net, policy)
        net.set_queue_rate(*BOTTLENECK, args.bottleneck_pps)
        for credit in (True, False):
            before = _counter_total(net, "leaf2", "FabricIngress.trimming.trimmed_packets") \
                if trim else 0
            row = _incast_once(net, args, credit, trim, work / f"credit-{credit}")
            if trim:
                row.switch_trims = _counter_total(
                    net, "leaf2", "FabricIngress.trimming.trimmed_packets") - before
            rows.append(row)
    return rows


def _incast_once(net: FabricNetwork, args: argparse.Namespace, credit: bool, trim: bool,
                 work: Path) -> IncastRow:
    work.mkdir(parents=True)
    out_dir = work / "flows"
    out_dir.mkdir()
    receiver_summary = work / "receiver.json"
    dst_ip = net.endpoints[INCAST_RECEIVER].ip
    receiver = net.host_exec(INCAST_RECEIVER, [
        sys.executable, "-m", "endpoints.receiver", "--bind", dst_ip,
        "--flows", str(len(INCAST_SENDERS)), "--out-dir", str(out_dir),
        "--summary", str(receiver_summary), "--timeout", str(args.timeout + 30)],
        name=f"receiver-{credit}-{trim}")
    receiver.wait_for_line("receiver ready", 60)
    senders: list[ManagedProcess] = []
    try:  # synchronised starts: every sender waits for "go"
        for seed, host in enumerate(INCAST_SENDERS):
            senders.append(start_sender(net, host, INCAST_RECEIVER, args.bytes, seed=seed,
                                        credit=credit, timeout=args.timeout,
                                        name=f"sender-{host}-{credit}-{trim}"))
        go(senders)
        results = [finish_sender(sender, args.timeout + 30) for sender in senders]
    finally:
        for sender in senders:
            sender.stop()
    try:
        receiver.wait(30)      # it exits once every flow closed
    except LaunchError:
        pass                   # a flow did not finish: SIGTERM makes it report anyway
    receiver.stop()
    received = json.loads(receiver_summary.read_text()) if receiver_summary.exists() else {}
    completed = sum(1 for status, _s in results if status == 0)
    sent = [summary for _status, summary in results]
    delivered_packets = sum(-(-flow["bytes"] // MSS) for flow in received.get("flows", []))
    span = received.get("fct_s", 0.0)
    pct = 100 * delivered_packets / span / args.bottleneck_pps if span else 0.0
    data = max(received.get("packets", 0), 1)
    return IncastRow(credit=credit, trim=trim, completed=completed, bottleneck_pct=pct,
                     switch_trims=0, arrived_trimmed=received.get("trimmed", 0),
                     retransmissions=sum(s.get("retransmissions", 0) for s in sent),
                     spurious=received.get("duplicates", 0),
                     control_per_data=received.get("control_packets", 0) / data,
                     fct_s=max((s.get("fct_s", 0.0) for s in sent), default=0.0))


def _counter_total(net: FabricNetwork, switch: str, name: str) -> int:
    sw = net.topology.switch(switch)
    probe = net.switch_exec([sys.executable, *PROBE, "counter", sw.grpc, str(sw.device_id),
                             str(P4INFO), name])
    if probe.wait(60) != 0:
        raise LaunchError(f"reading {name} failed:\n{probe.output}")
    return sum(json.loads(probe.output.strip().splitlines()[-1]).values())


def _print_incast(args: argparse.Namespace, rows: list[IncastRow]) -> None:
    print(f"leaf_spine, 3:1 incast h1,h2,h4 -> one receiver on h3, {args.bytes} B per flow, "
          f"leaf2 -> h3 limited to {args.bottleneck_pps:.0f} pps (ECN from "
          f"{args.ecn_threshold}, trimming from {args.trim_threshold} deep when on)")
    print(f"  {'credit':<6} {'trim':<4} {'flows done':>10} {'% bottleneck':>12} "
          f"{'trims sw/rx':>11} {'retx (spurious)':>15} {'ctl/data':>8} {'FCT s':>7}")
    for r in rows:
        trims = f"{r.switch_trims}/{r.arrived_trimmed}" if r.trim else "-"
        print(f"  {'on' if r.credit else 'off':<6} {'on' if r.trim else 'off':<4} "
              f"{r.completed:>8}/3 {r.bottleneck_pct:>11.0f}% {trims:>11} "
              f"{r.retransmissions:>8} ({r.spurious:>4}) {r.control_per_data:>8.2f} "
              f"{r.fct_s:>7.2f}")


# ---------------------------------------------------------------- spray vs pin
def _spray_pin(args: argparse.Namespace, work: Path) -> None:
    with FabricNetwork(PAIR_TOPOLOGY, tag=f"ln{os.getpid()}-bench") as net:
        start_controller(net, PAIR_POLICY)
        for port in LINK_PORTS:
            net.set_queue_rate("leaf1", port, args.bottleneck_pps)
        print(f"two_leaves, h1 -> h2, {args.bytes} bytes, leaf1's links limited to "
              f"{args.bottleneck_pps:.0f} pps each; median of {args.runs} run(s)")
        print(f"  {'mode':<6} {'goodput Mb/s':>12} {'FCT s':>8} {'retransmits':>11} "
              f"{'losses':>6} {'ctl/data':>8}  packets on link 2/link 3, per run")
        for mode in ("spray", "pin"):
            results, splits = [], []
            for run in range(args.runs):
                before = _port_tx(net)
                transfer = run_transfer(net, "h1", "h2", args.bytes, work / f"{mode}{run}",
                                        ev_mode=mode, timeout=300)
                after = _port_tx(net)
                if transfer.delivered_sha256 != transfer.sender["sha256"]:
                    raise LaunchError(f"{mode} run {run}: delivered data differs from "
                                      f"what was sent")
                splits.append(tuple(after.get(p, 0) - before.get(p, 0) for p in LINK_PORTS))
                results.append(transfer)
            goodput = statistics.median(r.sender["goodput_bps"] for r in results) / 1e6
            fct = statistics.median(r.sender["fct_s"] for r in results)
            retx = statistics.median(r.sender["retransmissions"] for r in results)
            losses = statistics.median(r.sender["losses"] for r in results)
            ctl = statistics.median(r.receiver.get("control_packets", 0)
                                    / max(r.receiver.get("packets", 0), 1) for r in results)
            split = ", ".join(f"{a}/{b}" for a, b in splits)
            print(f"  {mode:<6} {goodput:>12.3f} {fct:>8.3f} {retx:>11.0f} {losses:>6.0f} "
                  f"{ctl:>8.2f}  {split}")


def _port_tx(net: FabricNetwork) -> dict[int, int]:
    """leaf1's per-port transmit counters, read inside the switch namespace."""
    leaf1 = net.topology.switch("leaf1")
    probe = net.switch_exec([sys.executable, *PROBE, "counter", leaf1.grpc, str(leaf1.device_id),
                             str(P4INFO), "FabricEgress.port_tx"])
    if probe.wait(60) != 0:
        raise LaunchError(f"reading counters failed:\n{probe.output}")
    return {int(k): v for k, v in json.loads(probe.output.strip().splitlines()[-1]).items()}


if __name__ == "__main__":
    sys.exit(main())
