"""Statements: assignments, calls, declarations, if/else, switch, exit, return, blocks."""
import pytest

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError

from fe_helpers import binary, lit, name, parse_statements


def test_assignment_and_method_call() -> None:
    assign, call = parse_statements("h.f = h.f + 1; h.setValid();")
    assert assign == ast.Assignment(
        ast.Member(name("h"), "f", span=None), binary("+", ast.Member(name("h"), "f", span=None), lit(1)),
        span=None,
    )
    assert isinstance(call, ast.MethodCallStatement)
    assert call.call.target == ast.Member(name("h"), "setValid", span=None)


def test_local_declarations() -> None:
    stmts = parse_statements(
        "bit<8> a; bit<8> b = 1; const bit<8> c = 2; s_t s = {a = 1, b = 2}; port_t p;"
        " h_t[2] stack; tuple<bit<8>, bool> t; Color k = Color.Red; unknown_t u;"
    )
    assert all(isinstance(s, ast.DeclarationStatement) for s in stmts)
    assert isinstance(stmts[2].decl, ast.ConstantDecl)
    assert isinstance(stmts[5].decl.type, ast.StackType)
    assert stmts[8].decl.type == ast.NamedType("unknown_t", span=None)


def test_instantiation_inside_a_block() -> None:
    (stmt,) = parse_statements("ext<bit<8>>() e;")
    assert isinstance(stmt, ast.DeclarationStatement)
    assert isinstance(stmt.decl, ast.Instantiation) and stmt.decl.name == "e"


def test_type_name_used_as_a_variable_is_an_assignment() -> None:
    (stmt,) = parse_statements("ext = ext + 1;")
    assert isinstance(stmt, ast.Assignment)


def test_if_else_chain() -> None:
    (stmt,) = parse_statements("if (a) { exit; } else if (b) return; else { }")
    assert isinstance(stmt, ast.IfStatement)
    assert isinstance(stmt.then, ast.BlockStatement)
    assert isinstance(stmt.then.statements[0], ast.ExitStatement)
    inner = stmt.otherwise
    assert isinstance(inner, ast.IfStatement)
    assert inner.then == ast.ReturnStatement(span=None)
    assert inner.otherwise == ast.BlockStatement((), span=None)


def test_dangling_else_binds_to_nearest_if() -> None:
    (stmt,) = parse_statements("if (a) if (b) x = 1; else x = 2;")
    assert stmt.otherwise is None
    assert stmt.then.otherwise is not None


def test_switch_on_action_run_with_fallthrough_and_default() -> None:
    (stmt,) = parse_statements("switch (t.apply().action_run) { a1: a2: { exit; } default: { } }")
    assert isinstance(stmt, ast.SwitchStatement)
    assert stmt.expr == ast.Member(
        ast.MethodCall(ast.Member(name("t"), "apply", span=None), (), (), span=None), "action_run", span=None
    )
    labels = [case.label for case in stmt.cases]
    assert labels == [name("a1"), name("a2"), ast.DefaultExpression(span=None)]
    assert stmt.cases[0].body is None and stmt.cases[1].body is not None


def test_switch_on_values() -> None:
    (stmt,) = parse_statements("switch (h.f) { 1: { } 8w2: { } }")
    assert [c.label for c in stmt.cases] == [lit(1), ast.IntLiteral(2, 8, text="8w2", span=None)]


def test_apply_hit_and_miss() -> None:
    first, second = parse_statements("if (t.apply().hit) { } if (!t.apply().miss) { }")
    assert first.cond.member == "hit"
    assert second.cond.operand.member == "miss"


def test_return_with_value_and_empty_statement() -> None:
    ret, empty = parse_statements("return a + 1; ;")
    assert ret.value == binary("+", name("a"), lit(1))
    assert isinstance(empty, ast.EmptyStatement)


def test_annotated_block() -> None:
    (block,) = parse_statements("@atomic { x = 1; }")
    assert isinstance(block, ast.BlockStatement)
    assert block.annotations[0].name == "atomic"


def test_for_loop_with_clauses_break_and_continue() -> None:
    (loop,) = parse_statements(
        "for (bit<8> i = 0, j = 7; i < j; i = i + 1, j = j - 1) { if (i == 2) { continue; } break; }")
    assert isinstance(loop, ast.ForStatement)
    assert isinstance(loop.init[0], ast.DeclarationStatement) and loop.init[0].decl.name == "i"
    assert isinstance(loop.init[1], ast.Assignment)
    assert loop.cond == binary("<", name("i"), name("j"))
    assert len(loop.updates) == 2 and all(isinstance(u, ast.Assignment) for u in loop.updates)
    body = loop.body.statements
    assert isinstance(body[0].then.statements[0], ast.ContinueStatement)
    assert isinstance(body[1], ast.BreakStatement)
    (empty,) = parse_statements("for (;;) { }")
    assert empty.init == () and empty.cond is None and empty.updates == ()


def test_for_break_and_continue_stay_names_elsewhere() -> None:
    # outside a loop header / statement position they are ordinary identifiers
    (stmt,) = parse_statements("for_count = break_at + continue_x;")
    assert isinstance(stmt, ast.Assignment)


def test_generic_call_statement() -> None:
    (stmt,) = parse_statements("digest<s_t>(1, {a = 1, b = 2});")
    assert stmt.call.type_args == (ast.NamedType("s_t", span=None),)


@pytest.mark.parametrize("text, message", [
    ("x = 1", "expected ';' after the assignment"),
    ("x + 1;", "expected '=' or a method call"),
    ("if x { }", "expected '(' after 'if'"),
    ("switch (x) { 1 { } }", "expected ':' after the switch label"),
    ("bit<8> 3x;", "literal"),
    ("exit", "expected ';' after 'exit'"),
    ("x = ;", "expected an expression"),
])
def test_statement_errors(text: str, message: str) -> None:
    with pytest.raises(CompileError, match=message.replace("(", r"\(")):
        parse_statements(text)


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "|+|",
                                "|-|", "&&", "||"])
def test_compound_assignment_is_the_plain_assignment_of_the_operation(op: str) -> None:
    (stmt,) = parse_statements(f"h.f {op}= 2;")
    field = ast.Member(name("h"), "f", span=None)
    assert stmt == ast.Assignment(field, binary(op, field, lit(2)), span=None)


def test_compound_assignment_in_a_for_loop_update() -> None:
    (loop,) = parse_statements("for (bit<8> i = 0; i < 4; i += 1) { }")
    (update,) = loop.updates
    assert update == ast.Assignment(name("i"), binary("+", name("i"), lit(1)), span=None)


def test_a_compound_operator_split_from_its_equals_sign_is_refused() -> None:
    with pytest.raises(CompileError, match="expected '=' or a method call"):
        parse_statements("h.f + = 2;")
