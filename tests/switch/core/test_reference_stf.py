"""The reference STF packets of real BMv2, run through Program with a hand-made
unicast architecture and compared byte for byte."""
from __future__ import annotations

import pytest

from .helpers import (
    install_stf_entries, load_reference, read_stf, run_unicast, stf_matches)


@pytest.mark.parametrize("name", ["l3_lpm", "stack_and_queues"])
def test_reference_stf_unicast(name: str) -> None:
    program = load_reference(name)
    stf = read_stf(name)
    install_stf_entries(program, stf)
    assert stf.cases, "the STF file has packets"
    for case in stf.cases:
        port, out, pkt = run_unicast(program, case.port, case.data,
                                     {"deq_qdepth": 0x1234, "deq_timedelta": 0x55})
        if not case.expects:
            assert port is None, f"expected a drop for {case.data.hex()}"
            continue
        (exp_port, exp_data), = case.expects
        assert port == exp_port
        assert stf_matches(exp_data, out), f"\nexpected {exp_data}\ngot      {out.hex().upper()}"


def test_l3_lpm_direct_counter_counts_hits() -> None:
    program = load_reference("l3_lpm")
    stf = read_stf("l3_lpm")
    install_stf_entries(program, stf)
    for case in stf.cases:
        run_unicast(program, case.port, case.data)
    table = program.runtime.tables["IngressImpl.ipv4_lpm"]
    counts = {tuple(e.keys): e.counter for e in table.entries()}
    # the /8 route is hit by packets 1 and 5 (both 50 bytes), the /24 by packet 2
    by_prefix = {keys[0].prefix_len: c for keys, c in counts.items()}
    assert by_prefix[8] == (2 * 50, 2)
    assert by_prefix[24] == (42, 1)


def test_stack_queue_metadata_lands_in_hop_record() -> None:
    program = load_reference("stack_and_queues")
    install_stf_entries(program, read_stf("stack_and_queues"))
    data = bytes.fromhex("00000000000100000000000288B50000" + "AA" * 16)
    port, out, _ = run_unicast(program, 1, data, {"deq_qdepth": 7, "deq_timedelta": 1000})
    assert port == 2
    hop = out[16:28]
    assert hop == bytes.fromhex("0007" "0002" "00000007" "000003E8")


def test_parser_verify_error_reaches_ingress() -> None:
    program = load_reference("stack_and_queues")
    data = bytes.fromhex("00000000000100000000000288B50500") + bytes(80)
    pkt = program.new_packet(data, 1)
    program.parse(pkt)
    assert pkt.get_std("parser_error") == 3  # StackOutOfBounds, from verify()
    program.ingress(pkt)
    assert pkt.get_std("egress_spec") == 511


def test_value_set_adds_a_parse_transition() -> None:
    program = load_reference("stack_and_queues")
    install_stf_entries(program, read_stf("stack_and_queues"))
    data = bytes.fromhex("0000000000010000000000021234" "0000") + b"\xaa" * 16
    _, out, pkt = run_unicast(program, 1, data)
    assert not pkt.is_valid("probe")
    program.runtime.value_sets["ParserImpl.probe_types"].add(0x1234, 0xFFFF)
    _, out, pkt = run_unicast(program, 1, data)
    assert pkt.is_valid("probe")
    assert out[14] == 1  # a hop was pushed on the probe


def test_pop_all_truncates() -> None:
    program = load_reference("stack_and_queues")
    install_stf_entries(program, read_stf("stack_and_queues"))
    program.runtime.tables["EgressImpl.hop_record"].set_default_action("EgressImpl.pop_all", [])
    program.runtime.tables["EgressImpl.hop_record"].delete_entry(
        program.runtime.tables["EgressImpl.hop_record"].entries()[0].handle)
    data = (bytes.fromhex("00000000000100000000000288B50100") + bytes.fromhex("00030009") * 3
            + b"\xaa" * 80)
    port, out, pkt = run_unicast(program, 1, data)
    assert pkt.arch.truncate_length == 64
    assert len(out) == 64
    assert out[12:14] == b"\x08\x00"
    assert out[14:] == b"\xaa" * 50
