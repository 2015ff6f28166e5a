"""Trimming: a UEC data packet with the trimmable DSCP that meets a congested egress
port is cut to the configured length, with correct IPv4/UDP lengths and checksums and
the trimmed DSCP; other packets are left whole."""
import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import raw

from control.layers import DSCP_TRIMMABLE, DSCP_TRIMMED, UDP_PORT_UEC, UecControl, UecRequest
from fabric_base import FabricTest
from fabric_config import ROUTER_MAC, TRIM_CLASSES, TRIM_THRESHOLDS, host_mac, route_to_port

TRIM_LENGTH = 64
HIGHEST_QUEUE = 7


def _data(dscp: int = DSCP_TRIMMABLE, payload: int = 400) -> Ether:
    return (Ether(src=host_mac(1), dst=ROUTER_MAC)
            / IP(src="10.0.1.1", dst="10.0.2.1", tos=dscp << 2)
            / UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=7, spdcid=1)
            / ("t" * payload))


def _routed(pkt: Ether) -> Ether:
    out = pkt.copy()
    out[Ether].src, out[Ether].dst = ROUTER_MAC, host_mac(2)
    out[IP].ttl -= 1
    del out[IP].chksum
    return out


def _trimmed(pkt: Ether) -> Ether:
    out = _routed(pkt)
    out[IP].tos = DSCP_TRIMMED << 2
    out[IP].len = TRIM_LENGTH - 14
    out[UDP].len = TRIM_LENGTH - 14 - 20
    out[UDP].chksum = 0
    return Ether(raw(out)[:TRIM_LENGTH])


class TrimTest(FabricTest):
    def configure(self, threshold: int) -> None:
        route_to_port(self, "10.0.2.0/24", 2)
        self.insert(TRIM_THRESHOLDS, "FabricIngress.trimming.set_trim_threshold",
                    {"egress_port": 2}, {"depth": threshold})
        self.insert(TRIM_CLASSES, "FabricIngress.trimming.trim_to", {"dscp": DSCP_TRIMMABLE},
                    {"length": TRIM_LENGTH, "trimmed_dscp": DSCP_TRIMMED, "queue": HIGHEST_QUEUE})


class CongestedPortTrimsTrimmableData(TrimTest):
    """Threshold 0: the port counts as congested for every packet."""

    def runTest(self):
        self.configure(threshold=0)
        pkt = _data()
        self.send(1, pkt)
        exp = _trimmed(pkt)
        self.assertEqual(len(exp), TRIM_LENGTH)
        tu.verify_packet(self, exp, 2)
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricIngress.trimming.trimmed_packets", 2)[0], 1)


class UncongestedPortKeepsPacketsWhole(TrimTest):
    def runTest(self):
        self.configure(threshold=1000)
        pkt = _data()
        self.send(1, pkt)
        tu.verify_packet(self, Ether(raw(_routed(pkt))), 2)
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricIngress.trimming.trimmed_packets", 2)[0], 0)


class OtherDscpNotTrimmed(TrimTest):
    def runTest(self):
        self.configure(threshold=0)
        pkt = _data(dscp=0)
        self.send(1, pkt)
        tu.verify_packet(self, Ether(raw(_routed(pkt))), 2)
        tu.verify_no_other_packets(self)


class ShortPacketLeftWhole(TrimTest):
    """A packet no longer than the trim length keeps its DSCP and bytes."""

    def runTest(self):
        self.configure(threshold=0)
        pkt = _data(payload=0)
        self.assertLessEqual(len(pkt), TRIM_LENGTH)
        self.send(1, pkt)
        tu.verify_packet(self, Ether(raw(_routed(pkt))), 2)
        tu.verify_no_other_packets(self)


class ControlPacketsNeverTrimmed(TrimTest):
    """Only data (request) packets are trimmed, not CONTROL packets."""

    def runTest(self):
        self.configure(threshold=0)
        pkt = (Ether(src=host_mac(1), dst=ROUTER_MAC)
               / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_TRIMMABLE << 2)
               / UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0) / UecControl(credit=5)
               / ("c" * 200))
        self.send(1, pkt)
        tu.verify_packet(self, Ether(raw(_routed(pkt))), 2)
        tu.verify_no_other_packets(self)
