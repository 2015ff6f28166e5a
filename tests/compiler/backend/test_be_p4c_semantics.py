"""Language semantics p4c gives on BMv2, compiled by p4sim-compile and run on p4sim.

Each case is a small program (header ``h`` first, the ingress body varying) and
packets in STF form: the expected bytes are the P4_16 spec's meaning of the construct,
which is what p4c's lowering gives on BMv2.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler.driver import compile_program
from p4sim.stf.p4sim_target import P4simTarget
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.runner import run_statements
from p4sim.stf.stf_parser import parse_stf_file

SKELETON = """#include <core.p4>
#include <v1model.p4>
header h_t { %(fields)s }
struct headers_t { h_t h; %(extra_headers)s }
struct meta_t { }
%(globals)s
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); %(parse)s transition accept; }
}
control V(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    %(locals)s
    apply { sm.egress_spec = 1; %(body)s }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""

CASES = {
    # == on headers: both invalid, or both valid with equal fields
    "header_equality": dict(
        fields="bit<8> a; bit<8> b; bit<8> r;", extra_headers="h_t g;",
        parse="pkt.extract(hdr.g);",
        body="""h_t none; hdr.h.r = 0; hdr.g.r = 0;
                bool same = hdr.h == hdr.g;
                bool none_same = none == hdr.g;
                bool differ = hdr.h != hdr.g;
                if (same) { hdr.h.r = 1; }
                if (none_same) { hdr.h.r = hdr.h.r | 2; }
                if (differ) { hdr.h.r = hdr.h.r | 4; }""",
        stf="""packet 0 0102FF 0102EE
               expect 1 010201 010200
               packet 0 0103FF 0102EE
               expect 1 010304 010200"""),
    # a table applied inside ?: runs only when the condition selects it
    "apply_inside_conditional_value": dict(
        fields="bit<8> a; bit<8> r;",
        locals="""action mark() { hdr.h.a = 0xEE; }
                  table t { key = { hdr.h.a: exact; } actions = { mark; }
                            default_action = mark(); }""",
        body="hdr.h.r = (hdr.h.a == 1) ? (t.apply().hit ? 8w2 : 8w3) : 8w4;",
        stf="""packet 0 0100
               expect 1 EE03
               packet 0 0500
               expect 1 0504"""),
    # stack[i] = ... with i out of range does nothing (p4c spells the index out)
    "dynamic_stack_index_out_of_range": dict(
        fields="bit<8> i;", extra_headers="h_t[2] s;",
        parse="pkt.extract(hdr.s.next); pkt.extract(hdr.s.next);",
        body="hdr.s[hdr.h.i].i = 0x77;",
        stf="""packet 0 01 00 00
               expect 1 01 00 77
               packet 0 05 00 00
               expect 1 05 00 00"""),
    # x[7:4][1:0] is x[5:4]
    "nested_slice_assignment": dict(
        fields="bit<8> a;", body="hdr.h.a[7:4][1:0] = 2w3;",
        stf="""packet 0 00
               expect 1 30"""),
    # copy-in/copy-out: the same field as inout and out takes the out value last
    "aliased_out_arguments_copy_out_in_order": dict(
        fields="bit<8> a;",
        globals="""void f(inout bit<8> x, out bit<8> y) {
                       y = 9; if (x == 9) { y = 1; } x = x + 1; }""",
        body="f(hdr.h.a, hdr.h.a);",
        stf="""packet 0 03
               expect 1 09"""),
    # a struct literal passed to an in parameter
    "struct_literal_argument": dict(
        fields="bit<8> a;",
        globals="""struct pair_t { bit<8> x; bit<8> y; }
                   bit<8> add(in pair_t p) { return p.x + p.y; }""",
        body="hdr.h.a = add({ 8w2, 8w5 });",
        stf="""packet 0 00
               expect 1 07"""),
    # p4c's include guards are defined, so headers written for p4c can test them
    "core_and_v1model_guards": dict(
        fields="bit<8> a;",
        globals="""#if defined(_CORE_P4_) && defined(_V1_MODEL_P4_)
                   const bit<8> GUARDS = 1;
                   #else
                   const bit<8> GUARDS = 0;
                   #endif""",
        body="hdr.h.a = GUARDS;",
        stf="""packet 0 00
               expect 1 01"""),
}


def _run(tmp_path: Path, source: str, stf: str) -> None:
    program = tmp_path / "prog.p4"
    program.write_text(source)
    stf_path = tmp_path / "prog.stf"
    stf_path.write_text("\n".join(line.strip() for line in stf.splitlines()) + "\n")
    json_doc = compile_program(str(program)).bmv2_json
    info = ProgramInfo(json_doc)
    target = P4simTarget(json_doc, info)
    try:
        result = run_statements(info, parse_stf_file(str(stf_path)), target)
    finally:
        target.close()
    assert result.passed, result.report


@pytest.mark.parametrize("name", sorted(CASES))
def test_semantics(name: str, tmp_path: Path) -> None:
    case = {"extra_headers": "", "parse": "", "globals": "", "locals": "", **CASES[name]}
    stf = case.pop("stf")
    _run(tmp_path, SKELETON % case, stf)


VARBIT = """#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> n; varbit<16> v; }
header r_t { bit<8> r; }
struct headers_t { h_t h; h_t g; r_t r; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h, (bit<32>)pkt.lookahead<bit<8>>() * 8);
        pkt.extract(hdr.g, (bit<32>)pkt.lookahead<bit<8>>() * 8);
        pkt.extract(hdr.r);
        transition accept;
    }
}
control V(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 1; hdr.r.r = hdr.h.v == hdr.g.v ? 8w1 : 8w0; }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


def test_varbit_equality(tmp_path: Path) -> None:
    # n is both the first field and the option length in bytes
    _run(tmp_path, VARBIT, """packet 0 01 AB 01 AB 00
                              expect 1 01 AB 01 AB 01
                              packet 0 01 AB 01 CD 00
                              expect 1 01 AB 01 CD 00""")
