"""Report clones over every next hop to the collector: on two_leaves, leaf2 reaches the
collector (behind leaf1) over two parallel links, so it gets a clone session per link,
each link's next-hop MAC, and sinks that choose among the sessions; leaf1, next to the
collector, keeps the single session."""
from pathlib import Path

import pytest

from control.controller.int_report_spread import (NEXT_HOP_TABLE, SINK_PORTS_TABLE,
                                                  collector_exits, spread_items)
from control.controller.program import FabricPlan
from control.p4rt.entities import P4Names, load_p4info
from control.policy import load_policy
from control.routing import compute_routes
from control.topology import load_topology, router_mac

ROOT = Path(__file__).resolve().parents[2]
P4INFO = ROOT / "build" / "fabric.p4info.txtpb"


@pytest.fixture(scope="module")
def plan():
    topo = load_topology(str(ROOT / "topologies/two_leaves.toml"))
    fp = FabricPlan(topo, load_policy(str(ROOT / "topologies/two_leaves.policy.toml"), topo))
    return fp, compute_routes(topo, destinations=fp.destinations)


def test_exits_are_every_next_hop_towards_the_collector(plan):
    fp, routes = plan
    leaf1_mac = router_mac(fp.topo.switch("leaf1"))
    exits = collector_exits(fp, "leaf2", routes)
    assert len(exits) == 2 and {mac for _, mac in exits} == {leaf1_mac}
    assert len({port for port, _ in exits}) == 2
    assert collector_exits(fp, "leaf1", routes) == [(4, "00:00:00:00:c0:11")]


def test_items_spread_sinks_over_one_session_per_exit(plan):
    if not P4INFO.exists():
        pytest.fail(f"{P4INFO} is missing: run `make build` first")
    names = P4Names(load_p4info(str(P4INFO)))
    fp, routes = plan
    exits = collector_exits(fp, "leaf2", routes)
    items = spread_items(names, exits, 100, [1])
    sessions = {it.entity.packet_replication_engine_entry.clone_session_entry.session_id:
                [r.egress_port for r in
                 it.entity.packet_replication_engine_entry.clone_session_entry.replicas]
                for it in items if it.entity.WhichOneof("entity") == "packet_replication_engine_entry"}
    assert sessions == {100 + i: [port] for i, (port, _) in enumerate(exits)}
    tables = [it.entity.table_entry for it in items if it.entity.WhichOneof("entity") == "table_entry"]
    next_hops = [t for t in tables if t.table_id == names.id("tables", NEXT_HOP_TABLE)]
    sinks = [t for t in tables if t.table_id == names.id("tables", SINK_PORTS_TABLE)]
    assert len(next_hops) == 2 and len(sinks) == 1
    spread = names.id("actions", "FabricEgress.int_egress.int_sink.set_int_sink_spread")
    assert sinks[0].action.action.action_id == spread
    assert [p.value for p in sinks[0].action.action.params] == [b"\x64", b"\x02"]
    single = spread_items(names, collector_exits(fp, "leaf1", routes), 100, [1])
    assert [it.entity.WhichOneof("entity") for it in single] == [
        "packet_replication_engine_entry", "table_entry"]
