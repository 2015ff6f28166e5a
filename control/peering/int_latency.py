"""A border's path latency inside its domain, from the domain collector's INT reports.

With INT domains (control/controller/int_domains.py) a domain's collector holds only its
own domain's hops, and a packet that crosses a border is reported with the hops it took
inside the domain to (or from) the border switch. The latency through a border is then,
per report whose path includes the border's INT node id, the sum of its hops' latencies
(microseconds, as the pipeline pushes them); its p50 and p99 are what the summary
carries. Reports with a hop whose latency is missing or unavailable (all ones) are left
out: a partial sum would understate the path.

The store is read as the other tools read it (read-only SQLite on the collector's file,
control/collector/store.py's schema), so the controller need not share the collector's
process.
"""
from __future__ import annotations

import math
import sqlite3
from typing import Sequence

from control.collector.aggregates import LATENCY_UNAVAILABLE
from control.peering.summary import PathLatency


def nearest_rank(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` in (0, 1]) of ``values``, sorted or not:
    always one of the values, so the figure is one a packet really saw."""
    if not values:
        raise ValueError("no values")
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction {fraction} is not in (0, 1]")
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1]


def latency_of(sums: Sequence[float]) -> PathLatency | None:
    """p50/p99 of per-packet latency sums; None when there is none."""
    if not sums:
        return None
    return PathLatency(nearest_rank(sums, 0.50), nearest_rank(sums, 0.99), len(sums), "int")


def path_latency_sums(db_path: str, node_id: int, since: float | None = None) -> list[int]:
    """Per report received at or after ``since`` whose path includes ``node_id``: the sum
    of its hop latencies (reports with a hop lacking one are left out). Empty when the
    collector has not created its store yet."""
    try:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.OperationalError:
        return []
    try:
        rows = db.execute(
            "SELECT SUM(NULLIF(h.hop_latency, ?)), COUNT(*), COUNT(NULLIF(h.hop_latency, ?)) "
            "FROM hops h JOIN reports r ON r.id = h.report_id "
            "WHERE r.received >= ? AND h.report_id IN (SELECT report_id FROM hops WHERE node_id = ?) "
            "GROUP BY h.report_id ORDER BY h.report_id",
            (LATENCY_UNAVAILABLE, LATENCY_UNAVAILABLE,
             float("-inf") if since is None else since, node_id)).fetchall()
    except sqlite3.OperationalError:
        rows = []  # no tables yet
    finally:
        db.close()
    return [int(total) for total, hops, usable in rows if hops == usable and total is not None]


def border_latency(db_path: str, node_id: int, since: float | None = None) -> PathLatency | None:
    """The summary's latency through the border switch with INT node id ``node_id``;
    None without usable reports (the summary then gives numbers or omits the border)."""
    return latency_of(path_latency_sums(db_path, node_id, since))


__all__ = ["border_latency", "latency_of", "nearest_rank", "path_latency_sums"]
