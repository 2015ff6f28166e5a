"""The link model's arithmetic and the tc commands it builds (pure): a link of rate_pps
full-size frames per second charges every frame its own bytes, and UEC control packets
get their own band."""
from __future__ import annotations

import pytest

from control.link_frames import data_frame_bytes, data_packets_per_second
from control.link_shaping import (CONTROL_CLASS, CONTROL_IP_BYTES, DATA_CLASS, FULL_FRAME,
                                  MIN_WIRE_FRAME, QUEUE_FRAMES, UEC_PORT, WIRE_OVERHEAD,
                                  frames_per_second, rate_bits, shaping_commands, wire_bytes)
from wire_formats.layers import UDP_PORT_UEC
from wire_formats.uec_datagram import Flow, UecWire


def test_a_full_size_frame_is_1538_bytes_on_the_wire():
    assert wire_bytes(FULL_FRAME) == 1538                # 1514 + FCS + preamble + gap
    assert rate_bits(60) == 60 * 1538 * 8
    assert frames_per_second(60, FULL_FRAME) == pytest.approx(60)
    with pytest.raises(ValueError, match="> 0 packets/s"):
        rate_bits(0)


def test_small_frames_cost_their_own_bytes_but_never_less_than_the_minimum():
    assert wire_bytes(126) == 126 + WIRE_OVERHEAD
    assert wire_bytes(20) == wire_bytes(60) == MIN_WIRE_FRAME
    assert frames_per_second(60, 126) == pytest.approx(60 * 1538 / 150)
    assert frames_per_second(60, 40) == pytest.approx(60 * 1538 / 84)


def _packet_lengths():
    wire = UecWire()
    flow = Flow("10.0.1.1", "10.0.3.1", 1, 2)
    data = wire.data_packet(flow, 7, 0, b"d" * 1200, syn=False, retrans=False, ackreq=False,
                            clear_psn_offset=0, credit_target=1 << 20)
    control = [wire.ack_cc_packet(flow, 7, 5, 1, (1 << 64) - 1, 9, ecn_marked=True,
                                  retrans=True, credit=1 << 20),
               wire.plain_ack_packet(flow, 7, 5), wire.nack_packet(flow, 7, 5),
               wire.control_packet(flow, 7, 7, credit=1 << 20)]
    return len(data), [len(c) for c in control]


def test_the_data_frame_sizes_are_those_seen_on_the_fabric_links():
    """1,310 and 1,346 bytes: what tshark saw on a spine port of four_leaves (one INT
    hop from the leaf, two from the spine)."""
    data_ip, _control = _packet_lengths()
    assert data_frame_bytes(1200, 0) == 14 + data_ip
    assert data_frame_bytes(1200, 1) == 1310 and data_frame_bytes(1200, 2) == 1346
    assert data_packets_per_second(60) == pytest.approx(60 * 1538 / 1370)
    with pytest.raises(ValueError):
        data_frame_bytes(1200, -1)


def test_the_control_band_takes_every_control_packet_and_no_full_data_packet():
    """Lengths of the IP packets with the biggest INT stack the policy allows (4 hops of
    every field): each control packet under the band's bound, a data packet far over."""
    assert CONTROL_IP_BYTES & (CONTROL_IP_BYTES - 1) == 0    # a one-mask u32 match
    stack = data_frame_bytes(0, 4) - data_frame_bytes(0, 0)
    data_ip, control = _packet_lengths()
    assert max(control) + stack < CONTROL_IP_BYTES < data_ip
    assert UEC_PORT == UDP_PORT_UEC


def _values(argv, key):
    return argv[argv.index(key) + 1]


def test_the_commands_make_a_link_class_a_control_band_and_a_data_band():
    commands = shaping_commands("p3", 60, 9216, namespace="ns")
    assert all(argv[:3] == ["tc", "-n", "ns"] and "p3" in argv for argv in commands)
    root, link, control, data, *queues, rule = commands
    assert root[-3:] == ["htb", "default", DATA_CLASS.split(":")[1]]
    for argv in (link, control, data):
        assert _values(argv, "ceil") == f"{rate_bits(60)}bit"
        assert _values(argv, "overhead") == str(WIRE_OVERHEAD)
        assert _values(argv, "mpu") == str(MIN_WIRE_FRAME)
        assert _values(argv, "burst") == str(9216 + 18)       # the largest frame passes
    assert _values(link, "rate") == _values(control, "rate") == f"{rate_bits(60)}bit"
    assert _values(control, "prio") == "0" and _values(data, "prio") == "1"
    assert _values(data, "rate") == "8bit"                     # it only borrows
    assert [_values(q, "parent") for q in queues] == [CONTROL_CLASS, DATA_CLASS]
    assert {_values(q, "limit") for q in queues} == {str(QUEUE_FRAMES * (9216 + 18))}
    assert _values(rule, "dport") == str(UDP_PORT_UEC) and _values(rule, "flowid") == CONTROL_CLASS
    assert rule[rule.index("u16"):rule.index("u16") + 5] == ["u16", "0", "0xfe00", "at", "2"]
    assert shaping_commands("p3", 60, 9216)[0][:3] == ["tc", "qdisc", "replace"]
