"""Topology + policy + routes -> one switch's P4Runtime entities, without a switch;
the desired-state diff; and the adaptive weight policy."""
from __future__ import annotations

from pathlib import Path

import pytest

from control.controller.program import (REPORT_SESSION, SELECTOR, FabricPlan, member_id, member_port,
                                        switch_items)
from control.controller.state import index_items, plan
from control.controller.weights import WeightPolicy
from control.p4rt.entities import DELETE, INSERT, MODIFY, P4Names, load_p4info
from control.policy import empty_policy, load_policy
from control.routing import compute_routes
from control.topology import load_topology, router_mac

ROOT = Path(__file__).resolve().parents[2]
P4INFO = ROOT / "build/fabric.p4info.txtpb"


@pytest.fixture(autouse=True)
def _pipeline_is_built() -> None:
    """A missing build is a failure with the fix in its message, not a silent skip."""
    if not P4INFO.exists():
        pytest.fail(f"{P4INFO} is missing: run `make build` first")


@pytest.fixture(scope="module")
def names():
    return P4Names(load_p4info(str(P4INFO)))


def fabric(name: str, with_policy: bool = True):
    topo = load_topology(str(ROOT / f"topologies/{name}.toml"))
    policy = load_policy(str(ROOT / f"topologies/{name}.policy.toml"), topo) if with_policy else empty_policy()
    fp = FabricPlan(topo, policy)
    return fp, compute_routes(topo, destinations=fp.destinations)


def decoded(names: P4Names, items, kind: str):
    """(table or profile name, match/ids, action name, params as ints) for readable asserts."""
    tables = {t.preamble.id: t for t in names.p4info.tables}
    actions = {a.preamble.id: a for a in names.p4info.actions}
    out = []
    for it in items:
        entity = it.entity
        if entity.WhichOneof("entity") != kind:
            continue
        if kind == "table_entry":
            e = entity.table_entry
            table = tables[e.table_id]
            fields = {f.id: f.name for f in table.match_fields}
            match = {}
            for m in e.match:
                which = m.WhichOneof("field_match_type")
                value = getattr(m, which)
                match[fields[m.field_id]] = (int.from_bytes(value.value, "big") if which in ("exact", "lpm", "ternary")
                                             else (int.from_bytes(value.low, "big"), int.from_bytes(value.high, "big")))
            act = e.action
            if act.HasField("action"):
                action = actions[act.action.action_id]
                params = {p.name: int.from_bytes(v.value, "big")
                          for p, v in zip(action.params, act.action.params)}
                out.append((table.preamble.name, match, action.preamble.name, params))
            else:
                out.append((table.preamble.name, match, act.WhichOneof("type"),
                            act.action_profile_member_id or act.action_profile_group_id))
        elif kind == "action_profile_member":
            m = entity.action_profile_member
            action = actions[m.action.action_id]
            out.append((m.member_id, {p.name: int.from_bytes(v.value, "big")
                                      for p, v in zip(action.params, m.action.params)}))
        elif kind == "action_profile_group":
            g = entity.action_profile_group
            out.append((g.group_id, {m.member_id: m.weight for m in g.members}))
    return out


def mac_int(mac: str) -> int:
    return int(mac.replace(":", ""), 16)


def test_multipath_group_over_both_links_with_neighbor_mac(names):
    fp, routes = fabric("two_leaves")
    items = switch_items(names, fp, "leaf1", routes)
    gid = fp.group_id("h2")
    members = dict(decoded(names, items, "action_profile_member"))
    leaf1, leaf2 = router_mac(fp.topo.switch("leaf1")), router_mac(fp.topo.switch("leaf2"))
    for port in (2, 3):
        assert members[member_id(gid, port)] == {"port": port, "src_mac": mac_int(leaf1),
                                                 "dst_mac": mac_int(leaf2), "member_index": port}
    assert dict(decoded(names, items, "action_profile_group")) == {
        gid: {member_id(gid, 2): 1, member_id(gid, 3): 1}}
    tables = decoded(names, items, "table_entry")
    assert ("FabricIngress.routing.next_hops", {"group_id": gid}, "action_profile_group_id", gid) in tables
    assert ("FabricIngress.routing.multipath_modes", {"group_id": gid},
            "FabricIngress.routing.use_entropy", {}) in tables
    route = [t for t in tables if t[0] == "FabricIngress.routing.routes" and t[3]["group"] == gid]
    assert [r[1] for r in route] == [{"partition": 0, "ipv4_dst": 0x0A000201}]


def test_attached_host_is_a_direct_member_with_the_host_mac(names):
    fp, routes = fabric("two_leaves")
    items = switch_items(names, fp, "leaf1", routes)
    gid = fp.group_id("h1")
    members = dict(decoded(names, items, "action_profile_member"))
    assert members[member_id(gid, 1)]["dst_mac"] == mac_int("00:00:0a:00:01:01")
    assert gid not in dict(decoded(names, items, "action_profile_group"))
    assert ("FabricIngress.routing.next_hops", {"group_id": gid}, "action_profile_member_id",
            member_id(gid, 1)) in decoded(names, items, "table_entry")


