"""Telemetry Report v2.0 layers: exact bytes, computed lengths, the UDP binding and the
inner packet."""
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import raw

from wire_formats.layers import (
    INT_ALL_SUPPORTED,
    INT_BIT_EGRESS_TS,
    INT_BIT_INGRESS_TS,
    INT_BIT_L1_PORTS,
    INT_BIT_QUEUE,
    REPORT_MD_DROP_REASON,
    REPORT_MD_RESERVED,
    REPORT_UDP_PORT,
    IntHop,
    IntReport,
    ReportGroup,
    ReportIndividual,
    int_hop_words,
    report_md_words,
)


def test_group_header_bytes():
    # ver 2 | hw_id 1 | sequence number 5 (22 bits) | node ID 9
    assert raw(ReportGroup(hw_id=1, seq_no=5, node_id=9)).hex() == "20400005" "00000009"


def test_individual_header_bytes():
    ind = ReportIndividual(rep_type=1, in_type=3, report_length=22, md_length=9, q=1, f=1)
    assert raw(ind).hex() == "13160960"


def test_int_report_main_contents_bytes():
    main = IntReport(rep_md_bits=0xFD00, domain_id=0x0102, ds_md_bits=0x0304,
                     ds_md_status=0x0506, metadata=[0xAABBCCDD])
    assert raw(main).hex() == "fd00010203040506" "aabbccdd"


def _report() -> Ether:
    words = int_hop_words(INT_ALL_SUPPORTED, IntHop(node_id=3)) * 2
    inner = Ether(src="00:00:00:00:00:01") / IP(dst="10.0.0.1") / UDP(sport=5, dport=6)
    return (Ether() / IP() / UDP(sport=1, dport=REPORT_UDP_PORT) / ReportGroup(node_id=3)
            / ReportIndividual() / IntReport(rep_md_bits=INT_ALL_SUPPORTED, metadata=words)
            / inner)


def test_lengths_are_computed_in_words():
    ind = Ether(raw(_report()))[ReportIndividual]
    assert ind.md_length == 18
    # main contents 8 B + metadata 72 B + inner 42 B, rounded up to words
    assert ind.report_length == (8 + 72 + 42 + 3) // 4


def test_report_round_trips_through_the_udp_binding():
    report = _report()
    parsed = Ether(raw(report))
    assert parsed[ReportGroup].node_id == 3
    assert parsed[IntReport].metadata == report[IntReport].metadata
    inner = parsed[IntReport].payload
    assert isinstance(inner, Ether)
    assert inner[IP].dst == "10.0.0.1"
    assert raw(parsed) == raw(report)


def test_rep_md_bits_sizes_follow_the_report_spec():
    # bit 0 is reserved in reports (the node ID is in the group header), bits 9-14 too
    assert REPORT_MD_RESERVED == 0x807E
    assert report_md_words(INT_BIT_L1_PORTS | INT_BIT_QUEUE) == 2
    assert report_md_words(INT_BIT_INGRESS_TS | INT_BIT_EGRESS_TS) == 4  # 8 bytes each
    assert report_md_words(REPORT_MD_DROP_REASON) == 1  # bit 15: queue ID + drop reason
    assert report_md_words(0x8000) == 0  # reserved bits announce no metadata


def test_individual_header_length_excludes_its_first_word():
    body = IntReport() / (b"\x00" * 12)
    ind = ReportIndividual(raw(ReportIndividual() / body))
    assert ind.report_length == (8 + 12) // 4 and ind.md_length == 0
