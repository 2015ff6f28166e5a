"""The congestion matrix on four leaves (issue 12, "Figures"): what spraying, adaptive
weights, receiver credits and trimming each buy, as numbers.

topologies/four_leaves.toml (4 leaves x 2 spines, 8 hosts, every leaf-spine link shaped
to ``rate_pps``) is launched once per fabric setting (spraying mode, trimming on/off)
with the telemetry collector; the controller follows a policy like
topologies/four_leaves.policy.toml (control.experiment.fabric.write_policy). Workloads:

- permutation: 8 long flows, h_i -> h_(i+2): every host to a host on the next leaf;
  1 MB each by default (874 packets, ~13 s at the fair share), so the first RTTs and the
  last packets are a few % of the span (with 256 KB, ~3 s, they were over 10 %) while a
  run stays under 20 s (the default matrix's seven permutation steps ~2.5 min a run);
- incast 3:1: h3, h5, h7 (one per other leaf) -> h1; incast 7:1: every other host -> h1;
  the last hop leaf1 -> h1 is slowed to ``--bottleneck-pps`` (the switch's own queue);
- all-to-all: one host per leaf (h1, h3, h5, h7), each to the three others: 12 flows.
  An all-to-all of four endpoints has 12 flows, not 8; all 8 hosts would be 56 flows,
  56 sender processes, which two shared cores cannot run next to six switches.

Modes: ecmp (flows pinned: senders keep one entropy value), entropy and round_robin
(sprayed per packet), adaptive (entropy spraying plus the controller's INT-driven member
weights: fabricctl --db on the collector's store). Per step (one workload, one setting,
credit on/off, ``--runs`` times on the same fabric) it prints flows completed (k of n over
the runs; a sender gives up after ``--timeout``, so a livelock shows as fewer, never a
hang), % of the bottleneck (incast: delivered packets/s over the last hop's rate) or of
fabric capacity (the workload's cut through the shaped links), max/mean load over the
uplinks (leaf -> spine) the data crosses, fabric-wide and within the worst leaf (what
spraying decides; leaves differ by design: the collector sits on leaf1), trims (switch counters), drops (data sent, never
arrived), retransmissions with the spurious ones (copies the receiver already held, and
their share of delivered packets), the senders' retransmission timeouts, telemetry
reports per delivered packet (collector, default change-triggered reports), the
receivers' control packets per delivered packet and FCT p50/p99. Root.

    .venv/bin/python bench/congestion.py [--runs N] [--full | --core]
        [--workloads permutation,incast3,incast7,all-to-all] [--modes ecmp,entropy,...]
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from control.collector.store import stored_report_count
from control.errors import ConfigError
from control.experiment.fabric import snapshot, write_policy, write_topology
from control.experiment.flows import WorkloadResult, run_flows
from control.experiment.machine import fabric_bench_problem, machine_facts
from control.experiment.metrics import make_row, percentile
from control.experiment.plan import Setting, Workload
from control.experiment.runner import Progress
from control.link_frames import data_packets_per_second
from control.link_shaping import rate_bits
from control.launch import (FabricNetwork, LaunchError, default_switch_binary, start_collector,
                            start_controller)
from control.topology import Topology, load_topology

ROOT = Path(__file__).resolve().parents[1]
TOPOLOGY = ROOT / "topologies/four_leaves.toml"
P4INFO = ROOT / "build/fabric.p4info.txtpb"
MSS = 1200                      # endpoints.sender's payload bytes per packet
MODES = ("ecmp", "entropy", "round_robin", "adaptive")
INCAST_RECEIVER = "h1"

# ------------------------------------------------------------------ workloads (pure)


def hosts_by_leaf(topology: Topology) -> list[list[str]]:
    """Host names grouped by leaf, leaves and hosts in file order."""
    leaves: dict[str, list[str]] = {}
    for host in topology.hosts:
        leaves.setdefault(host.switch, []).append(host.name)
    return list(leaves.values())


def permutation(topology: Topology) -> Workload:
    """Each host to the host in the same position on the next leaf."""
    leaves = hosts_by_leaf(topology)
    flows = tuple((src, leaves[(i + 1) % len(leaves)][j])
                  for i, leaf in enumerate(leaves) for j, src in enumerate(leaf))
    return Workload("permutation", flows)


def incast(topology: Topology, senders: int, receiver: str = INCAST_RECEIVER) -> Workload:
    """``senders`` hosts -> ``receiver``: first one per other leaf, then the rest."""
    leaves = [[h for h in leaf if h != receiver] for leaf in hosts_by_leaf(topology)]
    home = next(i for i, leaf in enumerate(hosts_by_leaf(topology)) if receiver in leaf)
    order = [leaf[j] for j in range(max(map(len, leaves)))
             for i, leaf in enumerate(leaves) if i != home and j < len(leaf)]
    order += leaves[home]                      # the receiver's own leaf last
    if senders > len(order):
        raise ValueError(f"incast {senders}:1 needs {senders} other hosts, "
                         f"{topology_name(topology)} has {len(order)}")
    return Workload(f"incast {senders}:1", tuple((src, receiver) for src in order[:senders]),
                    incast=True)


def all_to_all(topology: Topology) -> Workload:
    """The first host of each leaf to the first host of every other leaf."""
    firsts = [leaf[0] for leaf in hosts_by_leaf(topology)]
    return Workload("all-to-all", tuple((a, b) for a in firsts for b in firsts if a != b))


def topology_name(topology: Topology) -> str:
    return f"{len(hosts_by_leaf(topology))} leaves"


def workloads(topology: Topology) -> dict[str, Workload]:
    """The matrix's workloads by their --workloads key."""
    return {"permutation": permutation(topology), "incast3": incast(topology, 3),
            "incast7": incast(topology, 7), "all-to-all": all_to_all(topology)}


