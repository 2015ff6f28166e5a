"""SQLite store of decoded reports: per-flow paths, per-hop latency and queue occupancy.

One connection per Store, guarded by a lock, so the receiver thread writes while a CLI
or the metrics endpoint reads. A file store runs in WAL mode so that other processes
(fabricctl, the controller's adaptive loop) read it while the collector writes. The
schema is read directly by those tools: change it only by adding.
"""
from __future__ import annotations

import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from control.collector.aggregates import (LATENCY_UNAVAILABLE, OCCUPANCY_UNAVAILABLE,
                                          PortAggregates, PortHopStats)
from control.collector.report import TelemetryReport

SCHEMA = """
CREATE TABLE IF NOT EXISTS reports (
    id INTEGER PRIMARY KEY,
    received REAL NOT NULL,
    node_id INTEGER NOT NULL,
    seq_no INTEGER NOT NULL,
    flow TEXT,
    path TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hops (
    report_id INTEGER NOT NULL REFERENCES reports(id),
    position INTEGER NOT NULL,          -- 0 = the source's first INT hop
    node_id INTEGER,
    ingress_port INTEGER,
    egress_port INTEGER,
    hop_latency INTEGER,
    queue_id INTEGER,
    queue_occupancy INTEGER,
    ingress_ts INTEGER,
    egress_ts INTEGER
);
CREATE INDEX IF NOT EXISTS hops_node ON hops(node_id);
CREATE INDEX IF NOT EXISTS hops_report ON hops(report_id);
CREATE INDEX IF NOT EXISTS reports_received ON reports(received);
"""

_USABLE_LATENCY = f"NULLIF(hop_latency, {LATENCY_UNAVAILABLE})"
_USABLE_OCCUPANCY = f"NULLIF(queue_occupancy, {OCCUPANCY_UNAVAILABLE})"


@dataclass(frozen=True)
class HopSummary:
    node_id: int
    samples: int
    mean_latency: float
    max_latency: int
    mean_queue: float
    max_queue: int


@dataclass(frozen=True)
class HopSample:
    """One hop of one report at one node, for time series."""

    received: float
    ingress_port: int | None
    egress_port: int | None
    hop_latency: int | None  # None when not carried or unavailable (all ones)
    queue_occupancy: int | None


