"""control/experiment's plans and policies without a fabric (no root): every default and
full plan names hosts of its topology, runs the four modes and the mixed case with and
without partition queues, and every policy it writes validates against its topology."""
from __future__ import annotations

import pytest

from control.experiment.fabric import policy_mode, topology_file, write_policy, write_topology
from control.experiment.metrics import Row, leaf_imbalance, tier_imbalance
from control.experiment.plan import (MODES, WORKLOADS, Partitions, default_plan, full_plan,
                                     minimal_plan, mixed_plan, only)
from control.experiment.runner import (first_uplinks, leaf_uplinks, ordered_steps,
                                       source_uplinks)
from control.experiment.table import HEADER, format_row, format_table
from control.launch import FabricNetwork
from control.policy import load_policy
from control.topology import load_topology


@pytest.mark.parametrize("topology", sorted(WORKLOADS))
def test_plans_cover_modes_and_mixed_case_on_hosts_of_their_topology(topology):
    hosts = {h.name for h in load_topology(str(topology_file(topology))).hosts}
    for plan in (default_plan(topology), full_plan(topology)):
        assert plan.topology == topology
        for step in plan.steps:
            for src, dst in step.workload.flows + step.workload.tcp:
                assert {src, dst} <= hosts and src != dst, step
        by_workload: dict[str, set[str]] = {}
        for step in plan.steps:
            by_workload.setdefault(step.workload.name, set()).add(step.setting.mode)
        for name in ("permutation", "all-to-all", "incast 3:1"):
            assert set(MODES) <= by_workload[name], (name, by_workload[name])
        mixed = [s for s in plan.steps if s.workload.mixed]
        assert sorted(s.label for s in mixed) == ["entropy, one queue", "entropy, partition queues"]
        for step in mixed:
            parts = step.setting.partitions
            assert parts is not None and step.tcp_bytes_per_flow > 0
            assert not set(parts.backend) & set(parts.frontend)
        assert plan.mixed_pps < plan.link_pps   # the queue builds in the switch, not in tc
        # one launch per setting; incasts last on theirs (they slow a last hop)
        ordered = ordered_steps(plan)
        for setting in plan.settings():
            mine = [s.workload.incast for s in ordered if s.setting == setting]
            assert mine == sorted(mine)


@pytest.mark.parametrize("topology", sorted(WORKLOADS))
def test_every_written_policy_validates(topology, tmp_path):
    shaped = write_topology(tmp_path / "topo.toml", 100.0, source=topology_file(topology))
    topo = load_topology(str(shaped))
    for index, setting in enumerate(default_plan(topology).settings()):
        policy = load_policy(str(write_policy(tmp_path / f"p{index}.toml", setting)), topo)
        assert policy.spray_default == policy_mode(setting.mode)
        assert policy.int.enabled and policy.int.collector == "collector"
        if setting.partitions is None:
            assert not policy.partitions and policy.ecn.default == 16
            assert (policy.trim.default is not None) == setting.trim
            continue
        queues = {p.name: p.queue for p in policy.partitions}
        backend = Partitions.BACKEND_QUEUE if setting.partitions.queues else Partitions.FRONTEND_QUEUE
        assert queues == {"backend": backend, "frontend": Partitions.FRONTEND_QUEUE}
        assert policy.ecn.default is None and policy.trim.default is None
    assert policy_mode("adaptive") == "entropy" and policy_mode("ecmp") == "ecmp"


def test_mixed_case_slows_the_uplinks_of_every_source_leaf(tmp_path):
    net = FabricNetwork(topology_file("four_leaves"), tag="mxu", log_dir=tmp_path)  # not entered
    workload = WORKLOADS["four_leaves"].mixed
    assert source_uplinks(net, workload) == [(f"leaf{i}", port) for i in range(1, 5)
                                             for port in (3, 4)]
    assert source_uplinks(net, WORKLOADS["four_leaves"].incast) == [
        (f"leaf{i}", port) for i in range(2, 5) for port in (3, 4)]


def test_table_shows_tcp_columns_for_the_mixed_case_only():
    plan = mixed_plan()
    uec = Row("permutation", "ecmp", 4, 4, 10.0, 5.0, 1.0, 2.0, 3.0, 0, 0, 1)
    mixed = Row("mixed", "entropy, partition queues", 2, 2, 10.0, 5.0, 1.0, 2.0, 3.0, 0, 0, 1,
                tcp_flows=2, tcp_completed=1, tcp_goodput_mbps=1.25, tcp_retransmissions=7)
    assert HEADER.split()[-4:] == ["TCP", "Mb/s", "TCP", "retx"]
    assert format_row(uec).split()[-2:] == ["-", "-"]
    line = format_row(mixed)
    assert line.split()[-3:] == ["1.25!", "7", "incomplete"]   # one TCP flow did not finish
    assert not mixed.complete
    caption = format_table([mixed], plan).splitlines()[0]
    assert caption.startswith("leaf_spine (2 leaves x 2 spines, 4 hosts)") and "mixed:" in caption


