"""Adaptive spraying's reaction on the launched fabric (issue 12: "reacts within a few
RTTs without flapping"), where it acts: on the switches' own uplink queues.

topologies/four_leaves.toml carries a long permutation (every host to its peer on the
next leaf) with every leaf uplink drained in the switch's own queue at ``--uplink-pps``
(there INT sees the queue; tc shapes the links above at the topology's rate). Once the
traffic runs (the collector's first report) and ``--slow-after`` s more, each leaf's
first uplink drops to ``--slow-pps`` (the run-time CLI's set_queue_rate, the four at
once); ``--slow-for`` s later it is back at ``--uplink-pps``. The controller (fabricctl
run --db) logs every new weight set; from those lines, per slowed (leaf, port):

- reaction: from the slowdown (when its CLI returned) to the first weight set giving
  the slowed port less weight than another member of its leaf for some destination
  (0 if some earlier one already did: that shift is counted as early);
- flaps: changes of that state after the first shift while the port stays slow;
- wrong: shifts away from a member never slowed while the others are slow;
- early: shifts before the slowdown (false alarms on a symmetric fabric);
- return: from the recovery to the first weight set no longer shifting traffic off
  the port ("-": still shifted when the run ended; 0: it was back before).

Beside them: the senders' smoothed RTT (median over flows; reaction / RTT is "how many
RTTs"), FCT p50/p99, and the same run under plain entropy spraying (no weights) for
the gain. One fabric launch per run, so the runs are independent. Root.

    .venv/bin/python bench/adaptive_reaction.py [--runs N] [--modes adaptive,entropy]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Iterable

from control.collector.store import stored_report_count
from control.errors import ConfigError
from control.experiment.fabric import policy_mode, write_policy
from control.experiment.flows import WorkloadResult, run_flows
from control.experiment.machine import fabric_bench_problem, machine_facts
from control.experiment.metrics import percentile
from control.experiment.plan import WORKLOADS, Setting
from control.experiment.progress import Progress
from control.experiment.runner import first_uplinks, leaf_uplinks
from control.launch import (FabricNetwork, LaunchError, default_switch_binary, start_collector,
                            start_controller)

ROOT = Path(__file__).resolve().parents[1]
TOPOLOGY = ROOT / "topologies/four_leaves.toml"
P4INFO = ROOT / "build/fabric.p4info.txtpb"
MODES = ("adaptive", "entropy")

WeightKey = tuple[str, str, int]      # (switch, destination host, member port)
Port = tuple[str, int]                # (switch, member port)

# fabricctl's log format: "%(asctime)s %(name)s %(levelname)s %(message)s"
_WEIGHT_LINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) .*"
                          r"adaptive spraying: new weights (.*)$")
_WEIGHT = re.compile(r"(\S+)->(\S+):(\d+)=(\d+)")

# ------------------------------------------------------------------ the controller's log (pure)


@dataclass(frozen=True)
class WeightSet:
    at: float                          # seconds since the epoch (the log's local time)
    weights: dict[WeightKey, int]


def parse_weight_sets(lines: Iterable[str]) -> list[WeightSet]:
    """Every "new weights" line of fabricctl's log, in order."""
    sets = []
    for line in lines:
        match = _WEIGHT_LINE.match(line.strip())
        if match is None:
            continue
        stamp, millis, text = match.groups()
        at = datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S").timestamp() + int(millis) / 1000
        weights = {(sw, dest, int(port)): int(w) for sw, dest, port, w in _WEIGHT.findall(text)}
        sets.append(WeightSet(at, weights))
    return sets


def shifted_ports(weights: dict[WeightKey, int]) -> set[Port]:
    """Members weighted below another member of the same (switch, destination) group."""
    best: dict[tuple[str, str], int] = {}
    for (switch, dest, _port), weight in weights.items():
        best[(switch, dest)] = max(weight, best.get((switch, dest), weight))
    return {(switch, port) for (switch, dest, port), weight in weights.items()
            if weight < best[(switch, dest)]}


def transitions(sets: list[WeightSet], port: Port) -> list[tuple[float, bool]]:
    """(time, now shifted) at each change of ``port``'s state; it starts unshifted."""
    out: list[tuple[float, bool]] = []
    state = False
    for weight_set in sets:
        now = port in shifted_ports(weight_set.weights)
        if now != state:
            out.append((weight_set.at, now))
            state = now
    return out


