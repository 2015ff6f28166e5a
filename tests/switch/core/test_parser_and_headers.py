"""Parser ops, header stacks, unions and varbit headers on small synthetic programs."""
from __future__ import annotations

import logging

from p4sim.switch.program import Program
from .synth import (
    assign, document, expr, field, hexstr, keyless_table, single_action_program)

H_TYPE = {"name": "h_t", "id": 2, "fields": [["kind", 8, False], ["val", 8, False]]}
VL_TYPE = {"name": "vl_t", "id": 3, "fields": [["kind", 8, False], ["opts", "*"]],
           "max_length": 9}


def state(name, ops, key=None, transitions=None):
    return {"name": name, "id": 0, "parser_ops": ops, "transition_key": key or [],
            "transitions": transitions or [default(None)]}


def default(nxt):
    return {"type": "default", "value": None, "mask": None, "next_state": nxt}


def case(value, nxt, mask=None):
    return {"type": "hexstr", "value": value, "mask": mask, "next_state": nxt}


def extract(kind, name):
    return {"op": "extract", "parameters": [{"type": kind, "value": name}]}


def stack_program(actions=None, tables=None, init=None, **kw):
    headers = [{"name": f"hs[{i}]", "id": 2 + i, "header_type": "h_t", "metadata": False}
               for i in range(3)]
    states = [state("start", [extract("stack", "hs")],
                    key=[{"type": "stack_field", "value": ["hs", "kind"]}],
                    transitions=[case("0x01", "start"), default(None)])]
    return document(header_types=[H_TYPE], headers=headers, parse_states=states,
                    header_stacks=[{"name": "hs", "id": 0, "header_type": "h_t", "size": 3,
                                    "header_ids": [2, 3, 4]}],
                    deparse_order=["hs[0]", "hs[1]", "hs[2]"],
                    meta_fields=[["n", 8, False], ["last", 8, False], ["x", 8, False]],
                    actions=actions or [], tables=tables or [], ingress_init=init, **kw)


def test_stack_extract_loop_and_stack_field_select() -> None:
    program = Program.load(stack_program())
    pkt = program.new_packet(bytes.fromhex("0111" "0122" "0033" "FFFF"), 0)
    program.parse(pkt)
    assert [pkt.is_valid(f"hs[{i}]") for i in range(3)] == [True, True, True]
    assert pkt.get_field("hs[2]", "val") == 0x33
    assert pkt.payload == b"\xff\xff"
    assert program.deparse(pkt) == pkt.data


def test_stack_overflow_is_stack_out_of_bounds() -> None:
    program = Program.load(stack_program())
    pkt = program.new_packet(bytes.fromhex("0111" "0122" "0133" "0044"), 0)
    program.parse(pkt)
    assert pkt.get_std("parser_error") == 3


def test_push_pop_size_and_dynamic_index() -> None:
    prims = [
        {"op": "push", "parameters": [{"type": "header_stack", "value": "hs"}, hexstr(1)]},
        {"op": "add_header", "parameters": [{"type": "header", "value": "hs[0]"}]},
        assign(field("hs[0]", "val"), hexstr(0x99)),
        assign(field("scalars", "n"), expr("size_stack", None,
                                           {"type": "header_stack", "value": "hs"})),
        assign(field("scalars", "last"), expr("last_stack_index", None,
                                              {"type": "header_stack", "value": "hs"})),
        # hs[x].val = 0x77 through dereference_header_stack + access_field
        assign({"type": "expression", "value": {"type": "expression", "value": {
            "op": "access_field", "right": 1, "left": {"type": "expression", "value": {
                "op": "dereference_header_stack",
                "left": {"type": "header_stack", "value": "hs"},
                "right": field("scalars", "x")}}}}}, hexstr(0x77)),
    ]
    doc = stack_program(actions=[{"name": "act", "id": 0, "runtime_data": [],
                                  "primitives": prims}],
                        tables=[keyless_table("tbl", 0, "act")], init="tbl")
    program = Program.load(doc)
    pkt = program.new_packet(bytes.fromhex("0111" "0022"), 0)
    program.parse(pkt)
    pkt.set_field("scalars", "x", 2)
    program.ingress(pkt)
    assert pkt.get_field("scalars", "n") == 3
    assert pkt.get_field("scalars", "last") == 2
    assert program.deparse(pkt) == bytes.fromhex("0099" "0111" "0077")
    # out-of-range dynamic index is a pipeline error, not an exception
    pkt = program.new_packet(bytes.fromhex("0111" "0022"), 0)
    program.parse(pkt)
    pkt.set_field("scalars", "x", 5)
    program.ingress(pkt)
    assert pkt.arch.drop_errors and "out of bounds" in pkt.arch.drop_errors[0]


