"""Issue 10, continued: more constructs real p4c accepts (corpus 221-222 hold the ones
whose p4c output is known): ``?:`` choosing headers and structs, generic functions,
a header as the digest type, static_assert's value; and the errors that stay located."""
from __future__ import annotations

from pathlib import Path

import pytest

from be_programs import compile_body, run, write_program
from p4sim.compiler.driver import compile_program, write_outputs
from p4sim.compiler.errors import CompileError

MK = ("h_t mk(in bit<8> a) { h_t r = { a, 8w0x33, 16w0, 16w0 }; "
      "if (a == 2) { return r; } r.c = 16w7; return r; }")


def test_conditional_operator_chooses_a_header(tmp_path: Path) -> None:
    body = ("        h_t x = hdr.h;\n        x.a = 9;\n"
            "        hdr.h = (hdr.h.b == 1) ? x : hdr.h;")
    result = run(tmp_path, body, "packet 1 05 01 0000 0000\nexpect 2 09 01 0000 0000\n"
                 "packet 1 05 02 0000 0000\nexpect 2 05 02 0000 0000\n")
    assert result.passed, result.report


def test_conditional_operator_chooses_a_struct(tmp_path: Path) -> None:
    body = ("        metadata_t m1 = { 1, 2 };\n        metadata_t m2 = { 3, 4 };\n"
            "        meta = hdr.h.a == 0 ? m1 : m2;\n        hdr.h.b = meta.m;")
    result = run(tmp_path, body, "packet 1 00 00 0000 0000\nexpect 2 00 01 0000 0000\n"
                 "packet 1 07 00 0000 0000\nexpect 2 07 03 0000 0000\n")
    assert result.passed, result.report


def test_header_conditional_evaluates_only_the_chosen_call(tmp_path: Path) -> None:
    """The chosen branch is an inlined function with an early return (jumps that must
    still land right once the branch is placed after the test)."""
    body = "        hdr.h = hdr.h.a == 1 ? mk(8w2) : mk(hdr.h.a);"
    result = run(tmp_path, body, "packet 1 01 00 0000 0000\nexpect 2 02 33 0000 0000\n"
                 "packet 1 05 00 0000 0000\nexpect 2 05 33 0007 0000\n", globals_=MK)
    assert result.passed, result.report


def test_header_conditional_in_an_action_an_if_and_a_function(tmp_path: Path) -> None:
    locals_ = ("    action pick() { hdr.h = hdr.h.d == 0 ? mk(8w2) : hdr.h; }\n"
               "    table t { key = { hdr.h.a : exact; } actions = { pick; NoAction; }\n"
               "              const entries = { 1 : pick(); } default_action = NoAction(); }")
    globals_ = MK + "\nh_t either(in bool c, in h_t a, in h_t b) { return c ? a : b; }"
    body = ("        t.apply();\n"
            "        h_t y = either(hdr.h.b == 0x33, hdr.h, mk(8w4));\n"
            "        if ((hdr.h.c == 0 ? y : hdr.h) == hdr.h) { hdr.h.d = 16w0xEE; }")
    # a = 1, d = 0: pick() -> {2, 33, 0, 0}; b == 33 so y = hdr.h; c == 0: y == hdr.h
    # a = 5: no pick; y = mk(4) = {4, 33, 7, 0}; c != 0: hdr.h == hdr.h
    # a = 5, c = 0: y != hdr.h, d stays
    result = run(tmp_path, body, locals_=locals_, globals_=globals_, stf=(
        "packet 1 01 00 0000 0000\nexpect 2 02 33 0000 00EE\n"
        "packet 1 05 00 0001 0000\nexpect 2 05 00 0001 00EE\n"
        "packet 1 05 00 0000 0001\nexpect 2 05 00 0000 0001\n"))
    assert result.passed, result.report


def test_conditional_branches_of_different_aggregate_types_are_refused(
        tmp_path: Path) -> None:
    with pytest.raises(CompileError) as err:
        compile_body(tmp_path, "        hdr.h = hdr.h.a == 1 ? hdr.h : meta;")
    assert err.value.message == ("the branches of '?:' have different types: h_t and "
                                 "metadata_t")
    assert err.value.span.line > 0


def test_generic_function_at_two_widths_and_an_int_argument(tmp_path: Path) -> None:
    globals_ = ("T max<T>(in T a, in T b) { T r = a; if (b > a) { r = b; } return r; }\n"
                "bit<16> five() { return 16w5; }")
    body = ("        hdr.h.a = max(hdr.h.a, 3);\n        hdr.h.c = max(five(), hdr.h.d);\n"
            "        hdr.h.b = max<bit<8>>(hdr.h.b, 8w0x10);")
    result = run(tmp_path, body, globals_=globals_, stf=(
        "packet 1 01 20 0000 0009\nexpect 2 03 20 0009 0009\n"
        "packet 1 07 01 0000 0001\nexpect 2 07 10 0005 0001\n"))
    assert result.passed, result.report


def test_generic_function_type_parameter_must_be_inferable(tmp_path: Path) -> None:
    globals_ = "T zero<T>() { T r = 0; return r; }"
    with pytest.raises(CompileError) as err:
        compile_body(tmp_path, "        hdr.h.a = zero();", globals_=globals_)
    assert err.value.message.startswith("cannot infer type parameter 'T' of function "
                                        "'zero'")


