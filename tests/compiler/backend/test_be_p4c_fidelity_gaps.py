"""Three places where p4sim-compile and real p4c (1.2.4.8) disagreed: a field of a member
of a header-union stack's last element (p4c accepts ``h.us.last.one.x``); a name used
before its declaration (p4c refuses: "X: declaration not found"); and the warnings p4c's
front end gives for a table nothing applies ("Table t is not used; removing") and an
instance nothing names ("x: unused instance")."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler.driver import compile_program
from p4sim.compiler.errors import CompileError
from p4sim.switch.program import Program

from be_programs import HEAD, TAIL


def compile_ingress(tmp_path: Path, body: str, before: str = "", after: str = ""):
    source = tmp_path / "prog.p4"
    source.write_text(HEAD + before + "control I(inout headers_t h, inout meta_t m, "
                      "inout standard_metadata_t s) {\n" + body + "\n}\n" + after + TAIL)
    return compile_program(str(source))


def refusal(tmp_path: Path, body: str, before: str = "", after: str = "") -> CompileError:
    with pytest.raises(CompileError) as err:
        compile_ingress(tmp_path, body, before, after)
    return err.value


# --- 1. header-union stacks: us.last.member.field -------------------------------------

UNION_STACK = """// union stack: last element's member fields while parsing
#include <core.p4>
#include <v1model.p4>
header h1_t { bit<8> kind; bit<8> x; }
header h2_t { bit<8> kind; bit<16> y; }
header_union u_t { h1_t one; h2_t two; }
header eth_t { bit<48> d; bit<48> s; bit<16> t; }
struct headers_t { eth_t eth; u_t[3] us; }
struct meta_t { bit<8> x; bit<16> y; }
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.eth); transition next; }
    state next {
        transition select(p.lookahead<bit<8>>()) { 1: one; 2: two; default: accept; }
    }
    state one {
        p.extract(h.us.next.one);
        m.x = h.us.last.one.x;
        transition select(h.us.last.one.x) { 0xFF: accept; default: next; }
    }
    state two { p.extract(h.us.next.two); m.y = h.us.last.two.y; transition next; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) {
    apply { s.egress_spec = 2; h.eth.d = (bit<48>)m.y; h.eth.s = (bit<48>)m.x; }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.eth); p.emit(h.us); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


@pytest.fixture(scope="module")
def union_stack_doc(tmp_path_factory: pytest.TempPathFactory) -> dict:
    path = tmp_path_factory.mktemp("union_last") / "prog.p4"
    path.write_text(UNION_STACK)
    return compile_program(str(path)).bmv2_json


def _state(doc: dict, name: str) -> dict:
    return next(s for s in doc["parsers"][0]["parse_states"] if s["name"] == name)


def test_last_member_field_as_a_select_key_is_a_union_stack_field(union_stack_doc) -> None:
    """p4c's form: ['us', 'one', 'x'], the field of `one` in the last element."""
    assert _state(union_stack_doc, "one")["transition_key"] == [
        {"type": "union_stack_field", "value": ["us", "one", "x"]}]


def test_last_member_field_read_goes_through_the_last_element(union_stack_doc) -> None:
    """m.y = h.us.last.two.y: the element at last_stack_index, its member `two` (the
    second of the union), its field y (the second of h2_t)."""
    set_op = _state(union_stack_doc, "two")["parser_ops"][1]
    source = set_op["parameters"][1]["value"]["value"]
    assert source["op"] == "access_field" and source["right"] == 1
    member = source["left"]["value"]
    assert member["op"] == "access_union_header" and member["right"] == 1
    element = member["left"]["value"]
    assert element["op"] == "dereference_union_stack"
    assert element["left"] == {"type": "header_union_stack", "value": "us"}
    assert element["right"]["value"]["op"] == "last_stack_index"


def test_last_member_fields_run_on_the_switch(union_stack_doc) -> None:
    program = Program.load(union_stack_doc)
    eth = bytes.fromhex("000000000001" "000000000002" "88B5")
    # one(x 07), two(y 1234), one(x FF): the FF ends the stack; the 02 after it is payload
    pkt = program.new_packet(eth + bytes.fromhex("0107" "021234" "01FF" "02AABB"), 0)
    program.process_ingress_side(pkt)
    assert pkt.get_field("eth", "d") == 0x1234
    assert pkt.get_field("eth", "s") == 0xFF
    assert pkt.get_field("us[2].one", "x") == 0xFF
    assert pkt.payload == bytes.fromhex("02AABB")


# --- 2. declaration before use ---------------------------------------------------------

def test_an_action_listed_before_its_declaration_is_refused(tmp_path: Path) -> None:
    error = refusal(tmp_path, """
    table t { key = { h.h.a: exact; } actions = { set_b; } default_action = set_b(1); }
    action set_b(bit<16> v) { h.h.b = v; }
    apply { t.apply(); }""")
    assert error.message.startswith("set_b: declaration not found (it is declared later")
    assert (error.span.line, error.span.col) == (13, 51)   # the first use, in `actions`


def test_a_default_action_or_entry_declared_later_is_refused(tmp_path: Path) -> None:
    error = refusal(tmp_path, """
    action set_b(bit<16> v) { h.h.b = v; }
    table t {
        key = { h.h.a: exact; }
        actions = { set_b; }
        const entries = { 1: set_b(2); }
        default_action = later();
    }
    action later() { }
    apply { t.apply(); }""")
    assert error.message.startswith("later: declaration not found")


def test_a_top_level_action_declared_after_the_control_is_refused(tmp_path: Path) -> None:
    error = refusal(tmp_path, "apply { global_set(); }",
                    after="action global_set() { }\n")
    assert error.message.startswith("global_set: declaration not found")


