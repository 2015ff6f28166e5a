"""A small v1model program template for behaviour tests: one 6-byte header
``h = {a: bit<8>, b: bit<8>, c: bit<16>, d: bit<16>}`` that ingress rewrites and sends
out of port 2, run through p4sim-compile and the p4sim switch with an STF script."""
from __future__ import annotations

from pathlib import Path

from p4sim.compiler.driver import compile_program
from p4sim.stf.cli import run_stf_test

TEMPLATE = """// backend behaviour test
#include <core.p4>
#include <v1model.p4>

header h_t {{
    bit<8>  a;
    bit<8>  b;
    bit<16> c;
    bit<16> d;
}}

struct headers_t {{ h_t h; }}
struct metadata_t {{ bit<8> m; bit<16> w; }}

{globals}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {{
    state start {{
        pkt.extract(hdr.h);
        transition accept;
    }}
}}

control NoVerify(inout headers_t hdr, inout metadata_t meta) {{ apply {{ }} }}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {{
{locals}
    apply {{
        std_meta.egress_spec = 2;
{body}
    }}
}}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {{ apply {{ }} }}

control NoCompute(inout headers_t hdr, inout metadata_t meta) {{ apply {{ }} }}

control DeparserImpl(packet_out pkt, in headers_t hdr) {{
    apply {{ pkt.emit(hdr.h); }}
}}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
"""


def write_program(tmp_path: Path, body: str, locals_: str = "", globals_: str = "") -> Path:
    path = tmp_path / "prog.p4"
    path.write_text(TEMPLATE.format(body=body, locals=locals_, globals=globals_))
    return path


def compile_body(tmp_path: Path, body: str, locals_: str = "", globals_: str = "") -> dict:
    return compile_program(str(write_program(tmp_path, body, locals_, globals_))).bmv2_json


def run(tmp_path: Path, body: str, stf: str, locals_: str = "", globals_: str = ""):
    program = write_program(tmp_path, body, locals_, globals_)
    stf_path = tmp_path / "prog.stf"
    stf_path.write_text(stf)
    return run_stf_test(str(program), str(stf_path), "p4sim")


def packet(a: int, b: int, c: int, d: int) -> str:
    return f"{a:02x} {b:02x} {c:04x} {d:04x}"


# The frame of a program whose test supplies its ingress control `I` (and what comes
# before or after it): header h = {a: bit<8>, b: bit<16>}, other blocks empty.
HEAD = """
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<16> b; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
"""
TAIL = """
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""
