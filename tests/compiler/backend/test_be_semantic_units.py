"""Semantic building blocks: operator typing and folding with P4 width rules, hex
formatting of constants, scopes and type resolution."""
from __future__ import annotations

import pytest

from p4sim.compiler.errors import NO_SPAN, CompileError
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.semantic import operators as ops
from p4sim.compiler.semantic.types import BitsT, BoolT, IntT


@pytest.mark.parametrize("value,t,expected", [
    (256, BitsT(8), 0), (-1, BitsT(8), 255), (128, BitsT(8, True), -128),
    (-129, BitsT(8, True), 127), (12345, IntT(), 12345)])
def test_wrap(value, t, expected):
    assert ops.wrap(value, t) == expected


@pytest.mark.parametrize("op,a,b,t,expected", [
    ("+", 200, 100, BitsT(8), 44), ("-", 1, 2, BitsT(8), 255), ("*", 16, 16, BitsT(8), 0),
    ("|+|", 200, 100, BitsT(8), 255), ("|-|", 1, 2, BitsT(8), 0),
    ("|+|", 100, 100, BitsT(8, True), 127), ("|-|", -100, 100, BitsT(8, True), -128),
    ("<<", 1, 9, BitsT(8), 0), (">>", 0x80, 7, BitsT(8), 1), ("&", 0xf0, 0x3c, BitsT(8), 0x30),
    ("/", 7, 2, BitsT(8), 3), ("%", 7, 2, BitsT(8), 1), ("<", 1, 2, BitsT(8), True)])
def test_fold_binary(op, a, b, t, expected):
    operand, result = ops.binary_result_type(op, t, t, NO_SPAN)
    assert ops.fold_binary(op, a, b, operand, result, NO_SPAN) == expected


def test_concatenation_width_and_value():
    operand, result = ops.binary_result_type("++", BitsT(4), BitsT(8), NO_SPAN)
    assert result == BitsT(12)
    assert ops.fold_binary("++", 0xa, 0xbc, operand, result, NO_SPAN, 8) == 0xabc


def test_unsized_operand_takes_the_other_width():
    assert ops.binary_result_type("+", IntT(), BitsT(16), NO_SPAN) == (BitsT(16), BitsT(16))
    assert ops.binary_result_type("==", BitsT(3), IntT(), NO_SPAN)[1] == BoolT()


@pytest.mark.parametrize("op,left,right,message", [
    ("+", BitsT(8), BitsT(16), "different types: bit<8> and bit<16>"),
    ("&&", BitsT(1), BoolT(), "needs bool operands"),
    ("++", IntT(), BitsT(8), "must have fixed widths"),
    ("<<", BitsT(8), BitsT(8, True), "shift amount must be unsigned")])
def test_type_errors(op, left, right, message):
    with pytest.raises(CompileError) as info:
        ops.binary_result_type(op, left, right, NO_SPAN)
    assert message in info.value.message


def test_division_by_zero_is_an_error():
    with pytest.raises(CompileError):
        ops.fold_binary("/", 1, 0, BitsT(8), BitsT(8), NO_SPAN)


@pytest.mark.parametrize("value,width,text", [
    (1, 8, "0x01"), (255, 9, "0x00ff"), (0xc10e, 48, "0x00000000c10e"), (3, None, "0x3"),
    (-1, 8, "0xff"), (-5, None, "-0x5")])
def test_hexstr_is_byte_padded_like_p4c(value, width, text):
    assert J.hexstr(value, width)["value"] == text
