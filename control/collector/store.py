"""SQLite store of decoded reports: per-flow paths, per-hop latency and queue occupancy.

One connection per Store, guarded by a lock, so the receiver thread writes while a CLI
or the metrics endpoint reads.
"""
from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass

from control.collector.decode import TelemetryReport

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
"""


@dataclass(frozen=True)
class HopSummary:
    node_id: int
    samples: int
    mean_latency: float
    max_latency: int
    mean_queue: float
    max_queue: int


class Store:
    def __init__(self, path: str = ":memory:"):
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock:
            self._db.executescript(SCHEMA)

    def add(self, report: TelemetryReport, received: float | None = None) -> None:
        path = ",".join("?" if n is None else str(n) for n in report.path)
        with self._lock, self._db:
            cur = self._db.execute(
                "INSERT INTO reports(received, node_id, seq_no, flow, path) VALUES (?,?,?,?,?)",
                (received if received is not None else time.time(), report.node_id,
                 report.seq_no, str(report.flow) if report.flow else None, path))
            rows = [(cur.lastrowid, pos, h.node_id, h.ingress_port, h.egress_port, h.hop_latency,
                     h.queue_id, h.queue_occupancy, h.ingress_ts, h.egress_ts)
                    for pos, h in enumerate(reversed(report.hops))]
            self._db.executemany("INSERT INTO hops VALUES (?,?,?,?,?,?,?,?,?,?)", rows)

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

    def close(self) -> None:
        with self._lock:
            self._db.close()