def test_weights_reach_the_group_members(names):
    fp, routes = fabric("two_leaves")
    items = switch_items(names, fp, "leaf1", routes, {("leaf1", "h2", 3): 4})
    gid = fp.group_id("h2")
    group = dict(decoded(names, items, "action_profile_group"))[gid]
    # A weight is repeated members of weight 1 (P4Runtime weights differ per target).
    assert group == {member_id(gid, 2): 1, **{member_id(gid, 3, copy): 1 for copy in range(4)}}
    members = dict(decoded(names, items, "action_profile_member"))
    assert {m: members[m]["port"] for m in group} == {m: member_port(m) for m in group}


def test_partitions_and_per_destination_modes(names):
    fp, routes = fabric("leaf_spine")
    items = switch_items(names, fp, "leaf1", routes)
    tables = decoded(names, items, "table_entry")
    parts = {t[1]["ingress_port"]: t[3]["id"] for t in tables
             if t[0] == "FabricIngress.partition.partitions" and "vlan_id" not in t[1]}
    assert parts == {1: 1, 2: 2}  # host ports; fabric ports match partition tags
    h3 = fp.group_id("h3")
    assert ("FabricIngress.routing.multipath_modes", {"group_id": h3},
            "FabricIngress.routing.use_round_robin", {}) in tables
    route_partitions = sorted(t[1]["partition"] for t in tables
                              if t[0] == "FabricIngress.routing.routes" and t[3]["group"] == h3)
    assert route_partitions == [0, 1]  # tenant-b (2) has no route to h3
    ecn = {t[1]["egress_port"]: t[3]["depth"] for t in tables if t[0] == "FabricEgress.ecn.ecn_thresholds"}
    assert ecn == {1: 8, 2: 8, 3: 4, 4: 8}


def test_int_roles_and_reports_toward_the_collector(names):
    fp, routes = fabric("two_leaves")
    leaf1 = switch_items(names, fp, "leaf1", routes)
    leaf2 = switch_items(names, fp, "leaf2", routes)
    for items, node in ((leaf1, 1), (leaf2, 2)):
        tables = decoded(names, items, "table_entry")
        watch_ports = {t[1]["ingress_port"] for t in tables
                       if t[0] == "FabricEgress.int_egress.int_source.int_watchlist"}
        sinks = {t[1]["egress_port"]: t[3] for t in tables
                 if t[0] == "FabricEgress.int_egress.int_sink.int_sink_ports"}
        # leaf2 reaches the collector over two links: its reports spread over both
        spread = {"sessions": 2} if node == 2 else {}
        assert watch_ports == {1} and sinks == {1: {"report_session": REPORT_SESSION, **spread}}  # not the collector port
        assert ("FabricEgress.int_egress.int_node", {}, "FabricEgress.int_egress.set_int_node",
                {"node_id": node, "int_dscp": 0x17}) in tables
    clones = {}
    encaps = {}
    for name, items in (("leaf1", leaf1), ("leaf2", leaf2)):
        for it in items:
            if it.entity.WhichOneof("entity") == "packet_replication_engine_entry":
                session = it.entity.packet_replication_engine_entry.clone_session_entry
                clones.setdefault(name, []).append(
                    (session.session_id, [r.egress_port for r in session.replicas]))
        encaps[name] = next(t[3] for t in decoded(names, items, "table_entry")
                            if t[0] == "FabricEgress.int_egress.int_report.report_encap")
    assert clones == {"leaf1": [(REPORT_SESSION, [4])],
                      "leaf2": [(REPORT_SESSION, [2]), (REPORT_SESSION + 1, [3])]}
    assert encaps["leaf1"]["dst_mac"] == mac_int("00:00:00:00:c0:11")
    assert encaps["leaf2"]["dst_mac"] == mac_int(router_mac(fp.topo.switch("leaf1")))
    assert encaps["leaf2"]["collector_ip"] == 0xC0A86402


def test_empty_policy_programs_routing_only(names):
    fp, routes = fabric("two_leaves", with_policy=False)
    tables = {t[0] for t in decoded(names, switch_items(names, fp, "leaf1", routes), "table_entry")}
    assert tables == {"FabricIngress.routing.next_hops", "FabricIngress.routing.multipath_modes",
                      "FabricIngress.routing.routes"}


def test_link_down_plan_modifies_the_group_before_deleting_the_member(names):
    fp, routes = fabric("two_leaves")
    before = index_items(switch_items(names, fp, "leaf1", routes))
    down = compute_routes(fp.topo, frozenset({("leaf1", 2)}), fp.destinations)
    after = index_items(switch_items(names, fp, "leaf1", down))
    batches = plan(before, after)
    kinds = [[(u.type, u.entity.WhichOneof("entity")) for u in batch] for batch in batches]
    flat = [k for batch in kinds for k in batch]
    group_modify = flat.index((MODIFY, "action_profile_group"))
    member_delete = flat.index((DELETE, "action_profile_member"))
    assert group_modify < member_delete
    assert all(t != INSERT for t, _ in flat)
    assert plan(after, after) == []
    restore = plan(after, before)
    assert [(u.type, u.entity.WhichOneof("entity")) for u in restore[0]] == [
        (INSERT, "action_profile_member")]  # h2's port-2 member back first


