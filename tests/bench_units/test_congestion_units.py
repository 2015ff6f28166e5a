"""bench/congestion.py's pure parts: the workloads, the capacity arithmetic, the step
matrix and the table; and every policy it writes validates against four_leaves."""
import dataclasses
from pathlib import Path

import pytest

from bench.congestion import (MODES, Config, Line, Sample, Step, all_to_all, core_steps,
                              default_steps, fabric_capacity_pps, format_line, format_tables,
                              full_steps, incast, launches, leaf_spread, link_rate, permutation,
                              share_pct, uplink_imbalance, workloads)
from control.experiment.fabric import write_policy
from control.policy import load_policy
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
KEYS = ["permutation", "incast3", "incast7", "all-to-all"]


@pytest.fixture(scope="module")
def topo():
    return load_topology(str(ROOT / "topologies" / "four_leaves.toml"))


def leaf(topo, host):
    return topo.host(host).switch


def test_permutation_sends_every_host_once_to_another_leaf(topo):
    flows = permutation(topo).flows
    assert len(flows) == 8
    assert sorted(s for s, _d in flows) == sorted(d for _s, d in flows) == \
        sorted(h.name for h in topo.hosts)
    assert all(leaf(topo, s) != leaf(topo, d) for s, d in flows)


def test_incasts_fill_other_leaves_first(topo):
    three = incast(topo, 3)
    assert three.incast and {d for _s, d in three.flows} == {"h1"}
    assert sorted(leaf(topo, s) for s, _d in three.flows) == ["leaf2", "leaf3", "leaf4"]
    seven = incast(topo, 7).flows
    assert sorted(s for s, _d in seven) == sorted(h.name for h in topo.hosts if h.name != "h1")
    assert seven[-1][0] == "h2"               # the receiver's leaf-mate comes last
    with pytest.raises(ValueError, match="incast 8:1 needs 8"):
        incast(topo, 8)


def test_all_to_all_is_one_host_per_leaf_to_every_other(topo):
    flows = all_to_all(topo).flows
    assert len(flows) == 12 and len(set(flows)) == 12
    assert {leaf(topo, s) for s, _d in flows} == {"leaf1", "leaf2", "leaf3", "leaf4"}
    assert all(leaf(topo, s) != leaf(topo, d) for s, d in flows)


def test_capacity_is_the_cut_through_the_shaped_links(topo):
    """In data packets: a 100 full-size frames/s link carries 112 of the 1,346-byte data
    frames (two INT hops) a spine sends a leaf, 115 of the 1,310-byte ones a leaf sends."""
    down, up = 100 * 1538 / 1370, 100 * 1538 / 1334
    assert fabric_capacity_pps(topo, permutation(topo).flows, 100) == pytest.approx(8 * down)
    assert fabric_capacity_pps(topo, [("h1", "h3")], 100) == pytest.approx(2 * down)
    assert fabric_capacity_pps(topo, [("h1", "h3"), ("h5", "h3")], 100) == \
        pytest.approx(2 * down)                                             # 2 downlinks
    assert fabric_capacity_pps(topo, [("h1", "h3"), ("h1", "h5")], 100) == \
        pytest.approx(2 * up)                                               # 2 uplinks
    assert fabric_capacity_pps(topo, [("h1", "h2")], 100) == 0              # same leaf
    assert link_rate(topo) == min(link.rate_pps for link in topo.links)


def test_share_pct():
    assert share_pct(300, 2.0, 150.0) == pytest.approx(100.0)
    assert share_pct(300, 4.0, 150.0) == pytest.approx(50.0)
    assert share_pct(300, 0.0, 150.0) is None
    assert share_pct(300, 2.0, 0.0) is None


def test_uplink_imbalance_counts_only_leaf_to_spine_links(topo):
    roles = {s.name: s.role for s in topo.switches}
    links = {"leaf2:3->spine1": 30, "leaf2:4->spine2": 10,
             "spine1:1->leaf1": 500, "spine2:1->leaf1": 0}   # downlinks: ignored
    assert uplink_imbalance(links, roles) == pytest.approx(1.5)
    assert uplink_imbalance({"leaf2:3->spine1": 20, "leaf2:4->spine2": 20}, roles) == 1.0
    assert uplink_imbalance({"spine1:1->leaf1": 5}, roles) is None
    assert uplink_imbalance({"leaf2:3->spine1": 0, "leaf2:4->spine2": 0}, roles) is None


