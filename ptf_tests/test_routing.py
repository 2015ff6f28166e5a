"""Routing per partition: next-hop rewrite, TTL expiry, unrouted drops, and plain
forwarding when no other feature is configured."""
import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from wire_formats.layers import DSCP_INT, DSCP_TRIMMABLE, UDP_PORT_UEC, UecRequest
from fabric_base import FabricTest
from fabric_config import ROUTER_MAC, host_mac, route_to_port, routed


def _udp(dst: str = "10.0.2.1", ttl: int = 64, tos: int = 0, dport: int = 5000) -> Ether:
    return (Ether(src=host_mac(1), dst=ROUTER_MAC)
            / IP(src="10.0.1.1", dst=dst, ttl=ttl, tos=tos)
            / UDP(sport=1234, dport=dport) / ("x" * 40))


class RoutedPacketLeavesRewritten(FabricTest):
    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        pkt = _udp()
        self.send(1, pkt)
        tu.verify_packet(self, routed(pkt, 2), 2)
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricIngress.routing.member_packets", 2)[0], 1)
        self.assertEqual(self.counter("FabricIngress.port_rx", 1), (1, len(pkt)))
        self.assertEqual(self.counter("FabricEgress.port_tx", 2)[0], 1)


class LongestPrefixWins(FabricTest):
    def runTest(self):
        route_to_port(self, "10.0.0.0/8", 2, group=1)
        route_to_port(self, "10.0.3.0/24", 3, group=2)
        pkt = _udp(dst="10.0.3.7")
        self.send(1, pkt)
        tu.verify_packet(self, routed(pkt, 3), 3)
        tu.verify_no_other_packets(self)


class TtlExpiryDropped(FabricTest):
    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        self.send(1, _udp(ttl=1))
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricIngress.routing.ttl_expired", 0)[0], 1)
        self.assertEqual(self.counter("FabricIngress.partition_drops", 0)[0], 1)


class UnroutedDroppedAndCounted(FabricTest):
    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        self.send(1, _udp(dst="192.168.0.1"))
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricIngress.partition_drops", 0)[0], 1)


class NoConfigMeansPlainForwarding(FabricTest):
    """Only a route written: a UEC data packet with the trimmable DSCP, ECN-capable, and
    a packet with the INT DSCP leave routed and otherwise unchanged."""

    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        uec = (Ether(src=host_mac(1), dst=ROUTER_MAC)
               / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_TRIMMABLE << 2 | 1)
               / UDP(sport=40000, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=1)
               / ("d" * 200))
        int_marked = _udp(tos=DSCP_INT << 2)
        for pkt in (uec, int_marked):
            self.send(1, pkt)
            tu.verify_packet(self, routed(pkt, 2), 2)
        tu.verify_no_other_packets(self)
