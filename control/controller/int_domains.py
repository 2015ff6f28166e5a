"""INT across administrative domains: a switch's own INT domain and its border ports.

fabric.p4 (p4src/include/control/int_main.p4 and int_domain_border.p4): once a switch
knows its domain, its transit and sink act only on INT-MD headers whose Domain Specific
ID is that domain and leave any other domain's untouched (INT v2.1 §5.7 lets a node that
does not know a Domain Specific ID skip INT processing altogether). At a border port the
sink strips this domain's INT and reports it to this domain's collector, as any sink
does, and the packet leaves with a fresh INT-MD header of the next domain carrying no hop
of this one: each domain's collector sees only its own domain's hops.

A border port is also a sink port. These items hold the domain and the borders only; put
``border_ports(borders)`` beside the host-facing ports given to
``int_report_spread.spread_items``, which writes the sink entries and report sessions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from control.controller.state import STAGE_BASE, STAGE_TABLE, Item, item
from control.p4rt.entities import P4Names
from control.topology import Topology
from wire_formats.layers import CPU_PORT, INT_ALL_SUPPORTED

DOMAIN_TABLE = "FabricEgress.int_egress.int_domain"
SET_DOMAIN = "FabricEgress.int_egress.set_int_domain"
BORDER_TABLE = "FabricEgress.int_egress.border.int_domain_border"
START_NEXT_DOMAIN = "FabricEgress.int_egress.border.start_next_domain"
PORT_SPACE = 512  # v1model ports are 9 bits


class IntDomainError(ValueError):
    """A domain or border the pipeline cannot take, with the field at fault."""


@dataclass(frozen=True)
class DomainBorder:
    """An egress port leading into INT domain ``next_domain``, and the INT-MD header
    (hop budget, instruction bitmap) that domain's hops are asked to fill."""

    port: int
    next_domain: int
    hop_budget: int
    instructions: int = INT_ALL_SUPPORTED

    def __post_init__(self) -> None:
        where = f"INT domain border on port {self.port}"
        if not 0 <= self.port < PORT_SPACE or self.port == CPU_PORT:
            raise IntDomainError(f"{where}: port: not a data port (0..{PORT_SPACE - 1}, "
                                 f"not the CPU port {CPU_PORT})")
        _check_domain(self.next_domain, f"{where}: next_domain")
        if not 1 <= self.hop_budget <= 255:
            raise IntDomainError(f"{where}: hop_budget: {self.hop_budget} is not in 1..255")
        if not 0 <= self.instructions <= 0xFFFF:
            raise IntDomainError(f"{where}: instructions: {self.instructions} is not a "
                                 "16-bit bitmap")
        if self.instructions & ~INT_ALL_SUPPORTED:
            raise IntDomainError(
                f"{where}: instructions: bits {self.instructions & ~INT_ALL_SUPPORTED:#06x} "
                f"are not supported by the pipeline (supported: {INT_ALL_SUPPORTED:#06x})")


def _check_domain(domain_id: int, where: str) -> None:
    if not 0 <= domain_id <= 0xFFFF:
        raise IntDomainError(f"{where}: {domain_id} is not a 16-bit Domain Specific ID")


def domain_items(names: P4Names, domain_id: int,
                 borders: Sequence[DomainBorder] = ()) -> list[Item]:
    """The switch's own INT domain (the default action of ``int_domain``) and one
    ``int_domain_border`` entry per border port."""
    _check_domain(domain_id, "INT domain of the switch: domain_id")
    seen: set[int] = set()
    for border in borders:
        if border.port in seen:
            raise IntDomainError(f"INT domain border on port {border.port}: port: "
                                 "given twice")
        if border.next_domain == domain_id:
            raise IntDomainError(f"INT domain border on port {border.port}: next_domain: "
                                 f"{domain_id} is this switch's own domain")
        seen.add(border.port)
    items = [item(STAGE_BASE, modify_only=True, table_entry=names.default_entry(
        DOMAIN_TABLE, SET_DOMAIN, {"domain_id": domain_id}))]
    items += [item(STAGE_TABLE, table_entry=names.table_entry(
        BORDER_TABLE, {"egress_port": border.port}, START_NEXT_DOMAIN,
        {"instructions": border.instructions, "hop_budget": border.hop_budget,
         "domain_id": border.next_domain}))
        for border in sorted(borders, key=lambda b: b.port)]
    return items


def switch_borders(topo: Topology, switch: str, hop_budget: int,
                   instructions: int = INT_ALL_SUPPORTED) -> list[DomainBorder]:
    """``switch``'s border ports: one per inter-domain link it ends, leading into the
    domain of the switch at the link's other end."""
    borders = []
    for link in topo.interdomain_links:
        for (here, port), there in (((link.a_switch, link.a_port), link.b_switch),
                                    ((link.b_switch, link.b_port), link.a_switch)):
            if here == switch:
                borders.append(DomainBorder(port, topo.domain_of(there).id, hop_budget,
                                            instructions))
    return borders


def border_ports(borders: Sequence[DomainBorder]) -> list[int]:
    """The border ports, which must be sink ports too (see the module docstring)."""
    return sorted(border.port for border in borders)


__all__ = ["BORDER_TABLE", "DOMAIN_TABLE", "DomainBorder", "IntDomainError",
           "SET_DOMAIN", "START_NEXT_DOMAIN", "border_ports", "domain_items", "switch_borders"]
