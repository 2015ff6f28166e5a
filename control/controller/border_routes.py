"""Routes toward other domains through the border the peers' summaries chose (issue 15,
item 4).

Plain shortest paths spread a domain's traffic to another domain over every border
at the same distance. With a border choice (control/peering/border_choice.py ranks
the healthy borders per destination), a foreign destination is routed over the first
ranked border whose link is up *here* (the controller's own down ports): every other
inter-domain link is left out of that destination's graph. A chosen link that went
down locally therefore falls to the next ranked one at once, before the peers hear of
it; with no ranked border up (nothing chosen yet, or all unhealthy) the destination is
routed as before, over whatever links are up. Own-domain destinations are untouched.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from control.routing import Route, compute_routes
from control.topology import Host, Topology

PortEnd = tuple[str, int]
# destination name -> our link ends "SWITCH:PORT", most preferred first
BorderPreference = Mapping[str, Sequence[str]]


def parse_end(end: str) -> PortEnd:
    """"SWITCH:PORT" -> (switch, port)."""
    switch, _, port = end.rpartition(":")
    if not switch or not port.isdigit():
        raise ValueError(f"link end {end!r} is not SWITCH:PORT")
    return switch, int(port)


def interdomain_ends(topo: Topology) -> dict[PortEnd, PortEnd]:
    """Each inter-domain link end -> its far end (both directions)."""
    ends: dict[PortEnd, PortEnd] = {}
    for link in topo.interdomain_links:
        a, b = (link.a_switch, link.a_port), (link.b_switch, link.b_port)
        ends[a], ends[b] = b, a
    return ends


def effective_border(preference: Sequence[str], down: frozenset[PortEnd],
                     ends: Mapping[PortEnd, PortEnd]) -> PortEnd | None:
    """The first preferred link end whose link is up (neither end down), else None."""
    for text in preference:
        end = parse_end(text)
        if end in ends and end not in down and ends[end] not in down:
            return end
    return None


def routes_with_borders(topo: Topology, down: frozenset[PortEnd],
                        destinations: Sequence[Host], preference: BorderPreference) -> list[Route]:
    """compute_routes, with each destination in ``preference`` forced over its effective
    border (the other inter-domain links left out of its graph)."""
    ends = interdomain_ends(topo)
    groups: dict[PortEnd | None, list[Host]] = {}
    for dest in destinations:
        border = effective_border(preference.get(dest.name, ()), down, ends)
        groups.setdefault(border, []).append(dest)
    routes: list[Route] = []
    for border, dests in groups.items():
        cut = down if border is None else down | (set(ends) - {border, ends[border]})
        routes += compute_routes(topo, frozenset(cut), tuple(dests))
    order = {d.name: i for i, d in enumerate(destinations)}
    routes.sort(key=lambda r: order[r.host.name])  # stable: the switches' order within
    return routes


__all__ = ["BorderPreference", "effective_border", "interdomain_ends", "parse_end",
           "routes_with_borders"]