def test_imbalance_is_the_worse_tiers_so_a_fan_in_is_not_imbalance():
    """An incast from three leaves into leaf1, evenly spread: each of leaf1's downlinks
    carries three uplinks' worth, yet neither tier is imbalanced; pinning one uplink per
    sender leaf is."""
    topo = load_topology(str(topology_file("four_leaves")))
    down = {("spine1", 1, "leaf1"): 30.0, ("spine2", 1, "leaf1"): 30.0}
    spread = {**down, **{(f"leaf{i}", port, f"spine{port - 2}"): 10.0
                         for i in (2, 3, 4) for port in (3, 4)}}
    pinned = {**down, **{(f"leaf{i}", port, f"spine{port - 2}"): 20.0 if port == 3 else 0.0
                         for i in (2, 3, 4) for port in (3, 4)}}
    assert tier_imbalance(topo, spread) == pytest.approx(1.0)
    assert tier_imbalance(topo, pinned) == pytest.approx(2.0)
    assert tier_imbalance(topo, {}) is None


def test_leaf_imbalance_is_each_leafs_own_spread_not_how_much_it_sends():
    """Two leaves each split evenly over their uplinks but one sends three times as much:
    the tier figure calls that 1.5, the per-leaf figure 1.0; one leaf pinning 3:1 onto
    one uplink is 1.5 per leaf whatever the others do."""
    topo = load_topology(str(topology_file("four_leaves")))
    uneven = {("leaf1", 3, "spine1"): 30.0, ("leaf1", 4, "spine2"): 30.0,
              ("leaf2", 3, "spine1"): 10.0, ("leaf2", 4, "spine2"): 10.0,
              ("spine1", 1, "leaf1"): 25.0}   # a downlink: no member of a leaf's group
    assert tier_imbalance(topo, uneven) == pytest.approx(1.5)
    assert leaf_imbalance(topo, uneven) == pytest.approx(1.0)
    skewed = {**uneven, ("leaf2", 3, "spine1"): 15.0, ("leaf2", 4, "spine2"): 5.0}
    assert leaf_imbalance(topo, skewed) == pytest.approx(1.5)
    assert leaf_imbalance(topo, {}) is None
    assert leaf_imbalance(topo, {("leaf1", 3, "spine1"): 0.0, ("leaf1", 4, "spine2"): 0.0}) is None


def test_table_shows_both_balance_figures():
    row = Row("permutation", "round_robin", 8, 8, 10.0, 5.0, 1.0, 2.0, 3.0, 0, 0, 1,
              tier_imbalance=1.09, leaf_imbalance=1.01)
    assert "tier max/mean" in HEADER and "leaf max/mean" in HEADER
    cells = format_row(row).split()
    assert cells[cells.index("10/5") + 1:cells.index("10/5") + 3] == ["1.09", "1.01"]


def test_only_keeps_the_named_steps_and_drops_what_they_do_not_use():
    plan = default_plan("four_leaves")
    picked = only(plan, ("permutation",), ("entropy", "adaptive"))
    assert {(s.workload.name, s.setting.mode) for s in picked.steps} == {
        ("permutation", "entropy"), ("permutation", "adaptive")}
    assert picked.capture is None and picked.federation is None   # round robin not run
    assert picked.uplink_pps == plan.uplink_pps and picked.link_pps == plan.link_pps
    assert only(plan).steps == plan.steps and only(plan).federation == plan.federation
    with pytest.raises(ValueError):
        only(plan, ("mixed",), ("ecmp",))


@pytest.mark.parametrize("topology", sorted(WORKLOADS))
def test_only_the_slow_uplink_rows_drain_inside_the_switch_by_default(topology, tmp_path):
    """The main rows keep tc's link queues (in-switch queues lengthen them 2-4x with
    trims; --switch-uplinks asks for them); the slow-uplink rows drain every leaf uplink
    in the switch, below the link rate, where INT and adaptive spraying see the queue."""
    for plan in (default_plan(topology), full_plan(topology)):
        assert plan.uplink_pps is None
    rates = default_plan(topology).slow_uplink_rates
    assert rates is not None and rates[1] < rates[0] < default_plan(topology).link_pps
    assert minimal_plan().uplink_pps is None and minimal_plan().slow_uplink_rates is None
    net = FabricNetwork(topology_file("four_leaves"), tag="lup", log_dir=tmp_path)  # not entered
    assert leaf_uplinks(net) == [(f"leaf{i}", port) for i in range(1, 5) for port in (3, 4)]


@pytest.mark.parametrize("topology", sorted(WORKLOADS))
def test_default_plan_has_the_slow_uplink_permutation_for_adaptive(topology, tmp_path):
    """Entropy against adaptive with each leaf's first uplink at half the others' rate:
    the case where following the queues can beat an even split."""
    plan = default_plan(topology)
    slow = [s for s in plan.steps if s.setting.slow_uplink]
    assert sorted(s.label for s in slow) == ["adaptive, one slow uplink", "entropy, one slow uplink"]
    assert all(s.workload.name == "permutation" for s in slow)
    assert plan.slow_uplink_rates is not None
    every, first = plan.slow_uplink_rates
    assert first == every / 2
    net = FabricNetwork(topology_file("four_leaves"), tag="fup", log_dir=tmp_path)  # not entered
    assert first_uplinks(net) == [(f"leaf{i}", 3) for i in range(1, 5)]
