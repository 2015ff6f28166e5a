"""Running per-port hop statistics, so the metrics endpoint answers in time
proportional to the number of ports, not to the number of stored reports.

INT pushes all ones for a value a hop could not supply; those are not samples.
"""
from __future__ import annotations

from dataclasses import dataclass

from wire_formats.layers import INT_UNAVAILABLE, IntHop

LATENCY_UNAVAILABLE = INT_UNAVAILABLE
OCCUPANCY_UNAVAILABLE = 0xFFFFFF  # the 24-bit occupancy of an all-ones queue word

PortKey = tuple[int, int | None, int | None]  # (node, ingress port, egress port)


@dataclass
class PortHopStats:
    """Latency and queue occupancy seen at one node between one pair of ports."""

    node_id: int
    ingress_port: int | None
    egress_port: int | None
    latency_samples: int = 0
    latency_sum: int = 0
    latency_max: int = 0
    queue_samples: int = 0
    queue_sum: int = 0
    queue_max: int = 0

    @property
    def key(self) -> PortKey:
        return self.node_id, self.ingress_port, self.egress_port

    def add_latency(self, samples: int, total: int, maximum: int) -> None:
        self.latency_samples += samples
        self.latency_sum += total
        self.latency_max = max(self.latency_max, maximum)

    def add_queue(self, samples: int, total: int, maximum: int) -> None:
        self.queue_samples += samples
        self.queue_sum += total
        self.queue_max = max(self.queue_max, maximum)


def usable_latency(hop: IntHop) -> int | None:
    latency = hop.hop_latency
    return None if latency is None or latency == LATENCY_UNAVAILABLE else latency


def usable_occupancy(hop: IntHop) -> int | None:
    occupancy = hop.queue_occupancy
    return None if occupancy is None or occupancy == OCCUPANCY_UNAVAILABLE else occupancy


class PortAggregates:
    """Per (node, ingress port, egress port) statistics; not thread-safe on its own
    (the Store serialises access)."""

    def __init__(self) -> None:
        self._ports: dict[PortKey, PortHopStats] = {}

    def entry(self, node_id: int, ingress_port: int | None, egress_port: int | None) -> PortHopStats:
        key = (node_id, ingress_port, egress_port)
        stats = self._ports.get(key)
        if stats is None:
            stats = self._ports[key] = PortHopStats(node_id, ingress_port, egress_port)
        return stats

    def add_hop(self, hop: IntHop) -> None:
        if hop.node_id is None:
            return
        stats = self.entry(hop.node_id, hop.ingress_port, hop.egress_port)
        latency, occupancy = usable_latency(hop), usable_occupancy(hop)
        if latency is not None:
            stats.add_latency(1, latency, latency)
        if occupancy is not None:
            stats.add_queue(1, occupancy, occupancy)

    def snapshot(self) -> list[PortHopStats]:
        """Copies, sorted by node then ports (None first)."""
        def order(key: PortKey) -> tuple:
            return tuple(-1 if part is None else part for part in key)
        return [PortHopStats(**vars(self._ports[key])) for key in sorted(self._ports, key=order)]


__all__ = ["LATENCY_UNAVAILABLE", "OCCUPANCY_UNAVAILABLE", "PortAggregates", "PortHopStats",
           "usable_latency", "usable_occupancy"]
