"""Partitions across switches: a packet of a non-zero partition leaves a fabric port with
an 802.1Q partition tag (VID = the partition's tag, PCP = its queue class), a fabric port
classifies by that tag and removes it, hosts never see it, and a host cannot forge it.

Ports 2 and 3 play links to other switches (fabric_port), ports 1 and 4 host ports."""
import time

import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Packet

from fabric_base import FabricTest
from fabric_config import (PARTITION_QUEUES, PARTITION_TAGS, PARTITIONS, PORT_PARTITIONS, ROUTER_MAC,
                           TAG_PORTS, host_mac, route_to_port)

SET_PARTITION = "FabricIngress.partition.set_partition"
SET_PARTITION_UNTAG = "FabricIngress.partition.set_partition_untag"
TAG_A, TAG_B = 0xE01, 0xE02   # the controller's default tags of partitions 1 and 2
HOST, FABRIC, FABRIC2, HOST2 = 1, 2, 3, 4
COUNTER_DEADLINE_S = 20.0


def _frame(src: str, dst: str, vlan: int | None = None, prio: int = 0, ttl: int = 64,
           sport: int = 7) -> Packet:
    eth = Ether(src=src, dst=dst)
    if vlan is not None:
        eth = eth / Dot1Q(vlan=vlan, prio=prio)
    return eth / IP(src="10.0.1.1", dst="10.0.2.1", ttl=ttl) / UDP(sport=sport, dport=8) / ("p" * 30)


def _sent(vlan: int | None = None, prio: int = 0) -> Packet:
    """What arrives at the switch (from a host, or from another switch)."""
    return _frame(host_mac(9), ROUTER_MAC, vlan, prio)


def _out(port: int, vlan: int | None = None, prio: int = 0) -> Packet:
    """What leaves toward ``port``: routed (MACs rewritten, TTL - 1), tagged as given."""
    return _frame(ROUTER_MAC, host_mac(port), vlan, prio, ttl=63)


class PartitionTestBase(FabricTest):
    def fabric_ports(self, *ports: int) -> None:
        for port in ports:
            self.insert(TAG_PORTS, "FabricEgress.partition_tag.fabric_port", {"egress_port": port})

    def tag(self, partition: int, vlan_id: int) -> None:
        self.insert(PARTITION_TAGS, "FabricEgress.partition_tag.set_tag", {"partition": partition},
                    {"vlan_id": vlan_id})

    def classify_tag(self, port: int, vlan_id: int, partition: int) -> None:
        self.insert(PARTITIONS, SET_PARTITION_UNTAG,
                    {"ingress_port": port, "vlan_is_valid": "1&&&1", "vlan_id": f"{vlan_id}&&&0xfff"},
                    {"id": partition}, priority=20)

    def wait_counter(self, name: str, index: int, expected: int) -> int:
        """The counter's packets once it reaches ``expected`` (or at the deadline)."""
        deadline = time.monotonic() + COUNTER_DEADLINE_S
        while True:
            packets = self.counter(name, index)[0]
            if packets >= expected or time.monotonic() > deadline:
                return packets
            time.sleep(0.05)  # polling a condition with a deadline

    def queue(self, partition: int, queue: int) -> None:
        self.insert(PARTITION_QUEUES, "FabricIngress.partition.set_queue", {"partition": partition},
                    {"queue": queue})


class TagPushedOnFabricEgress(PartitionTestBase):
    """A host's untagged packet of partition 1 leaves a fabric port tagged 0xE01."""

    def runTest(self):
        self.insert(PARTITIONS, SET_PARTITION, {"ingress_port": HOST}, {"id": 1}, priority=10)
        self.fabric_ports(FABRIC)
        self.tag(1, TAG_A)
        route_to_port(self, "10.0.2.0/24", FABRIC, partition=1)
        self.send(HOST, _sent())
        tu.verify_packet(self, _out(FABRIC, vlan=TAG_A), FABRIC)
        tu.verify_no_other_packets(self)


