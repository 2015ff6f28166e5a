"""Adaptive spraying's inputs: its policy, and each egress queue's state from the
telemetry collector's store.

The sinks report on change (p4src/include/control/int_report_filter.p4): a flow's first
packet on each hop set and every change of a hop's latency or queue bucket (the sink's
and the three before it), not every packet. A mean of the reports in a time window is
then biased (reports cluster at changes and are absent in steady state), so a port's
state is its **latest** report, held until a newer one (zero-order hold): with
change-triggered reports a newer report is exactly what a change produces. Queue buckets
start at 4 packets and grow fourfold (4, 16, 64, ...): ``low`` sits on the first edge, so
the report a queue sends when it drains below 4 says it is empty. What the weights do
with it is control/controller/balance.py's.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Mapping

from control.collector.aggregates import LATENCY_UNAVAILABLE, OCCUPANCY_UNAVAILABLE

PortKey = tuple[int, int]  # (INT node ID, egress port)


@dataclass(frozen=True)
class WeightPolicy:
    low: float = 4.0            # occupancy (packets) from which a hop counts as queued
    ratio: float = 3.0          # a member waiting this many times the shortest wait loses weight
    back_ratio: float = 1.25    # ... or this many times, if it has the larger weight (toward equal)
    gap_us: float = 4096.0      # ... if it also waits this much longer (the first latency edge)
    step_s: float = 2.0         # at most one move per group this often (the queues answer a move)
    smooth_s: float = 1.0       # waits are averaged over about this long
    clear_weight: int = 4       # each member's weight when balanced (a group's weights sum to n times this)
    congested_weight: int = 1   # the least weight a member keeps (never 0: keep the path)
    hold_s: float = 2.0         # a group must stay unqueued this long before each step back to equal
    max_hold_s: float = 32.0    # cap of the hold after repeated relapses
    poll_s: float = 0.2         # default interval of the adaptive loop
    max_poll_s: float = 1.0     # longest interval the loop accepts (reaction time bound)


@dataclass(frozen=True)
class PortSample:
    """What the newest reports say of one egress queue."""

    occupancy: float | None = None   # packets
    latency_us: float | None = None  # hop latency


class LatestOccupancy:
    """Each (node, egress port)'s queue and latency in its newest reports in the
    collector's SQLite store (read-only; the collector keeps writing), held until newer
    ones; of several reports since the last read, the worst (any fresh sign of congestion
    counts; clearing needs them all low). Kept per queue and given per port as the worst
    queue's, so that a feedback packet's short wait in its priority queue does not hide
    the data queue's. Reads only the reports added since the last call, so a poll costs
    what arrived, not what the store holds."""

    def __init__(self, db_path: str):
        self.db_path = db_path
        self._last_id = 0
        self._latest: dict[tuple[int, int, int], PortSample] = {}

    def read(self) -> dict[PortKey, PortSample]:
        try:
            db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=1.0)
        except sqlite3.OperationalError:
            return self._by_port()  # the collector has not created its store yet
        try:
            rows = db.execute(
                "SELECT report_id, node_id, egress_port, IFNULL(queue_id, 0), "
                "NULLIF(queue_occupancy, ?), NULLIF(hop_latency, ?) FROM hops WHERE report_id > ? "
                "AND node_id IS NOT NULL AND egress_port IS NOT NULL ORDER BY report_id",
                (OCCUPANCY_UNAVAILABLE, LATENCY_UNAVAILABLE, self._last_id)).fetchall()
        except sqlite3.OperationalError:
            rows = []  # no tables yet
        finally:
            db.close()
        fresh: dict[tuple[int, int, int], PortSample] = {}
        for report_id, node, port, queue, occupancy, latency in rows:
            self._last_id = max(self._last_id, report_id)
            if occupancy is None and latency is None:
                continue
            seen = fresh.get((node, port, queue), PortSample())
            fresh[(node, port, queue)] = PortSample(_worst(seen.occupancy, occupancy),
                                                    _worst(seen.latency_us, latency))
        self._latest.update(fresh)
        return self._by_port()

    def _by_port(self) -> dict[PortKey, PortSample]:
        ports: dict[PortKey, PortSample] = {}
        for (node, port, _queue), sample in self._latest.items():
            seen = ports.get((node, port), PortSample())
            ports[(node, port)] = PortSample(_worst(seen.occupancy, sample.occupancy),
                                             _worst(seen.latency_us, sample.latency_us))
        return ports


def _worst(a: float | None, b: float | None) -> float | None:
    return a if b is None else float(b) if a is None else max(a, float(b))