@dataclass(frozen=True)
class PortReaction:
    port: Port
    reaction_s: float | None          # None: never shifted while slow
    flaps: int                        # state changes after the first shift, while slow
    return_s: float | None            # None: still shifted at the end


def react(sets: list[WeightSet], port: Port, slow_at: float, recover_at: float) -> PortReaction:
    """How the controller treated ``port``, slowed from ``slow_at`` to ``recover_at``."""
    changes = transitions(sets, port)
    slow = [(t, s) for t, s in changes if slow_at <= t < recover_at]
    already = [s for t, s in changes if t < slow_at]
    first = slow_at if already and already[-1] else next((t for t, shifted in slow if shifted), None)
    flaps = sum(1 for t, _s in slow if first is not None and t > first)
    before = [s for t, s in changes if t < recover_at]
    if not (before and before[-1]):          # not shifted when the link recovered
        back = 0.0 if first is not None else None
    else:
        back = next((t - recover_at for t, shifted in changes
                     if t >= recover_at and not shifted), None)
    return PortReaction(port, None if first is None else first - slow_at, flaps, back)


def shifts_of(sets: list[WeightSet], ports: Iterable[Port], start: float, end: float) -> int:
    """Shifts away from any of ``ports`` in [start, end)."""
    return sum(1 for port in ports for t, shifted in transitions(sets, port)
               if shifted and start <= t < end)


# ------------------------------------------------------------------ a run's figures (pure)


@dataclass
class RunResult:
    mode: str
    flows: int
    completed: int = 0
    reactions: list[PortReaction] = field(default_factory=list)
    wrong: int = 0
    early: int = 0
    rtts_s: list[float] = field(default_factory=list)
    fcts_s: list[float] = field(default_factory=list)
    load: float = 0.0
    error: str = ""


def judge(mode: str, result: WorkloadResult, sets: list[WeightSet], slow_at: dict[Port, float],
          recover_at: dict[Port, float], members: list[Port], load: float) -> RunResult:
    """A run's figures from the flows' outcome and the controller's weight sets; the
    slowed ports are ``slow_at``'s keys, each with the time its slowdown took effect."""
    fast = [port for port in members if port not in slow_at]
    first, last = min(slow_at.values()), max(recover_at.values())
    return RunResult(
        mode, len(result.flows), sum(1 for f in result.flows if f.complete),
        [react(sets, port, slow_at[port], recover_at[port]) for port in slow_at]
        if mode == "adaptive" else [],
        shifts_of(sets, fast, first, last), shifts_of(sets, members, 0.0, first),
        [float(f.sender["srtt_s"]) for f in result.flows if f.sender.get("srtt_s")],
        [f.fct_s for f in result.flows if f.complete and f.fct_s is not None], load)


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _seconds(value: float | None, width: int = 6) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width - 1}.2f}s"


HEADER = (f"{'mode':<9} {'runs':>4} {'flows':>7} {'reaction':>9} {'(max)':>7} {'never':>5} "
          f"{'RTT':>7} {'in RTTs':>7} {'flaps':>5} {'wrong':>5} {'early':>5} {'return':>7} "
          f"{'(max)':>7} {'FCT p50':>8} {'FCT p99':>8} {'load':>9}")


def format_mode(mode: str, runs: list[RunResult]) -> str:
    """One line per mode: reactions over every slowed port of every run."""
    reactions = [r for run in runs for r in run.reactions]
    times = [r.reaction_s for r in reactions if r.reaction_s is not None]
    returns = [r.return_s for r in reactions if r.return_s is not None]
    rtt = _median([t for run in runs for t in run.rtts_s])
    reaction = _median(times)
    fcts = [t for run in runs for t in run.fcts_s]
    flows = f"{sum(r.completed for r in runs)}/{sum(r.flows for r in runs)}"
    loads = [r.load for r in runs]
    adaptive = mode == "adaptive"
    in_rtts = f"{reaction / rtt:>7.1f}" if adaptive and reaction is not None and rtt else f"{'-':>7}"
    count = (lambda n: f"{n:>5}") if adaptive else (lambda _n: f"{'-':>5}")
    return (f"{mode:<9} {len(runs):>4} {flows:>7} {_seconds(reaction, 9)} "
            f"{_seconds(max(times, default=None), 7)} "
            f"{count(sum(1 for r in reactions if r.reaction_s is None))} {_seconds(rtt, 7)} "
            f"{in_rtts} {count(sum(r.flaps for r in reactions))} "
            f"{count(sum(r.wrong for r in runs))} {count(sum(r.early for r in runs))} "
            f"{_seconds(_median(returns), 7)} {_seconds(max(returns, default=None), 7)} "
            f"{_seconds(percentile(fcts, 50), 8)} {_seconds(percentile(fcts, 99), 8)} "
            f"{min(loads, default=0):>4.1f}-{max(loads, default=0):<4.1f}")


