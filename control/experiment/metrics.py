"""The figures of one step, from the switches' counters and the endpoints' summaries.

Spine-link load counts every packet a switch sent on a directed leaf-spine link during
the step (data, ACKs, retransmissions, INT), over the links the workload's data crosses
(source leaf up, spine down to the destination leaf): max/mean is 1.0 when traffic is
spread perfectly over the equal-cost links and grows as flows pile onto one of them.
Drops are data packets sent but never arrived (trimmed packets arrive: they are not drops).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from control.experiment.flows import WorkloadResult
from control.topology import Topology

Link = tuple[str, int, str]   # (sending switch, port, receiving switch)


@dataclass
class Row:
    workload: str
    mode: str
    flows: int
    completed: int
    load_max_pps: float
    load_mean_pps: float
    fct_p50_s: float | None
    fct_p99_s: float | None
    goodput_mbps: float
    drops: int
    trims: int
    retransmissions: int
    link_packets: dict[str, int] = field(default_factory=dict)
    fcts: list[float] = field(default_factory=list)
    error: str = ""

    @property
    def complete(self) -> bool:
        return self.completed == self.flows and not self.error

    @property
    def imbalance(self) -> float | None:
        """max/mean spine-link load (1.0 = perfectly spread)."""
        return self.load_max_pps / self.load_mean_pps if self.load_mean_pps > 0 else None


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def data_links(topology: Topology, flows: tuple[tuple[str, str], ...],
               links: list[Link]) -> list[Link]:
    """The directed leaf-spine links some flow's data may cross."""
    leaf = {h.name: h.switch for h in topology.hosts}
    crossing = {(leaf[s], leaf[d]) for s, d in flows if leaf[s] != leaf[d]}
    sources = {a for a, _b in crossing}
    targets = {b for _a, b in crossing}
    return [link for link in links if link[0] in sources or link[2] in targets]


def link_label(link: Link) -> str:
    return f"{link[0]}:{link[1]}->{link[2]}"


def make_row(workload: str, mode: str, topology: Topology, flows: tuple[tuple[str, str], ...],
             before: dict[str, Any], after: dict[str, Any], result: WorkloadResult) -> Row:
    used = data_links(topology, flows, sorted(after["links"]))
    span = max((f.fct_s for f in result.flows if f.fct_s), default=0.0) or result.wall_s
    packets = {link: after["links"][link] - before["links"].get(link, 0) for link in used}
    rates = [count / span for count in packets.values()] if span > 0 else []
    fcts = [f.fct_s for f in result.flows if f.complete and f.fct_s is not None]
    delivered = sum(f.sender.get("bytes", 0) for f in result.flows if f.complete)
    sent = sum(f.sender.get("packets", 0) for f in result.flows)
    arrived = sum(r.get("packets", 0) for r in result.received)
    return Row(workload=workload, mode=mode, flows=len(result.flows),
               completed=sum(1 for f in result.flows if f.complete),
               load_max_pps=max(rates, default=0.0),
               load_mean_pps=sum(rates) / len(rates) if rates else 0.0,
               fct_p50_s=percentile(fcts, 50), fct_p99_s=percentile(fcts, 99),
               goodput_mbps=delivered * 8 / span / 1e6 if span > 0 else 0.0,
               drops=max(0, sent - arrived), trims=after["trims"] - before["trims"],
               retransmissions=sum(f.sender.get("retransmissions", 0) for f in result.flows),
               link_packets={link_label(link): n for link, n in packets.items()}, fcts=fcts)


def failed_row(workload: str, mode: str, flows: int, error: str) -> Row:
    """A step that could not run at all: in the table as incomplete, with why."""
    return Row(workload, mode, flows, 0, 0.0, 0.0, None, None, 0.0, 0, 0, 0, error=error)
