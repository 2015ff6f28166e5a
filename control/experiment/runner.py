"""Run a plan: one fabric per setting (the shaped topology, collector, controller), its
steps in turn, a row per step; then the table and the report.

Incast steps run last on their fabric because they slow the receiver's last hop: on
p4sim with the switch's own egress queue rate (the queue builds in the switch, where
trimming, ECN and INT see it), on simple_switch_grpc, which cannot change queues at
run time, with tc on that port (no in-switch queue there, so no trims at that hop).

The mixed case (back-end UEC beside front-end TCP, each in its partition) runs on its
own fabric, whose policy holds the partitions; before its first step every leaf uplink
its flows cross is slowed to the plan's ``mixed_pps`` in the switch's own queue (on
simple_switch_grpc by tc, as for the incast). A ``slow_uplink`` setting does the same
to every leaf uplink at the plan's ``slow_uplink_rates`` (each leaf's first uplink
slower), and the other settings at ``uplink_pps`` when the plan sets it (plan.Plan
says why). The adaptive mode's controller reads the
fabric's collector store (fabricctl run --db) for its INT-driven weights.

The plan's ``capture`` setting is launched with per-port pcaps into ``<out>/pcaps``
(control/experiment/pcaps.py); the report links them.

A plan with ``federation`` then runs the two-domain demo (control/experiment/federation.py)
on its own fabric; the report gets its "Federation" section and the terminal its table.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from control.experiment.fabric import snapshot, topology_file, write_policy, write_topology
from control.experiment.federation import FederationOutcome, run_federation
from control.experiment.federation_report import format_federation
from control.experiment.flows import run_flows
from control.experiment.metrics import Row, failed_row, make_row
from control.experiment.pcaps import Capture, collect, summary
from control.experiment.plan import Plan, Setting, Step, Workload
from control.experiment.progress import Progress
from control.experiment.report import write_report
from control.experiment.table import format_table
from control.errors import ConfigError
from control.launch import FabricNetwork, LaunchError, start_collector, start_controller
from control.topology import load_topology


@dataclass
class Outcome:
    rows: list[Row]
    report: Path
    elapsed_s: float
    int_dbs: dict[str, Path] = field(default_factory=dict)
    captures: list[Capture] = field(default_factory=list)   # of plan.capture's fabric
    federation: FederationOutcome | None = None             # of plan.federation's demo


def ordered_steps(plan: Plan) -> list[Step]:
    """Steps grouped by setting (one launch each), incasts last within a setting."""
    return [step for setting in plan.settings()
            for step in sorted((s for s in plan.steps if s.setting == setting),
                               key=lambda s: s.workload.incast)]


def run_experiment(plan: Plan, out_dir: Path | str, *, stream: TextIO = sys.stderr) -> Outcome:
    """Run every step of ``plan``; write report.html and its PNGs into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    work = out / "work"
    work.mkdir(exist_ok=True)
    topology = write_topology(work / f"{plan.topology}.toml", plan.link_pps,
                              source=topology_file(plan.topology))
    steps = ordered_steps(plan)
    demo = plan.federation
    progress = Progress(len(steps) + (len(demo.transfers) if demo else 0), stream)
    rows: list[Row] = []
    dbs: dict[str, Path] = {}
    pcap_root = out / "pcaps"
    shutil.rmtree(pcap_root, ignore_errors=True)   # never another run's captures
    captures: list[Capture] = []
    for index, setting in enumerate(plan.settings()):
        mine = [s for s in steps if s.setting == setting]
        db = out / f"int-{index}-{_slug(setting.label)}.sqlite"
        db.unlink(missing_ok=True)
        progress.note(f"launching {plan.topology} for {setting.label}")
        done: list[Row] = []
        pcaps = pcap_root if setting == plan.capture else None
        try:
            _run_setting(plan, setting, mine, topology, db, work / f"s{index}", progress, done,
                         pcaps)
            dbs[setting.label] = db
        except (LaunchError, ConfigError, OSError, subprocess.SubprocessError) as exc:
            # the fabric itself failed: its remaining steps are rows marked incomplete
            for step in mine[len(done):]:
                progress.step(f"{step.workload.name}, {step.label}: skipped")
                done.append(failed_row(step.workload.name, step.label, len(step.workload.flows),
                                       f"fabric: {_first_line(exc)}", len(step.workload.tcp)))
        rows += done
        if pcaps is not None:   # the switches are stopped: their files are complete
            captures = collect(pcaps, plan.pcap_cap_bytes)
    order = list(dict.fromkeys(s.workload.name for s in plan.steps))
    rows.sort(key=lambda r: order.index(r.workload))
    federation = run_federation(demo, out, progress) if demo else None
    names = {s.node_id: s.name for s in load_topology(str(topology)).switches}
    report = write_report(rows, dbs, out, plan, names, captures, federation)
    elapsed = progress.elapsed()
    if rows:
        print(format_table(rows, plan), flush=True)
    if federation is not None:
        print(format_federation(federation), flush=True)
    if captures:
        print(f"pcaps of the {plan.capture.label if plan.capture else ''} fabric in {pcap_root}: "
              f"{summary(captures, plan.pcap_cap_bytes)}", flush=True)
    demo_steps = f" + {len(federation.transfers)} federation transfers" if federation else ""
    print(f"experiment: {len(rows)} steps{demo_steps} in {elapsed:.0f} s; report: {report}",
          flush=True)
    return Outcome(rows, report, elapsed, dbs, captures, federation)


