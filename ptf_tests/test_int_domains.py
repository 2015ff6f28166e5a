"""INT across domains: a switch acts only on INT-MD headers of its own domain (Domain
Specific ID, INT v2.1 §5.7), and at a border port it is its domain's sink (the Telemetry
Report, with that domain's ID and hops, goes to its collector) and the next domain's
source (the packet leaves with a fresh INT-MD header of that domain and no hop of
this one). Domain DOMAIN_ID is this switch's, NEXT_DOMAIN_ID the one beyond port 2."""
import ptf.testutils as tu
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw, raw

from wire_formats.layers import DSCP_INT, UDP_PORT_UEC, IntMD, IntShim, UecRequest
from fabric_base import FabricTest
from fabric_config import ROUTER_MAC, host_mac, route_to_port
from int_config import COLLECTOR_PORT, DOMAIN_ID, INSTRUCTIONS, NEXT_DOMAIN_HOP_BUDGET, \
    NEXT_DOMAIN_ID, enable_int_node, make_border, make_sink, mask_own_hop, own_hop_words, \
    report_every_packet, set_domain, watch
from test_int_sink import ORIGINAL_DSCP, _report, _with_int
from test_int_transit import PREVIOUS_HOP, UDP_STACK_OFFSET

BORDER_PORT = 2
FOREIGN_DOMAIN_ID = 0x0303


def _arriving(l4, body, domain_id: int, stack: list[int], remaining: int = 3,
              dst: str = "10.0.2.1") -> Ether:
    """From host 1 towards ``dst``, carrying INT-MD of ``domain_id``."""
    return Ether(raw(Ether(src=host_mac(1), dst=ROUTER_MAC)
                     / IP(src="10.0.1.1", dst=dst, tos=DSCP_INT << 2) / l4
                     / IntShim(dscp=ORIGINAL_DSCP)
                     / IntMD(remaining_hop_cnt=remaining, instruction_mask=INSTRUCTIONS,
                             domain_id=domain_id, stack=stack) / body))


def _next_domain(l4, body, port: int = BORDER_PORT) -> Ether:
    """Routed out of ``port`` with a fresh INT-MD header of the next domain: its hop
    budget untouched, an empty stack, the original DSCP in the shim."""
    return Ether(raw(Ether(src=ROUTER_MAC, dst=host_mac(port))
                     / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_INT << 2, ttl=63) / l4
                     / IntShim(dscp=ORIGINAL_DSCP)
                     / IntMD(remaining_hop_cnt=NEXT_DOMAIN_HOP_BUDGET,
                             instruction_mask=INSTRUCTIONS, domain_id=NEXT_DOMAIN_ID,
                             stack=[]) / body))


def _routed_as_is(pkt: Ether, port: int = BORDER_PORT) -> Ether:
    """``pkt`` routed to the host on ``port``, everything after IPv4 unchanged."""
    out = pkt.copy()
    out[Ether].src, out[Ether].dst = ROUTER_MAC, host_mac(port)
    out[IP].ttl -= 1
    del out[IP].chksum
    return Ether(raw(out))


def _border(test: FabricTest) -> None:
    """Domain DOMAIN_ID's node, its route to 10.0.2.0/24 by the border port 2, which
    is a sink (reports out of COLLECTOR_PORT) and leads into NEXT_DOMAIN_ID."""
    enable_int_node(test)
    set_domain(test, DOMAIN_ID)
    route_to_port(test, "10.0.2.0/24", BORDER_PORT)
    make_sink(test, BORDER_PORT)
    make_border(test, BORDER_PORT)
    report_every_packet(test)


class BorderReportsItsDomainAndStartsTheNext(FabricTest):
    """A packet with one hop of this domain leaves the border with the next domain's
    empty INT-MD header; this domain's collector gets both of its hops (own first)
    under this domain's ID."""

    def runTest(self):
        _border(self)
        udp = UDP(sport=49300, dport=UDP_PORT_UEC, chksum=0)
        body = UecRequest(psn=3) / ("b" * 40)
        self.send(1, _arriving(udp, body, DOMAIN_ID, PREVIOUS_HOP))
        tu.verify_packet(self, _next_domain(udp, body), BORDER_PORT)
        expected = _with_int(udp, body, own_hop_words(1, BORDER_PORT) + PREVIOUS_HOP, 2)
        self.assertEqual(expected[IntMD].domain_id, DOMAIN_ID)
        tu.verify_packet(self, _report(expected), COLLECTOR_PORT)
        tu.verify_no_other_packets(self)


