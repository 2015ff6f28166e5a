"""INT sink: a port facing a host strips INT, restores the DSCP and lengths, and a
Telemetry Report v2.0 copy goes to the collector with the whole metadata stack (its
own hop first) and the start of the original packet."""
import ptf.testutils as tu
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw, raw

from control.layers import DSCP_INT, REPORT_UDP_PORT, UDP_PORT_UEC, IntMD, IntReport, \
    IntShim, ReportGroup, ReportIndividual, UecRequest
from fabric_base import FabricTest
from fabric_config import ROUTER_MAC, host_mac, route_to_port
from int_config import COLLECTOR_IP, COLLECTOR_MAC, COLLECTOR_PORT, DOMAIN_ID, HW_ID, \
    INNER_BYTES, INSTRUCTIONS, NODE_ID, REPORT_SRC_PORT, SWITCH_IP, SWITCH_MAC, \
    enable_int_node, make_sink, mask_own_hop, own_hop_words, watch
from test_int_transit import PREVIOUS_HOP

ORIGINAL_DSCP = 0x0A
# Ethernet + IPv4 + UDP + group (8) + individual (4) + INT report main contents (8)
REPORT_STACK_OFFSET = 62


def _original(l4) -> Ether:
    return (Ether(src=host_mac(1), dst=ROUTER_MAC)
            / IP(src="10.0.1.1", dst="10.0.2.1", tos=ORIGINAL_DSCP << 2) / l4)


def _routed(pkt: Ether) -> Ether:
    out = pkt.copy()
    out[Ether].src, out[Ether].dst = ROUTER_MAC, host_mac(2)
    out[IP].ttl -= 1
    del out[IP].chksum
    return Ether(raw(out))


def _report(stack: list[int], inner: Ether, seq_no: int = 0) -> Ether:
    report = (Ether(src=SWITCH_MAC, dst=COLLECTOR_MAC)
              / IP(src=SWITCH_IP, dst=COLLECTOR_IP, id=0, flags=0, ttl=64, tos=0)
              / UDP(sport=REPORT_SRC_PORT, dport=REPORT_UDP_PORT, chksum=0)
              / ReportGroup(hw_id=HW_ID, seq_no=seq_no, node_id=NODE_ID)
              / ReportIndividual(f=1)
              / IntReport(rep_md_bits=INSTRUCTIONS, domain_id=DOMAIN_ID, metadata=stack)
              / Raw(raw(inner)[:INNER_BYTES]))
    return Ether(raw(report))


class SourceAndSinkOnOneSwitch(FabricTest):
    """Host to host through one switch: the host sees its packet unchanged (routed),
    the collector a report with this switch's hop."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        watch(self, "10.0.2.1")
        make_sink(self, 2)
        pkt = _original(UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=1)
                        / ("s" * 64))
        self.send(1, pkt)
        delivered = _routed(pkt)
        tu.verify_packet(self, delivered, 2)
        report = _report(own_hop_words(1, 2), delivered)
        self.assertEqual(report[ReportIndividual].md_length, 9)
        tu.verify_packet(self, mask_own_hop(report, REPORT_STACK_OFFSET), COLLECTOR_PORT)
        tu.verify_no_other_packets(self)
        self.assertEqual(
            self.counter("FabricEgress.int_egress.int_report.int_reports", 0)[0], 1)


class SinkReportsTheWholeStack(FabricTest):
    """A packet arriving with one hop of metadata: the report carries both hops, own
    first; the sequence number counts reports."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        make_sink(self, 2)
        for seq_no in range(2):
            body = UecRequest(psn=seq_no) / ("s" * 64)
            arriving = (Ether(src=host_mac(1), dst=ROUTER_MAC)
                        / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_INT << 2)
                        / UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0)
                        / IntShim(dscp=ORIGINAL_DSCP)
                        / IntMD(remaining_hop_cnt=3, instruction_mask=INSTRUCTIONS,
                                domain_id=DOMAIN_ID, stack=PREVIOUS_HOP) / body)
            self.send(1, arriving)
            delivered = _routed(_original(UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0) / body))
            tu.verify_packet(self, delivered, 2)
            report = _report(own_hop_words(1, 2) + PREVIOUS_HOP, delivered, seq_no=seq_no)
            self.assertEqual(report[ReportIndividual].md_length, 18)
            tu.verify_packet(self, mask_own_hop(report, REPORT_STACK_OFFSET), COLLECTOR_PORT)
        tu.verify_no_other_packets(self)


class SinkRestoresTcpSegmentExactly(FabricTest):
    """TCP through source and sink: the host receives the segment with its original
    checksum (recomputed over the restored segment)."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        watch(self, "10.0.2.1")
        make_sink(self, 2)
        pkt = Ether(raw(_original(TCP(sport=1000, dport=80, flags="PA") / Raw(b"t" * 50))))
        self.send(1, pkt)
        delivered = _routed(pkt)
        tu.verify_packet(self, delivered, 2)
        tu.verify_packet(self, mask_own_hop(_report(own_hop_words(1, 2), delivered),
                                            REPORT_STACK_OFFSET), COLLECTOR_PORT)
        tu.verify_no_other_packets(self)


class NoReportWithoutCollectorConfig(FabricTest):
    """Sink port and clone session but no report encapsulation: the host still gets
    the stripped packet; the report copy is dropped."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        watch(self, "10.0.2.1")
        self.insert("FabricEgress.int_egress.int_sink.int_sink_ports",
                    "FabricEgress.int_egress.int_sink.set_int_sink",
                    {"egress_port": 2}, {"report_session": 100})
        self.add_clone_session(100, COLLECTOR_PORT)
        pkt = _original(UDP(sport=49152, dport=5000, chksum=0) / ("n" * 30))
        self.send(1, pkt)
        tu.verify_packet(self, _routed(pkt), 2)
        tu.verify_no_other_packets(self)
