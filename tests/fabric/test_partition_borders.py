"""Partitions across a domain border, on two in-process fabric.p4 switches behind real
P4Runtime servers, programmed with control/controller/partition_borders.py's items.

    west fabric port 1 =(VID 3585: tenant-a, 3586: tenant-b)=> W
    W port 2 =border (VID 100: tenant-a, 200: tenant-b)=> E port 1
    E fabric port 2 =(VID 3700: tenant-a)=> out

West knows tenant-a as partition 1 and tenant-b as 2; east knows tenant-a as partition 7
and has no tenant-b: the partitions match by name, each side keeping its own IDs and
tags. Tenant-a arrives at east's fabric port with east's tag; tenant-b, whose border VID
east does not map, is dropped at east's border and counted, never delivered as tenant-a.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import pytest
from p4.v1 import p4runtime_pb2
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Dot1Q, Ether

from control.controller.partition_borders import BORDER_TAG_IN as BORDER_TAG_IN_TABLE, UNMAPPED_IN, UNMAPPED_OUT, BorderLink, \
    PartitionBorderError, border_items, links_from_mapping
from control.controller.state import STAGE_BASE, STAGE_GROUP, STAGE_ROUTE, STAGE_TABLE, \
    Item, index_items, item, plan
from control.p4rt.entities import P4Names, load_p4info
from control.policy import Partition
from tests.fabric.test_weights_like_bmv2 import FabricSwitch

SELECTOR = "FabricIngress.routing.multipath_selector"
ROUTER_MAC = "00:aa:00:00:00:01"
WEST_FABRIC, BORDER, EAST_FABRIC = 1, 2, 2
EAST_BORDER = 1

WEST = (Partition(1, "tenant-a", (), tag=3585), Partition(2, "tenant-b", (), tag=3586))
EAST = (Partition(7, "tenant-a", (), tag=3700),)


def route_items(names: P4Names, routes: dict[int, tuple[str, int]], base: int = 100) -> list[Item]:
    """For each partition, {partition: (prefix, port)}: one next hop out of ``port``
    (member and group = base + partition), its dst MAC naming the partition."""
    items = []
    for pid, (prefix, port) in routes.items():
        gid = base + pid
        items += [
            item(STAGE_BASE, action_profile_member=names.member(
                SELECTOR, gid, "FabricIngress.routing.forward",
                {"port": port, "src_mac": ROUTER_MAC, "dst_mac": f"00:00:00:00:01:{pid:02x}",
                 "member_index": pid})),
            item(STAGE_GROUP, action_profile_group=names.group(SELECTOR, gid, {gid: 1})),
            item(STAGE_TABLE, table_entry=names.table_entry(
                "FabricIngress.routing.next_hops", {"group_id": gid}, group_id=gid)),
            item(STAGE_ROUTE, table_entry=names.table_entry(
                "FabricIngress.routing.routes", {"partition": pid, "ipv4_dst": prefix},
                "FabricIngress.routing.set_group", {"group": gid})),
        ]
    return items


def fabric_port_items(names: P4Names, port: int, partitions: tuple[Partition, ...]
                      ) -> list[Item]:
    """An intra-domain fabric port, as the controller programs one: classify by each
    partition's tag, tag on the way out."""
    items = [item(STAGE_TABLE, table_entry=names.table_entry(
        "FabricEgress.partition_tag.tag_ports", {"egress_port": port},
        "FabricEgress.partition_tag.fabric_port"))]
    for part in partitions:
        items.append(item(STAGE_TABLE, table_entry=names.table_entry(
            "FabricIngress.partition.partitions",
            {"ingress_port": port, "vlan_is_valid": "1&&&1", "vlan_id": f"{part.fabric_tag}&&&0xfff"},
            "FabricIngress.partition.set_partition_untag", {"id": part.id}, priority=20)))
    return items


def tag_items(names: P4Names, partitions: tuple[Partition, ...]) -> list[Item]:
    return [item(STAGE_TABLE, table_entry=names.table_entry(
        "FabricEgress.partition_tag.partition_tags", {"partition": p.id},
        "FabricEgress.partition_tag.set_tag", {"vlan_id": p.fabric_tag})) for p in partitions]


def program(fs: FabricSwitch, items: list[Item]) -> None:
    for batch in plan({}, index_items(items)):
        fs.conn.write(batch)