def test_pop_front_shifts_down() -> None:
    prims = [{"op": "pop", "parameters": [{"type": "header_stack", "value": "hs"}, hexstr(1)]}]
    doc = stack_program(actions=[{"name": "act", "id": 0, "runtime_data": [],
                                  "primitives": prims}],
                        tables=[keyless_table("tbl", 0, "act")], init="tbl")
    program = Program.load(doc)
    pkt = program.new_packet(bytes.fromhex("0111" "0122" "0033"), 0)
    program.parse(pkt)
    program.ingress(pkt)
    assert program.deparse(pkt) == bytes.fromhex("0122" "0033")


def test_truncated_packets_set_packet_too_short_and_never_raise() -> None:
    program = Program.load(stack_program())
    for n in range(0, 4):
        pkt = program.new_packet(bytes.fromhex("0111" "01")[:n], 0)
        program.parse(pkt)
        program.ingress(pkt)
        assert program.deparse(pkt) == pkt.data  # what was parsed is emitted back
        assert pkt.get_std("parser_error") == 1  # PacketTooShort


def test_lookahead_advance_and_masked_select() -> None:
    states = [
        state("start", [{"op": "set", "parameters": [field("scalars", "peek"),
                                                     {"type": "lookahead", "value": [8, 8]}]}],
              key=[{"type": "lookahead", "value": [0, 8]}],
              transitions=[case("0x40", "skip", mask="0xf0"), default("take")]),
        state("skip", [{"op": "advance", "parameters": [hexstr(16)]}],
              transitions=[default("take")]),
        state("take", [extract("regular", "h")]),
    ]
    doc = document(header_types=[H_TYPE], meta_fields=[["peek", 8, False]],
                   headers=[{"name": "h", "id": 2, "header_type": "h_t", "metadata": False}],
                   parse_states=states, deparse_order=["h"])
    program = Program.load(doc)
    pkt = program.new_packet(bytes.fromhex("4BCC" "0102" "EE"), 0)
    program.parse(pkt)
    assert pkt.get_field("scalars", "peek") == 0xCC
    assert (pkt.get_field("h", "kind"), pkt.get_field("h", "val")) == (1, 2)
    pkt = program.new_packet(bytes.fromhex("3BCC" "0102"), 0)
    program.parse(pkt)
    assert (pkt.get_field("h", "kind"), pkt.get_field("h", "val")) == (0x3B, 0xCC)


def test_no_matching_transition_is_no_match() -> None:
    states = [state("start", [extract("regular", "h")],
                    key=[{"type": "field", "value": ["h", "kind"]}],
                    transitions=[case("0x01", None)])]
    doc = document(header_types=[H_TYPE],
                   headers=[{"name": "h", "id": 2, "header_type": "h_t", "metadata": False}],
                   parse_states=states, deparse_order=["h"])
    program = Program.load(doc)
    pkt = program.new_packet(bytes.fromhex("0203"), 0)
    program.parse(pkt)
    assert pkt.get_std("parser_error") == 2


def test_varbit_extract_and_deparse() -> None:
    length = expr("*", field("h", "val"), hexstr(8))
    states = [state("start", [extract("regular", "h"), {"op": "extract_VL", "parameters": [
        {"type": "regular", "value": "v"}, length]}])]
    doc = document(header_types=[H_TYPE, VL_TYPE],
                   headers=[{"name": "h", "id": 2, "header_type": "h_t", "metadata": False},
                            {"name": "v", "id": 3, "header_type": "vl_t", "metadata": False}],
                   parse_states=states, deparse_order=["h", "v"])
    program = Program.load(doc)
    pkt = program.new_packet(bytes.fromhex("0003" "07AABBCC" "DD"), 0)
    program.parse(pkt)
    assert pkt.get_field("v", "kind") == 7
    assert pkt.get_field("v", "opts") == 0xAABBCC
    assert pkt.payload == b"\xdd"
    assert program.deparse(pkt) == pkt.data
    pkt = program.new_packet(bytes.fromhex("0009" + "00" * 12), 0)  # 9 + 1 bytes > max_length
    program.parse(pkt)
    assert pkt.get_std("parser_error") == 4  # HeaderTooShort


def test_header_union_members_exclude_each_other() -> None:
    h2 = dict(H_TYPE, name="h2_t", id=3)
    prims = [
        {"op": "add_header", "parameters": [{"type": "header", "value": "u.a"}]},
        {"op": "add_header", "parameters": [{"type": "header", "value": "u.b"}]},
        assign(field("scalars", "ok"), expr("b2d", None, expr(
            "valid_union", None, {"type": "header_union", "value": "u"}))),
    ]
    doc = single_action_program(
        prims, [["ok", 8, False]], header_types=[H_TYPE, h2],
        headers=[{"name": "u.a", "id": 2, "header_type": "h_t", "metadata": False},
                 {"name": "u.b", "id": 3, "header_type": "h2_t", "metadata": False}],
        header_union_types=[{"name": "u_t", "id": 0, "headers": [["a", "h_t"], ["b", "h2_t"]]}],
        header_unions=[{"name": "u", "id": 0, "union_type": "u_t", "header_ids": [2, 3]}])
    program = Program.load(doc)
    pkt = program.new_packet(b"", 0)
    program.ingress(pkt)
    assert not pkt.is_valid("u.a") and pkt.is_valid("u.b")
    assert pkt.get_field("scalars", "ok") == 1


