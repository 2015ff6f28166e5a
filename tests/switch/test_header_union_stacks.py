"""Header-union stacks (``u_t[N] us``) in p4sim-switch: loading header_union_stacks,
extract(us.next.member) with union validity, lastIndex, push_front/pop_front, copying,
the p4c-only operand forms (union_stack_field, dereference_union_stack,
access_union_header) and the deparser, against BMv2's documented semantics."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from p4sim.stf.compile import compile_program
from p4sim.switch.errors import LoadError
from p4sim.switch.packet import Packet
from p4sim.switch.program import Program

CORPUS_P4 = Path(__file__).resolve().parents[1] / "corpus" / "340_header_union_stack.p4"
ETH = bytes.fromhex("000000000001" "000000000002")

# lastIndex in the parser, a whole-union copy and an index known per packet; eth.t picks
UNIT_P4 = """// header-union stack unit program
#include <core.p4>
#include <v1model.p4>
header h1_t { bit<8> kind; bit<8> x; }
header h2_t { bit<8> kind; bit<16> y; }
header_union u_t { h1_t one; h2_t two; }
header eth_t { bit<48> d; bit<48> s; bit<16> t; }
struct headers_t { eth_t eth; u_t[3] us; }
struct meta_t { bit<32> li; bit<8> idx; }
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.eth); transition next; }
    state next {
        transition select(p.lookahead<bit<8>>()) { 1: one; 2: two; default: accept; }
    }
    state one { p.extract(h.us.next.one); m.li = h.us.lastIndex; transition next; }
    state two { p.extract(h.us.next.two); m.li = h.us.lastIndex; transition next; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) {
    apply {
        s.egress_spec = 2;
        h.eth.d = (bit<48>)m.li;
        if (h.eth.t == 5) { h.us[2] = h.us[0]; }
        if (h.eth.t == 6) { h.us.push_front(2); }
        if (h.eth.t == 7) { h.us.pop_front(2); }
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.eth); p.emit(h.us); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


@pytest.fixture(scope="module")
def corpus_doc() -> dict:
    return compile_program(str(CORPUS_P4), "p4sim")


@pytest.fixture(scope="module")
def unit_doc(tmp_path_factory: pytest.TempPathFactory) -> dict:
    path = tmp_path_factory.mktemp("union_stack") / "unit.p4"
    path.write_text(UNIT_P4)
    return compile_program(str(path), "p4sim")


def frame(ether_type: int, *elements: str, payload: str = "AABB") -> bytes:
    return ETH + ether_type.to_bytes(2, "big") + bytes.fromhex("".join(elements) + payload)


def parsed(program: Program, data: bytes) -> Packet:
    pkt = program.new_packet(data, 0)
    program.parse(pkt)
    return pkt


def through(program: Program, data: bytes) -> tuple[Packet, bytes]:
    """Parse, ingress, deparse (no egress work in these programs)."""
    pkt = program.new_packet(data, 0)
    program.process_ingress_side(pkt)
    program.egress(pkt)
    out = program.finish_egress_side(pkt)
    assert pkt.arch.drop_errors == []
    return pkt, out


def members_valid(pkt: Packet) -> list[tuple[bool, bool]]:
    return [(pkt.is_valid(f"us[{i}].one"), pkt.is_valid(f"us[{i}].two")) for i in range(3)]


def next_index(pkt: Packet) -> int:
    return pkt.f[pkt.layout.union_stacks["us"].next_slot]


# --- loading -----------------------------------------------------------------------

def test_loads_header_union_stacks(corpus_doc: dict) -> None:
    program = Program.load(corpus_doc)
    ustack = program.layout.union_stacks["us"]
    assert [u.name for u in ustack.unions] == ["us[0]", "us[1]", "us[2]"]
    assert ustack.member_names == ["one", "two"]
    assert ustack.member_ids("two") == [program.layout.header_by_name[f"us[{i}].two"].hid
                                        for i in range(3)]
    slots = {h.valid_slot for h in program.layout.headers}
    assert ustack.next_slot not in slots
    assert program.new_packet(b"", 0).f[ustack.next_slot] == 0


def _broken(doc: dict, change) -> dict:
    bad = copy.deepcopy(doc)
    change(bad)
    return bad


@pytest.mark.parametrize("change, cause", [
    (lambda d: d["header_union_stacks"][0].update(header_union_ids=[0, 1, 99]),
     "unknown header union id 99"),
    (lambda d: d["header_union_stacks"][0].update(size=4), "size 4 but 3 header_union_ids"),
    (lambda d: d["header_union_stacks"][0].update(union_type="v_t"), "not the stack's union_type"),
    (lambda d: d["parsers"][0]["parse_states"][2]["parser_ops"][0]["parameters"][0].update(
        value=["us", "three"]), "has no member 'three'"),
    (lambda d: d["parsers"][0]["parse_states"][2]["parser_ops"][0]["parameters"][0].update(
        value=["vs", "one"]), "unknown header union stack 'vs'"),
])
def test_bad_union_stack_json_is_a_located_load_error(corpus_doc: dict, change,
                                                      cause: str) -> None:
    with pytest.raises(LoadError) as info:
        Program.load(_broken(corpus_doc, change))
    assert cause in info.value.cause
    assert "header_union_stacks" in info.value.where or "parser" in info.value.where


# --- parser --------------------------------------------------------------------------

def test_extract_fills_next_element_with_the_chosen_member(corpus_doc: dict) -> None:
    program = Program.load(corpus_doc)
    pkt = parsed(program, frame(0x88B5, "0107", "021234"))
    assert members_valid(pkt) == [(True, False), (False, True), (False, False)]
    assert next_index(pkt) == 2
    assert pkt.get_field("us[0].one", "x") == 7
    assert pkt.get_field("us[1].two", "y") == 0x1234
    assert pkt.payload == bytes.fromhex("AABB")


def test_overflowing_the_union_stack_is_stack_out_of_bounds(corpus_doc: dict) -> None:
    program = Program.load(corpus_doc)
    pkt = parsed(program, frame(0x88B5, "0101", "0102", "0103", "0104"))
    errors = dict(corpus_doc["errors"])
    assert pkt.get_std("parser_error") == errors["StackOutOfBounds"]
    assert members_valid(pkt) == [(True, False)] * 3
    assert next_index(pkt) == 3


def test_last_index_follows_extraction(unit_doc: dict) -> None:
    program = Program.load(unit_doc)
    _, out = through(program, frame(0x88B5, "0101", "020000"))
    assert out[:6] == (1).to_bytes(6, "big")     # lastIndex after two elements
    _, out = through(program, frame(0x88B5, "0101"))
    assert out[:6] == (0).to_bytes(6, "big")


def test_union_stack_field_transition_key(unit_doc: dict) -> None:
    """p4c's form of select(us.last.one.x): ['us', 'one', 'x'] in the transition key."""
    doc = copy.deepcopy(unit_doc)
    state = next(s for s in doc["parsers"][0]["parse_states"] if s["name"] == "one")
    state["transition_key"] = [{"type": "union_stack_field", "value": ["us", "one", "x"]}]
    state["transitions"] = [
        {"type": "hexstr", "value": "0xff", "mask": None, "next_state": None},
        {"type": "default", "value": None, "mask": None, "next_state": "next"}]
    program = Program.load(doc)
    pkt = parsed(program, frame(0x88B5, "0101", "01FF", "0103"))
    assert next_index(pkt) == 2          # x == 0xFF in element 1 ends the parse
    assert pkt.payload == bytes.fromhex("0103AABB")
    pkt = parsed(program, frame(0x88B5, "0101", "0102", "0103"))
    assert next_index(pkt) == 3


# --- controls --------------------------------------------------------------------------

def test_push_front_moves_elements_up_and_invalidates_the_front(unit_doc: dict) -> None:
    program = Program.load(unit_doc)
    pkt, out = through(program, frame(6, "0107", "021234"))
    assert members_valid(pkt) == [(False, False), (False, False), (True, False)]
    assert next_index(pkt) == 3               # min(size, 2 + 2)
    assert out[14:] == bytes.fromhex("0107AABB")


def test_pop_front_moves_elements_down(unit_doc: dict) -> None:
    program = Program.load(unit_doc)
    pkt, out = through(program, frame(7, "0107", "021234", "0109"))
    assert members_valid(pkt) == [(True, False), (False, False), (False, False)]
    assert next_index(pkt) == 1
    assert out[14:] == bytes.fromhex("0109AABB")
    pkt, _ = through(program, frame(7, "0107"))
    assert next_index(pkt) == 0               # max(0, 1 - 2)


def test_assigning_a_union_element_copies_member_and_validity(unit_doc: dict) -> None:
    program = Program.load(unit_doc)
    pkt, out = through(program, frame(5, "021234", "0109", "0105"))
    assert members_valid(pkt)[2] == (False, True)
    assert out[14:] == bytes.fromhex("021234" "0109" "021234" "AABB")


def test_set_valid_on_a_member_invalidates_its_sibling(corpus_doc: dict) -> None:
    program = Program.load(corpus_doc)
    pkt, out = through(program, frame(0x88B8, "0107"))
    assert members_valid(pkt)[0] == (False, True)
    assert out[14:] == bytes.fromhex("024242AABB")


def _action(doc: dict, name_part: str) -> dict:
    return next(a for a in doc["actions"] if any(
        name_part in str(p.get("parameters")) for p in a["primitives"]))


def test_dereference_union_stack_and_access_union_header(unit_doc: dict) -> None:
    """p4c's form of us[i].two.y = ... with i known per packet: dereference_union_stack
    gives the union, access_union_header its member (by offset), access_field the field."""
    doc = copy.deepcopy(unit_doc)
    action = _action(doc, "meta_t.li")          # h.eth.d = (bit<48>)m.li
    member = {"type": "expression", "value": {
        "op": "access_union_header",
        "left": {"type": "expression", "value": {
            "op": "dereference_union_stack",
            "left": {"type": "header_union_stack", "value": "us"},
            "right": {"type": "field", "value": ["scalars", "meta_t.li"]}}},
        "right": 1}}
    action["primitives"].append({"op": "assign", "parameters": [
        {"type": "expression", "value": {"type": "expression", "value": {
            "op": "access_field", "left": member, "right": 1}}},
        {"type": "hexstr", "value": "0xbeef"}]})
    action["primitives"].append({"op": "assign", "parameters": [
        {"type": "field", "value": ["eth", "s"]},
        {"type": "expression", "value": {"type": "expression", "value": {
            "op": "b2d", "left": None, "right": {"type": "expression", "value": {
                "op": "valid_union", "left": None, "right": {
                    "type": "expression", "value": {
                        "op": "dereference_union_stack",
                        "left": {"type": "header_union_stack", "value": "us"},
                        "right": {"type": "hexstr", "value": "0x02"}}}}}}}}]})
    program = Program.load(doc)
    pkt, _ = through(program, frame(0x88B5, "0101", "020000"))   # li = 1: us[1].two
    assert pkt.get_field("us[1].two", "y") == 0xBEEF
    assert pkt.get_field("eth", "s") == 0                        # us[2] is invalid
    pkt, _ = through(program, frame(0x88B5, "0101", "020000", "020000"))   # li = 2
    assert pkt.get_field("us[2].two", "y") == 0xBEEF
    assert pkt.get_field("eth", "s") == 1


def test_assign_union_stack_copies_elements_and_next(unit_doc: dict) -> None:
    """assign_union_stack (p4c's whole-stack copy) between two stacks of one type."""
    doc = copy.deepcopy(unit_doc)
    hid = max(h["id"] for h in doc["headers"]) + 1
    uid = max(u["id"] for u in doc["header_unions"]) + 1
    for i in range(3):
        for member, htype in (("one", "h1_t"), ("two", "h2_t")):
            doc["headers"].append({"name": f"vs[{i}].{member}", "id": hid,
                                   "header_type": htype, "metadata": False})
            hid += 1
        doc["header_unions"].append({"name": f"vs[{i}]", "id": uid + i, "union_type": "u_t",
                                     "header_ids": [hid - 2, hid - 1]})
    doc["header_union_stacks"].append({"name": "vs", "id": 1, "union_type": "u_t",
                                       "size": 3, "header_union_ids": [uid, uid + 1, uid + 2]})
    _action(doc, "meta_t.li")["primitives"].append({"op": "assign_union_stack", "parameters": [
        {"type": "header_union_stack", "value": "vs"},
        {"type": "header_union_stack", "value": "us"}]})
    program = Program.load(doc)
    pkt, _ = through(program, frame(0x88B5, "0107", "021234"))
    assert [pkt.is_valid(f"vs[{i}].{m}") for i in range(3) for m in ("one", "two")] == [
        True, False, False, True, False, False]
    assert pkt.get_field("vs[1].two", "y") == 0x1234
    assert pkt.f[program.layout.union_stacks["vs"].next_slot] == 2


def test_deparser_emits_valid_members_in_stack_order(corpus_doc: dict) -> None:
    program = Program.load(corpus_doc)
    _, out = through(program, frame(0x88B5, "021234", "0105"))
    assert out == frame(0x88B5, "021234", "0105")
