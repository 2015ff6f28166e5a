"""Partitions: lookups are keyed by the partition of the ingress port (and VLAN); a
packet can never leave through a port of another partition; drops are counted per
partition."""
import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Dot1Q, Ether

from fabric_base import FabricTest
from fabric_config import PARTITIONS, PORT_PARTITIONS, ROUTER_MAC, host_mac, route_to_port, routed

SET_PARTITION = "FabricIngress.partition.set_partition"


def _pkt(vlan: int | None = None) -> Ether:
    eth = Ether(src=host_mac(1), dst=ROUTER_MAC)
    if vlan is not None:
        eth = eth / Dot1Q(vlan=vlan)
    return eth / IP(src="10.0.1.1", dst="10.0.2.1") / UDP(sport=7, dport=8) / ("p" * 30)


class RoutesAreKeyedByPartition(FabricTest):
    """The route exists only in partition 2; port 1 belongs to partition 1."""

    def runTest(self):
        self.insert(PARTITIONS, SET_PARTITION, {"ingress_port": 1}, {"id": 1}, priority=1)
        route_to_port(self, "10.0.2.0/24", 2, partition=2)
        self.send(1, _pkt())
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricIngress.partition_drops", 1)[0], 1)


class CrossPartitionTrafficDropped(FabricTest):
    """A (mis)configured route of partition 1 points at a port restricted to
    partition 2: the egress check drops the packet and counts it for partition 1."""

    def runTest(self):
        self.insert(PARTITIONS, SET_PARTITION, {"ingress_port": 1}, {"id": 1}, priority=1)
        self.insert(PORT_PARTITIONS, "FabricEgress.partition_check.restrict_to_partition",
                    {"egress_port": 2}, {"id": 2})
        route_to_port(self, "10.0.2.0/24", 2, partition=1)
        self.send(1, _pkt())
        tu.verify_no_other_packets(self)
        drops = self.counter("FabricEgress.partition_check.cross_partition_drops", 1)
        self.assertEqual(drops[0], 1)


class SamePartitionTrafficPasses(FabricTest):
    def runTest(self):
        self.insert(PARTITIONS, SET_PARTITION, {"ingress_port": 1}, {"id": 2}, priority=1)
        self.insert(PORT_PARTITIONS, "FabricEgress.partition_check.restrict_to_partition",
                    {"egress_port": 2}, {"id": 2})
        route_to_port(self, "10.0.2.0/24", 2, partition=2)
        pkt = _pkt()
        self.send(1, pkt)
        tu.verify_packet(self, routed(pkt, 2), 2)
        tu.verify_no_other_packets(self)


class VlanSelectsPartition(FabricTest):
    """On port 1, VLAN 10 is partition 3; untagged traffic stays in partition 0."""

    def runTest(self):
        self.insert(PARTITIONS, SET_PARTITION,
                    {"ingress_port": 1, "vlan_is_valid": "1&&&1", "vlan_id": "10&&&0xfff"},
                    {"id": 3}, priority=10)
        route_to_port(self, "10.0.2.0/24", 3, partition=3, group=3)
        route_to_port(self, "10.0.2.0/24", 2, partition=0, group=2)
        tagged, untagged = _pkt(vlan=10), _pkt()
        self.send(1, tagged)
        tu.verify_packet(self, routed(tagged, 3), 3)
        self.send(1, untagged)
        tu.verify_packet(self, routed(untagged, 2), 2)
        tu.verify_no_other_packets(self)
