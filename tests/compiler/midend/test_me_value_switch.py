"""The value-switch pass: switches on values become if / else-if chains; switches on
``action_run`` and in parser states are left to the converter."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.frontend import parse_text
from p4sim.compiler.midend.value_switch import desugar_value_switches

from me_helpers import apply_text, compile_json, declaration, parse, run_stf, source

SWITCH = """
        switch (hdr.h.a) {
            1: { hdr.h.b = 8w10; }
            2:
            3: { hdr.h.b = 8w20; }
            default: { hdr.h.b = 8w30; }
        }"""


def test_cases_become_tests_in_order_with_fall_through_labels_or_ed() -> None:
    out = desugar_value_switches(parse(SWITCH))
    assert apply_text(out) == (
        "{ s.egress_spec = 2; if (hdr.h.a == 1) { hdr.h.b = 8w10; } "
        "else if ((hdr.h.a == 2) || (hdr.h.a == 3)) { hdr.h.b = 8w20; } "
        "else { hdr.h.b = 8w30; } }")


def test_without_default_the_chain_has_no_final_else() -> None:
    out = desugar_value_switches(parse("switch (hdr.h.a) { 7: { hdr.h.b = 1; } }"))
    assert apply_text(out) == "{ s.egress_spec = 2; if (hdr.h.a == 7) { hdr.h.b = 1; } }"


def test_labels_grouped_with_default_need_no_test() -> None:
    out = desugar_value_switches(parse(
        "switch (hdr.h.a) { 1: { hdr.h.b = 1; } 2: default: { hdr.h.b = 2; } }"))
    assert apply_text(out) == (
        "{ s.egress_spec = 2; if (hdr.h.a == 1) { hdr.h.b = 1; } else { hdr.h.b = 2; } }")


def test_a_switch_without_bodies_becomes_an_empty_block() -> None:
    out = desugar_value_switches(parse("switch (hdr.h.a) { 1: 2: }"))
    body = declaration(out, "I").apply.statements  # type: ignore[attr-defined]
    assert isinstance(body[-1], ast.BlockStatement) and body[-1].statements == ()


def test_nested_switches_and_switches_in_actions_and_functions_are_rewritten() -> None:
    text = source(
        "switch (hdr.h.b) { 1: { switch (hdr.h.a) { 2: { hdr.h.a = 3; } } } }",
        locals_="action set(bit<8> v) { switch (v) { 4: { hdr.h.a = v; } } }",
        globals_="bit<8> pick(in bit<8> x) { switch (x) { 5: { return 1; } } return 0; }")
    out = desugar_value_switches(parse_text(text, "prog.p4"))
    assert apply_text(out) == ("{ s.egress_spec = 2; if (hdr.h.b == 1) { "
                               "if (hdr.h.a == 2) { hdr.h.a = 3; } } }")
    control = declaration(out, "I")
    action = next(d for d in control.locals if d.name == "set")  # type: ignore[attr-defined]
    function = declaration(out, "pick")
    for body in (action.body, function.body):  # type: ignore[attr-defined]
        assert isinstance(body.statements[0], ast.IfStatement)


def test_action_run_switches_are_left_alone() -> None:
    program = parse("switch (t.apply().action_run) { a: { hdr.h.b = 1; } }",
                    locals_="action a() { } table t { actions = { a; } }")
    assert desugar_value_switches(program) is program


def test_parser_state_switches_are_left_for_the_converter_to_refuse(tmp_path: Path) -> None:
    text = source("").replace(
        "state start { p.extract(hdr.h); transition accept; }",
        "state start { p.extract(hdr.h); switch (hdr.h.a) { 1: { hdr.h.b = 1; } } "
        "transition accept; }")
    program = parse_text(text, "prog.p4")
    assert desugar_value_switches(program) is program
    with pytest.raises(CompileError, match="switch statements are not allowed in parser"):
        compile_json(tmp_path, text)


def test_a_program_without_value_switches_is_returned_as_is() -> None:
    program = parse("if (hdr.h.a == 1) { hdr.h.b = 2; }")
    assert desugar_value_switches(program) is program


def test_unchanged_declarations_keep_their_identity() -> None:
    program = parse(SWITCH)
    out = desugar_value_switches(program)
    kept = [new is old for new, old in zip(out.declarations, program.declarations)]
    assert kept.count(False) == 1  # only I, which holds the switch
    assert declaration(out, "P") is declaration(program, "P")


def test_switches_still_behave_the_same_in_apply_blocks_and_actions(tmp_path: Path) -> None:
    text = source(SWITCH + "\n        route();",
                  locals_="""
    action route() {
        switch (hdr.h.b) {
            8w10: { s.egress_spec = 3; }
            8w20: { s.egress_spec = 4; }
        }
    }""")
    ingress = compile_json(tmp_path, text)["pipelines"][0]
    # the apply block's switch: two branch nodes (the default is the last 'else')
    assert [c["expression"]["value"]["op"] for c in ingress["conditionals"]] == ["==", "or"]
    result = run_stf(tmp_path, text, """
packet 0 01 00
expect 3 01 0a
packet 0 02 00
expect 4 02 14
packet 0 03 00
expect 4 03 14
packet 0 09 00
expect 2 09 1e
""")
    assert result.passed, result.report
