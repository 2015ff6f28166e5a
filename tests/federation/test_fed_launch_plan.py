"""What a two-domain launch would run and program, checked without root: switch command
lines (roles on p4sim only), collectors, per-domain controllers' entities, fabricctl's
--domain refusals."""
from __future__ import annotations

from pathlib import Path

import pytest

from control import fabricctl
from control.controller.int_domains import BORDER_TABLE, DOMAIN_TABLE
from control.controller.int_report_spread import SINK_PORTS_TABLE
from control.controller.program import FabricPlan, switch_items
from control.federation.domain_view import domain_view
from control.launch import FabricNetwork, collector_databases
from control.p4rt.entities import P4Names, load_p4info
from control.policy import load_policy
from control.routing import compute_routes
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_domains.toml"
POLICY = ROOT / "topologies/two_domains.policy.toml"
P4INFO = ROOT / "build/fabric.p4info.txtpb"


def _network(binary: str) -> FabricNetwork:
    return FabricNetwork(TOPOLOGY, tag="ln-fdplan", switch_binary=binary)  # not entered


def test_p4sim_switches_are_bound_to_their_domains_role():
    net = _network("/opt/p4sim-switch")
    try:
        for switch in net.topology.switches:
            argv = net.switch_command(switch)
            target = argv[argv.index("--") + 1:]
            role = target[target.index("--p4rt-allowed-roles") + 1]
            assert role == net.topology.domain_of(switch.name).controller.role
        assert net.notes == []
    finally:
        net.close()


def test_simple_switch_grpc_gets_no_role_option_and_the_launch_says_so():
    net = _network("/opt/simple_switch_grpc")
    try:
        assert all("--p4rt-allowed-roles" not in net.switch_command(s) for s in net.topology.switches)
        assert any("sovereignty not enforced" in note for note in net.notes), net.notes
    finally:
        net.close()


def test_every_domain_collector_gets_its_namespace_and_database(tmp_path):
    net = _network("/opt/p4sim-switch")
    try:
        assert set(net.collectors) == {"col-west", "col-east"}
        planned = net.planned_namespaces()
        assert {"ln-fdplan-col-west", "ln-fdplan-col-east"} <= set(planned)
        assert collector_databases(net, tmp_path / "r.sqlite") == {
            "col-west": tmp_path / "r-col-west.sqlite", "col-east": tmp_path / "r-col-east.sqlite"}
    finally:
        net.close()


def _table_entries(names: P4Names, items, table: str):
    table_id = names.id("tables", table)
    return [it.entity.table_entry for it in items
            if it.entity.HasField("table_entry") and it.entity.table_entry.table_id == table_id]


def _exact(entry) -> int:
    return int.from_bytes(entry.match[0].exact.value, "big")


@pytest.mark.parametrize("domain,border", [("west", "w-bd1"), ("east", "e-bd2")])
def test_a_domain_controller_programs_its_domain_id_borders_and_sinks(domain, border):
    if not P4INFO.exists():
        pytest.fail("build/fabric.p4info.txtpb missing: run `make build` first", pytrace=False)
    names = P4Names(load_p4info(str(P4INFO)))
    topo = domain_view(load_topology(str(TOPOLOGY)), domain)
    own = topo.domain(domain)
    other = next(d for d in topo.domains if d.name != domain)
    plan = FabricPlan(topo, load_policy(str(POLICY), topo), own)
    routes = compute_routes(topo, frozenset(), plan.destinations)
    items = switch_items(names, plan, border, routes)
    (own_entry,) = _table_entries(names, items, DOMAIN_TABLE)
    assert int.from_bytes(own_entry.action.action.params[0].value, "big") == own.id
    (border_entry,) = _table_entries(names, items, BORDER_TABLE)
    assert _exact(border_entry) == 2  # border port 2 leads to the other domain
    next_domain = {p.param_id: int.from_bytes(p.value, "big")
                   for p in border_entry.action.action.params}
    assert other.id in next_domain.values()
    assert 2 in {_exact(e) for e in _table_entries(names, items, SINK_PORTS_TABLE)}
    # Routes to the other domain's hosts leave by the border port.
    to_other = [r for r in routes if r.switch == border and r.host.name in other.hosts]
    assert to_other and all([h.port for h in r.next_hops] == [2] for r in to_other)
    # Reports go to this domain's collector only: no route to the other's.
    assert own.collector is not None and other.collector is not None
    assert any(r.host.name == own.collector.name for r in routes)
    assert not any(r.host.name == other.collector.name for r in routes)


def test_fabricctl_refuses_an_unknown_domain(capsys):
    status = fabricctl.main(["run", "--topology", str(TOPOLOGY), "--policy", str(POLICY),
                             "--domain", "north", "--once"])
    assert status == 2
    err = capsys.readouterr().err
    assert "north" in err and "west" in err and "east" in err and str(TOPOLOGY) in err