def counter_packets(fs: FabricSwitch, name: str, index: int) -> int:
    entities = fs.conn.read([p4runtime_pb2.Entity(counter_entry=fs.names.counter(name, index))])
    return entities[0].counter_entry.data.packet_count


def frame(vid: int | None, index: int, dst: str = "10.0.2.1") -> bytes:
    eth = Ether(src="00:00:00:00:00:09", dst=ROUTER_MAC)
    if vid is not None:
        eth = eth / Dot1Q(vlan=vid)
    return bytes(eth / IP(src="10.0.1.1", dst=dst) / UDP(sport=1000 + index, dport=9)
                 / f"pb{index:06d}".encode())


@dataclass
class Chain:
    """Switches wired port-to-port; frames leaving a port with no wire are collected."""

    switches: list[FabricSwitch]
    wires: dict[tuple[int, int], tuple[int, int]]     # (switch, port) -> (switch, port)
    out: list[tuple[int, int, bytes]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        for i, fs in enumerate(self.switches):
            fs.switch.add_output_listener(self._listener(i))

    def _listener(self, i: int):
        def on_frame(port: int, data: bytes) -> None:
            peer = self.wires.get((i, port))
            if peer is not None:
                self.switches[peer[0]].switch.inject(peer[1], data)
                return
            with self._lock:
                self.out.append((i, port, data))
        return on_frame

    def settle(self) -> None:
        """Waits until every switch is idle twice in a row (wired frames included)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if all(fs.switch.wait_idle(5) for fs in self.switches) and \
                    all(fs.switch.wait_idle(0) for fs in self.switches):
                return
        raise AssertionError("switches did not go idle in 60 s")

    def collected(self) -> list[tuple[int, int, bytes]]:
        with self._lock:
            return list(self.out)


@pytest.fixture
def chain(build):
    west, east = FabricSwitch(build), FabricSwitch(build)
    program(west, fabric_port_items(west.names, WEST_FABRIC, WEST)
            + route_items(west.names, {1: ("10.0.2.0/24", BORDER), 2: ("10.0.2.0/24", BORDER)})
            + border_items(west.names, WEST, links_from_mapping(
                {"east": {BORDER: {"tenant-a": 100, "tenant-b": 200}}})))
    program(east, fabric_port_items(east.names, EAST_FABRIC, EAST) + tag_items(east.names, EAST)
            + route_items(east.names, {7: ("10.0.2.0/24", EAST_FABRIC), 0: ("10.0.2.0/24", 5)})
            + border_items(east.names, EAST, links_from_mapping(
                {"west": {EAST_BORDER: {"tenant-a": 100}}})))
    c = Chain([west, east], {(0, BORDER): (1, EAST_BORDER)})
    yield c
    west.close()
    east.close()


def test_tenant_a_maps_west_to_border_to_east(chain):
    west, east = chain.switches
    chain.switches[0].switch.inject(WEST_FABRIC, frame(3585, 1))
    chain.settle()
    out = chain.collected()
    assert len(out) == 1
    sw, port, data = out[0]
    assert (sw, port) == (1, EAST_FABRIC)
    pkt = Ether(data)
    assert pkt[Dot1Q].vlan == 3700
    assert pkt[Ether].dst == "00:00:00:00:01:07"      # east's tenant-a route
    assert bytes(pkt[UDP].payload) == b"pb000001"


def test_what_crosses_the_border_carries_the_link_vid(chain):
    """Seen on the border wire itself (the wire cut): tenant-a VID 100, tenant-b 200."""
    chain.wires.clear()
    chain.switches[0].switch.inject(WEST_FABRIC, frame(3585, 1))
    chain.switches[0].switch.inject(WEST_FABRIC, frame(3586, 2))
    chain.settle()
    vids = sorted((port, Ether(d)[Dot1Q].vlan) for _sw, port, d in chain.collected())
    assert vids == [(BORDER, 100), (BORDER, 200)]


def test_west_tenant_b_never_reaches_east_tenant_a(chain):
    west, east = chain.switches
    before = counter_packets(east, UNMAPPED_IN, EAST_BORDER)
    for i in range(20):
        west.switch.inject(WEST_FABRIC, frame(3586, i))
    west.switch.inject(WEST_FABRIC, frame(3585, 99))
    chain.settle()
    out = chain.collected()
    assert [(sw, port, bytes(Ether(d)[UDP].payload)) for sw, port, d in out] == \
        [(1, EAST_FABRIC, b"pb000099")]
    assert counter_packets(east, UNMAPPED_IN, EAST_BORDER) == before + 20


def test_unmapped_partition_dropped_on_border_egress(build):
    """West without a border VID for tenant-b: its packets do not leave the border port,
    and border_unmapped_out[2] counts them."""
    west = FabricSwitch(build)
    try:
        program(west, fabric_port_items(west.names, WEST_FABRIC, WEST)
                + route_items(west.names, {1: ("10.0.2.0/24", BORDER), 2: ("10.0.2.0/24", BORDER)})
                + border_items(west.names, WEST, [BorderLink("east", BORDER, {"tenant-a": 100})]))
        c = Chain([west], {})
        for i in range(5):
            west.switch.inject(WEST_FABRIC, frame(3586, i))
        west.switch.inject(WEST_FABRIC, frame(3585, 50))
        c.settle()
        assert [(p, Ether(d)[Dot1Q].vlan) for _s, p, d in c.collected()] == [(BORDER, 100)]
        assert counter_packets(west, UNMAPPED_OUT, 2) == 5
    finally:
        west.close()


@pytest.mark.parametrize("links, message", [
    ([BorderLink("east", 2, {"tenant-a": 4095})], "port 2: partition 'tenant-a': VID 4095 is not in 1..4094"),
    ([BorderLink("east", 2, {"tenant-a": 0})], "VID 0 is not in 1..4094"),
    ([BorderLink("east", 2, {"tenant-a": 100, "tenant-b": 100})],
     "partition 'tenant-b': VID 100 is already partition 'tenant-a''s on this link"),
    ([BorderLink("east", 2, {"tenant-z": 100})],
     "border link to domain 'east' on port 2: partition 'tenant-z': not a partition of the policy"),
    ([BorderLink("east", 2, {}), BorderLink("north", 2, {})], "domain 'north' on port 2: port: given twice"),
    ([BorderLink("east", 255, {})], "port: not a data port"),
    ([BorderLink("east", 2, {"shared": 5}, allow_untagged=True)],
     "partition 'shared': partition 0 has a VID and allow_untagged too"),
])
def test_bad_mappings_refused_with_location(build, links, message):
    names = P4Names(load_p4info(str(build[1])))
    with pytest.raises(PartitionBorderError) as err:
        border_items(names, WEST, links, source="borders.toml")
    assert message in str(err.value)
    assert str(err.value).startswith("borders.toml: ")


def test_same_vid_on_two_links_is_fine(build):
    names = P4Names(load_p4info(str(build[1])))
    items = border_items(names, WEST, [BorderLink("east", 2, {"tenant-a": 100}),
                                       BorderLink("north", 3, {"tenant-b": 100})])
    assert len(items) == 2 * 2 + 2 * 2


def test_mapping_shape_errors_located():
    with pytest.raises(PartitionBorderError, match=r"^b\.json: domain 'east': port 'x': not a port"):
        links_from_mapping({"east": {"x": {}}}, "b.json")
    with pytest.raises(PartitionBorderError, match="partition 'tenant-a': VID '7' is not an integer"):
        links_from_mapping({"east": {"2": {"tenant-a": "7"}}})
    assert links_from_mapping({"east": {"2": {"tenant-a": 7, "allow_untagged": True}}}) == \
        [BorderLink("east", 2, {"tenant-a": 7}, True)]


def test_no_links_no_items(build):
    assert border_items(P4Names(load_p4info(str(build[1]))), WEST, []) == []


def test_shared_partition_may_cross_with_a_vid(build):
    """"shared" (partition 0, as peering summaries name it) maps like any partition."""
    names = P4Names(load_p4info(str(build[1])))
    entries = [it.entity.table_entry for it in
               border_items(names, WEST, [BorderLink("east", 2, {"shared": 5})])]
    tag_in = [e for e in entries if e.table_id == names.id("tables", BORDER_TAG_IN_TABLE)]
    assert len(tag_in) == 1 and tag_in[0].action.action.params[0].value == b"\x00"
