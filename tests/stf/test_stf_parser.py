"""The STF parser: every statement form, and located errors for bad lines."""
from __future__ import annotations

import pytest

from p4sim.stf import commands as c
from p4sim.stf.errors import StfError
from p4sim.stf.stf_parser import parse_stf


def parse_one(line: str) -> c.Command:
    statements = parse_stf(line + "\n", "t.stf")
    assert len(statements) == 1
    return statements[0]


def test_add_with_priority_keys_action_and_id() -> None:
    line = "add ingress.acl 10 hdr.ipv4.dst:0x0a0000** meta.x:5 ingress.set(port:2, mac:0xa0b) = A"
    s = parse_one(line)
    assert isinstance(s, c.AddEntry)
    assert s.table == "ingress.acl"
    assert s.priority == 10
    assert [(k.name, k.text) for k in s.keys] == [("hdr.ipv4.dst", "0x0a0000**"), ("meta.x", "5")]
    assert s.action.name == "ingress.set"
    assert s.action.args == (("port", 2), ("mac", 0xA0B))
    assert s.entry_id == "A"
    assert s.keys[1].location.column == line.index("meta.x") + 1


def test_add_without_priority_or_args() -> None:
    s = parse_one("add t h.f:0x01/8 NoAction()")
    assert isinstance(s, c.AddEntry)
    assert s.priority is None and s.action.args == () and s.entry_id is None


def test_add_with_stack_and_valid_key_names() -> None:
    s = parse_one("add t hdr.hops[0].id:1 hdr.ip.$valid$:1 act()")
    assert isinstance(s, c.AddEntry)
    assert [k.name for k in s.keys] == ["hdr.hops[0].id", "hdr.ip.$valid$"]


def test_setdefault() -> None:
    s = parse_one("setdefault ipv4_lpm drop()")
    assert isinstance(s, c.SetDefault) and s.table == "ipv4_lpm" and s.action.name == "drop"


def test_packet_joins_words_and_decodes_hex() -> None:
    s = parse_one("packet 3 0102 0a0B ff")
    assert isinstance(s, c.SendPacket)
    assert s.port == 3 and s.data == bytes([1, 2, 10, 11, 255])


def test_packet_empty_or_odd_digits_as_p4c_runner() -> None:
    # p4c's runner sends an empty packet for no data, and reads the digits in
    # pairs, so a trailing lone digit becomes a byte of its own.
    empty = parse_one("packet 3")
    assert isinstance(empty, c.SendPacket) and (empty.port, empty.data) == (3, b"")
    odd = parse_one("packet 0 20 0")
    assert isinstance(odd, c.SendPacket) and odd.data == bytes([0x20, 0x00])
    assert parse_one("packet 0 ab c").data == bytes([0xAB, 0x0C])


def test_expect_with_wildcards_and_exact_length() -> None:
    s = parse_one("expect 2 00ab ** cd$")
    assert isinstance(s, c.Expect)
    assert s.pattern == "00AB**CD" and s.exact_length


def test_expect_without_data_accepts_anything() -> None:
    s = parse_one("expect 4")
    assert isinstance(s, c.Expect) and s.pattern is None


def test_comments_and_blank_lines_are_ignored() -> None:
    statements = parse_stf("# header\n\nwait  # trailing\n   \npacket 1 00 # x\n")
    assert [type(s) for s in statements] == [c.Wait, c.SendPacket]
    assert statements[1].location.line == 5


def test_replication_commands() -> None:
    text = "mc_mgrp_create 1\nmc_node_create 0 1 2 3\nmc_node_associate 1 0\nmirroring_add 5 4\n" \
           "mirroring_add_mc 6 1\n"
    group, node, assoc, mirror, mirror_mc = parse_stf(text)
    assert group == c.McGroupCreate(1, group.location)
    assert isinstance(node, c.McNodeCreate) and node.rid == 0 and node.ports == (1, 2, 3)
    assert isinstance(assoc, c.McNodeAssociate) and (assoc.group, assoc.node) == (1, 0)
    assert isinstance(mirror, c.MirroringAdd) and (mirror.session, mirror.port) == (5, 4)
    assert isinstance(mirror_mc, c.MirroringAdd) and mirror_mc.mcast_group == 1 and mirror_mc.port is None