def test_a_fresh_switch_gets_everything_defaults_modified(names):
    fp, routes = fabric("two_leaves")
    desired = index_items(switch_items(names, fp, "leaf2", routes))
    updates = [u for batch in plan({}, desired) for u in batch]
    assert len(updates) == len(desired)
    defaults = [u for u in updates if u.entity.HasField("table_entry") and u.entity.table_entry.is_default_action]
    assert defaults and all(u.type == MODIFY for u in defaults)
    assert all(u.type == MODIFY for u in updates if u.entity.HasField("meter_entry"))


def test_operstate_watcher_reports_transitions(tmp_path):
    from control.controller.link_watch import OperstateWatcher

    sys_net = tmp_path / "net"  # the same layout as /sys/class/net
    (sys_net / "leaf1-2").mkdir(parents=True)
    state = sys_net / "leaf1-2" / "operstate"
    state.write_text("up\n")
    changes = []
    watcher = OperstateWatcher({("leaf1", 2): "leaf1-2"}, lambda *c: changes.append(c[:3]), sys_net=sys_net)
    watcher.poll_once()
    state.write_text("lowerlayerdown\n")
    watcher.poll_once()
    watcher.poll_once()
    state.write_text("up\n")
    watcher.poll_once()
    assert changes == [("leaf1", 2, False), ("leaf1", 2, True)]


def test_a_member_waits_for_every_queue_on_its_forced_path():
    from control.controller.balance import WaitBalancer
    from control.controller.fabric import member_path
    from control.controller.weights import PortSample

    fp, routes = fabric("leaf_spine")
    by_key = {(r.switch, r.host.name): r for r in routes}
    route = by_key[("leaf1", "h3")]
    paths = {hop.port: member_path(fp.topo, by_key, route, hop) for hop in route.next_hops}
    # leaf1 (node 1) -> spine1 (3) / spine2 (4) -> leaf2 (2) port 1 to h3
    assert paths == {3: [(1, 3), (3, 2), (2, 1)], 4: [(1, 4), (4, 2), (2, 1)]}
    idle = PortSample(0.0, 1000.0)
    spine2_down = {hop: idle for path in paths.values() for hop in path} | {(4, 2): PortSample(16.0, 300_000.0)}
    balancer = WaitBalancer(WeightPolicy(clear_weight=4, congested_weight=1))
    assert balancer.step({("leaf1", "h3"): paths}, spine2_down, now=0.0) == {("leaf1", "h3"): {3: 6, 4: 2}}
    shared = {hop: idle for path in paths.values() for hop in path} | {(2, 1): PortSample(16.0, 300_000.0)}
    balancer = WaitBalancer(WeightPolicy(clear_weight=4, congested_weight=1))
    assert balancer.step({("leaf1", "h3"): paths}, shared, now=0.0) == {("leaf1", "h3"): {3: 4, 4: 4}}  # shared last hop


CLASS_MODES = "FabricIngress.routing.multipath_class_modes"


def class_entries(names: P4Names, fp: FabricPlan, routes, switch: str) -> dict[tuple[int, int], str]:
    return {(t[1]["partition"], t[1]["protocol_class"]): t[2].rsplit(".", 1)[1]
            for t in decoded(names, switch_items(names, fp, switch, routes), "table_entry")
            if t[0] == CLASS_MODES}


def test_shipped_policy_needs_no_class_entries(names):
    """The defaults (RoCEv2 and TCP pinned, UEC the group's mode) are the pipeline's own."""
    fp, routes = fabric("leaf_spine")
    assert class_entries(names, fp, routes, "leaf1") == {}


def test_class_modes_reach_every_switch_and_partition(names, tmp_path):
    policy_file = tmp_path / "policy.toml"
    policy_file.write_text("""
[spraying]
default = "entropy"
[[spraying.classes]]
protocol = "uec"
mode = "round_robin"
[[spraying.classes]]
protocol = "rocev2"
mode = "round_robin"
partition = "tenant-a"
[[partitions]]
id = 1
name = "tenant-a"
members = ["h1", "h3"]
[[partitions]]
id = 2
name = "tenant-b"
members = ["h2", "h4"]
""")
    topo = load_topology(str(ROOT / "topologies/leaf_spine.toml"))
    fp = FabricPlan(topo, load_policy(str(policy_file), topo))
    routes = compute_routes(topo, destinations=fp.destinations)
    uec, rocev2 = 1, 2   # define.p4's MP_CLASS_UEC, MP_CLASS_ROCEV2
    expected = {(0, uec): "use_round_robin", (1, uec): "use_round_robin", (2, uec): "use_round_robin",
                (1, rocev2): "use_round_robin"}
    for switch in ("leaf1", "spine1"):
        assert class_entries(names, fp, routes, switch) == expected
