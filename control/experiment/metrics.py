"""The figures of one step, from the switches' counters and the endpoints' summaries.

Spine-link load counts every packet a switch sent on a directed leaf-spine link during
the step (data, ACKs, retransmissions, INT), over the links the workload's data crosses
(source leaf up, spine down to the destination leaf). max/mean is taken per tier (the
uplinks, leaf to spine; the downlinks, spine to leaf) and the worse tier is shown: 1.0
when traffic is spread perfectly over the equal-cost links, growing as flows pile onto
one of them. Per tier, because a fan-in (an incast from three leaves into one) loads each
downlink of the receiver's leaf more than each uplink of a sender's however well it is
spread.
That tier figure mixes two things: how evenly each leaf spreads its traffic over its own
uplinks (its multipath members: what spraying decides) and how much each leaf sends (the
flows' dynamics, which no spraying mode changes). The leaf figure is the first alone: per
source leaf, max/mean of its uplinks' packet counts, and the worst such leaf. The tier
figure also counts the INT reports, which all converge on the collector's leaf: in a
round-robin permutation on four_leaves the spines' downlinks into leaf1 carried 216-224
packets against 165-169 on the others (about 55 of them reports; from the pcaps), a tier
max/mean of 1.24, while every leaf's two uplinks were within 1% of each other.
Drops are data packets sent but never arrived (trimmed packets arrive: they are not drops).
In the mixed case the UEC columns are the back end's; the front end's TCP flows add their
own count, goodput (bytes delivered over the time the slowest took, go to the receiver's
answer) and kernel retransmissions.
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
    tcp_flows: int = 0
    tcp_completed: int = 0
    tcp_goodput_mbps: float | None = None     # None: no TCP in this step
    tcp_retransmissions: int = 0
    tier_imbalance: float | None = None       # worse tier's max/mean (make_row)
    leaf_imbalance: float | None = None       # worst leaf's max/mean over its uplinks

    @property
    def complete(self) -> bool:
        return (self.completed == self.flows and self.tcp_completed == self.tcp_flows
                and not self.error)

    @property
    def imbalance(self) -> float | None:
        """max/mean spine-link load of the worse tier (1.0 = perfectly spread)."""
        if self.tier_imbalance is not None:
            return self.tier_imbalance
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


def tier_imbalance(topology: Topology, rates: dict[Link, float]) -> float | None:
    """The larger max/mean of the uplinks' and the downlinks' rates (None if idle)."""
    role = {s.name: s.role for s in topology.switches}
    ratios = []
    for tier in ("leaf", "spine"):     # the sending switch's role: up, then down
        mine = [rate for link, rate in rates.items() if role[link[0]] == tier]
        if mine and sum(mine) > 0:
            ratios.append(max(mine) / (sum(mine) / len(mine)))
    return max(ratios, default=None)


def leaf_imbalance(topology: Topology, rates: dict[Link, float]) -> float | None:
    """The worst leaf's max/mean over its own uplinks (leaf to spine): how evenly each
    switch spreads over its multipath members, whatever the other leaves send. Leaves
    with one uplink or an idle set are skipped (None if no leaf is left)."""
    role = {s.name: s.role for s in topology.switches}
    uplinks: dict[str, list[float]] = {}
    for link, rate in rates.items():
        if role[link[0]] == "leaf" and role[link[2]] == "spine":
            uplinks.setdefault(link[0], []).append(rate)
    ratios = [max(mine) / (sum(mine) / len(mine))
              for mine in uplinks.values() if len(mine) > 1 and sum(mine) > 0]
    return max(ratios, default=None)


def link_label(link: Link) -> str:
    return f"{link[0]}:{link[1]}->{link[2]}"


def make_row(workload: str, mode: str, topology: Topology, flows: tuple[tuple[str, str], ...],
             before: dict[str, Any], after: dict[str, Any], result: WorkloadResult) -> Row:
    used = data_links(topology, flows + tuple((t.src, t.dst) for t in result.tcp),
                      sorted(after["links"]))
    span = max((f.fct_s for f in result.flows if f.fct_s), default=0.0) or result.wall_s
    # The links carried TCP too while it ran: their rates are over the longer of the two.
    link_span = max([span] + [t.elapsed_s for t in result.tcp if t.elapsed_s])
    packets = {link: after["links"][link] - before["links"].get(link, 0) for link in used}
    by_link = {link: count / link_span for link, count in packets.items()} if link_span > 0 else {}
    rates = list(by_link.values())
    fcts = [f.fct_s for f in result.flows if f.complete and f.fct_s is not None]
    delivered = sum(f.sender.get("bytes", 0) for f in result.flows if f.complete)
    sent = sum(f.sender.get("packets", 0) for f in result.flows)
    arrived = sum(r.get("packets", 0) for r in result.received)
    tcp_done = [t for t in result.tcp if t.complete and t.elapsed_s]
    tcp_span = max((t.elapsed_s or 0.0 for t in tcp_done), default=0.0)
    tcp_bytes = sum(int(t.summary.get("delivered", 0)) for t in tcp_done)
    return Row(workload=workload, mode=mode, flows=len(result.flows),
               completed=sum(1 for f in result.flows if f.complete),
               load_max_pps=max(rates, default=0.0),
               load_mean_pps=sum(rates) / len(rates) if rates else 0.0,
               fct_p50_s=percentile(fcts, 50), fct_p99_s=percentile(fcts, 99),
               goodput_mbps=delivered * 8 / span / 1e6 if span > 0 else 0.0,
               drops=max(0, sent - arrived), trims=after["trims"] - before["trims"],
               retransmissions=sum(f.sender.get("retransmissions", 0) for f in result.flows),
               link_packets={link_label(link): n for link, n in packets.items()}, fcts=fcts,
               tier_imbalance=tier_imbalance(topology, by_link),
               leaf_imbalance=leaf_imbalance(topology, by_link),
               tcp_flows=len(result.tcp), tcp_completed=len(tcp_done),
               tcp_goodput_mbps=(tcp_bytes * 8 / tcp_span / 1e6 if tcp_span > 0 else 0.0)
               if result.tcp else None,
               tcp_retransmissions=sum(int(t.summary.get("retransmissions", 0))
                                       for t in result.tcp))


def failed_row(workload: str, mode: str, flows: int, error: str, tcp_flows: int = 0) -> Row:
    """A step that could not run at all: in the table as incomplete, with why."""
    return Row(workload, mode, flows, 0, 0.0, 0.0, None, None, 0.0, 0, 0, 0, error=error,
               tcp_flows=tcp_flows, tcp_goodput_mbps=0.0 if tcp_flows else None)
