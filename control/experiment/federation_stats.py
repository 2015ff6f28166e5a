"""What the two-domain demo's collector stores say: per domain, the hops and reports it
saw and its path latency; per inter-domain path, the federated latency, i.e. the sum of
the domains' summaries (source domain to its border + the border link + destination
domain from its border).

Each domain's collector holds only its own hops (INT is sunk and re-sourced at the
borders), so a packet west -> east via w-bd1 is one report in west's store whose path
ends at w-bd1 and one in east's whose path starts at e-bd1. A path's latency in a store
is the sum of its hops' latencies (µs, as the pipeline pushes them); reports with a hop
lacking one are left out, as control/peering/int_latency.py does. The federated figure
adds the domains' p50s, which is the sum of the summaries a peer would receive, not the
p50 of per-packet end-to-end sums (no store sees a whole packet's path).
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from control.collector.aggregates import LATENCY_UNAVAILABLE
from control.peering.int_latency import latency_of
from control.peering.summary import PathLatency


@dataclass(frozen=True)
class StoredPath:
    """One report's hops, source first, and their latency sum (None if a hop lacks one)."""
    nodes: tuple[int, ...]
    latency_us: int | None


def stored_paths(db: Path) -> list[StoredPath]:
    """Every report in the store ``db`` (empty if it was never created)."""
    if not db.exists():
        return []
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5.0)
    try:
        rows = conn.execute("SELECT report_id, node_id, hop_latency FROM hops "
                            "ORDER BY report_id, position").fetchall()
    except sqlite3.OperationalError:
        rows = []   # no tables yet
    finally:
        conn.close()
    grouped: dict[int, list[tuple[int, int | None]]] = {}
    for report, node, latency in rows:
        grouped.setdefault(report, []).append((node, latency))
    paths = []
    for hops in grouped.values():
        usable = all(lat is not None and lat != LATENCY_UNAVAILABLE for _n, lat in hops)
        paths.append(StoredPath(tuple(node for node, _lat in hops),
                                sum(lat or 0 for _n, lat in hops) if usable else None))
    return paths


@dataclass(frozen=True)
class DomainSummary:
    """One domain's row: its configured id, the domain ids its collector decoded in the
    reports (control/collector -v), the INT node ids with hops in its store, its report
    count and the p50/p99 of its reports' path latency."""
    domain: str
    domain_id: int
    reported_ids: tuple[int, ...]
    nodes: tuple[int, ...]
    reports: int
    latency: PathLatency | None


def domain_summary(domain: str, domain_id: int, db: Path,
                   reported_ids: tuple[int, ...]) -> DomainSummary:
    paths = stored_paths(db)
    nodes = tuple(sorted({n for p in paths for n in p.nodes if n is not None}))
    sums = [p.latency_us for p in paths if p.latency_us is not None]
    return DomainSummary(domain, domain_id, reported_ids, nodes, len(paths), latency_of(sums))


def to_border(paths: list[StoredPath], border: int) -> PathLatency | None:
    """Latency of the reports that end at ``border``: traffic leaving the domain there."""
    return latency_of([p.latency_us for p in paths if len(p.nodes) > 1 and p.nodes[-1] == border
                       and p.latency_us is not None])


def from_border(paths: list[StoredPath], border: int) -> PathLatency | None:
    """Latency of the reports that start at ``border``: traffic entering the domain there."""
    return latency_of([p.latency_us for p in paths if len(p.nodes) > 1 and p.nodes[0] == border
                       and p.latency_us is not None])


@dataclass(frozen=True)
class FederatedPath:
    """One direction over one border link: each domain's part, the link, the sum, and
    the end-to-end figure measured by the senders (half their smoothed RTT, median over
    this direction's transfers, whichever border they took)."""
    src_domain: str
    dst_domain: str
    src_border: str
    dst_border: str
    src_part: PathLatency | None
    link_us: int
    link_emulated: bool
    dst_part: PathLatency | None
    measured_us: float | None

    @property
    def taken(self) -> bool:
        return self.src_part is not None and self.dst_part is not None

    @property
    def total_p50_us(self) -> float | None:
        if self.src_part is None or self.dst_part is None:
            return None
        return self.src_part.p50_us + self.link_us + self.dst_part.p50_us

    @property
    def total_p99_us(self) -> float | None:
        if self.src_part is None or self.dst_part is None:
            return None
        return self.src_part.p99_us + self.link_us + self.dst_part.p99_us


__all__ = ["DomainSummary", "FederatedPath", "StoredPath", "domain_summary", "from_border",
           "stored_paths", "to_border"]
