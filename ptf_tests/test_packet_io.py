"""Packet I/O with the controller: PacketOut leaves on the requested port unchanged;
punted packets reach the controller with their ingress port and reason."""
import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import ARP, Ether
from scapy.packet import raw

from wire_formats.layers import PUNT_REASON_ACL
from fabric_base import FabricTest
from fabric_config import PUNT_RULES, host_mac, route_to_port



class PacketOutLeavesOnGivenPort(FabricTest):
    def runTest(self):
        pkt = (Ether(src=host_mac(9), dst=host_mac(3)) / IP(src="10.9.9.8", dst="10.9.9.9", ttl=1)
               / UDP(sport=1, dport=2) / "hi")
        self.packet_out(3, raw(pkt))
        tu.verify_packet(self, pkt, 3)
        tu.verify_no_other_packets(self)


class PuntedPacketReachesController(FabricTest):
    def runTest(self):
        self.insert(PUNT_RULES, "FabricIngress.packet_io.punt_to_cpu",
                    {"ether_type": "0x0806&&&0xffff"}, priority=10)
        arp = Ether(src=host_mac(2), dst="ff:ff:ff:ff:ff:ff") / ARP(pdst="10.0.0.254")
        self.send(2, arp)
        payload, metadata = self.packet_in()
        self.assertEqual(payload, raw(arp))
        self.assertEqual(metadata["ingress_port"], 2)
        self.assertEqual(metadata["reason"], PUNT_REASON_ACL)
        tu.verify_no_other_packets(self)


class UnpuntedTrafficIsRouted(FabricTest):
    """A punt rule for ARP does not catch IPv4."""

    def runTest(self):
        self.insert(PUNT_RULES, "FabricIngress.packet_io.punt_to_cpu",
                    {"ether_type": "0x0806&&&0xffff"}, priority=10)
        route_to_port(self, "10.0.2.0/24", 2)
        pkt = Ether(src=host_mac(1)) / IP(src="10.0.1.1", dst="10.0.2.1") / UDP(sport=1, dport=2)
        self.send(1, pkt)
        exp = pkt.copy()
        exp[Ether].src, exp[Ether].dst = "00:aa:00:00:00:01", host_mac(2)
        exp[IP].ttl -= 1
        tu.verify_packet(self, Ether(raw(exp)), 2)
        tu.verify_no_other_packets(self)
