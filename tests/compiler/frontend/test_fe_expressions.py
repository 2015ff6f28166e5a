"""Expressions: P4_16 precedence, casts, generic calls, literals and initializers."""
import re

import pytest

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.unparse import unparse

from fe_helpers import binary, lit, name, parse_expression, parse_statements


def shape(text: str) -> str:
    """The expression fully parenthesized by the printer (shows how it grouped)."""
    return unparse(parse_expression(text))


@pytest.mark.parametrize(
    "text, grouped",
    [
        ("a + b * c", "a + (b * c)"),
        ("a - b - c", "(a - b) - c"),
        ("a & b == c", "(a & b) == c"),            # & binds tighter than == in P4
        ("a | b ^ c & d", "a | (b ^ (c & d))"),
        ("a << 1 + 2", "a << (1 + 2)"),
        ("a >> 1 < b", "(a >> 1) < b"),
        ("a ++ b + c", "(a ++ b) + c"),
        ("a |+| b |-| c", "(a |+| b) |-| c"),
        ("a || b && c", "a || (b && c)"),
        ("a == b && c != d", "(a == b) && (c != d)"),
        ("!a && b", "(!a) && b"),
        ("-a * b", "(-a) * b"),
        ("~a % b", "(~a) % b"),
        ("a ? b : c ? d : e", "a ? b : (c ? d : e)"),
        ("a < b ? a : b", "(a < b) ? a : b"),
        ("(a + b) * c", "(a + b) * c"),
    ],
)
def test_precedence_and_associativity(text: str, grouped: str) -> None:
    assert shape(text) == grouped


def test_binary_tree_shape() -> None:
    assert parse_expression("1 + 2 * 3") == binary("+", lit(1), binary("*", lit(2), lit(3)))


@pytest.mark.parametrize(
    "text, value, width, signed",
    [("8w5", 5, 8, False), ("4s3", 3, 4, True), ("0xFF", 255, None, False),
     ("0b11", 3, None, False), ("0o17", 15, None, False), ("1_000", 1000, None, False)],
)
def test_literals(text: str, value: int, width, signed: bool) -> None:
    expr = parse_expression(text)
    assert isinstance(expr, ast.IntLiteral)
    assert (expr.value, expr.width, expr.signed, expr.text) == (value, width, signed, text)


def test_negative_sized_literal_is_unary_minus() -> None:
    expr = parse_expression("-4s3")
    assert isinstance(expr, ast.Unary) and expr.op == "-"
    assert isinstance(expr.operand, ast.IntLiteral) and expr.operand.signed


def test_bool_and_string_literals() -> None:
    assert parse_expression("true") == ast.BoolLiteral(True, span=None)
    (stmt,) = parse_statements('log_msg("x={}", {1});')
    assert isinstance(stmt, ast.MethodCallStatement)
    assert stmt.call.args[0].value == ast.StringLiteral("x={}", span=None)


@pytest.mark.parametrize("text", ["(bit<8>) a", "(bit<8>)a", "(int<4>) a", "(port_t) a", "(bool) a"])
def test_casts(text: str) -> None:
    expr = parse_expression(text)
    assert isinstance(expr, ast.Cast)
    assert expr.expr == name("a")


def test_cast_binds_tighter_than_binary_operators() -> None:
    expr = parse_expression("(bit<8>) a + b")
    assert isinstance(expr, ast.Binary) and isinstance(expr.left, ast.Cast)


def test_cast_applies_to_postfix_expression() -> None:
    expr = parse_expression("(bit<16>) h.f")
    assert isinstance(expr, ast.Cast)
    assert expr.expr == ast.Member(name("h"), "f", span=None)


def test_parenthesized_expression_is_not_a_cast() -> None:
    assert parse_expression("(a) + b") == binary("+", name("a"), name("b"))
    assert isinstance(parse_expression("(Color.Red)"), ast.Member)


def test_cast_of_parenthesized_expression() -> None:
    expr = parse_expression("(bit<8>)(a + 1)")
    assert isinstance(expr, ast.Cast) and isinstance(expr.expr, ast.Binary)


def test_width_may_be_a_parenthesized_expression() -> None:
    expr = parse_expression("(bit<(W + 1)>) a")
    assert isinstance(expr, ast.Cast)
    assert expr.type.width == binary("+", name("W"), lit(1))
    expr = parse_expression("(bit<(W)>) a")
    assert expr.type.width == name("W")


def test_bare_constant_width_is_rejected_with_a_hint() -> None:
    with pytest.raises(CompileError, match=re.escape("must be parenthesized: (W)")):
        parse_expression("(bit<W>) a")


