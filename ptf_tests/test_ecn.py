"""ECN: ECN-capable packets are marked CE when the queue depth they met is at or above
the egress port's threshold; others are left alone."""
import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from fabric_base import FabricTest
from fabric_config import ECN_THRESHOLDS, ROUTER_MAC, host_mac, route_to_port, routed

SET_THRESHOLD = "FabricEgress.ecn.set_ecn_threshold"
ECT0, CE = 2, 3


def _pkt(ecn: int) -> Ether:
    return (Ether(src=host_mac(1), dst=ROUTER_MAC) / IP(src="10.0.1.1", dst="10.0.2.1", tos=ecn)
            / UDP(sport=5, dport=6) / ("e" * 20))


def _routed(pkt: Ether, ecn: int) -> Ether:
    return routed(pkt, 2, tos=ecn)


class EcnCapableMarkedAtThreshold(FabricTest):
    """Threshold 0: every queue depth is at or above it."""

    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        self.insert(ECN_THRESHOLDS, SET_THRESHOLD, {"egress_port": 2}, {"depth": 0})
        pkt = _pkt(ECT0)
        self.send(1, pkt)
        tu.verify_packet(self, _routed(pkt, CE), 2)
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricEgress.ecn.ecn_marked", 2)[0], 1)


class NotEcnCapableNeverMarked(FabricTest):
    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        self.insert(ECN_THRESHOLDS, SET_THRESHOLD, {"egress_port": 2}, {"depth": 0})
        pkt = _pkt(0)
        self.send(1, pkt)
        tu.verify_packet(self, _routed(pkt, 0), 2)
        tu.verify_no_other_packets(self)


class ShallowQueueNotMarked(FabricTest):
    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        self.insert(ECN_THRESHOLDS, SET_THRESHOLD, {"egress_port": 2}, {"depth": 50})
        pkt = _pkt(ECT0)
        self.send(1, pkt)
        tu.verify_packet(self, _routed(pkt, ECT0), 2)
        tu.verify_no_other_packets(self)
