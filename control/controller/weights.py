"""Adaptive spraying: shift multipath member weights away from congested egress ports.

The sinks report on change (p4src/include/control/int_report_filter.p4): a flow's first
packet on each hop set and every change of a hop's latency or queue bucket (the sink's
and the three before it), not every packet. A mean of the reports in a time window is then biased (reports cluster at
changes and are absent in steady state), so a port's state is its **latest** reported
occupancy, held until a newer report (zero-order hold): with change-triggered reports a
newer report is exactly what a change produces. Queue buckets start at 4 packets and
grow fourfold (4, 16, 64, ...): ``low`` sits on the first edge, so the report a queue
sends when it drains below 4 clears it; ``high`` is the shipped policy's ECN threshold
(8), where the transport already slows down and the queue tends to stay (so above 16,
the next edge, it rarely goes, and a threshold there would never fire). On a slow link
that short queue is a long wait, so hop latency can count too (``latency_high`` /
``latency_low``, e.g. 8192 / 4096 us, the latter on the filter's first latency edge). It
is off by default: on a loaded host p4sim's hop latency includes the Python switch's
scheduling stalls (single reports of 0.5 s at an idle port were seen on two_leaves), and
one such report at a shared last hop would mark every member congested.

Hysteresis in level (``high`` / ``low``) and in time: congestion is acted on at once
(shifting away is cheap: a congested member keeps weight 1), but a port is cleared only
after its latest occupancy stayed below ``low`` for its hold time, and that hold doubles
(up to ``max_hold_s``) whenever a port congests again soon after being cleared, which is
what a link too slow for an equal share does under a two-level policy. This damps the
limit cycle instead of following it.
"""
from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, field
from typing import Mapping

from control.collector.aggregates import LATENCY_UNAVAILABLE, OCCUPANCY_UNAVAILABLE

PortKey = tuple[int, int]  # (INT node ID, egress port)


@dataclass(frozen=True)
class WeightPolicy:
    high: float = 8.0           # occupancy (packets) at or above which a port is congested
    low: float = 4.0            # ... and below which it may clear (report bucket 0)
    latency_high: float | None = None  # hop latency (us) at or above which a port is congested
    latency_low: float = 4096.0        # ... and below which (with the queue below ``low``) it may clear
    clear_weight: int = 4       # weight of a member whose port is clear
    congested_weight: int = 1   # weight of a member whose port is congested (never 0: keep the path)
    window_s: float = 2.0       # recent_occupancy's window (per-packet reports only)
    hold_s: float = 2.0         # a port must stay below ``low`` this long before it clears
    max_hold_s: float = 32.0    # cap of the hold after repeated congest/clear cycles
    poll_s: float = 0.2         # default interval of the adaptive loop
    max_poll_s: float = 1.0     # longest interval the loop accepts (reaction time bound)


@dataclass(frozen=True)
class PortSample:
    """What the newest reports say of one egress queue."""

    occupancy: float | None = None   # packets
    latency_us: float | None = None  # hop latency


Measurement = float | PortSample  # a bare float is an occupancy


def _levels(value: Measurement, p: WeightPolicy) -> tuple[bool, bool]:
    """(above the high thresholds, below the low ones) of one measurement."""
    s = value if isinstance(value, PortSample) else PortSample(occupancy=float(value))
    occ, lat = s.occupancy, s.latency_us
    if p.latency_high is None:
        lat = None  # latency not used
    if occ is None and lat is None:
        return False, False  # nothing this policy reads: no evidence either way
    high = (occ is not None and occ >= p.high) or (
        lat is not None and p.latency_high is not None and lat >= p.latency_high)
    low = (occ is None or occ < p.low) and (lat is None or lat < p.latency_low)
    return high, low