def test_generic_function_arguments_must_agree(tmp_path: Path) -> None:
    globals_ = "T first<T>(in T a, in T b) { return a; }"
    with pytest.raises(CompileError) as err:
        compile_body(tmp_path, "        hdr.h.a = first(hdr.h.a, hdr.h.c);",
                     globals_=globals_)
    assert err.value.message == ("type parameter 'T' of function 'first' is both bit<8> "
                                 "and bit<16>")


def test_digest_of_a_header_type(tmp_path: Path) -> None:
    from google.protobuf import text_format
    from p4.config.v1 import p4info_pb2
    result = compile_program(str(write_program(tmp_path, "        digest<h_t>(1, hdr.h);")))
    lists = result.bmv2_json["learn_lists"]
    assert [(lst["name"], len(lst["elements"])) for lst in lists] == [("h_t", 4)]
    out = tmp_path / "p.p4info.txtpb"
    write_outputs(result, None, [str(out)])
    info = text_format.Parse(out.read_text(), p4info_pb2.P4Info())
    assert info.digests[0].type_spec.header.name == "h_t"
    members = info.type_info.headers["h_t"].members
    assert [(m.name, m.type_spec.bit.bitwidth) for m in members] == [
        ("a", 8), ("b", 8), ("c", 16), ("d", 16)]


def test_static_assert_value_is_true_and_a_failure_is_located(tmp_path: Path) -> None:
    doc = compile_body(tmp_path, "        if (ok) { hdr.h.a = 1; }",
                       globals_='const bool ok = static_assert(true, "fine");')
    ops = [p["op"] for a in doc["actions"] for p in a["primitives"]]
    assert "assign" in ops
    assert doc["pipelines"][0]["conditionals"] == []   # folded: the value is constant
    with pytest.raises(CompileError) as err:
        compile_body(tmp_path, "", globals_='const bool ok = static_assert(1 == 2, "bad");')
    assert err.value.message == "static assertion failed: bad"
    assert (err.value.span.line, err.value.span.col) == (15, 17)


def test_value_of_a_program_extern_method_is_refused_where_used(tmp_path: Path) -> None:
    globals_ = "extern E { E(); bit<8> get(in bit<8> x); }"
    with pytest.raises(CompileError) as err:
        compile_body(tmp_path, "        hdr.h.a = e.get(hdr.h.b);", locals_="    E() e;",
                     globals_=globals_)
    assert err.value.message.startswith("the value returned by 'E.get()' cannot be used "
                                        "on this target")
    assert (err.value.span.line, err.value.span.col) == (32, 19)


def test_checksum16_get_names_the_replacement(tmp_path: Path) -> None:
    with pytest.raises(CompileError) as err:
        compile_body(tmp_path, "        hdr.h.c = ck.get({hdr.h.a});",
                     locals_="    Checksum16() ck;")
    assert err.value.message == ("Checksum16 (deprecated) is not supported by this "
                                 "target: use verify_checksum / update_checksum")


UNION_STACK = """// header union stack
#include <core.p4>
#include <v1model.p4>
header a_t { bit<8> tag; bit<8> v; }
header b_t { bit<8> tag; bit<16> w; }
header_union u_t { a_t a; b_t b; }
struct headers_t { u_t[2] s; }
struct metadata_t { }
parser P(packet_in pkt, out headers_t hdr, inout metadata_t meta,
         inout standard_metadata_t sm) {
    state start { transition select(pkt.lookahead<bit<8>>()) { 1: pa; default: pb; } }
    state pa { pkt.extract(hdr.s.next.a); transition accept; }
    state pb { pkt.extract(hdr.s.next.%s); transition accept; }
}
control V(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply { if (hdr.s[0].a.isValid()) { hdr.s[0].a.v = hdr.s[0].a.v + 1; } }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply { }
}
control C(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.s); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


def test_header_union_stack_is_extracted_member_by_member_and_emitted(
        tmp_path: Path) -> None:
    """BMv2's extract of ``stack.next.member``: a ``union_stack`` parameter naming the
    stack and the union member; the deparser emits every header of every element."""
    program = tmp_path / "u.p4"
    program.write_text(UNION_STACK % "b")
    doc = compile_program(str(program)).bmv2_json
    extracts = [op["parameters"] for p in doc["parsers"] for s in p["parse_states"]
                for op in s["parser_ops"] if op["op"] == "extract"]
    assert extracts == [[{"type": "union_stack", "value": ["s", "a"]}],
                        [{"type": "union_stack", "value": ["s", "b"]}]]
    assert [(u["name"], u["size"]) for u in doc["header_union_stacks"]] == [("s", 2)]
    assert doc["deparsers"][0]["order"] == ["s[0].a", "s[0].b", "s[1].a", "s[1].b"]


def test_header_union_stack_member_must_exist(tmp_path: Path) -> None:
    program = tmp_path / "u.p4"
    program.write_text(UNION_STACK % "c")
    with pytest.raises(CompileError) as err:
        compile_program(str(program))
    assert err.value.message == "header_union 'u_t' has no member 'c'"
    assert err.value.span.line == 13


def test_random_result_dropped_with_dont_care(tmp_path: Path) -> None:
    """random(_, lo, hi): the out argument is '_', its type comes from the bounds (the
    packet goes on untouched); with int-literal bounds there is no width to take."""
    result = run(tmp_path, "        random(_, 8w0, 8w9);",
                 "packet 1 05 01 0000 0000\nexpect 2 05 01 0000 0000\n")
    assert result.passed, result.report
    with pytest.raises(CompileError, match="could not infer a width"):
        compile_body(tmp_path, "        random(_, 0, 9);")
