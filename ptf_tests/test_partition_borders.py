"""Partitions across a domain border: on a border port (a link into another
administrative domain) the link's agreed VID, not this domain's partition tag, says the
partition, both ways; a VID with no mapping there is dropped and counted, never put in
partition 0 or any other; an untagged frame is dropped unless the link allows
partition 0; host and intra-domain fabric ports keep today's behaviour.

Port 2 plays the border link, port 3 an intra-domain fabric port, ports 1 and 4 hosts.
Partition 1's border VID is 100 (its domain tag 0xE01), partition 2's is 200."""
import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Packet

from fabric_config import (BORDER_EGRESS_PORTS, BORDER_PORTS, BORDER_TAG_IN, BORDER_TAG_OUT,
                           BORDER_UNMAPPED_IN, BORDER_UNMAPPED_OUT, PARTITION_TAGS, PARTITIONS,
                           ROUTER_MAC, TAG_PORTS, host_mac, route_to_port)
from test_partition_fabric import PartitionTestBase

HOST, BORDER, FABRIC, HOST2 = 1, 2, 3, 4
VID_A, VID_B = 100, 200
TAG_A = 0xE01


def _frame(src: str, dst: str, vlan: int | None = None, prio: int = 0, ttl: int = 64) -> Packet:
    eth = Ether(src=src, dst=dst)
    if vlan is not None:
        eth = eth / Dot1Q(vlan=vlan, prio=prio)
    return eth / IP(src="10.0.1.1", dst="10.0.2.1", ttl=ttl) / UDP(sport=7, dport=8) / ("b" * 30)


def _sent(vlan: int | None = None) -> Packet:
    return _frame(host_mac(9), ROUTER_MAC, vlan)


def _out(port: int, vlan: int | None = None, prio: int = 0) -> Packet:
    return _frame(ROUTER_MAC, host_mac(port), vlan, prio, ttl=63)


class BorderTestBase(PartitionTestBase):
    def border(self, port: int, mapping: dict[int, int], allow_untagged: bool = False) -> None:
        """``port`` a border link, {partition: link VID} both ways."""
        self.insert(BORDER_PORTS, "FabricIngress.partition.border_port", {"ingress_port": port},
                    {"allow_untagged": int(allow_untagged)})
        self.insert(BORDER_EGRESS_PORTS, "FabricEgress.partition_check.border_egress_port",
                    {"egress_port": port})
        for partition, vid in mapping.items():
            self.insert(BORDER_TAG_IN, "FabricIngress.partition.set_partition_untag",
                        {"ingress_port": port, "vlan_id": vid}, {"id": partition})
            self.insert(BORDER_TAG_OUT, "FabricEgress.partition_check.border_set_tag",
                        {"egress_port": port, "partition": partition}, {"vlan_id": vid})
        if allow_untagged:
            self.insert(BORDER_TAG_OUT, "FabricEgress.partition_check.border_untagged",
                        {"egress_port": port, "partition": 0})


class BorderMapsInAndOut(BorderTestBase):
    """In: border VID 100 is partition 1 (routed by partition 1's route, tagged again
    with the domain tag 0xE01 on the fabric port). Out: a host's packet of partition 1
    leaves the border port with VID 100 and its queue class as PCP."""

    def runTest(self):
        self.border(BORDER, {1: VID_A, 2: VID_B})
        self.fabric_ports(FABRIC)
        self.tag(1, TAG_A)
        self.queue(1, 4)
        route_to_port(self, "10.0.2.0/24", FABRIC, partition=1, group=1)
        self.send(BORDER, _sent(vlan=VID_A))
        tu.verify_packet(self, _out(FABRIC, vlan=TAG_A, prio=4), FABRIC)
        tu.verify_no_other_packets(self)
        self.insert(PARTITIONS, "FabricIngress.partition.set_partition", {"ingress_port": HOST},
                    {"id": 1}, priority=10)
        route_to_port(self, "10.0.3.0/24", BORDER, partition=1, group=2)
        pkt = _sent()
        pkt[IP].dst = "10.0.3.1"
        out = _out(BORDER, vlan=VID_A, prio=4)
        out[IP].dst = "10.0.3.1"
        self.send(HOST, pkt)
        tu.verify_packet(self, out, BORDER)
        tu.verify_no_other_packets(self)


