"""Partitions across administrative-domain borders: the tag agreed for each border link.

Inside a domain a partition crosses links as an 802.1Q tag whose VID is the policy's
``tag`` (control/controller/program.py). Two domains need not agree on those VIDs, so on
a border link (a port leading into another domain) the two sides agree on one VID per
partition for that link. fabric.p4 (p4src/include/control/partition.p4):

- ``border_ports`` marks the port a border on ingress; ``border_tag_in`` maps (port,
  link VID) to the local partition and removes the tag. A VID with no entry is dropped
  and counted (``border_unmapped_in[port]``), never classified; an untagged frame is
  partition 0 only if the link allows it, else dropped the same way.
- ``border_egress_ports`` marks it on egress; ``border_tag_out`` maps (port, local
  partition) to the link VID (or to ``border_untagged`` for partition 0 where allowed).
  A partition with no entry is dropped and counted (``border_unmapped_out[partition]``).

A border port must not also be given ``tag_ports``/``partitions`` entries: the border
tables decide for it. A switch with no border links gets no items and behaves as before.

In a launched federated fabric the mapping comes from the topology's
``[[interdomain_links]]`` (``partitions``: name -> VID on that link, ``allow_untagged``),
which both domains' operators agree on, and from each domain's policy (partition names
to its own ids and in-domain tags): ``switch_links`` and ``switch_border_items``. The
in-domain tag may differ from domain to domain; only the link's VID is shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from control.controller.state import STAGE_TABLE, Item, item
from control.p4rt.entities import P4Names
from control.peering.summary import SHARED_PARTITION, SHARED_PARTITION_NAME
from control.policy import Partition, Policy
from control.topology import Topology
from wire_formats.layers import CPU_PORT

BORDER_PORTS = "FabricIngress.partition.border_ports"
BORDER_PORT = "FabricIngress.partition.border_port"
BORDER_TAG_IN = "FabricIngress.partition.border_tag_in"
SET_PARTITION_UNTAG = "FabricIngress.partition.set_partition_untag"
BORDER_EGRESS_PORTS = "FabricEgress.partition_check.border_egress_ports"
BORDER_EGRESS_PORT = "FabricEgress.partition_check.border_egress_port"
BORDER_TAG_OUT = "FabricEgress.partition_check.border_tag_out"
BORDER_SET_TAG = "FabricEgress.partition_check.border_set_tag"
BORDER_UNTAGGED = "FabricEgress.partition_check.border_untagged"
UNMAPPED_IN = "FabricIngress.partition.border_unmapped_in"
UNMAPPED_OUT = "FabricEgress.partition_check.border_unmapped_out"
PORT_SPACE = 512      # v1model ports are 9 bits
VID_MIN, VID_MAX = 1, 4094   # 0 means "no VID", 4095 is reserved (IEEE 802.1Q)


class PartitionBorderError(ValueError):
    """A border mapping the pipeline cannot take, with where and why."""


@dataclass(frozen=True)
class BorderLink:
    """One border port of this switch toward ``domain``: partition name -> link VID ("shared"
    is partition 0), and whether untagged frames (partition 0) may cross it."""

    domain: str
    port: int
    tags: Mapping[str, int] = field(default_factory=dict)
    allow_untagged: bool = False

    @property
    def where(self) -> str:
        return f"border link to domain {self.domain!r} on port {self.port}"


def links_from_mapping(data: Mapping[str, Any], source: str = "border mapping"
                       ) -> list[BorderLink]:
    """``{domain: {port: {partition name: VID, ..., "allow_untagged": bool}}}`` as links
    (ports may be ints or decimal strings, as TOML and JSON keys are)."""
    links = []
    for domain, ports in data.items():
        if not isinstance(ports, Mapping):
            raise PartitionBorderError(f"{source}: domain {domain!r}: expected a table of "
                                       f"border ports, got {type(ports).__name__}")
        for port_key, tags in ports.items():
            where = f"{source}: domain {domain!r}: port {port_key!r}"
            try:
                port = int(port_key)
            except (TypeError, ValueError):
                raise PartitionBorderError(f"{where}: not a port number") from None
            if not isinstance(tags, Mapping):
                raise PartitionBorderError(f"{where}: expected a table of partition name = "
                                           f"VID, got {type(tags).__name__}")
            tags = dict(tags)
            allow = tags.pop("allow_untagged", False)
            if not isinstance(allow, bool):
                raise PartitionBorderError(f"{where}: allow_untagged: {allow!r} is not true "
                                           "or false")
            for name, vid in tags.items():
                if not isinstance(vid, int) or isinstance(vid, bool):
                    raise PartitionBorderError(f"{where}: partition {name!r}: VID {vid!r} is "
                                               "not an integer")
            links.append(BorderLink(str(domain), port, tags, allow))
    return links


def check_links(partitions: Sequence[Partition], links: Sequence[BorderLink],
                source: str = "border mapping") -> dict[int, dict[int, int]]:
    """Validates ``links`` against the policy's partitions; returns {port: {partition
    id: VID}}. Refuses a bad port, a port given twice, a VID out of 1..4094, two
    partitions on one VID of a link, and a partition name the policy does not have."""
    # Partitions match by name across domains, as in peering summaries; "shared" is
    # partition 0, which a link may carry with a VID instead of untagged.
    by_name = {SHARED_PARTITION_NAME: SHARED_PARTITION, **{p.name: p.id for p in partitions}}
    resolved: dict[int, dict[int, int]] = {}
    for link in links:
        where = f"{source}: {link.where}"
        if not 0 <= link.port < PORT_SPACE or link.port == CPU_PORT:
            raise PartitionBorderError(f"{where}: port: not a data port (0..{PORT_SPACE - 1}, "
                                       f"not the CPU port {CPU_PORT})")
        if link.port in resolved:
            raise PartitionBorderError(f"{where}: port: given twice")
        on_vid: dict[int, str] = {}
        ids: dict[int, int] = {}
        for name, vid in link.tags.items():
            at = f"{where}: partition {name!r}"
            if name not in by_name:
                known = ", ".join(sorted(by_name)) or "none"
                raise PartitionBorderError(f"{at}: not a partition of the policy "
                                           f"(partitions: {known})")
            if not VID_MIN <= vid <= VID_MAX:
                raise PartitionBorderError(f"{at}: VID {vid} is not in {VID_MIN}..{VID_MAX}")
            if vid in on_vid:
                raise PartitionBorderError(f"{at}: VID {vid} is already partition "
                                           f"{on_vid[vid]!r}'s on this link")
            if by_name[name] == SHARED_PARTITION and link.allow_untagged:
                raise PartitionBorderError(f"{at}: partition 0 has a VID and allow_untagged "
                                           "too: give one or the other")
            on_vid[vid] = name
            ids[by_name[name]] = vid
        resolved[link.port] = ids
    return resolved


def switch_links(topo: Topology, switch: str) -> list[BorderLink]:
    """``switch``'s ends of the topology's inter-domain links, as border links with the
    VIDs the topology gives them (toward the domain at the other end)."""
    links = []
    for idl in topo.interdomain_links:
        for (sw, port), other in (((idl.a_switch, idl.a_port), idl.b_switch),
                                  ((idl.b_switch, idl.b_port), idl.a_switch)):
            if sw == switch:
                links.append(BorderLink(topo.domain_of(other).name, port, dict(idl.partitions),
                                        idl.allow_untagged))
    return links


def mapped(topo: Topology, policy: Policy) -> bool:
    """Whether the border tables are programmed at all: the policy has partitions or a
    link names some (else borders carry untagged shared traffic as any fabric link)."""
    return bool(policy.partitions) or any(idl.partitions for idl in topo.interdomain_links)


def border_port_numbers(topo: Topology, policy: Policy, switch: str) -> set[int]:
    """The ports of ``switch`` the border tables decide for (none if not ``mapped``):
    leave them out of the fabric ports given tag_ports / partitions entries."""
    return {link.port for link in switch_links(topo, switch)} if mapped(topo, policy) else set()


def switch_border_items(names: P4Names, topo: Topology, policy: Policy, switch: str) -> list[Item]:
    """The border tables' entries for ``switch`` (none off the borders, or if not
    ``mapped``); PartitionBorderError for a link naming a partition the policy lacks."""
    if not mapped(topo, policy):
        return []
    return border_items(names, policy.partitions, switch_links(topo, switch),
                        f"topology [[interdomain_links]] at {switch}")


def border_items(names: P4Names, partitions: Sequence[Partition],
                 links: Sequence[BorderLink], source: str = "border mapping") -> list[Item]:
    """The entries of the border tables for ``links`` (none for no links)."""
    resolved = check_links(partitions, links, source)
    items: list[Item] = []
    for link in links:
        port = link.port
        items.append(item(STAGE_TABLE, table_entry=names.table_entry(
            BORDER_PORTS, {"ingress_port": port}, BORDER_PORT,
            {"allow_untagged": int(link.allow_untagged)})))
        items.append(item(STAGE_TABLE, table_entry=names.table_entry(
            BORDER_EGRESS_PORTS, {"egress_port": port}, BORDER_EGRESS_PORT)))
        for pid, vid in sorted(resolved[port].items()):
            items.append(item(STAGE_TABLE, table_entry=names.table_entry(
                BORDER_TAG_IN, {"ingress_port": port, "vlan_id": vid}, SET_PARTITION_UNTAG,
                {"id": pid})))
            items.append(item(STAGE_TABLE, table_entry=names.table_entry(
                BORDER_TAG_OUT, {"egress_port": port, "partition": pid}, BORDER_SET_TAG,
                {"vlan_id": vid})))
        if link.allow_untagged:
            items.append(item(STAGE_TABLE, table_entry=names.table_entry(
                BORDER_TAG_OUT, {"egress_port": port, "partition": 0}, BORDER_UNTAGGED)))
    return items


__all__ = ["BorderLink", "PartitionBorderError", "border_items", "border_port_numbers",
           "check_links", "links_from_mapping", "mapped", "switch_border_items", "switch_links"]