def test_leaf_spread_compares_a_leafs_uplinks_with_each_other_only(topo):
    """Leaf 2 carries more than leaf 1 (reports to the collector), each split evenly:
    fabric-wide 1.1, within every leaf 1.0; then the worst leaf's own split."""
    roles = {s.name: s.role for s in topo.switches}
    links = {"leaf1:3->spine1": 100, "leaf1:4->spine2": 100,
             "leaf2:3->spine1": 120, "leaf2:4->spine2": 120, "spine1:1->leaf1": 900}
    assert uplink_imbalance(links, roles) == pytest.approx(1.0909, abs=1e-4)
    assert leaf_spread(links, roles) == 1.0
    assert leaf_spread({**links, "leaf1:4->spine2": 60}, roles) == pytest.approx(1.25)
    assert leaf_spread({"leaf1:3->spine1": 7}, roles) is None        # one uplink: no split
    assert leaf_spread({"spine1:1->leaf1": 5}, roles) is None


def test_default_matrix_shows_each_mechanism(topo):
    steps = default_steps(KEYS, MODES)
    for key in KEYS:                              # every workload under every mode
        assert {s.config.mode for s in steps if s.key == key and s.credit
                and s.config.trim} == set(MODES)
    for key in ("permutation", "incast3", "incast7"):   # credit and trim on/off, entropy
        assert {(s.credit, s.config.trim) for s in steps if s.key == key
                and s.config.mode == "entropy"} == {(True, True), (False, True), (True, False),
                                                    (False, False)}
    assert len(set(steps)) == len(steps) == 25
    assert len(full_steps(KEYS, MODES)) == 64
    assert all(s.config.mode != "ecmp" and s.key != "all-to-all" for s in core_steps(KEYS, MODES))


def test_launches_group_by_fabric_with_incasts_last():
    steps = default_steps(KEYS, MODES)
    groups = launches(steps)
    assert [config for config, _ in groups] == list(dict.fromkeys(s.config for s in steps))
    assert sum(len(mine) for _, mine in groups) == len(steps)
    for _config, mine in groups:
        kinds = [s.key.startswith("incast") for s in mine]
        assert kinds == sorted(kinds)


def test_adaptive_sprays_by_entropy():
    assert Config("adaptive").setting.mode == "entropy"
    assert Config("round_robin", trim=False).setting.trim is False
    assert Step("incast3", Config("entropy", trim=False), credit=False).label == \
        "entropy, no trim, credit off"


def test_every_written_policy_validates(topo, tmp_path):
    for config in {s.config for s in full_steps(KEYS, MODES)}:
        path = write_policy(tmp_path / f"{config.mode}-{config.trim}.toml", config.setting)
        policy = load_policy(str(path), topo)
        assert policy.spray_default == config.setting.mode
        assert (policy.trim.default is not None) == config.trim
        assert policy.int.collector == "collector"


def sample(completed, pct, delivered, spurious=0, reports=0, fcts=(), error=""):
    return Sample(3, completed, pct, 1.0, 4, 0, 6, spurious, delivered, reports, list(fcts),
                  error)


def test_line_sums_flows_medians_percent_and_flags_incomplete():
    line = Line("incast 3:1", "entropy", [sample(3, 90.0, 330, 3, 33, [2.0, 2.2]),
                                          sample(2, 80.0, 220, 1, 22, [2.4], error="timeout"),
                                          sample(3, 95.0, 330, 0, 33, [2.1])])
    text = format_line(line)
    assert "8/9!" in text and "errors: timeout" in text
    fields = text.split()
    assert fields[2:4] == ["90", "80"]                # median and worst %
    assert "0.45" in fields                           # 4 spurious of 880 delivered, in %
    assert "0.100" in fields                          # reports per delivered packet
    assert "2.10s" in fields and "2.40s" in fields    # FCT p50 and p99 over all runs
    assert fields[-3] == "-"                          # no load recorded
    loaded = Line("permutation", "entropy", [dataclasses.replace(sample(3, 90.0, 330), load=l)
                                             for l in (4.25, 1.5, 12.0)])
    assert format_line(loaded).split()[-1] == "1.5-12.0"


def test_a_line_that_never_ran_prints_dashes():
    text = format_line(Line("permutation", "ecmp", [sample(0, None, 0, error="fabric: x")]))
    assert "0/3!" in text and "fabric: x" in text and text.count("-") >= 4


def test_tables_per_workload_in_order(topo):
    specs = workloads(topo)
    lines = [Line(specs["incast3"].name, "entropy", [sample(3, 90.0, 330)]),
             Line(specs["permutation"].name, "ecmp", [sample(3, 50.0, 330)]),
             Line(specs["incast3"].name, "round_robin", [sample(3, 91.0, 330)])]
    text = format_tables(lines, {"incast 3:1": "CAPTION 3:1"})
    assert text.index("CAPTION 3:1") < text.index("round_robin") < text.index("permutation")
    assert text.count("mode / setting") == 2
