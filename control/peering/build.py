"""A domain's summary from what its controller knows: the topology, the policy, and the
figures it measured (INT latency per border switch, load and health per border link).

Prefixes are the domain's hosts, per partition (a host is in the partition whose members
hold its switch port, else in the shared partition 0), collapsed into the fewest
networks. Borders are the domain's ends of the topology's inter-domain links.
"""
from __future__ import annotations

import ipaddress
from typing import Mapping

from control.policy import Policy
from control.topology import Topology
from control.peering.border_choice import LocalBorder
from control.peering.summary import (SHARED_PARTITION, SHARED_PARTITION_NAME, BorderLink,
                                     BorderSummary, Capacity, Health, PartitionPrefixes,
                                     PathLatency, Summary, known_partitions)


def policy_partitions(policy: Policy) -> dict[int, str]:
    """The partitions a receiver with ``policy`` knows (for summary.from_json)."""
    return known_partitions({p.id: p.name for p in policy.partitions})


def domain_prefixes(topo: Topology, policy: Policy, domain: str) -> tuple[PartitionPrefixes, ...]:
    """The domain's hosts as prefixes per partition, partitions in id order; a partition
    with no host in the domain is left out."""
    hosts = set(topo.domain(domain).hosts)
    owner = {member: part.id for part in policy.partitions for member in part.members}
    names = {SHARED_PARTITION: SHARED_PARTITION_NAME, **{p.id: p.name for p in policy.partitions}}
    addresses: dict[int, list[ipaddress.IPv4Network]] = {}
    for host in topo.hosts:
        if host.name in hosts:
            pid = owner.get((host.switch, host.port), SHARED_PARTITION)
            addresses.setdefault(pid, []).append(ipaddress.IPv4Network(f"{host.ip}/32"))
    return tuple(PartitionPrefixes(pid, names[pid],
                                   tuple(str(n) for n in ipaddress.collapse_addresses(addresses[pid])))
                 for pid in sorted(addresses))


def domain_border_links(topo: Topology, domain: str) -> list[tuple[BorderLink, int]]:
    """The domain's ends of its inter-domain links, each with the link's rate (bit/s),
    in the topology's order."""
    members = set(topo.domain(domain).switches)
    found = []
    for link in topo.interdomain_links:
        ends = ((link.a_switch, link.a_port), (link.b_switch, link.b_port))
        for (sw, port), (other, other_port) in (ends, ends[::-1]):
            if sw in members:
                found.append((BorderLink(f"{sw}:{port}", f"{other}:{other_port}",
                                         topo.domain_of(other).name), link.rate_bps))
    return found


def build_summary(topo: Topology, policy: Policy, domain: str, *, serial: int, now: float,
                  latency: Mapping[str, PathLatency], health: Mapping[str, Health],
                  load_bps: Mapping[str, int] | None = None) -> Summary:
    """The summary ``domain`` publishes. ``latency`` is per border switch (e.g.
    int_latency.border_latency of its node id); ``health`` and ``load_bps`` per local link
    end "SWITCH:PORT" (a link without a load is taken as idle). ValueError naming every
    border that lacks a figure."""
    borders = []
    missing = []
    for link, rate in domain_border_links(topo, domain):
        switch = link.local_switch
        if switch not in latency:
            missing.append(f"latency of border switch {switch!r}")
        if link.local not in health:
            missing.append(f"health of border link {link.local!r}")
        if switch in latency and link.local in health:
            load = (load_bps or {}).get(link.local, 0)
            borders.append(BorderSummary(switch, link, latency[switch], Capacity(rate, load),
                                         health[link.local]))
    if missing:
        raise ValueError(f"summary of domain {domain!r}: no {', no '.join(missing)}")
    d = topo.domain(domain)
    return Summary(d.id, d.name, serial, now, domain_prefixes(topo, policy, domain), tuple(borders))


def peer_domains(topo: Topology, domain: str) -> dict[str, int]:
    """The domains ``domain`` peers with (the topology's ``peers``), name -> id: the
    PeerTable's configuration."""
    return {name: topo.domain(name).id for name in topo.domain(domain).peers}


def local_borders(topo: Topology, domain: str, up: Mapping[str, bool],
                  latency_us: Mapping[str, float] | None = None,
                  available_bps: Mapping[str, int] | None = None) -> list[LocalBorder]:
    """Our ends of the inter-domain links as border_choice takes them: ``up`` per local
    end "SWITCH:PORT" (absent: down), our in-domain latency per border switch, our
    available rate per local end; the link's one-way latency from the topology."""
    link_latency = {}
    for link in topo.interdomain_links:
        link_latency[f"{link.a_switch}:{link.a_port}"] = link.latency_us
        link_latency[f"{link.b_switch}:{link.b_port}"] = link.latency_us
    return [LocalBorder(link.local, link.remote, link.peer_domain, up.get(link.local, False),
                        (latency_us or {}).get(link.local_switch, 0.0),
                        float(link_latency[link.local]),
                        (available_bps or {}).get(link.local))
            for link, _ in domain_border_links(topo, domain)]


def load_from_counter(bytes_before: int, bytes_after: int, seconds: float) -> int:
    """Bits per second between two readings of a byte counter (e.g. a border port's
    packets_and_bytes counter), for ``build_summary``'s ``load_bps``."""
    if seconds <= 0:
        raise ValueError(f"interval must be > 0 s, got {seconds}")
    if bytes_after < bytes_before:
        raise ValueError(f"counter went back from {bytes_before} to {bytes_after} bytes")
    return int((bytes_after - bytes_before) * 8 / seconds)


__all__ = ["build_summary", "domain_border_links", "domain_prefixes", "load_from_counter",
           "local_borders", "peer_domains", "policy_partitions"]