def test_generic_method_call_versus_comparison() -> None:
    call = parse_expression("pkt.lookahead<bit<8>>()")
    assert isinstance(call, ast.MethodCall)
    assert call.type_args == (ast.BitType(lit(8), span=None),)
    comparison = parse_expression("a < b && c > d")
    assert comparison == binary("&&", binary("<", name("a"), name("b")), binary(">", name("c"), name("d")))


def test_comparisons_with_non_type_operands_are_not_type_arguments() -> None:
    (stmt,) = parse_statements("f(a < b, c > (d));")
    assert [arg.value for arg in stmt.call.args] == [
        binary("<", name("a"), name("b")), binary(">", name("c"), name("d"))
    ]


def test_shift_right_versus_closing_type_arguments() -> None:
    assert parse_expression("a >> 2") == binary(">>", name("a"), lit(2))
    call = parse_expression("f<ext<bit<8>>>(1)")
    assert isinstance(call, ast.MethodCall)
    (arg_type,) = call.type_args
    assert isinstance(arg_type, ast.NamedType) and arg_type.name == "ext"
    assert arg_type.type_args == (ast.BitType(lit(8), span=None),)


def test_slice_index_and_member() -> None:
    expr = parse_expression("h.g[7:0]")
    assert isinstance(expr, ast.Slice) and expr.hi == lit(7) and expr.lo == lit(0)
    expr = parse_expression("stack[2].f")
    assert isinstance(expr, ast.Member) and isinstance(expr.expr, ast.ArrayIndex)


def test_error_member_and_top_level_names() -> None:
    expr = parse_expression("error.NoMatch")
    assert isinstance(expr, ast.Member) and expr.member == "NoMatch"
    assert isinstance(expr.expr, ast.TypeNameExpression)
    assert isinstance(expr.expr.type, ast.ErrorType)
    assert parse_expression(".x") == ast.Name("x", top_level=True, span=None)


def test_list_and_struct_initializers() -> None:
    assert parse_expression("{1, 2}") == ast.ListExpression((lit(1), lit(2)), span=None)
    assert parse_expression("{}") == ast.ListExpression((), span=None)
    struct = parse_expression("{a = 1, b = 2}")
    assert isinstance(struct, ast.StructExpression) and struct.type is None
    assert [f.name for f in struct.fields] == ["a", "b"]
    typed = parse_expression("(s_t){a = 1, b = 2}")
    assert isinstance(typed, ast.StructExpression)
    assert typed.type == ast.NamedType("s_t", span=None)


def test_constructor_call_of_a_type() -> None:
    expr = parse_expression("ext<bit<8>>()")
    assert isinstance(expr, ast.ConstructorCall)
    assert expr.type == ast.NamedType("ext", (ast.BitType(lit(8), span=None),), span=None)


def test_named_and_dont_care_arguments() -> None:
    (stmt,) = parse_statements("f(x = 1, _);")
    assert stmt.call.args[0] == ast.Argument(lit(1), "x", span=None)
    assert stmt.call.args[1] == ast.Argument(ast.DontCare(span=None), span=None)


@pytest.mark.parametrize("text, message", [
    ("a +", "expected an expression"),
    ("(a", "expected ')'"),
    ("f(1,", "expected an expression"),
    ("h.", "expected a member name"),
    ("a[1:", "expected an expression"),
    ("a ? b", "expected ':'"),
])
def test_expression_errors(text: str, message: str) -> None:
    with pytest.raises(CompileError, match=re.escape(message)):
        parse_expression(text)


def test_dots_leave_the_other_fields_to_their_defaults() -> None:
    expr = parse_expression("{ a = 1, ... }")
    assert isinstance(expr, ast.StructExpression) and expr.rest
    assert [f.name for f in expr.fields] == ["a"]
    empty = parse_expression("{...}")
    assert isinstance(empty, ast.StructExpression) and empty.rest and empty.fields == ()
    assert not parse_expression("{ a = 1 }").rest


def test_hash_in_braces_is_an_invalid_header() -> None:
    assert parse_expression("{#}") == ast.InvalidHeader(None, span=None)
    cast = parse_expression("(h_t){#}")
    assert isinstance(cast, ast.InvalidHeader) and cast.type == ast.NamedType("h_t", span=None)


def test_default_and_invalid_initializers_unparse_to_what_parses_back() -> None:
    for text in ("{a = 1, ...}", "{...}", "{#}", "(h_t){#}"):
        expr = parse_expression(text)
        assert parse_expression(unparse(expr)) == expr