def test_jumps_assert_and_log_msg(caplog) -> None:
    prims = [
        {"op": "_jump_if_zero", "parameters": [field("scalars", "a"), hexstr(3)]},
        assign(field("scalars", "b"), hexstr(1)),
        {"op": "_jump", "parameters": [hexstr(4)]},
        assign(field("scalars", "b"), hexstr(2)),
        {"op": "log_msg", "parameters": [
            {"type": "string", "value": "b is {} and a is {}"},
            {"type": "parameters_vector", "value": [field("scalars", "b"),
                                                    field("scalars", "a")]}]},
        {"op": "assert", "parameters": [expr("d2b", None, field("scalars", "b"))]},
    ]
    program = Program.load(single_action_program(prims, [["a", 8, False], ["b", 8, False]]))
    with caplog.at_level(logging.INFO, logger="p4sim.switch"):
        for a, expected in ((1, 1), (0, 2)):
            pkt = program.new_packet(b"", 0)
            pkt.set_field("scalars", "a", a)
            program.ingress(pkt)
            assert pkt.get_field("scalars", "b") == expected
            assert pkt.arch.drop_errors == []
    assert "b is 1 and a is 1" in caplog.text and "b is 2 and a is 0" in caplog.text


def test_failed_assert_is_reported_and_drops() -> None:
    prims = [{"op": "assert", "parameters": [expr("d2b", None, field("scalars", "a"))]},
             assign(field("scalars", "b"), hexstr(1))]
    program = Program.load(single_action_program(prims, [["a", 8, False], ["b", 8, False]]))
    pkt = program.new_packet(b"", 0)
    pkt.set_std("egress_spec", 3)
    program.ingress(pkt)
    assert len(pkt.arch.drop_errors) == 1 and "assert failed" in pkt.arch.drop_errors[0]
    assert pkt.get_std("egress_spec") == 511
    assert pkt.get_field("scalars", "b") == 0


def test_extracting_a_union_member_invalidates_the_other() -> None:
    h2 = dict(H_TYPE, name="h2_t", id=3)
    states = [state("start", [extract("regular", "u.a"), extract("regular", "u.b")])]
    doc = document(header_types=[H_TYPE, h2],
                   headers=[{"name": "u.a", "id": 2, "header_type": "h_t", "metadata": False},
                            {"name": "u.b", "id": 3, "header_type": "h2_t", "metadata": False}],
                   header_union_types=[{"name": "u_t", "id": 0,
                                        "headers": [["a", "h_t"], ["b", "h2_t"]]}],
                   header_unions=[{"name": "u", "id": 0, "union_type": "u_t",
                                   "header_ids": [2, 3]}],
                   parse_states=states, deparse_order=["u.a", "u.b"])
    program = Program.load(doc)
    pkt = program.new_packet(bytes.fromhex("0102" "0304"), 0)
    program.parse(pkt)
    assert not pkt.is_valid("u.a") and pkt.is_valid("u.b")
    assert program.deparse(pkt) == bytes.fromhex("0304")


def test_exact_select_keeps_first_match_order_and_default() -> None:
    """Exact cases go through a dict: a repeated value keeps its first target, and
    cases after the default are never taken."""
    h2 = {"name": "h2", "id": 3, "header_type": "h_t", "metadata": False}
    states = [state("start", [extract("regular", "h")],
                    key=[{"type": "field", "value": ["h", "kind"]}],
                    transitions=[case("0x01", "second"), case("0x01", None),
                                 case("0x02", None), default("second"), case("0x03", None)]),
              state("second", [extract("regular", "h2")])]
    doc = document(header_types=[H_TYPE],
                   headers=[{"name": "h", "id": 2, "header_type": "h_t", "metadata": False},
                            h2],
                   parse_states=states, deparse_order=["h", "h2"])
    program = Program.load(doc)
    for first, goes_on in ((0x01, True), (0x02, False), (0x03, True), (0x7F, True)):
        pkt = program.new_packet(bytes([first, 0, 9, 9]), 0)
        program.parse(pkt)
        assert pkt.is_valid("h2") is goes_on, hex(first)
        assert pkt.get_std("parser_error") == 0
