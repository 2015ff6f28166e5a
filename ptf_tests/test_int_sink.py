"""INT sink: a port facing a host strips INT, restores the DSCP and lengths, and a
Telemetry Report v2.0 copy goes to the collector: the packet as the sink forwarded it,
from its IPv4 header on (InType 4), INT-MD stack included (its own hop first), cut to
whole words that Report Length states exactly. By default a flow is reported on its first packet and when its hop
set changes; per-packet reports are a choice of the report mode."""
import ptf.testutils as tu
from ptf.mask import Mask
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw, raw

from wire_formats.layers import DSCP_INT, INT_ALL_SUPPORTED, REPORT_UDP_PORT, UDP_PORT_UEC, IntHop, \
    IntMD, IntReport, IntShim, ReportGroup, ReportIndividual, UecRequest, decode_int, \
    int_hop_words
from wire_formats.layers import REPORT_FIXED_BYTES as REPORT_INNER_OFFSET
from fabric_base import FabricTest
from fabric_config import ROUTER_MAC, host_mac, route_to_port
from int_config import COLLECTOR_IP, COLLECTOR_MAC, COLLECTOR_PORT, DOMAIN_ID, HW_ID, \
    INNER_BYTES, INSTRUCTIONS, REPORT_SRC_PORT, SUPPRESSED, SWITCH_IP, SWITCH_MAC, \
    enable_int_node, make_sink, make_spread_sink, mask_own_hop, own_hop_words, report_every_packet, report_hop_set_changes, \
    watch
from test_int_transit import PREVIOUS_HOP

ORIGINAL_DSCP = 0x0A


def _original(l4) -> Ether:
    return (Ether(src=host_mac(1), dst=ROUTER_MAC)
            / IP(src="10.0.1.1", dst="10.0.2.1", tos=ORIGINAL_DSCP << 2) / l4)


def _routed(pkt: Ether) -> Ether:
    out = pkt.copy()
    out[Ether].src, out[Ether].dst = ROUTER_MAC, host_mac(2)
    out[IP].ttl -= 1
    del out[IP].chksum
    return Ether(raw(out))


def _with_int(l4, body, stack: list[int], remaining: int) -> Ether:
    """The packet as the sink forwards it before stripping: routed, INT DSCP, the
    shim and INT-MD header after ``l4``, then ``body``."""
    pkt = (Ether(src=ROUTER_MAC, dst=host_mac(2))
           / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_INT << 2, ttl=63) / l4
           / IntShim(dscp=ORIGINAL_DSCP)
           / IntMD(remaining_hop_cnt=remaining, instruction_mask=INSTRUCTIONS,
                   domain_id=DOMAIN_ID, stack=stack) / body)
    return decode_int(Ether(raw(pkt)), [DSCP_INT])


def _inner_bytes(with_int: Ether) -> int:
    """Bytes of the INT packet's IPv4 packet a report keeps: its L3-L4 headers and INT
    always, up to INNER_BYTES of the original IPv4 packet, in whole words that are all
    present."""
    data = raw(with_int[IP])
    int_bytes = 4 * (with_int[IntShim].length + 1)
    headers = 20 + (8 if with_int.haslayer(UDP) else 20)
    keep = min(max(INNER_BYTES, headers), len(data) - int_bytes)
    inner = (keep + int_bytes + 3) & ~3
    return inner if inner <= len(data) else len(data) & ~3


def _report(with_int: Ether, seq_no: int = 0) -> Mask:
    """The report of ``with_int``, the sink's own (first) hop timing ignored."""
    inner = raw(with_int[IP])[:_inner_bytes(with_int)]
    report = Ether(raw(
        Ether(src=SWITCH_MAC, dst=COLLECTOR_MAC)
        / IP(src=SWITCH_IP, dst=COLLECTOR_IP, id=0, flags="DF", ttl=64, tos=0)
        / UDP(sport=REPORT_SRC_PORT, dport=REPORT_UDP_PORT, chksum=0)
        / ReportGroup(hw_id=HW_ID, seq_no=seq_no, node_id=with_int[IntMD].stack[0])
        / ReportIndividual(in_type=4, f=1) / IntReport(domain_id=DOMAIN_ID) / Raw(inner)))
    assert report[ReportIndividual].md_length == 0  # the whole stack is embedded
    assert (report[ReportIndividual].report_length + 1) * 4 == 4 + 8 + len(inner)
    tcp = with_int.haslayer(TCP)
    stack_at = REPORT_INNER_OFFSET + 20 + (20 if tcp else 8) + 16
    mask = mask_own_hop(report, stack_at)
    if tcp:  # updated over the timing words
        mask.set_do_not_care((REPORT_INNER_OFFSET + 20 + 16) * 8, 16)
    return mask


