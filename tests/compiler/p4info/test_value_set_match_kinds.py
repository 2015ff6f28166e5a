"""A value_set of a struct lists one match field per member, whose match type is the
member's @match annotation (exact without one), as the P4Runtime spec's Value Set
section says and p4c's sample pvs-struct-3-bmv2.p4 records."""
from __future__ import annotations

from pathlib import Path

from p4.config.v1 import p4info_pb2

from p4sim.compiler.driver import compile_program
from p4sim.compiler.p4info import build_p4info

PROGRAM = """
#include <core.p4>
#include <v1model.p4>
header h_t { bit<16> a; bit<8> b; bit<8> c; bit<8> d; }
struct headers_t { h_t h; }
struct meta_t { }
struct vs_t {
    @match(ternary) bit<16> a;
    bit<8> b;
    @match(lpm) bit<8> c;
    @match(range) @id(9) bit<8> d;
}
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    value_set<vs_t>(4) pvs;
    state start {
        p.extract(h.h);
        transition select(h.h.a, h.h.b, h.h.c, h.h.d) { pvs: accept; default: accept; }
    }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


def test_struct_members_take_their_match_annotation(tmp_path: Path) -> None:
    source = tmp_path / "pvs.p4"
    source.write_text(PROGRAM)
    info = build_p4info(compile_program(str(source)).control_plane)
    (value_set,) = info.value_sets
    kinds = [(f.id, f.name, f.bitwidth, f.match_type) for f in value_set.match]
    mf = p4info_pb2.MatchField
    assert kinds == [(1, "a", 16, mf.TERNARY), (2, "b", 8, mf.EXACT), (3, "c", 8, mf.LPM),
                     (9, "d", 8, mf.RANGE)]
    assert all(not f.annotations for f in value_set.match)