# ------------------------------------------------------------------ capacity (pure)


def fabric_capacity_pps(topology: Topology, flows: Iterable[tuple[str, str]],
                        link_pps: float) -> float:
    """Data packets/s the shaped leaf-spine links can carry for these flows: the smaller
    of the source leaves' uplinks and the destination leaves' downlinks (flows within a
    leaf never cross them and count nothing). Host ports are not shaped. ``link_pps``
    counts full-size frames; a link carries more of the endpoints' smaller data frames
    (control.link_frames: one INT hop on an uplink, two on a downlink)."""
    leaf_of = {h.name: h.switch for h in topology.hosts}
    crossing = [(leaf_of[s], leaf_of[d]) for s, d in flows if leaf_of[s] != leaf_of[d]]
    if not crossing:
        return 0.0
    role = {s.name: s.role for s in topology.switches}

    def uplinks(leaf: str) -> int:
        return sum(1 for link in topology.links
                   if leaf in (link.a_switch, link.b_switch)
                   and role[link.b_switch if link.a_switch == leaf else link.a_switch] == "spine")
    up = sum(uplinks(leaf) for leaf in {a for a, _b in crossing})
    down = sum(uplinks(leaf) for leaf in {b for _a, b in crossing})
    return min(up * data_packets_per_second(link_pps, MSS, int_hops=1),
               down * data_packets_per_second(link_pps, MSS, int_hops=2))


def link_rate(topology: Topology) -> float:
    """The slowest shaped leaf-spine link (the benchmark's time scale)."""
    rates = [link.rate_pps for link in topology.links if link.rate_pps]
    if not rates:
        raise ValueError("the topology's links have no rate_pps: the switches, not the "
                         "links, would be the bottleneck")
    return min(rates)