class BorderStartsTheNextDomainOnTcp(FabricTest):
    """TCP across a border: the segment leaves with the next domain's INT headers and a
    checksum over them (the expected packet's checksum is scapy's, computed over the
    whole segment); the report embeds this domain's INT."""

    def runTest(self):
        _border(self)
        tcp = TCP(sport=1100, dport=80, flags="PA")
        body = Raw(b"t" * 48)
        self.send(1, _arriving(tcp, body, DOMAIN_ID, PREVIOUS_HOP))
        tu.verify_packet(self, _next_domain(TCP(sport=1100, dport=80, flags="PA"), body),
                         BORDER_PORT)
        expected = _with_int(TCP(sport=1100, dport=80, flags="PA"), body,
                             own_hop_words(1, BORDER_PORT) + PREVIOUS_HOP, 2)
        tu.verify_packet(self, _report(expected), COLLECTOR_PORT)
        tu.verify_no_other_packets(self)


class SourceAndBorderOnOneSwitch(FabricTest):
    """A watched flow from a host straight to a border: this domain's report holds this
    switch's hop alone, and the next domain's header none of it."""

    def runTest(self):
        _border(self)
        watch(self, "10.0.2.1")
        udp = UDP(sport=49301, dport=5000, chksum=0)
        body = Raw(b"w" * 30)
        self.send(1, Ether(src=host_mac(1), dst=ROUTER_MAC)
                  / IP(src="10.0.1.1", dst="10.0.2.1", tos=ORIGINAL_DSCP << 2) / udp / body)
        tu.verify_packet(self, _next_domain(udp, body), BORDER_PORT)
        tu.verify_packet(self, _report(_with_int(udp, body, own_hop_words(1, BORDER_PORT), 3)),
                         COLLECTOR_PORT)
        tu.verify_no_other_packets(self)


class BorderLeavesOtherPacketsAlone(FabricTest):
    """At the border, a packet without INT gets none, and one carrying another domain's
    INT keeps it as it came: neither is reported."""

    def runTest(self):
        _border(self)
        plain = (Ether(src=host_mac(1), dst=ROUTER_MAC)
                 / IP(src="10.0.1.1", dst="10.0.2.1", tos=ORIGINAL_DSCP << 2)
                 / UDP(sport=49302, dport=5000, chksum=0) / ("p" * 20))
        self.send(1, plain)
        tu.verify_packet(self, _routed_as_is(Ether(raw(plain))), BORDER_PORT)
        foreign = _arriving(UDP(sport=49303, dport=UDP_PORT_UEC, chksum=0),
                            UecRequest(psn=1), FOREIGN_DOMAIN_ID, PREVIOUS_HOP)
        self.send(1, foreign)
        tu.verify_packet(self, _routed_as_is(foreign), BORDER_PORT)
        tu.verify_no_other_packets(self)


class ForeignDomainGetsNoHop(FabricTest):
    """A switch of this domain forwards another domain's INT packet untouched, out of a
    transit port (port 3) and of a sink port (port 2): no hop, hop count and flags as
    they were, nothing stripped, no report."""

    def runTest(self):
        enable_int_node(self)
        set_domain(self, DOMAIN_ID)
        route_to_port(self, "10.0.2.0/24", 2)
        route_to_port(self, "10.0.3.0/24", 3, group=2)
        make_sink(self, 2)
        report_every_packet(self)
        for port, dst in ((3, "10.0.3.1"), (2, "10.0.2.1")):
            pkt = _arriving(UDP(sport=49304, dport=UDP_PORT_UEC, chksum=0),
                            UecRequest(psn=port), NEXT_DOMAIN_ID, PREVIOUS_HOP, dst=dst)
            self.send(1, pkt)
            tu.verify_packet(self, _routed_as_is(pkt, port), port)
        tu.verify_no_other_packets(self)


class OwnDomainStillGetsItsHop(FabricTest):
    """With its domain set, a switch still pushes its hop into that domain's INT."""

    def runTest(self):
        enable_int_node(self)
        set_domain(self, DOMAIN_ID)
        route_to_port(self, "10.0.2.0/24", 2)
        udp = UDP(sport=49305, dport=UDP_PORT_UEC, chksum=0)
        body = UecRequest(psn=4) / ("o" * 16)
        self.send(1, _arriving(udp, body, DOMAIN_ID, PREVIOUS_HOP))
        exp = Ether(raw(Ether(src=ROUTER_MAC, dst=host_mac(2))
                        / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_INT << 2, ttl=63) / udp
                        / IntShim(dscp=ORIGINAL_DSCP)
                        / IntMD(remaining_hop_cnt=2, instruction_mask=INSTRUCTIONS,
                                domain_id=DOMAIN_ID,
                                stack=own_hop_words(1, 2) + PREVIOUS_HOP) / body))
        tu.verify_packet(self, mask_own_hop(exp, UDP_STACK_OFFSET), 2)
        tu.verify_no_other_packets(self)