class SourceAndSinkOnOneSwitch(FabricTest):
    """Host to host through one switch: the host sees its packet unchanged (routed),
    the collector a report with this switch's hop."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        watch(self, "10.0.2.1")
        make_sink(self, 2)
        udp = UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0)
        body = UecRequest(psn=1) / ("s" * 64)
        pkt = _original(udp / body)
        self.send(1, pkt)
        tu.verify_packet(self, _routed(pkt), 2)
        tu.verify_packet(self, _report(_with_int(udp, body, own_hop_words(1, 2), 3)),
                         COLLECTOR_PORT)
        tu.verify_no_other_packets(self)
        self.assertEqual(
            self.counter("FabricEgress.int_egress.int_report.int_reports", 0)[0], 1)


class ReportLengthCountsOnlyBytesPresent(FabricTest):
    """Payloads of every length modulo 4, shorter than the report keeps: the inner
    packet is cut to whole words, all present, exactly what Report Length says."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        watch(self, "10.0.2.1")
        make_sink(self, 2)
        report_every_packet(self)
        for seq_no, size in enumerate((1, 2, 3, 4)):
            udp = UDP(sport=49160, dport=5000, chksum=0)
            pkt = _original(udp / ("r" * size))
            self.send(1, pkt)
            tu.verify_packet(self, _routed(pkt), 2)
            expected = _with_int(udp, Raw(b"r" * size), own_hop_words(1, 2), 3)
            # Shorter than INNER_BYTES: all of it, but for the bytes of a partial word.
            self.assertEqual(_inner_bytes(expected), len(raw(expected[IP])) & ~3)
            tu.verify_packet(self, _report(expected, seq_no), COLLECTOR_PORT)
        tu.verify_no_other_packets(self)


class SinkReportsTheWholeStack(FabricTest):
    """Per-packet mode: a packet arriving with one hop of metadata is reported with
    both hops, own first; the sequence number counts reports."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        make_sink(self, 2)
        report_every_packet(self)
        udp = UDP(sport=49153, dport=UDP_PORT_UEC, chksum=0)
        for seq_no in range(2):
            body = UecRequest(psn=seq_no) / ("s" * 64)
            arriving = (Ether(src=host_mac(1), dst=ROUTER_MAC)
                        / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_INT << 2)
                        / udp / IntShim(dscp=ORIGINAL_DSCP)
                        / IntMD(remaining_hop_cnt=3, instruction_mask=INSTRUCTIONS,
                                domain_id=DOMAIN_ID, stack=PREVIOUS_HOP) / body)
            self.send(1, arriving)
            tu.verify_packet(self, _routed(_original(udp / body)), 2)
            expected = _with_int(udp, body, own_hop_words(1, 2) + PREVIOUS_HOP, 2)
            tu.verify_packet(self, _report(expected, seq_no), COLLECTOR_PORT)
        tu.verify_no_other_packets(self)


class SinkSuppressesRepeatsOfAFlowByDefault(FabricTest):
    """Default mode: one report for a flow's first packet on a hop set, none for its
    repeats (counted as suppressed), one more when its hop set changes."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        make_sink(self, 2)
        report_hop_set_changes(self)  # latency/queue buckets off: hop sets alone
        udp = UDP(sport=49154, dport=UDP_PORT_UEC, chksum=0)
        other_hop = int_hop_words(INT_ALL_SUPPORTED, IntHop(
            node_id=0x98, ingress_port=5, egress_port=6, hop_latency=10, queue_id=0,
            queue_occupancy=4, ingress_ts=1000, egress_ts=1010))
        seq_no = 0
        for previous, reported in ((PREVIOUS_HOP, True), (PREVIOUS_HOP, False),
                                   (PREVIOUS_HOP, False), (other_hop, True)):
            body = UecRequest(psn=7) / ("s" * 16)
            self.send(1, Ether(src=host_mac(1), dst=ROUTER_MAC)
                      / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_INT << 2)
                      / udp / IntShim(dscp=ORIGINAL_DSCP)
                      / IntMD(remaining_hop_cnt=3, instruction_mask=INSTRUCTIONS,
                              domain_id=DOMAIN_ID, stack=previous) / body)
            tu.verify_packet(self, _routed(_original(udp / body)), 2)
            if reported:
                expected = _with_int(udp, body, own_hop_words(1, 2) + previous, 2)
                tu.verify_packet(self, _report(expected, seq_no), COLLECTOR_PORT)
                seq_no += 1
            tu.verify_no_other_packets(self)
        self.assertEqual(self.counter(SUPPRESSED, 0)[0], 2)


class SinkRestoresTcpSegmentExactly(FabricTest):
    """TCP through source and sink: the host receives the segment with its original
    checksum (recomputed over the restored segment); the report embeds it with INT."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        watch(self, "10.0.2.1")
        make_sink(self, 2)
        tcp = TCP(sport=1000, dport=80, flags="PA")
        pkt = Ether(raw(_original(tcp / Raw(b"t" * 50))))
        self.send(1, pkt)
        tu.verify_packet(self, _routed(pkt), 2)
        expected = _with_int(TCP(sport=1000, dport=80, flags="PA"), Raw(b"t" * 50),
                             own_hop_words(1, 2), 3)
        tu.verify_packet(self, _report(expected), COLLECTOR_PORT)
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


class ReportsSpreadOverUplinks(FabricTest):
    """Reports of different flows leave by different uplinks (one clone session each),
    each with its uplink's next-hop MAC."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        watch(self, "10.0.2.1")
        uplinks = {3: "00:00:00:00:00:33", COLLECTOR_PORT: COLLECTOR_MAC}
        make_spread_sink(self, 2, uplinks)
        seen = {port: 0 for port in uplinks}
        for flow in range(16):
            pkt = _original(UDP(sport=49200 + flow, dport=5000, chksum=0) / ("f" * 20))
            self.send(1, pkt)
            tu.verify_packet(self, _routed(pkt), 2)
            result = self.dataplane.poll(port_number=None, timeout=3)
            self.assertIsNotNone(result.packet, f"no report for flow {flow}")
            self.assertIn(result.port, uplinks)
            report = Ether(result.packet)
            self.assertEqual(report.dst, uplinks[result.port])
            self.assertEqual(report[ReportGroup].seq_no, flow)
            seen[result.port] += 1
        tu.verify_no_other_packets(self)
        self.assertTrue(all(seen.values()), f"reports by uplink: {seen}")