class UnmappedBorderTagDropped(BorderTestBase):
    """A VID the border link does not map (here the domain's own tag of partition 1,
    and a random 333) is dropped and counted per port, though partition 0 has a route:
    it is never classified into partition 0."""

    def runTest(self):
        self.border(BORDER, {2: VID_B})
        route_to_port(self, "10.0.2.0/24", HOST2, partition=0, group=1)
        self.insert("FabricIngress.routing.routes", "FabricIngress.routing.set_group",
                    {"partition": 1, "ipv4_dst": "10.0.2.0/24"}, {"group": 1})
        before = self.counter(BORDER_UNMAPPED_IN, BORDER)[0]
        self.send(BORDER, _sent(vlan=TAG_A))
        self.send(BORDER, _sent(vlan=333))
        self.assertEqual(self.wait_counter(BORDER_UNMAPPED_IN, BORDER, before + 2), before + 2)
        tu.verify_no_other_packets(self)


class UntaggedBorderFrameDropped(BorderTestBase):
    """An untagged frame from a border port is dropped unless the link allows
    partition 0; allowed, it is partition 0 and partition 0 leaves the border untagged."""

    def runTest(self):
        self.border(BORDER, {1: VID_A})
        route_to_port(self, "10.0.2.0/24", HOST2, partition=0, group=1)
        before = self.counter(BORDER_UNMAPPED_IN, BORDER)[0]
        self.send(BORDER, _sent())
        self.assertEqual(self.wait_counter(BORDER_UNMAPPED_IN, BORDER, before + 1), before + 1)
        tu.verify_no_other_packets(self)
        # Partition 0 toward the border link without allow_untagged: dropped on egress.
        route_to_port(self, "10.0.3.0/24", BORDER, partition=0, group=2)
        out_before = self.counter(BORDER_UNMAPPED_OUT, 0)[0]
        pkt = _sent()
        pkt[IP].dst = "10.0.3.1"
        self.send(HOST, pkt)
        self.assertEqual(self.wait_counter(BORDER_UNMAPPED_OUT, 0, out_before + 1), out_before + 1)
        tu.verify_no_other_packets(self)


class UntaggedAllowedIsPartitionZero(BorderTestBase):
    def runTest(self):
        self.border(FABRIC, {1: VID_A}, allow_untagged=True)
        route_to_port(self, "10.0.2.0/24", HOST2, partition=0, group=1)
        route_to_port(self, "10.0.3.0/24", FABRIC, partition=0, group=2)
        self.send(FABRIC, _sent())
        tu.verify_packet(self, _out(HOST2), HOST2)
        pkt = _sent()
        pkt[IP].dst = "10.0.3.1"
        out = _out(FABRIC)
        out[IP].dst = "10.0.3.1"
        self.send(HOST, pkt)
        tu.verify_packet(self, out, FABRIC)
        tu.verify_no_other_packets(self)


class HostPortUnaffectedByBorder(BorderTestBase):
    """With a border port configured, a host port's frames, tagged with a border VID
    or not, are classified by port as before (partition 0 here, the host's tag kept on a
    port without tag entries), and a fabric port still classifies by the domain tag."""

    def runTest(self):
        self.border(BORDER, {1: VID_A})
        self.classify_tag(FABRIC, TAG_A, 1)
        route_to_port(self, "10.0.2.0/24", HOST2, partition=0, group=1)
        route_to_port(self, "10.0.2.0/24", HOST, partition=1, group=2)
        self.send(HOST, _sent(vlan=VID_A))
        tu.verify_packet(self, _out(HOST2, vlan=VID_A), HOST2)
        self.send(HOST, _sent())
        tu.verify_packet(self, _out(HOST2), HOST2)
        self.send(FABRIC, _sent(vlan=TAG_A))
        tu.verify_packet(self, _out(HOST), HOST)
        tu.verify_no_other_packets(self)
