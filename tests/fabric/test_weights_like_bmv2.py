"""Weighted multipath on the fabric: p4sim's P4Runtime server realises member weights
as real BMv2 + PI does, and the controller's portable form (repeated members) splits
the same way on both.

Recorded on real simple_switch_grpc (tests/real_toolchain/bmv2-facts.md, and the PTF
log in bmv2-runs/): members of weight 3 (port 2) and 1 (port 3) in one group, the 64
UEC flows of ptf_tests/test_spraying.EcmpWeightsShiftTheSplit split 32 : 32 ("32 not
greater than 64" = 2 x 32). PI makes a member of weight w into w target members, the
copies made after every member that existed, and BMv2 picks hash % size over a group's
members in handle order: slots port2, port3, port2, port2; these flows' CRC16 is 0 or 1
modulo 4, so slots 0 and 1 take 32 each."""
from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path

import pytest
from p4.v1 import p4runtime_pb2
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from control.controller.program import weighted_members
from wire_formats.layers import UDP_PORT_UEC, UecRequest
from control.p4rt.client import SwitchConnection
from control.p4rt.entities import INSERT, P4Names, load_p4info
from p4sim.p4runtime.server import P4RuntimeServer
from p4sim.switch.switch import Switch

SELECTOR = "FabricIngress.routing.multipath_selector"
ROUTER_MAC = "00:aa:00:00:00:01"
FLOWS = range(30000, 30064)   # the PTF test's entropy values


class FabricSwitch:
    """fabric.p4 in an in-process switch behind a real P4Runtime server."""

    def __init__(self, build: tuple[Path, Path]) -> None:
        json_path, p4info_path = build
        self.switch = Switch(device_id=0, ports=None, cpu_port=255)
        self._lock = threading.Lock()
        self.out: list[int] = []
        self.switch.add_output_listener(self._collect)
        self.switch.start()
        self.server = P4RuntimeServer(self.switch, "127.0.0.1:0", device_id=0)
        self.server.start()
        p4info = load_p4info(str(p4info_path))
        self.names = P4Names(p4info)
        self.conn = SwitchConnection(f"127.0.0.1:{self.server.port}")
        self.conn.connect()
        self.conn.set_pipeline(p4info, json_path.read_bytes())

    def _collect(self, port: int, data: bytes) -> None:
        with self._lock:
            self.out.append(port)

    def insert(self, **entity) -> None:
        self.conn.write([p4runtime_pb2.Update(type=INSERT, entity=p4runtime_pb2.Entity(**entity))])

    def route_to_group(self, members: dict[int, int], group: dict[int, int]) -> None:
        """Members {member id: port}, then group 1 {member id: weight} for 10.0.9.0/24."""
        for member, port in members.items():
            self.insert(action_profile_member=self.names.member(
                SELECTOR, member, "FabricIngress.routing.forward",
                {"port": port, "src_mac": ROUTER_MAC, "dst_mac": f"00:00:00:00:00:{port:02x}",
                 "member_index": port}))
        self.insert(action_profile_group=self.names.group(SELECTOR, 1, group))
        self.insert(table_entry=self.names.table_entry(
            "FabricIngress.routing.routes", {"partition": 0, "ipv4_dst": "10.0.9.0/24"},
            "FabricIngress.routing.set_group", {"group": 1}))
        self.insert(table_entry=self.names.table_entry(
            "FabricIngress.routing.next_hops", {"group_id": 1}, group_id=1))

    def split(self) -> Counter:
        """Egress ports of the 64 flows, one packet each."""
        with self._lock:
            self.out.clear()
        for ev in FLOWS:
            self.switch.inject(1, bytes(
                Ether(src="00:00:00:00:00:01", dst=ROUTER_MAC)
                / IP(src="10.0.1.1", dst="10.0.9.1")
                / UDP(sport=ev, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=0) / ("u" * 20)))
        assert self.switch.wait_idle(30), "switch did not go idle"
        with self._lock:
            return Counter(self.out)

    def close(self) -> None:
        self.conn.close()
        self.server.stop()
        self.switch.stop()


@pytest.fixture
def fabric(build):
    switch = FabricSwitch(build)
    yield switch
    switch.close()


def test_p4runtime_member_weights_split_as_recorded_on_bmv2(fabric):
    fabric.route_to_group({2: 2, 3: 3}, {2: 3, 3: 1})
    assert fabric.split() == Counter({2: 32, 3: 32})   # bmv2-facts.md: 32 : 32


def test_weight_as_repeated_members_splits_the_same_on_both_targets(fabric):
    # The controller's form: weight 3 is three members of weight 1 for port 2, made
    # before port 3's, so the slots are port2 x 3, port3 on any target that hashes
    # hash % members in creation order, which BMv2 + PI and p4sim both do.
    group = weighted_members(1, {2: 3, 3: 1})
    members = {member: member % 512 for member in group}
    assert list(members.values()) == [2, 2, 2, 3]
    fabric.route_to_group(members, group)
    seen = fabric.split()
    assert seen[2] > 2 * seen[3]   # what ptf_tests/test_spraying asserts
    assert seen == Counter({2: 64})
