"""STF numbers, key values and their resolution against p4c's reference JSON."""
from __future__ import annotations

import json

import pytest

from p4sim.stf import commands as c
from p4sim.stf.entries import BMV2_PRIORITY_BASE, resolve_add, resolve_default
from p4sim.stf.errors import StfError
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.stf_parser import parse_stf
from p4sim.stf.values import MaskedValue, PlainValue, PrefixValue, RangeValue, parse_key_value, parse_number
from p4sim.reference import reference_dir

REFERENCE = reference_dir() / "p4c-out"


def reference_info(name: str) -> ProgramInfo:
    return ProgramInfo(json.loads((REFERENCE / f"{name}.json").read_text()))


def add(line: str) -> c.AddEntry:
    (statement,) = parse_stf(line)
    assert isinstance(statement, c.AddEntry)
    return statement


def test_numbers_with_wildcard_digits() -> None:
    n = parse_number("0x0a**")
    assert (n.value, n.mask, n.written_bits, n.care_bits) == (0x0A00, 0xFF00, 16, 8)
    b = parse_number("0b1*0")
    assert (b.value, b.mask) == (0b100, 0b101)
    d = parse_number("300")
    assert d.value == 300 and d.is_decimal
    with pytest.raises(ValueError, match="not a digit"):
        parse_number("0b102")
    with pytest.raises(ValueError, match="not a number"):
        parse_number("12ab")


def test_key_value_forms() -> None:
    assert parse_key_value("0x0a000000/8") == PrefixValue(0x0A000000, 8)
    assert parse_key_value("0x10&&&0xf0") == MaskedValue(0x10, 0xF0)
    assert parse_key_value("10->20") == RangeValue(10, 20)
    assert isinstance(parse_key_value("0x1*"), PlainValue)


def test_lpm_entry_from_reference_json() -> None:
    info = reference_info("l3_lpm")
    entry = resolve_add(info, add("add ipv4_lpm dst_addr:0x0a01****  forward(port:3, dst_mac:0xe0f, src_mac:1)"))
    assert entry.table == "IngressImpl.ipv4_lpm"
    (key,) = entry.keys
    assert (key.match_kind, key.bitwidth, key.value, key.prefix_len) == ("lpm", 32, 0x0A010000, 16)
    assert entry.action.name == "IngressImpl.forward"
    assert entry.action.args == (3, 0xE0F, 1)
    assert entry.bmv2_priority is None


def test_range_table_needs_priority_and_fills_unnamed_keys() -> None:
    info = reference_info("multipath")
    entry = resolve_add(info, add("add classifier 7 diffserv:0x0* classify(klass:2)"))
    diffserv, dport, protocol = entry.keys
    assert (diffserv.value, diffserv.mask) == (0x00, 0xF0)
    assert (dport.match_kind, dport.value, dport.high) == ("range", 0, 0xFFFF)
    assert (protocol.match_kind, protocol.mask) == ("ternary", 0)
    assert entry.bmv2_priority == BMV2_PRIORITY_BASE - 7
    with pytest.raises(StfError, match="need a priority"):
        resolve_add(info, add("add classifier diffserv:0x0* classify(klass:2)"))


def test_valid_key_and_stdmeta_key_names() -> None:
    info = reference_info("stack_and_queues")
    entry = resolve_add(info, add("add hop_record is_probe:1 push_hop(switch_id:7)"))
    assert entry.keys[0].value == 1 and entry.keys[0].bitwidth == 1
    entry = resolve_add(info, add("add fwd ingress_port:1 forward(port:2)"))
    assert entry.keys[0].bitwidth == 9


@pytest.mark.parametrize("line, message", [
    ("add nosuch k:1 a()", "no table 'nosuch'"),
    ("add ipv4_lpm nokey:1 forward(port:1,dst_mac:1,src_mac:1)", "no key of table"),
    ("add ipv4_lpm dst_addr:1 fly(port:1)", "no action of table"),
    ("add ipv4_lpm dst_addr:1 forward(port:1)", "needs parameter 'dst_mac'"),
    ("add ipv4_lpm dst_addr:1 forward(port:1,dst_mac:1,src_mac:1,x:2)", "no parameter 'x'"),
    ("add ipv4_lpm dst_addr:1 forward(port:512,dst_mac:1,src_mac:1)", "does not fit in 9 bits"),
    ("add ipv4_lpm dst_addr:0x1ffffffff forward(port:1,dst_mac:1,src_mac:1)", "does not fit key"),
])
def test_resolution_errors_name_the_problem(line: str, message: str) -> None:
    with pytest.raises(StfError, match=message) as info:
        resolve_add(reference_info("l3_lpm"), add(line))
    assert info.value.location is not None and info.value.location.line == 1


def test_ambiguous_suffix_is_refused() -> None:
    info = reference_info("l3_lpm")
    (statement,) = parse_stf("setdefault ipv4_lpm IngressImpl.drop()")
    assert resolve_default(info, statement)[1].name == "IngressImpl.drop"
    (statement,) = parse_stf("setdefault tbl_ drop()")
    with pytest.raises(StfError, match="no table"):
        resolve_default(info, statement)


def test_stack_key_written_with_dollar_index() -> None:
    program = {
        "header_types": [{"name": "h_t", "fields": [["x", 8, False]]}],
        "headers": [{"name": "hops[0]", "header_type": "h_t"}, {"name": "hops[1]", "header_type": "h_t"}],
        "actions": [{"name": "a", "id": 0, "runtime_data": []}],
        "pipelines": [{"name": "ingress", "tables": [{
            "name": "I.t", "match_type": "exact", "type": "simple", "action_ids": [0],
            "key": [{"match_type": "exact", "name": "hdr.hops[1].x", "target": ["hops[1]", "x"]}]}]}],
    }
    entry = resolve_add(ProgramInfo(program), add("add t hdr.hops$1.x:7 a()"))
    assert (entry.keys[0].value, entry.keys[0].bitwidth) == (7, 8)
