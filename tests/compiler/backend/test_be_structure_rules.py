"""The structural front-end rules (p4sim/compiler/semantic/structure.py) run on every
declaration, used or not, and refuse only what P4_16 forbids: what looks like a
duplicate but is legal (functions overloaded by arity, labels sharing a body, one error member per
``error`` declaration, loops) still compiles."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler.driver import compile_program
from p4sim.compiler.errors import CompileError
from be_programs import compile_body


def _refusal(tmp_path: Path, body: str, locals_: str = "", globals_: str = "") -> str:
    with pytest.raises(CompileError) as info:
        compile_body(tmp_path, body, locals_, globals_)
    return info.value.message


def test_functions_overloaded_by_arity_are_not_duplicates(tmp_path: Path) -> None:
    """P4 overloads functions by their number of parameters; the structural pass keys
    them so (in a control nothing instantiates, which lowering never reads)."""
    compile_body(tmp_path, "", globals_="""
bit<8> pick() { return 1; }
bit<8> pick(in bit<8> v) { return v; }
control Spare(inout headers_t hdr) {
    apply { hdr.h.a = pick(); hdr.h.b = pick(8w3); }
}""")


def test_actions_are_not_overloaded_by_arity(tmp_path: Path) -> None:
    """p4c refuses two actions of one name whatever their parameters (its
    issue1932-1 test: "Duplicates declaration"), locally and at the top level."""
    message = _refusal(tmp_path, "set_a();", locals_="""
    action set_a() { hdr.h.a = 1; }
    action set_a(bit<8> v) { hdr.h.a = v; }""")
    assert message.startswith("set_a: duplicate declaration")
    message = _refusal(tmp_path, "", globals_="""
action set_b() { }
action set_b(bit<8> v) { }""")
    assert message.startswith("set_b: duplicate declaration")


def test_an_action_defined_twice_with_one_arity_is_refused(tmp_path: Path) -> None:
    message = _refusal(tmp_path, "set_a();", locals_="""
    action set_a() { hdr.h.a = 1; }
    action set_a() { hdr.h.a = 2; }""")
    assert message.startswith("set_a: duplicate declaration")


def test_labels_sharing_a_body_and_a_final_default_compile(tmp_path: Path) -> None:
    compile_body(tmp_path, """
        switch (t.apply().action_run) {
            set_a:
            set_b: { hdr.h.c = 1; }
            default: { hdr.h.c = 2; }
        }""", locals_="""
    action set_a() { hdr.h.a = 1; }
    action set_b() { hdr.h.b = 1; }
    table t { key = { hdr.h.a: exact; } actions = { set_a; set_b; NoAction; } }""")


def test_break_and_continue_inside_a_for_loop_compile(tmp_path: Path) -> None:
    compile_body(tmp_path, """
        for (bit<8> i = 0; i < 4; i = i + 1) {
            if (i == hdr.h.a) { continue; }
            if (i == hdr.h.b) { break; }
            hdr.h.c = hdr.h.c + 1;
        }""")


def test_continue_outside_a_loop_is_refused(tmp_path: Path) -> None:
    assert _refusal(tmp_path, "continue;") == "'continue' outside a for loop"


def test_errors_extended_by_a_second_declaration_compile(tmp_path: Path) -> None:
    doc = compile_body(tmp_path, "", globals_="error { TooShort }\nerror { TooLong }")
    assert {"TooShort", "TooLong"} <= {name for name, _ in doc["errors"]}


def test_a_duplicate_match_kind_member_is_refused(tmp_path: Path) -> None:
    message = _refusal(tmp_path, "", globals_="match_kind { fuzzy, fuzzy }")
    assert message.startswith("fuzzy: duplicate match_kind member")


def test_a_duplicate_type_parameter_is_refused(tmp_path: Path) -> None:
    message = _refusal(tmp_path, "",
                       globals_="bit<8> first<T, T>(in T x) { return 8w1; }")
    assert message.startswith("T: duplicate type parameter")


def test_exit_in_an_action_compiles(tmp_path: Path) -> None:
    compile_body(tmp_path, "stop();", locals_="action stop() { exit; }")


OWN_PORT_TYPE = """
#include <core.p4>
#include <v1model.p4>
typedef bit<9> PortId_t;
header h_t { bit<8> a; }
struct H { h_t h; }
struct M { PortId_t p; }
parser P(packet_in k, out H h, inout M m, inout standard_metadata_t s) {
    state start { k.extract(h.h); transition accept; } }
control V(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) { apply { s.egress_spec = m.p; } }
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control C(inout H h, inout M m) { apply { } }
control D(packet_out k, in H h) { apply { k.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


def test_a_program_may_declare_what_the_bundled_headers_leave_out(tmp_path: Path) -> None:
    """v1model declares PortId_t only from V1MODEL_VERSION 20200408 on; before that a
    program's own typedef of the name is its first declaration."""
    source = tmp_path / "own_port_type.p4"
    source.write_text(OWN_PORT_TYPE)
    compile_program(str(source))