def packets(nbytes: int) -> int:
    return -(-nbytes // MSS)


# ------------------------------------------------------------------ the matrix (pure)


@dataclass(frozen=True)
class Config:
    """One fabric launch: a mode (MODES) and whether ports trim."""
    mode: str
    trim: bool = True

    @property
    def setting(self) -> Setting:
        """What the policy file says: adaptive sprays by entropy, with weights."""
        return Setting("entropy" if self.mode == "adaptive" else self.mode, self.trim)


@dataclass(frozen=True)
class Step:
    key: str          # workloads() key
    config: Config
    credit: bool = True

    @property
    def label(self) -> str:
        return (self.config.mode + ("" if self.config.trim else ", no trim")
                + ("" if self.credit else ", credit off"))


VARIANT_WORKLOADS = ("permutation", "incast3", "incast7")


def default_steps(keys: Iterable[str], modes: Iterable[str]) -> list[Step]:
    """Every workload under every mode with credits and trimming; then, under entropy,
    the permutation and both incasts with credit off, trimming off, and both off."""
    keys, modes = list(keys), list(modes)
    steps = [Step(key, Config(mode)) for key in keys for mode in modes]
    if "entropy" in modes:
        for key in (k for k in VARIANT_WORKLOADS if k in keys):
            steps += [Step(key, Config("entropy"), credit=False),
                      Step(key, Config("entropy", trim=False)),
                      Step(key, Config("entropy", trim=False), credit=False)]
    return steps


def full_steps(keys: Iterable[str], modes: Iterable[str]) -> list[Step]:
    """The full product: workload x mode x trimming x credit."""
    return [Step(key, Config(mode, trim), credit) for key in keys for mode in modes
            for trim in (True, False) for credit in (True, False)]


def core_steps(keys: Iterable[str], modes: Iterable[str]) -> list[Step]:
    """The issue's headline rows: both incasts and the permutation, sprayed (entropy,
    round robin, adaptive), credits and trimming on."""
    return [Step(key, Config(mode)) for key in keys if key in VARIANT_WORKLOADS
            for mode in modes if mode != "ecmp"]


def launches(steps: list[Step]) -> list[tuple[Config, list[Step]]]:
    """Steps grouped by fabric (one launch each, in first-use order), incasts last within
    a fabric: they slow the receiver's last hop for good."""
    configs = list(dict.fromkeys(step.config for step in steps))
    return [(config, sorted((s for s in steps if s.config == config),
                            key=lambda s: s.key.startswith("incast")))
            for config in configs]


# ------------------------------------------------------------------ figures (pure)


@dataclass
class Sample:
    """One run of one step."""
    flows: int
    completed: int
    pct: float | None               # of the bottleneck or of fabric capacity
    imbalance: float | None         # max/mean leaf -> spine (uplink) load
    trims: int
    drops: int
    retransmissions: int
    spurious: int
    delivered: int                  # data packets delivered (whole flows' bytes / MSS)
    reports: int
    fcts: list[float] = field(default_factory=list)
    error: str = ""
    timeouts: int = 0               # senders' retransmission timeouts
    control: int = 0                # receivers' control packets (ACK_CC, NACK, close)
    load: float | None = None       # 1-minute load average when the run ended
    spread: float | None = None     # the worst leaf's max/mean over its own uplinks


@dataclass
class Line:
    """A table line: a step's samples over its runs."""
    workload: str
    label: str
    samples: list[Sample]

    def total(self, name: str) -> int:
        return sum(getattr(s, name) for s in self.samples)

    def median(self, name: str) -> float | None:
        values = [getattr(s, name) for s in self.samples if getattr(s, name) is not None]
        return statistics.median(values) if values else None


def uplink_imbalance(link_packets: dict[str, int], roles: dict[str, str]) -> float | None:
    """max/mean of the packets on the leaf -> spine links the step's data crossed
    (make_row's ``link_packets``, keyed "leaf:port->spine"): 1.0 = perfectly spread.
    Downlinks are left out: an incast's converge on one leaf by design."""
    counts = [n for label, n in link_packets.items()
              if roles.get(label.split(":")[0]) == "leaf"
              and roles.get(label.split("->")[-1]) == "spine"]
    mean = sum(counts) / len(counts) if counts else 0.0
    return max(counts) / mean if mean > 0 else None


def leaf_spread(link_packets: dict[str, int], roles: dict[str, str]) -> float | None:
    """The worst leaf's max/mean over its own uplinks: what its spraying decides. The
    fabric-wide max/mean (uplink_imbalance) also compares leaves with each other, and
    leaves carry different loads by design: the telemetry reports of leaves 2-4 cross
    their uplinks to the collector on leaf1, while leaf1's leave by its collector port."""
    by_leaf: dict[str, list[int]] = {}
    for label, n in link_packets.items():
        leaf = label.split(":")[0]
        if roles.get(leaf) == "leaf" and roles.get(label.split("->")[-1]) == "spine":
            by_leaf.setdefault(leaf, []).append(n)
    ratios = [max(counts) * len(counts) / sum(counts)
              for counts in by_leaf.values() if len(counts) > 1 and sum(counts) > 0]
    return max(ratios) if ratios else None


def share_pct(delivered: int, span_s: float, capacity_pps: float) -> float | None:
    """Delivered packets per second as a % of ``capacity_pps`` (None if unmeasurable)."""
    if span_s <= 0 or capacity_pps <= 0:
        return None
    return 100.0 * delivered / span_s / capacity_pps


HEADER = (f"  {'mode / setting':<34} {'flows':>7} {'%cap':>5} {'(min)':>5} {'max/mean':>8} "
          f"{'leaf m/m':>8} "
          f"{'trims':>6} {'drops':>6} {'retx':>6} {'spur':>5} {'spur%':>6} {'RTOs':>5} "
          f"{'rep/pkt':>7} {'ctl/pkt':>7} {'FCT p50':>8} {'FCT p99':>8} {'load':>9}")


def _number(value: float | None, digits: int = 0, width: int = 5) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"


def format_line(line: Line) -> str:
    """One mode/setting: flows k/n summed over runs; % and max/mean the median over runs
    (and the worst %); counts the mean per run; spurious and reports per delivered packet
    over all runs; FCT percentiles over every completed flow of every run."""
    runs = max(len(line.samples), 1)
    done = f"{line.total('completed')}/{line.total('flows')}"
    if line.total("completed") < line.total("flows"):
        done += "!"
    worst = min((s.pct for s in line.samples if s.pct is not None), default=None)
    delivered = line.total("delivered")
    spur = 100.0 * line.total("spurious") / delivered if delivered else None
    reports = line.total("reports") / delivered if delivered else None
    control = line.total("control") / delivered if delivered else None
    fcts = [t for s in line.samples for t in s.fcts]
    errors = sorted({s.error for s in line.samples if s.error})
    text = (f"  {line.label:<34} {done:>7} {_number(line.median('pct'))} {_number(worst)} "
            f"{_number(line.median('imbalance'), 2, 8)} {_number(line.median('spread'), 2, 8)} "
            f"{_number(line.total('trims') / runs, 0, 6)} {_number(line.total('drops') / runs, 0, 6)} "
            f"{_number(line.total('retransmissions') / runs, 0, 6)} "
            f"{_number(line.total('spurious') / runs, 0, 5)} {_number(spur, 2, 6)} "
            f"{_number(line.total('timeouts') / runs, 0, 5)} "
            f"{_number(reports, 3, 7)} {_number(control, 3, 7)} {_seconds(percentile(fcts, 50))} "
            f"{_seconds(percentile(fcts, 99))} {_load_range(line)}")
    return text + (f"  errors: {'; '.join(errors)}" if errors else "")


def _load_range(line: Line) -> str:
    """The runs' load averages, lowest-highest: the figures depend on them."""
    loads = [s.load for s in line.samples if s.load is not None]
    return f"{'-':>9}" if not loads else f"{f'{min(loads):.1f}-{max(loads):.1f}':>9}"


def _seconds(value: float | None) -> str:
    return f"{'-':>8}" if value is None else f"{value:>7.2f}s"


def format_tables(lines: list[Line], captions: dict[str, str]) -> str:
    """A table per workload, in first-appearance order, each under its caption."""
    out = []
    for workload in dict.fromkeys(line.workload for line in lines):
        out += ["", captions.get(workload, workload), HEADER]
        out += [format_line(line) for line in lines if line.workload == workload]
    return "\n".join(out)


# ------------------------------------------------------------------ running (root)


def report_count(db: Path, settle_s: float = 1.0, deadline_s: float = 15.0) -> int:
    """Reports in the collector's store, once the count stopped growing for ``settle_s``
    (the collector writes in batches) or after ``deadline_s``."""
    end = time.monotonic() + deadline_s
    last, since = -1, time.monotonic()
    while True:
        count = stored_report_count(str(db))
        now = time.monotonic()
        if count != last:
            last, since = count, now
        elif now - since >= settle_s or now >= end:
            return count
        time.sleep(0.25)


def run_step(net: FabricNetwork, step: Step, workload: Workload, args: argparse.Namespace,
             db: Path, work: Path) -> Sample:
    """One run of one step; a failure is a sample with its error, never raised."""
    nbytes = args.bytes[step.key]
    try:
        reports_before = report_count(db)
        before = snapshot(net)
        result = run_flows(net, workload.flows, nbytes, credit=step.credit,
                           ev_mode="pin" if step.config.mode == "ecmp" else "spray",
                           timeout=args.timeout, work=work)
        after = snapshot(net)
        reports = report_count(db) - reports_before
    except (LaunchError, OSError, ValueError, subprocess.SubprocessError) as exc:
        return Sample(len(workload.flows), 0, None, None, 0, 0, 0, 0, 0, 0,
                      error=_first_line(exc))
    row = make_row(workload.name, step.label, net.topology, workload.flows, before, after, result)
    delivered = sum(packets(f.sender.get("bytes", 0)) for f in result.flows if f.complete)
    if workload.incast:
        span = max((r.get("fct_s", 0.0) for r in result.received), default=0.0)
        capacity = args.bottleneck_pps
    else:
        span = max((f.fct_s or 0.0 for f in result.flows), default=0.0)
        capacity = fabric_capacity_pps(net.topology, workload.flows, args.link_pps)
    roles = {sw.name: sw.role for sw in net.topology.switches}
    return Sample(row.flows, row.completed, share_pct(delivered, span, capacity),
                  uplink_imbalance(row.link_packets, roles),
                  row.trims, row.drops, row.retransmissions, _spurious(result), delivered,
                  reports, row.fcts, row.error,
                  timeouts=sum(int(f.sender.get("timeouts", 0)) for f in result.flows),
                  control=sum(int(r.get("control_packets", 0)) for r in result.received),
                  load=os.getloadavg()[0], spread=leaf_spread(row.link_packets, roles))


def _spurious(result: WorkloadResult) -> int:
    """Data packets that arrived again: retransmissions that were not needed."""
    return sum(int(r.get("duplicates", 0)) for r in result.received)


def run_fabric(config: Config, steps: list[Step], specs: dict[str, Workload], topology: Path,
               args: argparse.Namespace, work: Path, progress: Progress) -> list[Line]:
    """Launch the fabric for ``config``, run its steps ``--runs`` times each."""
    work.mkdir(parents=True, exist_ok=True)
    lines = [Line(specs[s.key].name, s.label, []) for s in steps]
    db = work / "reports.sqlite"
    policy = write_policy(work / "policy.toml", config.setting)
    extra = ("--db", str(db)) if config.mode == "adaptive" else ()
    try:
        with FabricNetwork(topology, tag=f"cg{os.getpid()}-{work.name}",
                           log_dir=work / "logs") as net:
            collector = start_collector(net, db)
            start_controller(net, policy, extra=extra)
            slowed = False
            for number, (step, line) in enumerate(zip(steps, lines)):
                workload = specs[step.key]
                if workload.incast and not slowed:
                    endpoint = net.endpoints[workload.flows[0][1]]
                    net.set_queue_rate(endpoint.switch, endpoint.port, args.bottleneck_pps)
                    slowed = True
                for run in range(args.runs):
                    sample = run_step(net, step, workload, args, db, work / f"s{number}r{run}")
                    line.samples.append(sample)
                    progress.step(f"{workload.name}, {step.label}, run {run + 1}: "
                                  f"{sample.completed}/{sample.flows} flows, "
                                  f"{_number(sample.pct).strip()}%"
                                  + (f" ({sample.error})" if sample.error else ""))
            collector.stop()
    except (LaunchError, ConfigError, OSError, subprocess.SubprocessError) as exc:
        for step, line in zip(steps, lines):      # the fabric failed: the rest never ran
            while len(line.samples) < args.runs:
                progress.step(f"{line.workload}, {step.label}: fabric failed")
                line.samples.append(Sample(len(specs[step.key].flows), 0, None, None, 0, 0, 0,
                                           0, 0, 0, error=f"fabric: {_first_line(exc)}"))
    return lines


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _csv(text: str, allowed: Iterable[str], what: str) -> list[str]:
    values = [v.strip() for v in text.split(",") if v.strip()]
    unknown = [v for v in values if v not in allowed]
    if unknown or not values:
        raise argparse.ArgumentTypeError(f"--{what}: unknown {', '.join(unknown) or '(none)'};"
                                         f" choose from {', '.join(allowed)}")
    return values


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    keys = ("permutation", "incast3", "incast7", "all-to-all")
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per step (5 for the issue)")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--full", action="store_true",
                        help="every workload x mode x trimming x credit")
    choice.add_argument("--core", action="store_true",
                        help="only the incasts and the permutation, sprayed, credits and trim on")
    parser.add_argument("--workloads", default=",".join(keys),
                        type=lambda t: _csv(t, keys, "workloads"))
    parser.add_argument("--modes", default=",".join(MODES), type=lambda t: _csv(t, MODES, "modes"))
    parser.add_argument("--topology", type=Path, default=TOPOLOGY)
    parser.add_argument("--link-pps", type=float, default=None,
                        help="override every leaf-spine link's rate_pps")
    parser.add_argument("--bottleneck-pps", type=float, default=50.0,
                        help="the incast receiver's last hop (leaf -> h1); below one link's "
                             "rate, so it is the incast's only bottleneck, pinned or sprayed")
    parser.add_argument("--permutation-bytes", type=int, default=1024 * 1024,
                        help="per flow (long flows: start-up and tail a few %% of the span)")
    parser.add_argument("--incast-bytes", type=int, default=96 * 1024, help="per flow")
    parser.add_argument("--all-to-all-bytes", type=int, default=48 * 1024, help="per flow")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="a sender gives up after this (its flow: incomplete)")
    parser.add_argument("--out", type=Path, default=None, help="keep logs and stores here")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be >= 1")
    args.bytes = {"permutation": args.permutation_bytes, "incast3": args.incast_bytes,
                  "incast7": args.incast_bytes, "all-to-all": args.all_to_all_bytes}
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    problem = fabric_bench_problem("bench/congestion.py", P4INFO)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    shipped = load_topology(str(args.topology))
    args.link_pps = args.link_pps or link_rate(shipped)
    specs = workloads(shipped)
    pick = full_steps if args.full else core_steps if args.core else default_steps
    steps = pick(args.workloads, args.modes)
    groups = launches(steps)
    progress = Progress(len(steps) * args.runs, sys.stderr)
    with tempfile.TemporaryDirectory(prefix="congestion-") as scratch:
        work = args.out or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        topology = write_topology(work / "four_leaves.toml", args.link_pps, source=args.topology)
        lines: list[Line] = []
        for index, (config, mine) in enumerate(groups):
            progress.note(f"launching {args.topology.name} for {config.mode}"
                          f"{'' if config.trim else ', no trim'}")
            lines += run_fabric(config, mine, specs, topology, args, work / f"f{index}", progress)
            progress.note("load average " + ", ".join(f"{v:.2f}" for v in os.getloadavg()))
    order = {(specs[step.key].name, step.label): i for i, step in enumerate(steps)}
    lines.sort(key=lambda line: order[(line.workload, line.label)])
    print(caption(shipped, args, progress.elapsed()))
    print(format_tables(lines, captions(specs, shipped, args)))
    return 0


