"""Parser lowering: branches split into states, select keysets, value sets."""
from __future__ import annotations

import pytest

from be_programs import packet
from p4sim.compiler.lower.parsers import range_to_masks
from p4sim.compiler.driver import compile_program
from p4sim.stf.cli import run_stf_test

PROGRAM = """// parser behaviour test
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<16> c; bit<16> d; }
header x_t { bit<8> v; }
struct pair_t<T> { T first; T second; }
struct headers_t { h_t h; x_t x; }
struct metadata_t { pair_t<bit<8>> p; }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    value_set<tuple<bit<8>, bit<8>>>(4) pairs;
    state start {
        pkt.extract(hdr.h);
        if (hdr.h.a == 1) {
            meta.p.first = 0x11;
        } else {
            meta.p.first = 0x22;
        }
        meta.p.second = hdr.h.b;
        transition select(hdr.h.a, hdr.h.b) {
            pairs: parse_x;
            (8w2, 8w0x10 .. 8w0x1f): parse_x;
            default: accept;
        }
    }
    state parse_x {
        pkt.extract(hdr.x);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }
control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.h.c = (bit<16>) meta.p.first;
        if (hdr.x.isValid()) { hdr.h.d = 0x00ff; }
    }
}
control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }
control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }
control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); pkt.emit(hdr.x); }
}
V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
"""


@pytest.mark.parametrize("lo,hi,width", [(0, 255, 8), (1, 1, 8), (3, 17, 8), (4790, 4799, 16),
                                          (0, 0, 4), (5, 14, 4)])
def test_range_to_masks_covers_exactly_the_range(lo, hi, width):
    blocks = range_to_masks(lo, hi, width)
    covered = {v for v in range(1 << width) if any(v & m == b for b, m in blocks)}
    assert covered == set(range(lo, hi + 1))


def test_if_in_a_parser_state_becomes_select_states(tmp_path):
    src = tmp_path / "p.p4"
    src.write_text(PROGRAM)
    doc = compile_program(str(src)).bmv2_json
    states = {s["name"]: s for s in doc["parsers"][0]["parse_states"]}
    assert {"start", "start_then", "start_else", "start_join", "parse_x"} <= set(states)
    assert [t["next_state"] for t in states["start"]["transitions"]] == \
        ["start_then", "start_else"]
    vsets = doc["parse_vsets"]
    assert [(v["name"], v["compressed_bitwidth"]) for v in vsets] == \
        [("ParserImpl.pairs", 16)]
    join = states["start_join"]["transitions"]
    assert join[0] == {"type": "parse_vset", "value": "ParserImpl.pairs", "mask": None,
                       "next_state": "parse_x"}


def test_parser_branches_and_ranges_on_the_switch(tmp_path):
    src = tmp_path / "p.p4"
    src.write_text(PROGRAM)
    stf = tmp_path / "p.stf"
    stf.write_text(
        f"packet 1 {packet(1, 0, 0, 0)}\nexpect 2 {packet(1, 0, 0x11, 0)}\n"
        f"packet 1 {packet(2, 0x15, 0, 0)} 77\nexpect 2 {packet(2, 0x15, 0x22, 0xff)} 77\n"
        f"packet 1 {packet(2, 0x25, 0, 0)} 77\nexpect 2 {packet(2, 0x25, 0x22, 0)} 77\n")
    result = run_stf_test(str(src), str(stf), "p4sim")
    assert result.passed, result.report


def test_lookahead_of_a_header_type(tmp_path):
    src = tmp_path / "p.p4"
    text = PROGRAM.replace("        pkt.extract(hdr.h);\n        if (hdr.h.a == 1) {",
                           "        meta.p.second = pkt.lookahead<h_t>().b;\n"
                           "        pkt.extract(hdr.h);\n        if (hdr.h.a == 1) {")
    text = text.replace("        meta.p.second = hdr.h.b;\n", "")
    text = text.replace("hdr.h.c = (bit<16>) meta.p.first;", "hdr.h.c = (bit<16>) meta.p.second;")
    src.write_text(text)
    stf = tmp_path / "p.stf"
    stf.write_text(f"packet 1 {packet(1, 0x5a, 0, 0)}\nexpect 2 {packet(1, 0x5a, 0x5a, 0)}\n")
    result = run_stf_test(str(src), str(stf), "p4sim")
    assert result.passed, result.report


SUBPARSER = PROGRAM.replace("""parser ParserImpl(""", """parser XParser(packet_in pkt, out x_t x, inout bit<8> seen) {
    state start {
        pkt.extract(x);
        seen = x.v;
        transition select(x.v) {
            0xee: more;
            default: accept;
        }
    }
    state more {
        seen = 0xff;
        transition accept;
    }
}

parser ParserImpl(""").replace("""    value_set<tuple<bit<8>, bit<8>>>(4) pairs;""", """    value_set<tuple<bit<8>, bit<8>>>(4) pairs;
    XParser() xp;""").replace("""    state parse_x {
        pkt.extract(hdr.x);
        transition accept;
    }""", """    state parse_x {
        xp.apply(pkt, hdr.x, meta.p.second);
        meta.p.first = 0x33;
        transition accept;
    }""").replace("hdr.h.c = (bit<16>) meta.p.first;",
              "hdr.h.c = meta.p.first ++ meta.p.second;")


def test_sub_parsers_are_inlined(tmp_path):
    src = tmp_path / "p.p4"
    src.write_text(SUBPARSER)
    doc = compile_program(str(src)).bmv2_json
    names = [s["name"] for s in doc["parsers"][0]["parse_states"]]
    assert "ParserImpl_xp_start" in names and "ParserImpl_xp_more" in names
    stf = tmp_path / "p.stf"
    stf.write_text(
        f"packet 1 {packet(2, 0x15, 0, 0)} 07\nexpect 2 {packet(2, 0x15, 0x3307, 0xff)} 07\n"
        f"packet 1 {packet(2, 0x15, 0, 0)} ee\nexpect 2 {packet(2, 0x15, 0x33ff, 0xff)} ee\n"
        f"packet 1 {packet(1, 0, 0, 0)}\nexpect 2 {packet(1, 0, 0x1100, 0)}\n")
    result = run_stf_test(str(src), str(stf), "p4sim")
    assert result.passed, result.report
