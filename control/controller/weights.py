"""Adaptive spraying: shift multipath member weights away from congested egress ports.

The decision is a pure function of the previous congestion state and fresh INT
measurements, with two thresholds (hysteresis): a port becomes congested above
``high`` and clear again only below ``low``, so a queue hovering around one threshold
does not make weights flap.
"""
from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from typing import Mapping

PortKey = tuple[int, int]  # (INT node ID, egress port)


@dataclass(frozen=True)
class WeightPolicy:
    high: float = 20.0          # mean queue occupancy (packets) that marks a port congested
    low: float = 5.0            # ... and below which it is clear again
    clear_weight: int = 4       # weight of a member whose port is clear
    congested_weight: int = 1   # weight of a member whose port is congested (never 0: keep the path)
    window_s: float = 2.0       # how far back INT samples count


def next_congestion(previous: Mapping[PortKey, bool], occupancy: Mapping[PortKey, float],
                    policy: WeightPolicy) -> dict[PortKey, bool]:
    """New congested flag per port; ports without fresh samples keep their state."""
    state = dict(previous)
    for key, value in occupancy.items():
        was = previous.get(key, False)
        if not was and value > policy.high:
            state[key] = True
        elif was and value < policy.low:
            state[key] = False
        else:
            state[key] = was
    return state


def member_weights(ports: list[int], node_id: int, congested: Mapping[PortKey, bool],
                   policy: WeightPolicy) -> dict[int, int]:
    """Weight per member port of one group on one switch, from its own egress queues."""
    return path_weights({p: [(node_id, p)] for p in ports}, congested, policy)


def path_weights(paths: Mapping[int, list[PortKey]], congested: Mapping[PortKey, bool],
                 policy: WeightPolicy) -> dict[int, int]:
    """Weight per member port, given the (node, egress port) queues each member's path
    crosses: a member is congested if any of them is. When every member is congested
    they are all equal again (shifting would only move the problem)."""
    flags = {p: any(congested.get(hop, False) for hop in hops) for p, hops in paths.items()}
    if all(flags.values()):
        return {p: policy.clear_weight for p in flags}
    return {p: policy.congested_weight if flags[p] else policy.clear_weight for p in flags}


def recent_occupancy(db_path: str, window_s: float, now: float | None = None) -> dict[PortKey, float]:
    """Mean queue occupancy per (node, egress port) over the last ``window_s`` seconds,
    read from the collector's SQLite store (read-only; the collector keeps writing)."""
    since = (time.time() if now is None else now) - window_s
    try:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.OperationalError:
        return {}  # the collector has not created its store yet
    try:
        rows = db.execute(
            "SELECT h.node_id, h.egress_port, AVG(h.queue_occupancy) FROM hops h "
            "JOIN reports r ON r.id = h.report_id WHERE r.received >= ? AND h.node_id IS NOT NULL "
            "AND h.egress_port IS NOT NULL AND h.queue_occupancy IS NOT NULL "
            "GROUP BY h.node_id, h.egress_port", (since,)).fetchall()
    except sqlite3.OperationalError:
        return {}  # no tables yet
    finally:
        db.close()
    return {(node, port): float(avg) for node, port, avg in rows}