def test_a_function_called_before_its_declaration_is_refused(tmp_path: Path) -> None:
    error = refusal(tmp_path, "apply { h.h.a = twice(h.h.a); }", before="""
bit<8> twice(in bit<8> x) { return double_it(x); }
bit<8> double_it(in bit<8> x) { return x + x; }
""")
    assert error.message.startswith("double_it: declaration not found")


def test_an_action_calling_itself_is_refused(tmp_path: Path) -> None:
    error = refusal(tmp_path, """
    action again() { again(); }
    apply { again(); }""")
    assert error.message.startswith("again: declaration not found")


def test_objects_named_before_their_declaration_are_refused(tmp_path: Path) -> None:
    error = refusal(tmp_path, """
    action count_it() { hits.count(0); }
    counter(4, CounterType.packets) hits;
    apply { count_it(); }""")
    assert error.message.startswith("hits: declaration not found")
    error = refusal(tmp_path, """
    action set_b(bit<16> v) { h.h.b = v; }
    table t { key = { h.h.a: exact; } actions = { set_b; } counters = dc; }
    direct_counter(CounterType.packets) dc;
    apply { t.apply(); }""")
    assert error.message.startswith("dc: declaration not found")


def test_names_declared_before_use_compile(tmp_path: Path) -> None:
    result = compile_ingress(tmp_path, """
    counter(4, CounterType.packets) hits;
    action count_it() { hits.count(0); global_set(); }
    action set_b(bit<16> v) { h.h.b = v; count_it(); }
    table t { key = { h.h.a: exact; } actions = { set_b; .NoAction; } }
    apply { t.apply(); count_it(); }""", before="action global_set() { }\n")
    assert "I.set_b" in {a["name"] for a in result.bmv2_json["actions"]}


def test_a_later_local_name_means_the_earlier_top_level_one(tmp_path: Path) -> None:
    """As in p4c's lookup, the control's own `mark` (declared below the use) is not yet
    visible there, so the use means the top-level `mark`: not refused."""
    compile_ingress(tmp_path, """
    action first() { mark(); }
    action mark() { h.h.a = 2; }
    apply { first(); }""", before="action mark() { }\n")


def test_a_parameter_named_like_a_later_object_is_not_a_use_of_it(tmp_path: Path) -> None:
    compile_ingress(tmp_path, """
    apply { h.h.setValid(); }""", after="counter(4, CounterType.packets) h;\n")


# --- 3. p4c's unused-declaration warnings ----------------------------------------------

def test_an_unapplied_table_warns_as_p4c_does(tmp_path: Path) -> None:
    result = compile_ingress(tmp_path, """
    action set_b(bit<16> v) { h.h.b = v; }
    table applied { key = { h.h.a: exact; } actions = { set_b; } }
    table spare { key = { h.h.a: exact; } actions = { set_b; } }
    apply { applied.apply(); }""")
    assert [(w.message, w.span.line) for w in result.warnings] == [
        ("Table spare is not used; removing", 15)]
    assert "I.spare" not in {t["name"] for p in result.bmv2_json["pipelines"]
                             for t in p["tables"]}


def test_unnamed_instances_warn_as_p4c_does(tmp_path: Path) -> None:
    result = compile_ingress(tmp_path, """
    register<bit<8>>(4) regs;
    @noWarn("unused") register<bit<8>>(4) quiet;
    direct_counter(CounterType.packets) dc;
    counter(4, CounterType.packets) hits;
    action count_it() { hits.count(0); }
    action set_b(bit<16> v) { h.h.b = v; }
    table t { key = { h.h.a: exact; } actions = { set_b; count_it; } counters = dc; }
    apply { t.apply(); }""", before="counter(8, CounterType.packets) top_unused;\n")
    assert [w.message for w in result.warnings] == [
        "top_unused: unused instance", "regs: unused instance"]


def test_what_only_an_uninstantiated_control_names_is_unused(tmp_path: Path) -> None:
    """p4c drops a control nothing instantiates without a word; its tables go with it,
    and a top-level instance only it named is then unused."""
    result = compile_ingress(tmp_path, "apply { }", before="""
counter(8, CounterType.packets) only_there;
control Spare(inout headers_t h) {
    table never { actions = { NoAction; } }
    apply { never.apply(); only_there.count(0); }
}
""")
    assert [w.message for w in result.warnings] == ["only_there: unused instance"]


def test_a_sub_control_instance_never_applied_warns(tmp_path: Path) -> None:
    result = compile_ingress(tmp_path, """
    Sub() used;
    Sub() spare;
    apply { used.apply(h); }""", before="""
control Sub(inout headers_t h) { apply { h.h.a = 1; } }
""")
    assert [w.message for w in result.warnings] == ["spare: unused instance"]


# --- and a neighbour of 1: `last` and `next` outside a parser -------------------------

STACK_HEAD = HEAD.replace("struct headers_t { h_t h; }", "struct headers_t { h_t h; h_t[2] hs; }")


@pytest.mark.parametrize("use", ["h.h.a = h.hs.last.a;", "h.hs.next.setValid();",
                                 "if (h.hs.last.isValid()) { h.h.a = 1; }"])
def test_last_and_next_outside_a_parser_are_refused_as_p4c_does(tmp_path: Path,
                                                                use: str) -> None:
    """p4c's type checker: "'last', and 'next' for stacks can only be used in a parser"."""
    source = tmp_path / "prog.p4"
    source.write_text(STACK_HEAD + "control I(inout headers_t h, inout meta_t m, "
                      "inout standard_metadata_t s) {\n    apply { " + use + " }\n}\n" + TAIL)
    with pytest.raises(CompileError) as err:
        compile_program(str(source))
    assert err.value.message.endswith("'last', and 'next' for stacks can only be used in a "
                                      "parser")
    assert err.value.span.line == 12