class QueueClassPerPartition(PartitionTestBase):
    """Each partition's queue class sets standard_metadata.priority, which the fabric
    tag carries as its PCP: partition 1 in queue 5, partition 2 in queue 2."""

    def runTest(self):
        self.insert(PARTITIONS, SET_PARTITION, {"ingress_port": HOST}, {"id": 1}, priority=10)
        self.insert(PARTITIONS, SET_PARTITION, {"ingress_port": HOST2}, {"id": 2}, priority=10)
        self.fabric_ports(FABRIC)
        self.tag(1, TAG_A)
        self.tag(2, TAG_B)
        self.queue(1, 5)
        self.queue(2, 2)
        route_to_port(self, "10.0.2.0/24", FABRIC, partition=1, group=1)
        self.insert("FabricIngress.routing.routes", "FabricIngress.routing.set_group",
                    {"partition": 2, "ipv4_dst": "10.0.2.0/24"}, {"group": 1})
        self.send(HOST, _sent())
        tu.verify_packet(self, _out(FABRIC, vlan=TAG_A, prio=5), FABRIC)
        self.send(HOST2, _sent())
        tu.verify_packet(self, _out(FABRIC, vlan=TAG_B, prio=2), FABRIC)
        tu.verify_no_other_packets(self)


class FabricPortClassifiesByTag(PartitionTestBase):
    """On a fabric port the tag, not the port, says the partition: 0xE01 is partition 1
    (routed to port 3, tagged again), an untagged frame partition 0 (routed to host
    port 4 by partition 0's route), and the spine-like transit keeps the PCP of the
    partition's queue."""

    def runTest(self):
        self.fabric_ports(FABRIC, FABRIC2)
        self.tag(1, TAG_A)
        self.queue(1, 3)
        self.classify_tag(FABRIC, TAG_A, 1)
        route_to_port(self, "10.0.2.0/24", FABRIC2, partition=1, group=1)
        route_to_port(self, "10.0.2.0/24", HOST2, partition=0, group=2)
        self.send(FABRIC, _sent(vlan=TAG_A, prio=6))
        tu.verify_packet(self, _out(FABRIC2, vlan=TAG_A, prio=3), FABRIC2)
        self.send(FABRIC, _sent())
        tu.verify_packet(self, _out(HOST2), HOST2)
        tu.verify_no_other_packets(self)


class TagRemovedTowardHosts(PartitionTestBase):
    """A tagged packet from the fabric reaches a member host untagged (access port), or
    with the host's own VLAN (tagged access port)."""

    def runTest(self):
        self.classify_tag(FABRIC, TAG_A, 1)
        self.classify_tag(FABRIC, TAG_B, 2)
        self.insert(TAG_PORTS, "FabricEgress.partition_tag.access_port", {"egress_port": HOST})
        self.insert(TAG_PORTS, "FabricEgress.partition_tag.tagged_access_port",
                    {"egress_port": HOST2}, {"vlan_id": 30})
        route_to_port(self, "10.0.2.0/24", HOST, partition=1, group=1)
        route_to_port(self, "10.0.2.0/24", HOST2, partition=2, group=2)
        self.send(FABRIC, _sent(vlan=TAG_A))
        tu.verify_packet(self, _out(HOST), HOST)
        self.send(FABRIC, _sent(vlan=TAG_B))
        tu.verify_packet(self, _out(HOST2, vlan=30), HOST2)
        tu.verify_no_other_packets(self)


class HostCannotForgeTag(PartitionTestBase):
    """A host port has no tag entries: a frame a host tagged with partition 2's tag stays
    in the host port's partition (0 here) and leaves the fabric port untagged, so the
    next switch cannot take it for partition 2."""

    def runTest(self):
        self.fabric_ports(FABRIC)
        self.tag(2, TAG_B)
        self.classify_tag(FABRIC, TAG_B, 2)   # the fabric port's entry, not the host's
        route_to_port(self, "10.0.2.0/24", FABRIC, partition=0, group=1)
        self.send(HOST, _sent(vlan=TAG_B))
        tu.verify_packet(self, _out(FABRIC), FABRIC)
        tu.verify_no_other_packets(self)


class TaggedPartitionStillIsolatedAtEgress(PartitionTestBase):
    """A packet classified by its tag as partition 1, routed (misconfigured) toward a
    port restricted to partition 2, is dropped by the egress check and counted."""

    def runTest(self):
        self.classify_tag(FABRIC, TAG_A, 1)
        self.insert(PORT_PARTITIONS, "FabricEgress.partition_check.restrict_to_partition",
                    {"egress_port": HOST2}, {"id": 2})
        route_to_port(self, "10.0.2.0/24", HOST2, partition=1)
        drops = "FabricEgress.partition_check.cross_partition_drops"
        before = self.counter(drops, 1)[0]
        self.send(FABRIC, _sent(vlan=TAG_A))
        self.assertEqual(self.wait_counter(drops, 1, before + 1), before + 1)
        tu.verify_no_other_packets(self)