def next_congestion(previous: Mapping[PortKey, bool], occupancy: Mapping[PortKey, float],
                    policy: WeightPolicy) -> dict[PortKey, bool]:
    """New congested flag per port by level alone (no time hysteresis); ports without
    samples keep their state."""
    state = dict(previous)
    for key, value in occupancy.items():
        was = previous.get(key, False)
        if not was and value >= policy.high:
            state[key] = True
        elif was and value < policy.low:
            state[key] = False
        else:
            state[key] = was
    return state


@dataclass
class _Port:
    congested: bool = False
    below_since: float | None = None   # since when the latest occupancy is below ``low``
    cleared_at: float | None = None
    hold_s: float = 0.0


@dataclass
class CongestionTracker:
    """Congestion per port with level and time hysteresis; ``now`` is any monotonic
    clock in seconds (the loop's, or a test's)."""

    policy: WeightPolicy
    _ports: dict[PortKey, _Port] = field(default_factory=dict)

    def step(self, occupancy: Mapping[PortKey, Measurement], now: float) -> dict[PortKey, bool]:
        """Congested flag per port known so far, given each port's current measurement."""
        p = self.policy
        for key, value in occupancy.items():
            port = self._ports.setdefault(key, _Port(hold_s=p.hold_s))
            high, low = _levels(value, p)
            if high:
                port.below_since = None
                if not port.congested:
                    port.congested = True
                    again = port.cleared_at is not None and now - port.cleared_at < port.hold_s * 2
                    port.hold_s = min(port.hold_s * 2, p.max_hold_s) if again else p.hold_s
            elif low:
                if port.below_since is None:
                    port.below_since = now
                if port.congested and now - port.below_since >= port.hold_s:
                    port.congested = False
                    port.cleared_at = now
            else:
                port.below_since = None  # between the thresholds: keep the state
        return {key: port.congested for key, port in self._ports.items()}


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


class LatestOccupancy:
    """Each (node, egress port)'s queue and latency in its newest reports in the
    collector's SQLite store (read-only; the collector keeps writing), held until newer
    ones; of several reports since the last read, the worst (any fresh sign of congestion
    counts; clearing needs them all low). Reads only the reports added since the last
    call, so a poll costs what arrived, not what the store holds."""

    def __init__(self, db_path: str):
        self.db_path = db_path
        self._last_id = 0
        self._latest: dict[PortKey, PortSample] = {}

    def read(self) -> dict[PortKey, PortSample]:
        try:
            db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=1.0)
        except sqlite3.OperationalError:
            return dict(self._latest)  # the collector has not created its store yet
        try:
            rows = db.execute(
                "SELECT report_id, node_id, egress_port, NULLIF(queue_occupancy, ?), "
                "NULLIF(hop_latency, ?) FROM hops WHERE report_id > ? AND node_id IS NOT NULL "
                "AND egress_port IS NOT NULL ORDER BY report_id",
                (OCCUPANCY_UNAVAILABLE, LATENCY_UNAVAILABLE, self._last_id)).fetchall()
        except sqlite3.OperationalError:
            rows = []  # no tables yet
        finally:
            db.close()
        fresh: dict[PortKey, PortSample] = {}
        for report_id, node, port, occupancy, latency in rows:
            self._last_id = max(self._last_id, report_id)
            if occupancy is None and latency is None:
                continue
            seen = fresh.get((node, port), PortSample())
            fresh[(node, port)] = PortSample(_worst(seen.occupancy, occupancy),
                                             _worst(seen.latency_us, latency))
        self._latest.update(fresh)
        return dict(self._latest)


def _worst(a: float | None, b: float | None) -> float | None:
    return a if b is None else float(b) if a is None else max(a, float(b))


def recent_occupancy(db_path: str, window_s: float, now: float | None = None) -> dict[PortKey, float]:
    """Mean queue occupancy per (node, egress port) over the last ``window_s`` seconds.
    Sound only with per-packet reports (``int.report_mode = "every_packet"``); the
    adaptive loop uses LatestOccupancy."""
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
