"""INT-MD layers: exact bytes against the INT v2.1 field layout, round trips, and the
stack helpers that tests and the collector use."""
import pytest
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw, raw

from wire_formats.layers import (
    DSCP_INT,
    INT_ALL_SUPPORTED,
    INT_BIT_EGRESS_TS,
    INT_BIT_L1_PORTS,
    INT_BIT_NODE_ID,
    INT_BIT_QUEUE,
    INT_UNAVAILABLE,
    IntHop,
    IntMD,
    IntShim,
    UecRequest,
    decode_int,
    hop_ml,
    int_hop_words,
    split_int_stack,
)


def test_shim_bytes_follow_the_spec_layout():
    # type 1, NPT 0 | length 12 | reserved | DSCP 0x0A in the upper 6 bits
    assert raw(IntShim(length=12, dscp=0x0A)).hex() == "100c0028"


def test_md_header_bytes_follow_the_spec_layout():
    md = IntMD(d=1, e=1, hop_ml=9, remaining_hop_cnt=3, instruction_mask=0xFD00,
               domain_id=0x1234, ds_instruction=0xABCD, ds_flags=0x0001)
    # ver 2, D, E set | 12 reserved bits | hop ML 9 | remaining 3
    assert raw(md).hex() == "2c000903" "fd00" "1234" "abcd" "0001"


def test_md_hop_ml_defaults_to_the_bitmap_word_count():
    md = IntMD(instruction_mask=INT_BIT_NODE_ID | INT_BIT_EGRESS_TS)
    assert raw(md)[2] & 0x1F == 3


def test_shim_length_counts_md_header_and_stack_words():
    pkt = IntShim() / IntMD(stack=[1, 2, 3, 4])
    assert raw(pkt)[1] == 3 + 4
    assert len(raw(pkt)) == 4 + 12 + 16


def test_nine_words_per_hop_for_the_supported_bits():
    assert hop_ml(INT_ALL_SUPPORTED) == 9
    assert INT_ALL_SUPPORTED == 0xFD00


def test_hop_words_in_wire_order_with_unavailable_all_ones():
    hop = IntHop(node_id=7, ingress_port=1, egress_port=2, hop_latency=5, queue_id=1,
                 queue_occupancy=3, ingress_ts=0x1_0000_0002, egress_ts=0x3_0000_0004)
    words = int_hop_words(INT_ALL_SUPPORTED, hop)
    assert words == [7, 0x0001_0002, 5, 0x0100_0003, 1, 2, 3, 4, INT_UNAVAILABLE]


def test_split_stack_decodes_hops_newest_first():
    bits = INT_BIT_NODE_ID | INT_BIT_L1_PORTS | INT_BIT_QUEUE
    newest = IntHop(node_id=2, ingress_port=3, egress_port=4, queue_id=0, queue_occupancy=9)
    oldest = IntHop(node_id=1, ingress_port=1, egress_port=2, queue_id=7, queue_occupancy=0)
    words = int_hop_words(bits, newest) + int_hop_words(bits, oldest)
    assert split_int_stack(words, bits) == [newest, oldest]


def test_split_stack_rejects_a_partial_hop():
    with pytest.raises(ValueError, match="not a whole number"):
        split_int_stack([1, 2, 3], INT_BIT_NODE_ID | INT_BIT_L1_PORTS)


def _udp_int_packet(dport: int) -> Ether:
    words = int_hop_words(INT_ALL_SUPPORTED, IntHop(node_id=5))
    return (Ether() / IP(tos=DSCP_INT << 2) / UDP(sport=1234, dport=dport)
            / IntShim(dscp=0x0A) / IntMD(remaining_hop_cnt=2, instruction_mask=INT_ALL_SUPPORTED,
                                         stack=words))


def test_decode_int_round_trips_udp_with_uec_payload():
    pkt = _udp_int_packet(4793) / UecRequest(psn=77)
    decoded = decode_int(Ether(raw(pkt)))
    assert decoded[IntShim].length == 3 + 9
    assert decoded[IntMD].stack == int_hop_words(INT_ALL_SUPPORTED, IntHop(node_id=5))
    assert decoded[UecRequest].psn == 77
    assert raw(decoded) == raw(pkt)


def test_decode_int_on_tcp_leaves_the_payload_raw():
    pkt = (Ether() / IP(tos=DSCP_INT << 2) / TCP(sport=1, dport=2)
           / IntShim() / IntMD(instruction_mask=INT_BIT_NODE_ID, stack=[9]) / Raw(b"data"))
    decoded = decode_int(Ether(raw(pkt)))
    assert decoded[IntMD].stack == [9]
    assert decoded[Raw].load == b"data"


def test_decode_int_ignores_packets_without_the_int_dscp():
    pkt = Ether(raw(Ether() / IP(tos=0) / UDP(sport=1, dport=2) / Raw(b"\x10\x03\x00\x00")))
    assert IntShim not in decode_int(pkt)
