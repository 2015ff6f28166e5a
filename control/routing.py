"""Shortest paths and equal-cost next-hop sets over the switch graph.

The controller installs, on every switch and for every host, either a direct route
(the host hangs off this switch) or a multipath group over every neighbour that lies
on some shortest path. Links can be marked down; routes are then recomputed from the
remaining graph, which is how a failed port leaves every group that used it.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from control.topology import Host, Link, Topology


@dataclass(frozen=True)
class NextHop:
    """One way out of a switch: its egress port and the MAC of what is behind it."""

    port: int
    neighbor: str  # switch or host name


@dataclass(frozen=True)
class Route:
    switch: str
    host: Host
    next_hops: tuple[NextHop, ...]  # one for a direct route, several for ECMP
    direct: bool


def adjacency(topo: Topology, down: frozenset[tuple[str, int]] = frozenset()
              ) -> dict[str, list[tuple[int, str]]]:
    """Per switch: (local port, neighbour switch) over links whose ends are both up."""
    adj: dict[str, list[tuple[int, str]]] = {s.name: [] for s in topo.switches}
    for link in topo.links:
        if (link.a_switch, link.a_port) in down or (link.b_switch, link.b_port) in down:
            continue
        adj[link.a_switch].append((link.a_port, link.b_switch))
        adj[link.b_switch].append((link.b_port, link.a_switch))
    for ports in adj.values():
        ports.sort()
    return adj


def distances_to(adj: dict[str, list[tuple[int, str]]], target: str) -> dict[str, int]:
    """Hop counts from every switch to ``target`` (BFS; links are symmetric)."""
    dist = {target: 0}
    queue = deque([target])
    while queue:
        here = queue.popleft()
        for _, neighbor in adj[here]:
            if neighbor not in dist:
                dist[neighbor] = dist[here] + 1
                queue.append(neighbor)
    return dist


def compute_routes(topo: Topology, down: frozenset[tuple[str, int]] = frozenset(),
                   destinations: tuple[Host, ...] | None = None) -> list[Route]:
    """Every (switch, host) route; hosts unreachable from a switch get no route there.

    ``destinations`` defaults to the topology's hosts; the controller adds the
    telemetry collector, which is routed like a host.
    """
    adj = adjacency(topo, down)
    routes = []
    for host in (topo.hosts if destinations is None else destinations):
        dist = distances_to(adj, host.switch)
        for sw in topo.switches:
            if sw.name == host.switch:
                if (host.switch, host.port) not in down:
                    routes.append(Route(sw.name, host, (NextHop(host.port, host.name),), True))
                continue
            if sw.name not in dist:
                continue
            hops = tuple(NextHop(port, nb) for port, nb in adj[sw.name]
                         if dist.get(nb, -1) == dist[sw.name] - 1)
            routes.append(Route(sw.name, host, hops, False))
    return routes


def link_between(topo: Topology, switch: str, port: int) -> Link | None:
    """The link that leaves ``switch`` by ``port``, if any."""
    for link in topo.links:
        if (link.a_switch, link.a_port) == (switch, port) or (link.b_switch, link.b_port) == (switch, port):
            return link
    return None