def test_current_runner_direct_commands() -> None:
    """The commands p4c's present bmv2 STF grammar passes to simple_switch_CLI."""
    text = ("mirroring_delete 5\nmirroring_get 6\nmc_node_update 2 4 5\n"
            "meter_set_rates ingress.m 3 0.5:10 1e-3:20\nmeter_array_set_rates m 0.0000001:1 2:3\n"
            "meter_get_rates m 1\n")
    delete, get, update, one, array, rates = parse_stf(text)
    assert delete == c.MirroringDelete(5, delete.location)
    assert get == c.MirroringGet(6, get.location)
    assert isinstance(update, c.McNodeUpdate) and (update.node, update.ports) == (2, (4, 5))
    assert isinstance(one, c.MeterSetRates)
    assert (one.meter, one.index, one.rates) == ("ingress.m", 3, ((0.5, 10), (0.001, 20)))
    assert isinstance(array, c.MeterSetRates)
    assert (array.meter, array.index, array.rates) == ("m", None, ((1e-7, 1), (2.0, 3)))
    assert isinstance(rates, c.MeterGetRates) and (rates.meter, rates.index) == ("m", 1)


def test_counter_and_register_commands() -> None:
    text = ("check_counter cnt(3) bytes >= 64\ncheck_counter ing.cnt($A)\ncounter_read cnt 1\n"
            "counter_write cnt 1 2 3\nregister_read r 0\nregister_write r 1 0x10\nregister_reset r\n")
    check, check_id, read, write, rread, rwrite, rreset = parse_stf(text)
    assert isinstance(check, c.CheckCounter)
    assert (check.counter, check.index, check.count_type, check.operator, check.value) == \
        ("cnt", 3, "bytes", ">=", 64)
    assert isinstance(check_id, c.CheckCounter) and check_id.index == "A"
    assert (check_id.count_type, check_id.operator, check_id.value) == ("packets", "==", 0)
    assert isinstance(read, c.CounterRead) and (read.counter, read.index) == ("cnt", 1)
    assert isinstance(write, c.CounterWrite) and (write.packets, write.byte_count) == (2, 3)
    assert isinstance(rread, c.RegisterRead) and rread.index == 0
    assert isinstance(rwrite, c.RegisterWrite) and rwrite.value == 16
    assert isinstance(rreset, c.RegisterReset) and rreset.register == "r"


def test_remove_all() -> None:
    assert isinstance(parse_one("remove all"), c.RemoveAll)


@pytest.mark.parametrize("line, column, words", [
    ("frobnicate 1", 1, "unknown STF command 'frobnicate'"),
    ("packet x 00", 8, "bad port"),
    ("packet 1 0g", 10, "hex digits"),
    ("expect 1 00?1", 10, "hex digits or '*'"),
    ("add t k:1 act(port:zz)", 15, "bad value of argument 'port'"),
    ("add t k:1 act(port)", 15, "NAME:VALUE"),
    ("add t k:1 nothing", 7, "action call"),
    ("add t k act()", 7, "table key 'k' is not NAME:VALUE"),
    ("mirroring_add 1", 16, "mirroring_add SESSION PORT"),
    ("check_counter c[1]", 15, "check_counter COUNTER(INDEX)"),
    ("wait 3", 6, "'wait'"),
    ("meter_set_rates m 0 1:2 fast", 25, "is not RATE:BURST"),
    ("meter_array_set_rates m", 24, "missing RATE:BURST"),
    ("mc_node_update 1", 17, "at least one port"),
    ("mirroring_delete", 17, "mirroring_delete SESSION"),
])
def test_errors_are_located(line: str, column: int, words: str) -> None:
    with pytest.raises(StfError) as info:
        parse_stf("\n" + line + "\n", "bad.stf")
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.column) == (2, column)
    assert words in str(info.value)
    assert str(info.value).startswith(f"bad.stf:2:{column}: error: ")
