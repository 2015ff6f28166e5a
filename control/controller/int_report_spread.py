"""Report clones spread over every next hop towards the collector, not only the first.

A report clone skips routing (v1model clones go straight to their session's port), so a
sink with several uplinks used to send every report by the first one. fabric.p4 lets a
sink pick one of several clone sessions by flow hash (``set_int_sink_spread``) and give
each session's port its own next-hop MAC (``report_next_hop``); these items set that up
for the exits ``collector_exits`` finds. With one exit they are the single-session form.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from control.controller.state import STAGE_BASE, STAGE_TABLE, Item, item
from control.p4rt.entities import P4Names, clone_session, pre_entry
from control.routing import Route
from control.topology import router_mac

if TYPE_CHECKING:
    from control.controller.program import FabricPlan

SINK_PORTS_TABLE = "FabricEgress.int_egress.int_sink.int_sink_ports"
NEXT_HOP_TABLE = "FabricEgress.int_egress.int_report.report_next_hop"
MAX_SESSIONS = 255  # the action's 8-bit session count


def collector_exits(plan: "FabricPlan", switch: str, routes: list[Route]) -> list[tuple[int, str]]:
    """(port, next-hop MAC) of every next hop of ``switch``'s route to the collector."""
    collector = plan.topo.collector
    if collector is None:
        return []
    for route in routes:
        if route.switch == switch and route.host.name == collector.name and route.next_hops:
            if route.direct:
                return [(route.next_hops[0].port, collector.mac)]
            return [(hop.port, router_mac(plan.topo.switch(hop.neighbor)))
                    for hop in route.next_hops[:MAX_SESSIONS]]
    return []


def spread_items(names: P4Names, exits: list[tuple[int, str]], first_session: int,
                 host_ports: list[int]) -> list[Item]:
    """Clone sessions first_session.. (one per exit), their next-hop MACs, and the sink
    entries of ``host_ports`` choosing among them."""
    items = [item(STAGE_BASE, packet_replication_engine_entry=pre_entry(
        clone_session(first_session + i, port))) for i, (port, _mac) in enumerate(exits)]
    if len(exits) > 1:
        items += [item(STAGE_TABLE, table_entry=names.table_entry(
            NEXT_HOP_TABLE, {"egress_port": port},
            "FabricEgress.int_egress.int_report.set_report_next_hop", {"dst_mac": mac}))
            for port, mac in exits]
    for port in host_ports:
        if len(exits) > 1:
            action, params = ("FabricEgress.int_egress.int_sink.set_int_sink_spread",
                              {"report_session": first_session, "sessions": len(exits)})
        else:
            action, params = ("FabricEgress.int_egress.int_sink.set_int_sink",
                              {"report_session": first_session})
        items.append(item(STAGE_TABLE, table_entry=names.table_entry(
            SINK_PORTS_TABLE, {"egress_port": port}, action, params)))
    return items


__all__ = ["MAX_SESSIONS", "NEXT_HOP_TABLE", "SINK_PORTS_TABLE", "collector_exits",
           "spread_items"]