class Store:
    def __init__(self, path: str = ":memory:"):
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._lock = threading.Lock()
        self._ports = PortAggregates()
        self._paths: Counter[str] = Counter()
        with self._lock:
            if path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")  # no fsync per report
            self._db.executescript(SCHEMA)
            self._load_aggregates()

    def add(self, report: TelemetryReport, received: float | None = None) -> None:
        self.add_many([report], received)

    def add_many(self, reports: Iterable[TelemetryReport], received: float | None = None) -> None:
        """Store reports in one transaction (the receiver's batches)."""
        when = time.time() if received is None else received
        with self._lock, self._db:
            for report in reports:
                path = _path_text(report)
                cur = self._db.execute(
                    "INSERT INTO reports(received, node_id, seq_no, flow, path) VALUES (?,?,?,?,?)",
                    (when, report.node_id, report.seq_no,
                     str(report.flow) if report.flow else None, path))
                rows = [(cur.lastrowid, pos, h.node_id, h.ingress_port, h.egress_port,
                         h.hop_latency, h.queue_id, h.queue_occupancy, h.ingress_ts, h.egress_ts)
                        for pos, h in enumerate(reversed(report.hops))]
                self._db.executemany("INSERT INTO hops VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
                for hop in report.hops:
                    self._ports.add_hop(hop)
                self._paths[path] += 1

    def report_count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM reports").fetchone()[0]

    def flow_paths(self) -> dict[str, dict[str, int]]:
        """Per flow: each path seen (node IDs joined by commas) and how often."""
        with self._lock:
            rows = self._db.execute(
                "SELECT flow, path, COUNT(*) FROM reports GROUP BY flow, path ORDER BY flow, path")
            result: dict[str, dict[str, int]] = {}
            for flow, path, count in rows:
                result.setdefault(flow or "(unknown)", {})[path] = count
            return result

    def path_counts(self) -> dict[str, int]:
        """Reports per path (node IDs from the source, joined by commas), kept running."""
        with self._lock:
            return dict(sorted(self._paths.items()))

    def port_path_counts(self, since: float | None = None
                         ) -> dict[tuple[tuple[int | None, int | None, int | None], ...], int]:
        """Reports per path at port level (received at or after ``since``): each hop as
        (node, ingress port, egress port), from the source. Tells apart parallel links
        that node IDs alone do not."""
        counts: Counter[tuple] = Counter()
        with self._lock:
            rows = self._db.execute(
                "SELECT h.report_id, h.node_id, h.ingress_port, h.egress_port FROM hops h "
                "JOIN reports r ON r.id = h.report_id WHERE r.received >= ? "
                "ORDER BY h.report_id, h.position", (_since(since),))
            hops: list[tuple[int | None, int | None, int | None]] = []
            current = None
            for report_id, node, ingress, egress in rows:
                if report_id != current:
                    if current is not None:
                        counts[tuple(hops)] += 1
                    current, hops = report_id, []
                hops.append((node, ingress, egress))
            if current is not None:
                counts[tuple(hops)] += 1
        return dict(counts)

    def port_stats(self) -> list[PortHopStats]:
        """Latency and occupancy per (node, ingress port, egress port), kept running."""
        with self._lock:
            return self._ports.snapshot()

    def hop_summaries(self) -> list[HopSummary]:
        with self._lock:
            rows = self._db.execute(
                "SELECT node_id, COUNT(*), AVG(hop_latency), MAX(hop_latency), "
                "AVG(queue_occupancy), MAX(queue_occupancy) FROM hops "
                "WHERE node_id IS NOT NULL GROUP BY node_id ORDER BY node_id").fetchall()
        return [HopSummary(n, c, al or 0.0, ml or 0, aq or 0.0, mq or 0) for n, c, al, ml, aq, mq in rows]

    def series(self, node_id: int) -> list[tuple[float, int | None, int | None]]:
        """(received time, hop latency, queue occupancy) of one node, oldest first."""
        with self._lock:
            return self._db.execute(
                "SELECT r.received, h.hop_latency, h.queue_occupancy FROM hops h "
                "JOIN reports r ON r.id = h.report_id WHERE h.node_id = ? ORDER BY r.received",
                (node_id,)).fetchall()

    def nodes(self) -> list[int]:
        """Node IDs that appear in any hop."""
        with self._lock:
            return [n for (n,) in self._db.execute(
                "SELECT DISTINCT node_id FROM hops WHERE node_id IS NOT NULL ORDER BY node_id")]

    def received_span(self) -> tuple[float, float] | None:
        """When the oldest and the newest stored reports arrived (None if empty)."""
        with self._lock:
            first, last = self._db.execute("SELECT MIN(received), MAX(received) FROM reports").fetchone()
        return None if first is None else (first, last)

    def samples(self, node_id: int, since: float | None = None) -> list[HopSample]:
        """Every hop at ``node_id`` received at or after ``since``, oldest first,
        unavailable values as None."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT r.received, h.ingress_port, h.egress_port, {_USABLE_LATENCY}, "
                f"{_USABLE_OCCUPANCY} FROM hops h JOIN reports r ON r.id = h.report_id "
                "WHERE h.node_id = ? AND r.received >= ? ORDER BY r.received, r.id",
                (node_id, _since(since))).fetchall()
        return [HopSample(*row) for row in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _load_aggregates(self) -> None:
        """Running figures of what an existing file already holds."""
        rows = self._db.execute(
            f"SELECT node_id, ingress_port, egress_port, COUNT({_USABLE_LATENCY}), "
            f"TOTAL({_USABLE_LATENCY}), MAX({_USABLE_LATENCY}), COUNT({_USABLE_OCCUPANCY}), "
            f"TOTAL({_USABLE_OCCUPANCY}), MAX({_USABLE_OCCUPANCY}) FROM hops "
            "WHERE node_id IS NOT NULL GROUP BY node_id, ingress_port, egress_port")
        for node, ingress, egress, nl, sl, ml, nq, sq, mq in rows:
            stats = self._ports.entry(node, ingress, egress)
            stats.add_latency(nl, int(sl), ml or 0)
            stats.add_queue(nq, int(sq), mq or 0)
        for path, count in self._db.execute("SELECT path, COUNT(*) FROM reports GROUP BY path"):
            self._paths[path] += count


def stored_report_count(path: str) -> int:
    """Reports in the store file at ``path``, read-only while the collector writes; 0 if
    it does not exist yet (no report arrived)."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM reports").fetchone()[0])
    except sqlite3.Error:
        return 0


def _since(since: float | None) -> float:
    return float("-inf") if since is None else since


def _path_text(report: TelemetryReport) -> str:
    return ",".join("?" if n is None else str(n) for n in report.path)


__all__ = ["HopSample", "HopSummary", "Store"]