# ------------------------------------------------------------------ running (root)


class Flows:
    """run_flows on a thread, so that the main thread changes queue rates meanwhile."""

    def __init__(self, net: FabricNetwork, args: argparse.Namespace, work: Path) -> None:
        self.result: WorkloadResult | None = None
        self.error: BaseException | None = None
        flows = WORKLOADS["four_leaves"].permutation.flows

        def body() -> None:
            try:
                self.result = run_flows(net, flows, args.bytes, credit=True, ev_mode="spray",
                                        timeout=args.timeout, work=work)
            except (LaunchError, OSError, ValueError, subprocess.SubprocessError) as exc:
                self.error = exc
        self.thread = threading.Thread(target=body, name="flows", daemon=True)
        self.thread.start()

    def running(self) -> bool:
        return self.thread.is_alive()


def set_rates(net: FabricNetwork, ports: list[Port], pps: float) -> dict[Port, float]:
    """Every port's queue rate at once (one CLI each, in parallel); returns when each was
    in effect: its CLI's return (the CLI starts a Python process, seconds on a loaded
    host, so its start would count that against the controller)."""
    def one(port: Port) -> tuple[Port, float]:
        net.set_queue_rate(port[0], port[1], pps)
        return port, time.time()
    with ThreadPoolExecutor(max_workers=len(ports) or 1) as pool:
        return dict(pool.map(one, ports))


def wait_for_traffic(db: Path, flows: Flows, deadline_s: float) -> None:
    """Until the collector stored a report (the data runs), the flows end, or the deadline."""
    end = time.monotonic() + deadline_s
    while stored_report_count(str(db)) == 0:
        if not flows.running() or time.monotonic() > end:
            raise LaunchError(f"no telemetry report within {deadline_s:g} s of the flows' start")
        time.sleep(0.1)


