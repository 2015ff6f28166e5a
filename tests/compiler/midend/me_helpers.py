"""Small v1model programs for the mid-end tests: the ingress control ``I`` (its
locals, its apply body, declarations before it) is the test's; header ``h`` is
``{a: bit<8>, b: bit<8>}``, extracted and emitted, and ingress sends to port 2."""
from __future__ import annotations

from pathlib import Path

from p4sim.compiler import ast
from p4sim.compiler.driver import compile_program
from p4sim.compiler.frontend import parse_text
from p4sim.compiler.unparse import unparse
from p4sim.stf.cli import run_stf_test
from p4sim.stf.runner import StfResult

FRAME = """// mid-end test program
#include <core.p4>
#include <v1model.p4>
header h_t {{ bit<8> a; bit<8> b; }}
struct headers_t {{ h_t h; }}
struct meta_t {{ }}
parser P(packet_in p, out headers_t hdr, inout meta_t m, inout standard_metadata_t s) {{
    state start {{ p.extract(hdr.h); transition accept; }}
}}
control V(inout headers_t hdr, inout meta_t m) {{ apply {{ }} }}
{globals}
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t s) {{
{locals}
    apply {{
        s.egress_spec = 2;
{body}
    }}
}}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t s) {{ apply {{ }} }}
control C(inout headers_t hdr, inout meta_t m) {{ apply {{ }} }}
control D(packet_out p, in headers_t hdr) {{ apply {{ p.emit(hdr.h); }} }}
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


def source(body: str, locals_: str = "", globals_: str = "") -> str:
    return FRAME.format(body=body, locals=locals_, globals=globals_)


def parse(body: str, locals_: str = "", globals_: str = "") -> ast.Program:
    return parse_text(source(body, locals_, globals_), "prog.p4")


def declaration(program: ast.Program, name: str) -> ast.Node:
    """The top-level declaration called ``name`` (the last, if several)."""
    found = [d for d in program.declarations if getattr(d, "name", None) == name]
    assert found, f"no declaration '{name}'"
    return found[-1]


def apply_text(program: ast.Program, control: str = "I") -> str:
    """The apply block of ``control``, printed as P4 without indentation."""
    decl = declaration(program, control)
    assert isinstance(decl, ast.ControlDecl) and decl.apply is not None
    return " ".join(line.strip() for line in unparse(decl.apply).splitlines())


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "prog.p4"
    path.write_text(text)
    return path


def compile_json(tmp_path: Path, text: str) -> dict:
    return compile_program(str(write(tmp_path, text))).bmv2_json


def run_stf(tmp_path: Path, text: str, stf: str) -> StfResult:
    program = write(tmp_path, text)
    stf_path = tmp_path / "prog.stf"
    stf_path.write_text(stf)
    return run_stf_test(str(program), str(stf_path), "p4sim")