def _run_setting(plan: Plan, setting: Setting, steps: list[Step], topology: Path, db: Path,
                 work: Path, progress: Progress, rows: list[Row], pcaps: Path | None) -> None:
    """Append a row per step to ``rows`` as each finishes; switches write per-port pcaps
    into ``pcaps`` unless it is None."""
    work.mkdir(parents=True, exist_ok=True)
    policy = write_policy(work / "policy.toml", setting)
    with FabricNetwork(topology, tag=f"ex{os.getpid()}-{work.name}", log_dir=work / "logs",
                       pcap_dir=pcaps) as net:
        collector = start_collector(net, db)
        start_controller(net, policy, extra=("--db", str(db)) if setting.mode == "adaptive" else ())
        if setting.slow_uplink:
            if plan.slow_uplink_rates is None:
                raise ValueError(f"{setting.label}: the plan has no slow_uplink_rates")
            every, first = plan.slow_uplink_rates
            for switch, port in leaf_uplinks(net):
                _slow_port(net, switch, port, every)
            for switch, port in first_uplinks(net):
                _slow_port(net, switch, port, first)
        elif plan.uplink_pps is not None and setting.partitions is None:
            for switch, port in leaf_uplinks(net):
                _slow_port(net, switch, port, plan.uplink_pps)
        bottleneck_set = uplinks_set = False
        for number, step in enumerate(steps):
            if step.workload.incast and not bottleneck_set:
                _slow_last_hop(net, step.workload.flows[0][1], plan.bottleneck_pps)
                bottleneck_set = True
            if step.workload.mixed and not uplinks_set:
                for switch, port in source_uplinks(net, step.workload):
                    _slow_port(net, switch, port, plan.mixed_pps)
                uplinks_set = True
            rows.append(_run_step(net, plan, step, work / f"step{number}"))
            row = rows[-1]
            progress.step(f"{step.workload.name}, {step.label}: {row.completed}/{row.flows} "
                          f"flows" + (f" ({row.error})" if row.error else ""))
        collector.stop()


def _run_step(net: FabricNetwork, plan: Plan, step: Step, work: Path) -> Row:
    ev_mode = "pin" if step.setting.mode == "ecmp" else "spray"
    try:
        before = snapshot(net)
        result = run_flows(net, step.workload.flows, step.bytes_per_flow, credit=step.credit,
                           ev_mode=ev_mode, timeout=plan.flow_timeout_s, work=work,
                           tcp=step.workload.tcp,
                           tcp_bytes=step.tcp_bytes_per_flow or step.bytes_per_flow)
        after = snapshot(net)
    except (LaunchError, OSError, ValueError, subprocess.SubprocessError) as exc:
        return failed_row(step.workload.name, step.label, len(step.workload.flows),
                          _first_line(exc), len(step.workload.tcp))
    return make_row(step.workload.name, step.label, net.topology, step.workload.flows,
                    before, after, result)


def source_uplinks(net: FabricNetwork, workload: Workload) -> list[tuple[str, int]]:
    """(leaf, port) of every uplink of every leaf a UEC or TCP flow of ``workload``
    starts from: where the mixed case's back end and front end share a queue."""
    leaves = {net.endpoints[src].switch for src, _dst in workload.flows + workload.tcp}
    return sorted((leaf, port) for leaf in leaves for port in net.topology.fabric_ports(leaf))


def leaf_uplinks(net: FabricNetwork) -> list[tuple[str, int]]:
    """(leaf, port) of every leaf's every uplink: where plan.uplink_pps drains."""
    leaves = [s.name for s in net.topology.switches if s.role == "leaf"]
    return sorted((leaf, port) for leaf in leaves for port in net.topology.fabric_ports(leaf))


def first_uplinks(net: FabricNetwork) -> list[tuple[str, int]]:
    """(leaf, its lowest uplink port) per leaf: what a slow_uplink setting slows."""
    first: dict[str, int] = {}
    for leaf, port in leaf_uplinks(net):
        first.setdefault(leaf, port)
    return sorted(first.items())


def _slow_last_hop(net: FabricNetwork, receiver: str, pps: float) -> None:
    endpoint = net.endpoints[receiver]
    _slow_port(net, endpoint.switch, endpoint.port, pps)


def _slow_port(net: FabricNetwork, switch: str, port: int, pps: float) -> None:
    """The switch's own egress queue rate on ``port``; on simple_switch_grpc, which has no
    run-time queue rate, tc on the port's link instead (the queue then builds after it)."""
    try:
        net.set_queue_rate(switch, port, pps)
    except LaunchError:
        net.set_link_rate(switch, port, pps)


def _slug(label: str) -> str:
    """A setting's label as a file name part: "entropy, no trim" -> "entropy-no-trim"."""
    return "-".join("".join(c if c.isalnum() or c == "_" else " " for c in label).split())


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
