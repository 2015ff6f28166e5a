"""The policy's [feedback] queue: parsed and checked against the partitions' queues, and
programmed by the controller as one feedback_queues entry per non-data PDS type; and
[trim] meter_burst, the virtual queue's depth of a shaped port apart from the depth the
switch's own data queue trims at."""
from __future__ import annotations

from pathlib import Path

import pytest

from control.controller.program import TRIM_METER, FabricPlan, feedback_items, switch_items
from control.errors import ConfigError
from control.p4rt.entities import P4Names, load_p4info
from control.policy import FEEDBACK_PDS_TYPES, load_policy
from control.routing import compute_routes
from control.topology import load_topology
from wire_formats.layers import PDS_DATA_TYPES

ROOT = Path(__file__).resolve().parents[2]
P4INFO = ROOT / "build/fabric.p4info.txtpb"
TABLE = "FabricIngress.feedback.feedback_queues"


@pytest.fixture
def topo():
    return load_topology(str(ROOT / "topologies/leaf_spine.toml"))


@pytest.fixture(scope="module")
def names():
    if not P4INFO.exists():
        pytest.fail(f"{P4INFO} is missing: run `make build` first")
    return P4Names(load_p4info(str(P4INFO)))


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "policy.toml"
    path.write_text(text)
    return str(path)


def problems_of(path: str, topo) -> dict[str, str]:
    with pytest.raises(ConfigError) as info:
        load_policy(path, topo)
    return dict(info.value.problems)


def test_feedback_types_are_every_non_data_type_that_travels_back():
    assert not set(FEEDBACK_PDS_TYPES) & PDS_DATA_TYPES
    assert len(set(FEEDBACK_PDS_TYPES)) == 6   # ACK, ACK_CC, ACK_CCX, NACK, NACK_CCX, CONTROL


def test_feedback_queue_loads_and_is_optional(tmp_path, topo):
    assert load_policy(write(tmp_path, "[feedback]\nqueue = 7\n"), topo).feedback_queue == 7
    assert load_policy(write(tmp_path, "[ecn]\nthreshold = 4\n"), topo).feedback_queue is None


@pytest.mark.parametrize("text, field, reason", [
    ("[feedback]\nqueue = 8\n", "feedback.queue", "8 is out of range [0, 7]"),
    ("[feedback]\nqueue = 7\nrate = 3\n", "feedback.rate", "unknown field"),
])
def test_bad_feedback_values_are_refused(tmp_path, topo, text, field, reason):
    problems = problems_of(write(tmp_path, text), topo)
    assert field in problems and reason in problems[field], problems


def test_feedback_below_a_partitions_queue_is_refused(tmp_path, topo):
    problems = problems_of(write(tmp_path, """
[[partitions]]
id = 1
name = "a"
members = ["h1"]
queue = 6
[feedback]
queue = 5
"""), topo)
    assert problems == {"feedback.queue": "5 is below queue 6 of partitions[0]: that "
                        "partition's feedback would wait behind its data"}


def test_shipped_policies_put_feedback_with_the_trimmed_headers():
    for name in ("leaf_spine", "two_leaves", "four_leaves"):
        topo = load_topology(str(ROOT / f"topologies/{name}.toml"))
        policy = load_policy(str(ROOT / f"topologies/{name}.policy.toml"), topo)
        assert policy.feedback_queue == max(c.queue for c in policy.trim_classes), name


def test_the_controller_programs_one_entry_per_feedback_type(names):
    topo = load_topology(str(ROOT / "topologies/leaf_spine.toml"))
    policy = load_policy(str(ROOT / "topologies/leaf_spine.policy.toml"), topo)
    plan = FabricPlan(topo, policy)
    entries = [it.entity.table_entry for it in
               switch_items(names, plan, "spine1", compute_routes(topo, destinations=plan.destinations))
               if it.entity.WhichOneof("entity") == "table_entry"
               and it.entity.table_entry.table_id == names.id("tables", TABLE)]
    types = sorted(int.from_bytes(e.match[0].exact.value, "big") for e in entries)
    assert types == sorted(FEEDBACK_PDS_TYPES)
    queues = {int.from_bytes(e.action.action.params[0].value, "big") for e in entries}
    assert queues == {7}
    assert feedback_items(names, load_policy(str(ROOT / "topologies/line.policy.toml"),
                                             load_topology(str(ROOT / "topologies/line.toml")))) == []


def test_meter_burst_sets_the_virtual_queue_apart_from_the_threshold(names, tmp_path):
    topo = load_topology(str(ROOT / "topologies/two_leaves.toml"))
    text = "[trim]\nthreshold = 32\n{}[[trim.classes]]\ndscp = 10\n"

    def meters(extra: str) -> tuple[dict[int, int], dict[int, int]]:
        policy = load_policy(write(tmp_path, text.format(extra)), topo)
        plan = FabricPlan(topo, policy)
        items = switch_items(names, plan, "leaf1", compute_routes(topo, destinations=plan.destinations))
        bursts = {it.entity.meter_entry.index.index: it.entity.meter_entry.config.cburst
                  for it in items if it.entity.WhichOneof("entity") == "meter_entry"
                  and it.entity.meter_entry.meter_id == names.id("meters", TRIM_METER)}
        depths = {int.from_bytes(e.match[0].exact.value, "big"):
                  int.from_bytes(e.action.action.params[0].value, "big")
                  for e in (it.entity.table_entry for it in items
                            if it.entity.WhichOneof("entity") == "table_entry")
                  if e.table_id == names.id("tables", "FabricIngress.trimming.trim_thresholds")}
        return bursts, depths

    bursts, depths = meters("meter_burst = 16\n")
    assert set(bursts) == {2, 3} and set(bursts.values()) == {16}   # the shaped links
    assert set(depths.values()) == {32}                             # every port's queue
    bursts, _ = meters("")
    assert set(bursts.values()) == {32}                             # default: the threshold
    problems = problems_of(write(tmp_path, text.format("meter_burst = 0\n")), topo)
    assert problems == {"trim.meter_burst": "0 is out of range [1, 4294967295]"}
