"""Expression operators of JSON_format.md, evaluated through a loaded program."""
from __future__ import annotations

import pytest

from p4sim.switch.expressions import sat_cast, two_comp_mod, usat_cast
from .synth import eval_expression, expr, field, hexstr

A, B, S, T = (field("scalars", n) for n in ("a", "b", "s", "t"))


def b2d(e: dict) -> dict:
    return expr("b2d", None, e)


@pytest.mark.parametrize("op,a,b,expected", [
    ("+", 200, 100, 300),            # unbounded until stored (out is 64 bits)
    ("-", 5, 7, (5 - 7) & (2**64 - 1)),
    ("*", 16, 17, 272),
    ("&", 0xF0, 0x3C, 0x30),
    ("|", 0xF0, 0x0F, 0xFF),
    ("^", 0xFF, 0x0F, 0xF0),
    ("<<", 1, 7, 128),
    (">>", 0x80, 3, 0x10),
    ("/", 200, 7, 28),
    ("%", 200, 7, 4),
])
def test_arithmetic(op: str, a: int, b: int, expected: int) -> None:
    assert eval_expression(expr(op, A, B), {"a": a, "b": b}) == expected


@pytest.mark.parametrize("op,expected", [
    ("==", 0), ("!=", 1), (">", 1), (">=", 1), ("<", 0), ("<=", 0)])
def test_comparisons_unsigned(op: str, expected: int) -> None:
    assert eval_expression(b2d(expr(op, A, B)), {"a": 200, "b": 100}) == expected


def test_signed_fields_compare_as_signed() -> None:
    # s = -1 (0xff), t = 1: signed -1 < 1 although 0xff > 1 unsigned
    assert eval_expression(b2d(expr("<", S, T)), {"s": 0xFF, "t": 1}) == 1
    assert eval_expression(b2d(expr("<", A, T)), {"a": 0xFF, "t": 1}) == 0


def test_signed_store_wraps_to_twos_complement() -> None:
    assert eval_expression(expr("-", hexstr(0), hexstr(3)), {}, target="sout") == 0xFFFD


def test_negative_hexstr_constant() -> None:
    assert eval_expression(expr("+", A, hexstr(-1)), {"a": 10}) == 9


def test_logical_ops_and_not() -> None:
    t = expr("==", A, A)
    f = expr("!=", A, A)
    assert eval_expression(b2d(expr("and", t, f)), {}) == 0
    assert eval_expression(b2d(expr("or", t, f)), {}) == 1
    assert eval_expression(b2d(expr("not", None, f)), {}) == 1
    assert eval_expression(b2d(expr("d2b", None, A)), {"a": 0}) == 0
    assert eval_expression(b2d(expr("d2b", None, A)), {"a": 3}) == 1


def test_bitwise_not_with_mask() -> None:
    assert eval_expression(expr("&", expr("~", None, A), hexstr(0xFF)), {"a": 0x0F}) == 0xF0


def test_ternary_operator() -> None:
    cond = expr("==", A, hexstr(9))
    e = {"type": "expression", "value": {"op": "?", "left": hexstr(3), "right": hexstr(4),
                                         "cond": cond}}
    assert eval_expression(e, {"a": 9}) == 3
    assert eval_expression(e, {"a": 8}) == 4


def test_two_comp_mod_and_saturating_casts() -> None:
    assert two_comp_mod(257, 8) == 1 and two_comp_mod(-129, 8) == 127
    assert sat_cast(300, 8) == 127 and sat_cast(-300, 8) == -128
    assert usat_cast(300, 8) == 255 and usat_cast(-5, 8) == 0
    assert eval_expression(expr("two_comp_mod", hexstr(257), hexstr(8)), {}) == 1
    assert eval_expression(expr("usat_cast", expr("+", A, B), hexstr(8)),
                           {"a": 200, "b": 100}) == 255
    assert eval_expression(expr("sat_cast", expr("+", S, T), hexstr(8)),
                           {"s": 100, "t": 100}, target="sout") == 127


def test_valid_op_on_metadata_header() -> None:
    e = b2d(expr("valid", None, {"type": "header", "value": "scalars"}))
    assert eval_expression(e, {}) == 1
