"""topologies/four_leaves.toml and its policy (bench/congestion.py's fabric) validate,
are shaped, and route every host to every other over both spines."""
from pathlib import Path

from control.policy import load_policy
from control.routing import compute_routes
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
FOUR_LEAVES = ROOT / "topologies" / "four_leaves.toml"
POLICY = ROOT / "topologies" / "four_leaves.policy.toml"
LEAVES = ["leaf1", "leaf2", "leaf3", "leaf4"]
SPINES = ["spine1", "spine2"]


def test_four_leaves_two_spines_eight_hosts():
    topo = load_topology(str(FOUR_LEAVES))
    assert [s.name for s in topo.switches if s.role == "leaf"] == LEAVES
    assert [s.name for s in topo.switches if s.role == "spine"] == SPINES
    assert len(topo.hosts) == 8
    for leaf in LEAVES:
        assert topo.host_facing_ports(leaf) == {1, 2}
    assert topo.collector is not None and topo.collector.switch == "leaf1"


def test_every_leaf_spine_link_is_shaped():
    topo = load_topology(str(FOUR_LEAVES))
    pairs = {frozenset((link.a_switch, link.b_switch)) for link in topo.links}
    assert pairs == {frozenset((leaf, spine)) for leaf in LEAVES for spine in SPINES}
    assert all(link.rate_pps for link in topo.links)


def _next_switches(routes, switch: str, host: str) -> list[str]:
    return sorted(hop.neighbor for hop in routes[(switch, host)].next_hops)


def test_every_host_reaches_every_other_over_both_spines():
    topo = load_topology(str(FOUR_LEAVES))
    routes = {(r.switch, r.host.name): r for r in compute_routes(topo)}
    for src in topo.hosts:
        for dst in topo.hosts:
            if src is dst:
                continue
            first = routes[(src.switch, dst.name)]
            if src.switch == dst.switch:
                assert first.direct and [h.port for h in first.next_hops] == [dst.port]
                continue
            assert not first.direct
            assert _next_switches(routes, src.switch, dst.name) == SPINES
            for spine in SPINES:   # each spine goes straight down to the destination leaf
                assert _next_switches(routes, spine, dst.name) == [dst.switch]
            last = routes[(dst.switch, dst.name)]
            assert last.direct and [h.port for h in last.next_hops] == [dst.port]


def test_a_failed_uplink_leaves_the_other_spine():
    topo = load_topology(str(FOUR_LEAVES))
    routes = {(r.switch, r.host.name): r for r in compute_routes(topo, frozenset({("leaf1", 3)}))}
    assert [h.port for h in routes[("leaf1", "h8")].next_hops] == [4]


def test_policy_validates_against_the_topology():
    topo = load_topology(str(FOUR_LEAVES))
    policy = load_policy(str(POLICY), topo)
    assert policy.spray_default == "entropy"
    assert policy.int.enabled and policy.int.collector == topo.collector.name
    assert policy.int.report_mode == "changes"
    assert policy.trim.default == 16 and policy.ecn.default == 8
