"""Protocol-aware multipath: per (partition, protocol class) modes override the group's,
so UEC sprays while RoCEv2 stays on one member per queue pair (its UDP source port) and
TCP on one member per flow. Without a class entry a group's round-robin still never
reorders RoCEv2 or TCP; an explicit class entry may."""
from collections import Counter

import ptf.testutils as tu
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether

from wire_formats.layers import UDP_PORT_UEC, UecRequest
from fabric_base import FabricTest
from fabric_config import (CLASS_ROCEV2, CLASS_TCP, CLASS_UEC, PARTITIONS, ROUTER_MAC, ROUTES,
                           SET_GROUP, host_mac, route_to_group, set_class_mode)
from routed_match import routed_on_any_member

UDP_PORT_ROCEV2 = 4791
PORTS = [2, 3]
PREFIX = "10.0.9.0/24"
# A RoCEv2 BTH (opcode RC SEND only, P_Key 0xffff, dest QP 0x12, PSN) and a payload.
BTH = bytes([0x04, 0x40, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x01])


def _ip(ingress: int = 1) -> Ether:
    return Ether(src=host_mac(ingress), dst=ROUTER_MAC) / IP(src="10.0.1.1", dst="10.0.9.1")


def _rocev2(sport: int, ingress: int = 1) -> Ether:
    return _ip(ingress) / UDP(sport=sport, dport=UDP_PORT_ROCEV2, chksum=0) / BTH / ("r" * 20)


def _uec(sport: int, psn: int = 0) -> Ether:
    return _ip() / UDP(sport=sport, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=psn) / ("u" * 20)


def _tcp(sport: int, seq: int = 0) -> Ether:
    return _ip() / TCP(sport=sport, dport=5001, seq=seq, flags="A") / ("t" * 20)


class ClassTest(FabricTest):
    def locate(self, pkt: Ether, ingress: int = 1) -> int:
        """Sends ``pkt`` from ``ingress`` and returns the member port it left on."""
        self.send(ingress, pkt)
        index, _ = tu.verify_packet_any_port(self, routed_on_any_member(pkt), PORTS)
        return PORTS[index]


class RoceQueuePairPinnedWhileUecSprays(ClassTest):
    """As the controller writes it: UEC round-robin, RoCEv2 ECMP. One UEC 5-tuple
    sprays evenly; RoCEv2 with the same addresses keeps each source port on one member,
    and different source ports (queue pairs) use both."""

    def runTest(self):
        route_to_group(self, PREFIX, 1, {p: 1 for p in PORTS}, "use_entropy")
        set_class_mode(self, 0, CLASS_UEC, "use_round_robin")
        set_class_mode(self, 0, CLASS_ROCEV2, "use_ecmp")
        uec = Counter(self.locate(_uec(sport=49152, psn=i)) for i in range(8))
        qp = {self.locate(_rocev2(sport=49152)) for _ in range(8)}
        qps = {self.locate(_rocev2(sport=sport)) for sport in range(49153, 49169)}
        tu.verify_no_other_packets(self)
        self.assertEqual(uec, Counter({2: 4, 3: 4}))
        self.assertEqual(len(qp), 1)
        self.assertEqual(qps, set(PORTS))


class GroupRoundRobinNeverReordersRoceOrTcp(ClassTest):
    """No class entry, the group in round-robin: UEC sprays, RoCEv2 and TCP stay pinned."""

    def runTest(self):
        route_to_group(self, PREFIX, 1, {p: 1 for p in PORTS}, "use_round_robin")
        uec = Counter(self.locate(_uec(sport=50000, psn=i)) for i in range(8))
        roce = {self.locate(_rocev2(sport=50000)) for _ in range(8)}
        tcp = {self.locate(_tcp(sport=50000, seq=i)) for i in range(8)}
        tu.verify_no_other_packets(self)
        self.assertEqual(uec, Counter({2: 4, 3: 4}))
        self.assertEqual(len(roce), 1)
        self.assertEqual(len(tcp), 1)


class TcpFlowsPinned(ClassTest):
    """TCP in ECMP: every packet of a flow on one member, many flows over both."""

    def runTest(self):
        route_to_group(self, PREFIX, 1, {p: 1 for p in PORTS}, "use_round_robin")
        set_class_mode(self, 0, CLASS_TCP, "use_ecmp")
        per_flow = {sport: {self.locate(_tcp(sport, seq=i)) for i in range(4)}
                    for sport in range(40000, 40016)}
        tu.verify_no_other_packets(self)
        self.assertTrue(all(len(ports) == 1 for ports in per_flow.values()), per_flow)
        self.assertEqual(set().union(*per_flow.values()), set(PORTS))


class ExplicitClassEntrySpraysTcp(ClassTest):
    """Only an explicit class entry sprays TCP: round-robin over one flow."""

    def runTest(self):
        route_to_group(self, PREFIX, 1, {p: 1 for p in PORTS})
        set_class_mode(self, 0, CLASS_TCP, "use_round_robin")
        seen = Counter(self.locate(_tcp(sport=41000, seq=i)) for i in range(8))
        tu.verify_no_other_packets(self)
        self.assertEqual(seen, Counter({2: 4, 3: 4}))


class PartitionOverridesItsRoce(ClassTest):
    """Partition 5 (port 1) sprays its RoCEv2; partition 0 (port 4) keeps it pinned."""

    def runTest(self):
        route_to_group(self, PREFIX, 1, {p: 1 for p in PORTS})
        self.insert(ROUTES, SET_GROUP, {"partition": 5, "ipv4_dst": PREFIX}, {"group": 1})
        self.insert(PARTITIONS, "FabricIngress.partition.set_partition", {"ingress_port": 1},
                    {"id": 5}, priority=1)
        set_class_mode(self, 0, CLASS_ROCEV2, "use_ecmp")
        set_class_mode(self, 5, CLASS_ROCEV2, "use_round_robin")
        sprayed = Counter(self.locate(_rocev2(sport=49200)) for _ in range(8))
        pinned = {self.locate(_rocev2(sport=49200, ingress=4), ingress=4) for _ in range(8)}
        tu.verify_no_other_packets(self)
        self.assertEqual(sprayed, Counter({2: 4, 3: 4}))
        self.assertEqual(len(pinned), 1)


class ClassEntryOverridesGroupForUec(ClassTest):
    """A class entry beats the group's mode for UEC too: ECMP pins one 5-tuple."""

    def runTest(self):
        route_to_group(self, PREFIX, 1, {p: 1 for p in PORTS}, "use_round_robin")
        set_class_mode(self, 0, CLASS_UEC, "use_ecmp")
        seen = {self.locate(_uec(sport=42000, psn=i)) for i in range(8)}
        tu.verify_no_other_packets(self)
        self.assertEqual(len(seen), 1)