def run_once(mode: str, args: argparse.Namespace, topology: Path, work: Path) -> RunResult:
    """One fabric launch, one permutation with its slowdown and recovery."""
    work.mkdir(parents=True, exist_ok=True)
    db = work / "reports.sqlite"
    policy = write_policy(work / "policy.toml", Setting(policy_mode(mode)))
    flows_n = len(WORKLOADS["four_leaves"].permutation.flows)
    try:
        with FabricNetwork(topology, tag=f"ar{os.getpid()}-{work.name}", log_dir=work / "logs") as net:
            collector = start_collector(net, db)
            controller = start_controller(
                net, policy, extra=("--db", str(db)) if mode == "adaptive" else ())
            members, slowed = leaf_uplinks(net), first_uplinks(net)
            set_rates(net, members, args.uplink_pps)
            flows = Flows(net, args, work / "flows")
            wait_for_traffic(db, flows, 120.0)
            time.sleep(args.slow_after)          # the schedule itself, not a wait for readiness
            if not flows.running():
                raise LaunchError(f"the flows ended before the slowdown ({args.slow_after:g} s)")
            began = time.time()
            slow_at = set_rates(net, slowed, args.slow_pps)
            print(f"  slowed {len(slow_at)} uplinks; the CLIs took "
                  f"{min(slow_at.values()) - began:.1f}-{max(slow_at.values()) - began:.1f} s",
                  file=sys.stderr, flush=True)
            time.sleep(args.slow_for)
            recover_at = set_rates(net, slowed, args.uplink_pps)
            flows.thread.join(args.timeout + 120)
            collector.stop()
            if flows.error is not None or flows.result is None:
                raise LaunchError(f"flows: {flows.error or 'did not end'}")
            sets = parse_weight_sets(controller.output.splitlines())
            (work / "schedule.json").write_text(json.dumps(   # for a look at the logs later
                {f"{sw}:{port}": {"slowed": slow_at[(sw, port)], "recovered": recover_at[(sw, port)]}
                 for sw, port in slow_at}, indent=1))
            return judge(mode, flows.result, sets, slow_at, recover_at, members,
                         os.getloadavg()[0])
    except (LaunchError, ConfigError, OSError, subprocess.SubprocessError) as exc:
        text = str(exc).strip()
        return RunResult(mode, flows_n, error=text.splitlines()[0] if text else type(exc).__name__)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="fabric launches per mode (5 for the issue)")
    parser.add_argument("--modes", default=",".join(MODES),
                        help=f"comma-separated, of {', '.join(MODES)}")
    parser.add_argument("--uplink-pps", type=float, default=50.0,
                        help="every leaf uplink's rate in the switch's own queue")
    parser.add_argument("--slow-pps", type=float, default=25.0,
                        help="each leaf's first uplink while slowed")
    parser.add_argument("--slow-after", type=float, default=5.0,
                        help="seconds of traffic before the slowdown")
    parser.add_argument("--slow-for", type=float, default=12.0, help="seconds slowed")
    parser.add_argument("--bytes", type=int, default=2 * 1024 * 1024,
                        help="per flow: long enough to run past the recovery")
    parser.add_argument("--timeout", type=float, default=150.0, help="a sender gives up after this")
    parser.add_argument("--out", type=Path, default=None, help="keep logs and stores here")
    args = parser.parse_args(argv)
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = [m for m in args.modes if m not in MODES]
    if unknown or not args.modes:
        parser.error(f"--modes: unknown {', '.join(unknown) or '(none)'}; choose from "
                     f"{', '.join(MODES)}")
    if args.runs < 1:
        parser.error("--runs must be >= 1")
    if not 0 < args.slow_pps < args.uplink_pps:
        parser.error("--slow-pps must be above 0 and below --uplink-pps")
    return args


def caption(args: argparse.Namespace, elapsed: float) -> str:
    return (f"{TOPOLOGY.name}: permutation of 8 flows x {args.bytes // 1024} KB, sprayed, "
            f"credits and trimming on; leaf uplinks drained at {args.uplink_pps:g} packets/s "
            f"in the switches' queues; each leaf's first uplink at {args.slow_pps:g} from "
            f"{args.slow_after:g} s after the first report for {args.slow_for:g} s; "
            f"{args.runs} run(s) per mode; {elapsed:.0f} s in all\n"
            f"{machine_facts(default_switch_binary())}\n"
            f"columns: reaction: median (max) over the slowed ports of every run, from the "
            f"slowdown to the controller's first weight set moving traffic off the port; "
            f"never: slowed ports it never moved off; RTT: the senders' smoothed RTT, median; "
            f"flaps: state changes after the first shift while slow, all runs; wrong: shifts "
            f"off the fast members while slow; early: shifts before the slowdown; return: "
            f"from the recovery to equal weights, median (max); load: 1-min load averages")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    problem = fabric_bench_problem("bench/adaptive_reaction.py", P4INFO)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    progress = Progress(len(args.modes) * args.runs, sys.stderr)
    results: dict[str, list[RunResult]] = {mode: [] for mode in args.modes}
    with tempfile.TemporaryDirectory(prefix="adaptive-") as scratch:
        work = args.out or Path(scratch)
        for run in range(args.runs):
            for mode in args.modes:      # modes alternate, so both see the same load drift
                result = run_once(mode, args, TOPOLOGY, work / f"{mode[:3]}{run}")
                results[mode].append(result)
                shown = [_seconds(r.reaction_s).strip() for r in result.reactions]
                progress.step(f"{mode}, run {run + 1}: {result.completed}/{result.flows} flows"
                              + (f", reactions {' '.join(shown)}" if shown else "")
                              + (f" ({result.error})" if result.error else ""))
    print(caption(args, progress.elapsed()))
    print(HEADER)
    for mode in args.modes:
        print(format_mode(mode, results[mode]))
    errors = [f"{r.mode}: {r.error}" for runs in results.values() for r in runs if r.error]
    for error in errors:
        print(f"failed run: {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
