"""Receiver-driven credit marking: CREDIT packets are reduced according to the
occupancy band of the port they arrived on and flagged; credits beyond the port's
credit rate (a meter) are dropped; both counted."""
import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from wire_formats.layers import CTL_CREDIT, UDP_PORT_UEC, UecControl
from fabric_base import FabricTest
from fabric_config import CREDIT_BANDS, CREDIT_METER, ROUTER_MAC, host_mac, route_to_port, routed

REDUCE = "FabricIngress.credit_marking.reduce_credit"


def _credit(amount: int, psn: int = 3) -> Ether:
    return (Ether(src=host_mac(1), dst=ROUTER_MAC) / IP(src="10.0.1.1", dst="10.0.2.1")
            / UDP(sport=50000, dport=UDP_PORT_UEC, chksum=0)
            / UecControl(ctl_type=CTL_CREDIT, psn=psn, spdcid=7, dpdcid=8, credit=amount))


def _routed(pkt: Ether, credit: int, marked: int) -> Ether:
    out = pkt.copy()
    out[UecControl].credit, out[UecControl].marked = credit, marked
    return routed(out, 2)


class CreditReducedInOccupancyBand(FabricTest):
    """Band 0..1000 packets on port 1 quarters the credit (shift 2) and marks it."""

    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        self.insert(CREDIT_BANDS, REDUCE, {"ingress_port": 1, "queue_depth": "0..1000"},
                    {"shift": 2}, priority=10)
        pkt = _credit(1000)
        self.send(1, pkt)
        tu.verify_packet(self, _routed(pkt, credit=250, marked=1), 2)
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricIngress.credit_marking.credits_marked", 1)[0], 1)


class CreditOutsideBandsUntouched(FabricTest):
    """The port's queue is empty, below the only band (10..1000)."""

    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        self.insert(CREDIT_BANDS, REDUCE, {"ingress_port": 1, "queue_depth": "10..1000"},
                    {"shift": 2}, priority=10)
        pkt = _credit(1000)
        self.send(1, pkt)
        tu.verify_packet(self, _routed(pkt, credit=1000, marked=0), 2)
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricIngress.credit_marking.credits_marked", 1)[0], 0)


class CreditsOverTheMeterDropped(FabricTest):
    """One credit per second, burst one: of three back-to-back credits only the first
    passes."""

    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        self.set_meter(CREDIT_METER, 1, cir=1, cburst=1, pir=1, pburst=1)
        for psn in (1, 2, 3):
            self.send(1, _credit(100, psn=psn))
        tu.verify_packet(self, _routed(_credit(100, psn=1), credit=100, marked=0), 2)
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricIngress.credit_marking.credits_dropped", 1)[0], 2)


class CreditsWithoutMeterConfigPass(FabricTest):
    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        for psn in (1, 2, 3):
            pkt = _credit(100, psn=psn)
            self.send(1, pkt)
            tu.verify_packet(self, _routed(pkt, credit=100, marked=0), 2)
        tu.verify_no_other_packets(self)
