"""Partitions across switches, as the controller writes them: host ports classify by
port (and host VLAN), fabric ports by partition tag, every fabric port tags, every
switch knows each partition's tag and queue class."""
from __future__ import annotations

from pathlib import Path

import pytest

from control.controller.program import FabricPlan, switch_items
from control.p4rt.entities import P4Names, load_p4info
from control.policy import PARTITION_TAG_BASE, load_policy
from control.routing import compute_routes
from control.topology import load_topology
from tests.control.test_controller_program import decoded

ROOT = Path(__file__).resolve().parents[2]
P4INFO = ROOT / "build/fabric.p4info.txtpb"
TAG_A, TAG_B = PARTITION_TAG_BASE + 1, PARTITION_TAG_BASE + 2
UNTAG = "FabricIngress.partition.set_partition_untag"


@pytest.fixture(scope="module")
def names():
    if not P4INFO.exists():
        pytest.fail(f"{P4INFO} is missing: run `make build` first")
    return P4Names(load_p4info(str(P4INFO)))


def entries(names: P4Names, policy_text: str, switch: str, tmp_path: Path) -> list[tuple]:
    topo = load_topology(str(ROOT / "topologies/leaf_spine.toml"))
    path = tmp_path / "policy.toml"
    path.write_text(policy_text)
    fp = FabricPlan(topo, load_policy(str(path), topo))
    routes = compute_routes(topo, destinations=fp.destinations)
    return decoded(names, switch_items(names, fp, switch, routes), "table_entry")


POLICY = """
[[partitions]]
id = 1
name = "front"
members = ["h1", "h3"]
queue = 1
[[partitions]]
id = 2
name = "back"
members = ["h2", "h4"]
vlan = 20
queue = 4
"""


def table(rows: list[tuple], name: str) -> list[tuple]:
    return [row[1:] for row in rows if row[0] == name]


def test_leaf_classifies_host_ports_by_port_and_fabric_ports_by_tag(names, tmp_path):
    rows = entries(names, POLICY, "leaf1", tmp_path)
    parts = table(rows, "FabricIngress.partition.partitions")
    by_port = {m["ingress_port"]: (a.rsplit(".", 1)[1], p["id"]) for m, a, p in parts if "vlan_id" not in m}
    assert by_port == {1: ("set_partition", 1), 2: ("set_partition", 2)}
    tagged = sorted((m["ingress_port"], m["vlan_id"], a, p["id"]) for m, a, p in parts if "vlan_id" in m)
    assert tagged == [(2, 20, UNTAG, 2),                 # h2's host VLAN
                      (3, TAG_A, UNTAG, 1), (3, TAG_B, UNTAG, 2),
                      (4, TAG_A, UNTAG, 1), (4, TAG_B, UNTAG, 2)]
    ports = {m["egress_port"]: (a.rsplit(".", 1)[1], p)
             for m, a, p in table(rows, "FabricEgress.partition_tag.tag_ports")}
    assert ports == {1: ("access_port", {}), 2: ("tagged_access_port", {"vlan_id": 20}),
                     3: ("fabric_port", {}), 4: ("fabric_port", {})}
    restricted = {m["egress_port"]: p["id"]
                  for m, _a, p in table(rows, "FabricEgress.partition_check.port_partitions")}
    assert restricted == {2: 2}  # only the VLAN partition's member port, as before


@pytest.mark.parametrize("switch", ["leaf2", "spine1"])
def test_every_switch_knows_tags_queues_and_routes_of_each_partition(names, tmp_path, switch):
    rows = entries(names, POLICY, switch, tmp_path)
    tags = {m["partition"]: p["vlan_id"] for m, _a, p in table(rows, "FabricEgress.partition_tag.partition_tags")}
    queues = {m["partition"]: p["queue"] for m, _a, p in table(rows, "FabricIngress.partition.partition_queues")}
    assert tags == {1: TAG_A, 2: TAG_B} and queues == {1: 1, 2: 4}
    route_partitions = {m["partition"] for m, _a, _p in table(rows, "FabricIngress.routing.routes")}
    assert route_partitions == {0, 1, 2}


def test_spine_has_only_fabric_ports(names, tmp_path):
    rows = entries(names, POLICY, "spine1", tmp_path)
    parts = table(rows, "FabricIngress.partition.partitions")
    assert all("vlan_id" in m and a == UNTAG for m, a, _p in parts) and len(parts) == 4
    ports = {m["egress_port"]: a.rsplit(".", 1)[1] for m, a, _p in table(rows, "FabricEgress.partition_tag.tag_ports")}
    assert ports == {1: "fabric_port", 2: "fabric_port"}


def test_no_partitions_no_tagging(names, tmp_path):
    rows = entries(names, '[spraying]\ndefault = "ecmp"\n', "leaf1", tmp_path)
    assert not [r for r in rows if ".partition." in r[0] or ".partition_tag." in r[0]]


def test_queue_left_out_writes_no_queue_entry(names, tmp_path):
    rows = entries(names, '[[partitions]]\nid = 1\nname = "a"\nmembers = ["h1"]\n', "leaf1", tmp_path)
    assert table(rows, "FabricIngress.partition.partition_queues") == []
