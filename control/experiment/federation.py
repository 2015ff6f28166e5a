"""The two-domain demo `make run` ends with: topologies/two_domains.toml launched whole
(one controller and one collector per domain, INT sunk and re-sourced at the borders),
a few UEC transfers west -> east and east -> west, then what each domain's collector
stored (control/experiment/federation_stats.py) and the federated path latency.

The shipped policy is copied into the run's work directory with the INT sinks reporting
every packet (``int.report_mode = "every_packet"``; by default they report a flow only
when its hops or latency bucket change, one report per flow here), so the per-hop plots
and the percentiles have a sample per packet.

Each collector runs with -v so the domain ids it decoded from the Telemetry Reports
(Report v2.0 ``domain_id``) can be shown beside the configured ones. The border links'
latency is emulated only where the kernel has netem; the launch says when it is not
(FabricNetwork.notes) and the report repeats it.
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from control.errors import ConfigError
from control.experiment.fabric import topology_file
from control.experiment.federation_stats import (DomainSummary, FederatedPath, domain_summary,
                                                 from_border, stored_paths, to_border)
from control.experiment.plan import Federation
from control.experiment.progress import Progress
from control.launch import (FabricNetwork, LaunchError, collector_databases, run_transfer,
                            start_collector, start_controllers)
from control.topology import Topology, load_topology
from lab.errors import NotReady
from lab.readiness import wait_until

REPORT_DOMAIN = re.compile(r"TelemetryReport\(.*?domain_id=(\d+)")
REPORTS_WAIT_S = 20.0


@dataclass(frozen=True)
class CrossTransfer:
    """One transfer across the border: complete (every byte, same SHA-256), the sender's
    smoothed RTT and its wall time, or why it failed."""
    src: str
    dst: str
    nbytes: int
    complete: bool
    srtt_s: float = 0.0
    wall_s: float = 0.0
    error: str = ""


@dataclass
class FederationOutcome:
    topology: Topology
    transfers: list[CrossTransfer] = field(default_factory=list)
    domains: list[DomainSummary] = field(default_factory=list)
    paths: list[FederatedPath] = field(default_factory=list)
    dbs: dict[str, Path] = field(default_factory=dict)   # domain name -> its collector's store
    notes: list[str] = field(default_factory=list)        # what the launch could not emulate
    latency_emulated: bool = False
    error: str = ""                                       # the fabric itself failed


def policy_file(name: str) -> Path:
    """The shipped policy beside topologies/<name>.toml."""
    return topology_file(name).with_name(f"{name}.policy.toml")


def write_demo_policy(source: Path, path: Path) -> Path:
    """``source`` with its [int] table reporting every packet."""
    lines = source.read_text().splitlines()
    if "[int]" not in lines:
        raise ConfigError(str(source), [("int", "the demo needs an [int] table (INT on)")])
    if not any(line.split("=")[0].strip() == "report_mode" for line in lines):
        at = lines.index("[int]") + 1
        lines[at:at] = ['report_mode = "every_packet"   # control/experiment/federation.py']
    path.write_text("\n".join(lines) + "\n")
    return path


def run_federation(demo: Federation, out: Path, progress: Progress) -> FederationOutcome:
    """Launch, transfer, read the stores: one progress step per transfer. A fabric that
    fails to come up gives an outcome with ``error`` set and its transfers skipped."""
    work = out / "federation"
    work.mkdir(parents=True, exist_ok=True)
    topology = load_topology(str(topology_file(demo.topology)))
    outcome = FederationOutcome(topology)
    progress.note(f"launching {demo.topology}: {len(topology.domains)} domains, a controller "
                  f"and a collector each")
    reported: dict[str, tuple[int, ...]] = {}
    try:
        with FabricNetwork(topology_file(demo.topology), tag=f"fx{os.getpid()}",
                           log_dir=work / "logs") as net:
            outcome.notes = list(net.notes)
            outcome.latency_emulated = bool(net.border_shaping) and all(
                s.latency_emulated for s in net.border_shaping)
            by_collector = collector_databases(net, work / "int.sqlite")
            for db in by_collector.values():
                db.unlink(missing_ok=True)
            collectors = {name: start_collector(net, db, collector=name, extra=("-v",))
                          for name, db in by_collector.items()}
            start_controllers(net, write_demo_policy(policy_file(demo.topology),
                                                     work / "policy.toml"))
            for number, (src, dst) in enumerate(demo.transfers):
                outcome.transfers.append(_transfer(net, src, dst, demo, work / f"t{number}"))
                done = outcome.transfers[-1]
                progress.step(f"federation {src} -> {dst}: "
                              + ("complete" if done.complete else f"incomplete ({done.error})"))
            for domain in topology.domains:
                if domain.collector is not None:
                    outcome.dbs[domain.name] = by_collector[domain.collector.name]
            _wait_for_reports(list(outcome.dbs.values()))
            for domain in topology.domains:
                if domain.collector is None:
                    continue
                collector = collectors[domain.collector.name]
                collector.stop()
                reported[domain.name] = tuple(sorted({int(d) for d in
                                                      REPORT_DOMAIN.findall(collector.output)}))
    except (LaunchError, ConfigError, OSError, subprocess.SubprocessError) as exc:
        outcome.error = _first_line(exc)
        for src, dst in demo.transfers[len(outcome.transfers):]:
            outcome.transfers.append(CrossTransfer(src, dst, demo.bytes_per_transfer, False,
                                                   error=f"fabric: {outcome.error}"))
            progress.step(f"federation {src} -> {dst}: skipped")
        return outcome
    outcome.domains = [domain_summary(d.name, d.id, outcome.dbs[d.name], reported.get(d.name, ()))
                       for d in topology.domains if d.name in outcome.dbs]
    outcome.paths = federated_paths(topology, outcome)
    return outcome


def _transfer(net: FabricNetwork, src: str, dst: str, demo: Federation,
              work: Path) -> CrossTransfer:
    try:
        done = run_transfer(net, src, dst, demo.bytes_per_transfer, work, timeout=demo.timeout_s)
    except (LaunchError, OSError, ValueError, subprocess.SubprocessError) as exc:
        return CrossTransfer(src, dst, demo.bytes_per_transfer, False, error=_first_line(exc))
    complete = (done.delivered_bytes == demo.bytes_per_transfer
                and done.sender.get("sha256") == done.delivered_sha256)
    return CrossTransfer(src, dst, demo.bytes_per_transfer, complete,
                         float(done.sender.get("srtt_s") or 0.0), done.wall_s,
                         "" if complete else f"{done.delivered_bytes} of "
                                             f"{demo.bytes_per_transfer} bytes delivered")


def _wait_for_reports(dbs: list[Path]) -> None:
    """Until every store holds a report (they arrive by UDP after the transfer); a store
    that stays empty is shown as such rather than failing the run."""
    try:
        wait_until(lambda: all(stored_paths(db) for db in dbs), "INT reports in every store",
                   REPORTS_WAIT_S)
    except NotReady:
        pass


def federated_paths(topology: Topology, outcome: FederationOutcome) -> list[FederatedPath]:
    """Each border link in each direction: the source domain's part to its border, the
    link's configured one-way latency, the destination's part from its border."""
    stores = {name: stored_paths(db) for name, db in outcome.dbs.items()}
    paths = []
    for link in topology.interdomain_links:
        for a, b in ((link.a_switch, link.b_switch), (link.b_switch, link.a_switch)):
            src, dst = topology.domain_of(a), topology.domain_of(b)
            measured = [t.srtt_s / 2 * 1e6 for t in outcome.transfers if t.complete and t.srtt_s
                        and topology.domain_of(topology.host(t.src).switch).name == src.name
                        and topology.domain_of(topology.host(t.dst).switch).name == dst.name]
            paths.append(FederatedPath(
                src.name, dst.name, a, b,
                to_border(stores.get(src.name, []), topology.switch(a).node_id),
                link.latency_us, outcome.latency_emulated,
                from_border(stores.get(dst.name, []), topology.switch(b).node_id),
                statistics.median(measured) if measured else None))
    return paths


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


__all__ = ["CrossTransfer", "FederationOutcome", "federated_paths", "policy_file",
           "run_federation"]