def caption(topology: Topology, args: argparse.Namespace, elapsed: float) -> str:
    switches = ", ".join(sorted({"leaf" if s.role == "leaf" else "spine" for s in topology.switches}))
    return (f"{args.topology.name}: {len(topology.switches)} switches ({switches}), "
            f"{len(topology.hosts)} hosts, leaf-spine links at {args.link_pps:.0f} full-size "
            f"frames/s each way ({rate_bits(args.link_pps) / 1e6:.2f} Mbit/s, "
            f"{data_packets_per_second(args.link_pps, MSS):.1f} data packets/s on a downlink; "
            f"control packets in a priority band), incast last hop at "
            f"{args.bottleneck_pps:.0f} packets/s; {MSS}-byte payloads; {args.runs} run(s) per "
            f"step, sender timeout {args.timeout:.0f} s; {elapsed:.0f} s in all\n"
            f"{machine_facts(default_switch_binary())}\n"
            f"columns: flows completed k/n over the runs (! = some did not); %cap: median % of "
            f"the bottleneck (incast) or of fabric capacity, (min) the worst run; max/mean: "
            f"packets on the uplinks (leaf -> spine) the data crossed, fabric-wide; leaf m/m: "
            f"the same within the worst leaf (telemetry reports to the collector on leaf1 load "
            f"the other leaves' uplinks more); trims, drops, retx, spur (spurious retransmissions): "
            f"mean per run; spur%: of delivered packets; RTOs: senders' retransmission "
            f"timeouts, mean per run; rep/pkt: INT reports per delivered data packet; ctl/pkt: "
            f"the receivers' control packets (ACKs, NACKs) per delivered data packet (each costs "
            f"its own bytes on a link, about a tenth of a data packet); load: the runs' 1-minute "
            f"load averages (two shared cores: the figures fall as it rises)")


def captions(specs: dict[str, Workload], topology: Topology,
             args: argparse.Namespace) -> dict[str, str]:
    """Per workload: who sends what to whom, and what 100% is."""
    out = {}
    for key, workload in specs.items():
        n, nbytes = len(workload.flows), args.bytes[key]
        if workload.incast:
            whole = f"100% = the last hop's {args.bottleneck_pps:.0f} packets/s"
        else:
            capacity = fabric_capacity_pps(topology, workload.flows, args.link_pps)
            whole = (f"100% = fabric capacity {capacity:.0f} data packets/s (every flow "
                     f"done in {n * packets(nbytes) / capacity:.1f} s)" if capacity else
                     "no shaped link crossed")
        flows = " ".join(f"{s}>{d}" for s, d in workload.flows) if n <= 8 else f"{n} flows"
        out[workload.name] = (f"{workload.name}: {n} flows of {nbytes // 1024} KB "
                              f"({packets(nbytes)} packets) [{flows}]; {whole}")
    return out


if __name__ == "__main__":
    sys.exit(main())
