"""The endpoints' packets, read back with scapy's own IP/UDP and the project layers."""
from __future__ import annotations

from scapy.layers.inet import IP, UDP

from control.layers import (
    CC_TYPE_CREDIT,
    CTL_CREDIT,
    DSCP_TRIMMABLE,
    DSCP_TRIMMED,
    NACK_TRIMMED,
    PDS_RUD_CC_REQ,
    UDP_PORT_UEC,
    UecAckCC,
    UecControl,
    UecNack,
    UecRequestCC,
)
from endpoints.wire import (
    Flow,
    ack_cc_packet,
    control_packet,
    data_packet,
    is_credit,
    nack_packet,
    parse_ipv4,
)

FLOW = Flow(src="10.0.0.1", dst="10.0.0.2", own_pdcid=0x1234, peer_pdcid=0x99)


def test_data_packet_is_a_trimmable_rud_cc_request_with_zero_udp_checksum():
    datagram = data_packet(FLOW, 50001, 0xFFFFFFFF, b"abc" * 100, syn=True, retrans=False,
                           ackreq=True, clear_psn_offset=3, credit_target=70_000)
    packet = IP(datagram)
    recomputed = IP(datagram)
    del recomputed.chksum
    assert IP(bytes(recomputed)).chksum == packet.chksum
    assert packet.tos >> 2 == DSCP_TRIMMABLE and packet.tos & 3 == 0b10   # ECT(0)
    assert packet.len == len(datagram)
    udp = packet[UDP]
    assert (udp.sport, udp.dport, udp.chksum) == (50001, UDP_PORT_UEC, 0)
    assert udp.len == len(datagram) - 20
    pds = packet[UecRequestCC]
    assert pds.pds_type == PDS_RUD_CC_REQ
    assert (pds.psn, pds.syn, pds.ackreq, pds.retrans) == (0xFFFFFFFF, 1, 1, 0)
    assert (pds.spdcid, pds.dpdcid) == (0x1234, 0x99)
    assert (pds.clear_psn_offset, pds.credit_target) == (3, 70_000)
    assert bytes(pds.payload) == b"abc" * 100


def test_parse_reads_back_data_and_flags_nothing_trimmed():
    datagram = data_packet(FLOW, 50001, 7, b"hello", syn=False, retrans=True, ackreq=False,
                           clear_psn_offset=0, credit_target=0)
    got = parse_ipv4(datagram)
    assert got is not None and got.is_data and not got.trimmed and not got.ce
    assert (got.src, got.dst, got.sport, got.payload) == ("10.0.0.1", "10.0.0.2", 50001,
                                                          b"hello")
    assert got.pds.psn == 7 and got.pds.retrans == 1


def test_parse_detects_trimming_by_dscp_and_by_short_lengths():
    datagram = bytearray(data_packet(FLOW, 50001, 7, b"x" * 500, syn=False, retrans=False,
                                     ackreq=False, clear_psn_offset=0, credit_target=0))
    by_dscp = bytearray(datagram)
    by_dscp[1] = DSCP_TRIMMED << 2
    assert parse_ipv4(bytes(by_dscp)).trimmed
    # Cut without fixing the lengths: fewer bytes than IPv4/UDP claim.
    short = parse_ipv4(bytes(datagram[:64]))
    assert short is not None and short.trimmed and short.pds.psn == 7
    # Cut inside the PDS header: nothing to act on.
    assert parse_ipv4(bytes(datagram[:20 + 8 + 5])) is None


def test_parse_ignores_other_ports_and_protocols():
    datagram = bytes(IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1, dport=53) / b"q")
    assert parse_ipv4(datagram) is None
    assert parse_ipv4(bytes(IP(proto=6) / (b"x" * 40))) is None


def test_ack_nack_and_credit_carry_their_fields():
    ack = IP(ack_cc_packet(FLOW, 60000, 41, 3, 0b1011, 3, ecn_marked=True, retrans=False))
    pds = ack[UecAckCC]
    assert (pds.cc_type, pds.cack_psn, pds.ack_psn_offset, pds.sack_psn_offset) == \
        (CC_TYPE_CREDIT, 41, 3, 1)
    assert (pds.sack_bitmap, pds.ooo_count, pds.ecn_marked) == (0b1011, 3, 1)
    nack = IP(nack_packet(FLOW, 60000, 99))[UecNack]
    assert (nack.nack_code, nack.nack_psn, nack.dpdcid) == (NACK_TRIMMED, 99, 0x99)
    credit = parse_ipv4(control_packet(FLOW, 60001, CTL_CREDIT, credit=1 << 30))
    assert credit is not None and is_credit(credit)
    assert isinstance(credit.pds, UecControl) and credit.pds.credit == (1 << 24) - 1
