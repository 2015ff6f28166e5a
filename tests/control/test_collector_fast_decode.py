"""The fast decoder agrees with the scapy dissection on every report, well-formed or
not: same fields, same flow, same error message (both check conformance first)."""
import dataclasses
import random

import pytest
from scapy.layers.inet import IP, TCP, UDP, ICMP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import ARP, Dot1Q, Ether

from control.collector.decode import ReportDecodeError, decode_report_fast, decode_report_scapy
from control.collector.fast_decode import record_builder
from wire_formats.layout import HeaderLayout, LayoutError
from wire_formats.layers import (DSCP_INT, INT_METADATA_FIELDS, REPORT_MD_DROP_REASON,
                            REPORT_MD_RESERVED, IntHop, IntMD, IntReport, IntShim, ReportGroup,
                            ReportIndividual, UecRequest, int_hop_words)


def outcome(decoder, data: bytes):
    try:
        return "ok", decoder(data)
    except ReportDecodeError as exc:
        return "error", str(exc)


def random_hop(rng: random.Random) -> IntHop:
    def maybe(bits: int):
        return rng.getrandbits(bits) if rng.random() < 0.9 else None
    return IntHop(node_id=maybe(32), ingress_port=maybe(16), egress_port=maybe(16),
                  hop_latency=maybe(32), queue_id=maybe(8), queue_occupancy=maybe(24),
                  ingress_ts=maybe(64), egress_ts=maybe(64), l2_ports=maybe(64),
                  tx_util=maybe(32), buffer=maybe(32))


def random_inner(rng: random.Random):
    ip = IP(src=f"10.{rng.randrange(256)}.0.{rng.randrange(256)}", dst="10.0.2.1",
            ttl=rng.randrange(256))
    if rng.random() < 0.15:
        ip.options = [b"\x01\x01\x01\x00"]  # NOPs and an end of list
    if rng.random() < 0.1:
        ip.frag = rng.randrange(1, 100)
    udp = UDP(sport=rng.randrange(65536), dport=rng.choice([4793, 53, 9999]))
    tcp = TCP(sport=rng.randrange(65536), dport=rng.randrange(65536),
              options=[("MSS", 1460)] if rng.random() < 0.3 else [])
    l4 = rng.choice([udp / UecRequest(psn=rng.getrandbits(32)), tcp, ICMP(), udp / b"abc"])
    if rng.random() < 0.5:  # INT-MD embedded, as the fabric's sinks send it
        ip.tos = DSCP_INT << 2
        instructions = random_instructions(rng)
        hops = [random_hop(rng) for _ in range(rng.randrange(0, 5))]
        stack = [w for hop in hops for w in int_hop_words(instructions, hop)]
        l4 = rng.choice([udp, TCP(sport=rng.randrange(65536), dport=80)]) / IntShim() / IntMD(
            instruction_mask=instructions, remaining_hop_cnt=rng.randrange(8), stack=stack) / b"pay"
    choices = [
        (3, Ether() / ip / l4), (3, Ether() / ip / l4), (4, ip / l4),
        (3, Ether() / Dot1Q(vlan=7) / ip / l4), (3, Ether() / ARP()),
        (3, Ether() / IPv6() / UDP()), (0, b""), (5, IPv6() / UDP()), (4, ip / l4),
    ]
    in_type, pkt = rng.choice(choices)
    data = bytes(pkt)
    if rng.random() < 0.3:
        data = data[:rng.randrange(len(data) + 1)]  # the sink truncates inner packets
    return in_type, data[:len(data) - len(data) % 4]  # whole words, as Report Length counts


def random_instructions(rng: random.Random) -> int:
    if rng.random() < 0.9:
        return sum(bit for bit, _, _ in INT_METADATA_FIELDS if rng.random() < 0.5)
    return rng.getrandbits(16)


def random_report(rng: random.Random) -> bytes:
    own_bits = 0
    if rng.random() < 0.3:  # the reporting node's own metadata in the main contents
        own_bits = random_instructions(rng) & ~REPORT_MD_RESERVED
    words = int_hop_words(own_bits, random_hop(rng)) if own_bits else []
    if own_bits & REPORT_MD_DROP_REASON:
        words.append(rng.getrandbits(32))
    in_type, inner = random_inner(rng)
    pkt = (ReportGroup(hw_id=rng.randrange(64), seq_no=rng.getrandbits(22),
                       node_id=rng.getrandbits(32))
           / ReportIndividual(in_type=in_type, d=rng.randrange(2), q=rng.randrange(2), f=1)
           / IntReport(rep_md_bits=own_bits, domain_id=rng.getrandbits(16), metadata=words)
           / inner)
    return bytes(pkt)


def damage(rng: random.Random, data: bytes) -> bytes:
    kind = rng.randrange(5)
    if kind == 0:
        return data[:rng.randrange(len(data) + 1)]
    buf = bytearray(data)
    if kind == 1:
        for _ in range(rng.randrange(1, 4)):
            pos = rng.randrange(len(buf))
            buf[pos] = rng.randrange(256)
    elif kind == 2:
        buf[10] = rng.randrange(256)  # md_length
    elif kind == 3:
        buf[9] = rng.randrange(256)  # report_length
    else:
        return bytes(rng.getrandbits(8) for _ in range(rng.randrange(40)))
    return bytes(buf)


@pytest.mark.parametrize("seed", range(3))
def test_fast_equals_scapy_on_random_reports(seed):
    rng = random.Random(seed)
    kinds = {"ok": 0, "error": 0}
    for _ in range(500):
        data = random_report(rng)
        if rng.random() < 0.4:
            data = damage(rng, data)
        fast, reference = outcome(decode_report_fast, data), outcome(decode_report_scapy, data)
        assert fast == reference, data.hex()
        kinds[fast[0]] += 1
    assert kinds["ok"] > 150 and kinds["error"] > 40  # both kinds really exercised


def test_flows_are_recovered_for_usual_and_unusual_inner_packets():
    rng = random.Random(99)
    flows = set()
    for _ in range(150):
        report = outcome(decode_report_fast, random_report(rng))
        if report[0] == "ok" and report[1].flow is not None:
            flows.add((report[1].flow.proto, report[1].flow.sport != 0))
    assert {(17, True), (6, True), (1, False)} <= flows


def test_records_built_fast_are_ordinary_frozen_records():
    hop = record_builder(IntHop)(1, 2, 3, 4, 0, 5, None, None, None, None, None)
    assert hop == IntHop(node_id=1, ingress_port=2, egress_port=3, hop_latency=4, queue_id=0,
                         queue_occupancy=5)
    assert hash(hop) == hash(IntHop(1, 2, 3, 4, 0, 5))
    with pytest.raises(dataclasses.FrozenInstanceError):
        hop.node_id = 9
    assert record_builder(IntHop)(1, 2) == IntHop(1, 2)  # fewer values: the class's defaults
    with pytest.raises(TypeError):
        record_builder(IntHop)(*range(12))  # the class's own complaint, not a half-built hop


def test_layouts_come_from_the_layers():
    group = HeaderLayout.of(ReportGroup)
    assert group.names == ("ver", "hw_id", "seq_no", "node_id") and group.size == 8
    raw = bytes(ReportGroup(hw_id=5, seq_no=123456, node_id=0xDEADBEEF))
    values = group.unpack(raw)
    assert values[group.index("seq_no")] == 123456 and values[group.index("hw_id")] == 5
    assert HeaderLayout.of(IntReport).names[-1] == "ds_md_status"  # stops at the stack
    with pytest.raises(LayoutError, match="no fixed field 'nope'"):
        group.index("nope")
