"""The endpoints' packets, read back with scapy's own IP/UDP and the project layers."""
from __future__ import annotations

import pytest
from scapy.layers.inet import IP, UDP

from wire_formats.layers import (
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
from wire_formats.pds_codec import HeaderCodec
from wire_formats.uec_datagram import Flow, UecWire, is_credit

FLOW = Flow(src="10.0.0.1", dst="10.0.0.2", own_pdcid=0x1234, peer_pdcid=0x99)
WIRE = UecWire()


def test_data_packet_is_a_trimmable_rud_cc_request_with_zero_udp_checksum():
    datagram = WIRE.data_packet(FLOW, 50001, 0xFFFFFFFF, b"abc" * 100, syn=True, retrans=False,
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
    datagram = WIRE.data_packet(FLOW, 50001, 7, b"hello", syn=False, retrans=True, ackreq=False,
                           clear_psn_offset=0, credit_target=0)
    got = WIRE.parse(datagram)
    assert got is not None and got.is_data and not got.trimmed and not got.ce
    assert (got.src, got.dst, got.sport, got.payload) == ("10.0.0.1", "10.0.0.2", 50001,
                                                          b"hello")
    assert got.pds.psn == 7 and got.pds.retrans == 1


def test_parse_detects_trimming_by_dscp_and_by_short_lengths():
    datagram = bytearray(WIRE.data_packet(FLOW, 50001, 7, b"x" * 500, syn=False, retrans=False,
                                     ackreq=False, clear_psn_offset=0, credit_target=0))
    by_dscp = bytearray(datagram)
    by_dscp[1] = DSCP_TRIMMED << 2
    assert WIRE.parse(bytes(by_dscp)).trimmed
    # Cut without fixing the lengths: fewer bytes than IPv4/UDP claim.
    short = WIRE.parse(bytes(datagram[:64]))
    assert short is not None and short.trimmed and short.pds.psn == 7
    # Cut inside the PDS header: nothing to act on.
    assert WIRE.parse(bytes(datagram[:20 + 8 + 5])) is None


def test_parse_ignores_other_ports_and_protocols():
    datagram = bytes(IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1, dport=53) / b"q")
    assert WIRE.parse(datagram) is None
    assert WIRE.parse(bytes(IP(proto=6) / (b"x" * 40))) is None


def test_ack_nack_and_credit_carry_their_fields():
    ack = IP(WIRE.ack_cc_packet(FLOW, 60000, 41, 3, 0b1011, 3, ecn_marked=True, retrans=False))
    pds = ack[UecAckCC]
    assert (pds.cc_type, pds.cack_psn, pds.ack_psn_offset, pds.sack_psn_offset) == \
        (CC_TYPE_CREDIT, 41, 3, 1)
    assert (pds.sack_bitmap, pds.ooo_count, pds.ecn_marked) == (0b1011, 3, 1)
    assert pds.credit == 0
    # One packet for ACK, SACK and credit: the credit field of the ACK_CC credit variant.
    coalesced = WIRE.parse(WIRE.ack_cc_packet(FLOW, 60000, 41, 0, 0, 0, ecn_marked=False,
                                              retrans=False, credit=5000))
    assert coalesced is not None and coalesced.pds.credit == 5000
    assert IP(WIRE.ack_cc_packet(FLOW, 1, 0, 0, 0, 0, ecn_marked=False, retrans=False,
                                 credit=1 << 30))[UecAckCC].credit == (1 << 24) - 1
    nack = IP(WIRE.nack_packet(FLOW, 60000, 99))[UecNack]
    assert (nack.nack_code, nack.nack_psn, nack.dpdcid) == (NACK_TRIMMED, 99, 0x99)
    datagram = WIRE.control_packet(FLOW, 60001, CTL_CREDIT, credit=1 << 30)
    assert IP(datagram)[UecControl].credit == (1 << 24) - 1      # saturated, not wrapped
    credit = WIRE.parse(datagram)
    assert credit is not None and is_credit(credit) and credit.pds.credit == (1 << 24) - 1


def test_header_codec_agrees_with_scapy_for_every_field():
    codec = HeaderCodec(UecRequestCC)
    values = {"pds_type": PDS_RUD_CC_REQ, "syn": 1, "retrans": 1, "ackreq": 0,
              "clear_psn_offset": 0xABCD, "psn": 0x89ABCDEF, "spdcid": 0x1111,
              "dpdcid": 0xFFFE, "ccc_id": 7, "credit_target": 0xFEDCBA}
    encoded = codec.encode(**values)
    assert encoded == bytes(UecRequestCC(**values))
    decoded = codec.decode(encoded)
    assert {name: getattr(decoded, name) for name in values} == values


def test_header_codec_refuses_values_that_do_not_fit():
    codec = HeaderCodec(UecAckCC, cc_type=1)
    with pytest.raises(ValueError, match="sack_psn_offset = 65536 does not fit in 16 bits"):
        codec.encode(sack_psn_offset=1 << 16)
    with pytest.raises(KeyError, match="no field 'nonsense'"):
        codec.encode(nonsense=1)
    with pytest.raises(KeyError, match="no field 'cc_type'"):   # fixed: selects the variant
        codec.encode(cc_type=0)
