"""The table-hit pass: expressions that apply tables, and ``if`` conditions that call
functions, are computed by statements into temporaries, in P4's evaluation order."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.midend.table_hits import hoist_table_hits

from me_helpers import apply_text, compile_json, declaration, parse, run_stf, source

# t hits for h.a == 1; u's and w's default action marks h.b = 0xEE when applied
TABLES = """
    action mark() { hdr.h.b = 8w0xEE; }
    table t { key = { hdr.h.a: exact; } actions = { NoAction; }
              const entries = { 8w1 : NoAction(); } }
    table u { actions = { mark; } default_action = mark(); }
    table w { actions = { mark; } default_action = mark(); }"""


def _hoisted(body: str, locals_: str = TABLES, globals_: str = "") -> str:
    return apply_text(hoist_table_hits(parse(body, locals_, globals_)))


def test_a_hit_inside_a_condition_is_computed_into_a_temporary_first() -> None:
    assert _hoisted("if (t.apply().hit && hdr.h.a == 2) { hdr.h.b = 1; }") == (
        "{ s.egress_spec = 2; { bool cond$1; "
        "if (t.apply().hit) cond$1 = true; else cond$1 = false; "
        "if (cond$1) { cond$1 = hdr.h.a == 2; } "
        "if (cond$1) { hdr.h.b = 1; } } }")


def test_the_right_of_a_short_circuit_applies_its_table_only_when_evaluated() -> None:
    assert _hoisted("if (hdr.h.a == 1 || u.apply().miss) { hdr.h.b = 1; }") == (
        "{ s.egress_spec = 2; { bool cond$1; cond$1 = hdr.h.a == 1; "
        "if (!cond$1) { if (u.apply().miss) cond$1 = true; else cond$1 = false; } "
        "if (cond$1) { hdr.h.b = 1; } } }")


def test_plain_hit_and_miss_branches_are_left_to_the_control_graph() -> None:
    program = parse("if (!t.apply().hit) { hdr.h.b = 1; } if (u.apply().miss) { }",
                    TABLES)
    assert hoist_table_hits(program) is program


def test_a_boolean_value_goes_through_a_bool_temporary() -> None:
    assert _hoisted("bool found = t.apply().hit; hdr.h.b = found ? 8w1 : 8w2;") == (
        "{ s.egress_spec = 2; bool found; { bool tmp$1; "
        "if (t.apply().hit) tmp$1 = true; else tmp$1 = false; found = tmp$1; } "
        "hdr.h.b = found ? 8w1 : 8w2; }")


def test_a_choice_between_values_is_assigned_on_each_path() -> None:
    assert _hoisted("hdr.h.b = t.apply().hit ? 8w1 : 8w2;") == (
        "{ s.egress_spec = 2; { bool tmp$1; "
        "if (t.apply().hit) tmp$1 = true; else tmp$1 = false; "
        "if (tmp$1) { hdr.h.b = 8w1; } else { hdr.h.b = 8w2; } } }")


def test_hits_inside_other_expressions_are_hoisted_left_to_right() -> None:
    assert _hoisted("hdr.h.b = (bit<8>)(bit<1>)t.apply().hit + (bit<8>)(bit<1>)u.apply().hit;"
                    ) == (
        "{ s.egress_spec = 2; { bool tmp$1; bool tmp$2; "
        "if (t.apply().hit) tmp$1 = true; else tmp$1 = false; "
        "if (u.apply().hit) tmp$2 = true; else tmp$2 = false; "
        "hdr.h.b = ((bit<8>)((bit<1>)tmp$1)) + ((bit<8>)((bit<1>)tmp$2)); } }")


def test_conditions_calling_functions_are_computed_first() -> None:
    out = _hoisted("if (twice(hdr.h.a) == 4) { hdr.h.b = 1; }", locals_="",
                   globals_="bit<8> twice(in bit<8> x) { return x + x; }")
    assert out == ("{ s.egress_spec = 2; { bool cond$1; cond$1 = twice(hdr.h.a) == 4; "
                   "if (cond$1) { hdr.h.b = 1; } } }")


def test_loops_and_actions_are_left_alone() -> None:
    program = parse("for (bit<8> i = 0; i < 2; i = i + 1) { if (twice(i) == 2) { } }",
                    locals_="action a() { if (twice(hdr.h.a) == 4) { hdr.h.b = 1; } }",
                    globals_="bit<8> twice(in bit<8> x) { return x + x; }")
    assert hoist_table_hits(program) is program
    action = declaration(program, "I").locals[0]  # type: ignore[attr-defined]
    assert isinstance(action, ast.ActionDecl)


def test_a_table_applied_in_both_arms_of_a_nested_choice_is_refused() -> None:
    with pytest.raises(CompileError, match="may only be used as 't.apply"):
        _hoisted("hdr.h.b = (bit<8>)(hdr.h.a == 1 ? t.apply().hit : u.apply().hit);")


def test_temporaries_are_stored_under_their_base_names(tmp_path: Path) -> None:
    json = compile_json(tmp_path, source(
        "if (t.apply().hit && hdr.h.a == 1) { hdr.h.b = 1; } "
        "bool seen = u.apply().miss;", TABLES))
    scalars = next(t for t in json["header_types"] if t["name"] == "scalars_0")
    names = [f[0] for f in scalars["fields"]]
    assert "cond" in names and "tmp" in names and "seen" in names
    assert not any("$" in n for n in names)


def test_hoisted_tables_apply_in_evaluation_order(tmp_path: Path) -> None:
    text = source("""
        if (hdr.h.a == 1 && t.apply().hit) { s.egress_spec = 3; }
        if (hdr.h.a == 2 && u.apply().miss) { s.egress_spec = 4; }
        bool chosen = hdr.h.a == 3 ? w.apply().hit : false;
        if (chosen) { s.egress_spec = 5; }""", TABLES)
    # a = 1: t hits; u and w are never applied (b kept). a = 2: u applied (b = EE),
    # it misses (no entries). a = 3: w applied by the ?: (b = EE), misses: port 2.
    result = run_stf(tmp_path, text, """
packet 0 01 00
expect 3 01 00
packet 0 02 00
expect 4 02 ee
packet 0 03 00
expect 2 03 ee
packet 0 07 00
expect 2 07 00
""")
    assert result.passed, result.report
