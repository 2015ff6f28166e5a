"""Compile-time values for the checker: the constant expressions declarations use
(widths, stack sizes, constant initializers, enum values), folded without lowering.

The checker must never refuse a valid program, so an expression this folder does not
know how to evaluate raises NotConstant (not a CompileError): the caller then treats
the value, or the type it sizes, as unknown and checks less."""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic import operators as ops
from p4sim.compiler.semantic.scope import (
    ConstBinding, ErrorMemberBinding, Scope, TypeBinding, resolve_type)
from p4sim.compiler.semantic.types import (
    BitsT, BoolT, EnumT, ErrorT, HeaderT, IntT, P4Type, StringT)


class NotConstant(Exception):
    """The folder cannot evaluate this expression (it may still be a valid one)."""


def fold(e: ast.Expression, scope: Scope) -> tuple[Any, P4Type]:
    """(value, type) of a constant expression; NotConstant when unknown here."""
    if isinstance(e, ast.IntLiteral):
        if e.width is None:
            return e.value, IntT()
        t = BitsT(e.width, e.signed)
        return ops.wrap(e.value, t), t
    if isinstance(e, ast.BoolLiteral):
        return bool(e.value), BoolT()
    if isinstance(e, ast.StringLiteral):
        return e.value, StringT()
    if isinstance(e, ast.Name):
        binding = scope.root().lookup(e.name) if e.top_level else scope.lookup(e.name)
        if isinstance(binding, ConstBinding):
            return binding.value, binding.type
        raise NotConstant
    if isinstance(e, ast.Member):
        return _member(e, scope)
    if isinstance(e, ast.Unary):
        return _unary(e, scope)
    if isinstance(e, ast.Binary) and e.op not in ("&&&", ".."):
        return _binary(e, scope)
    if isinstance(e, ast.Ternary):
        cond, ctype = fold(e.cond, scope)
        if not isinstance(ctype, BoolT):
            raise NotConstant
        return fold(e.then if cond else e.otherwise, scope)
    if isinstance(e, ast.Cast):
        return _cast(e, scope)
    if isinstance(e, ast.MethodCall):
        return _min_size(e, scope)
    raise NotConstant


def resolve(t: ast.Type, scope: Scope) -> P4Type:
    """The type ``t`` denotes; NotConstant when a width in it cannot be folded here."""
    return resolve_type(t, scope, fold)


def _member(e: ast.Member, scope: Scope) -> tuple[Any, P4Type]:
    base = e.expr
    if isinstance(base, ast.Name) and base.name == "error" or \
            isinstance(base, ast.TypeNameExpression) and isinstance(base.type, ast.ErrorType):
        binding = scope.root().lookup(f"error.{e.member}")
        if isinstance(binding, ErrorMemberBinding):
            return binding.value, ErrorT()
        raise NotConstant
    if isinstance(base, ast.Name):
        binding = scope.root().lookup(base.name) if base.top_level else scope.lookup(base.name)
        if isinstance(binding, TypeBinding) and isinstance(binding.type, EnumT):
            value = binding.type.value_of(e.member)
            if value is not None:
                return value, binding.type
    raise NotConstant


def _unary(e: ast.Unary, scope: Scope) -> tuple[Any, P4Type]:
    value, t = fold(e.operand, scope)
    if e.op == "!" and isinstance(t, BoolT):
        return not value, t
    if e.op == "+" and isinstance(t, (BitsT, IntT)):
        return value, t
    if e.op == "-" and isinstance(t, (BitsT, IntT)):
        return ops.wrap(-value, t), t
    if e.op == "~" and isinstance(t, BitsT):
        return ops.wrap(~value, t), t
    raise NotConstant


def _binary(e: ast.Binary, scope: Scope) -> tuple[Any, P4Type]:
    left, lt = fold(e.left, scope)
    right, rt = fold(e.right, scope)
    if lt != rt:
        lt, rt = _underlying(lt), _underlying(rt)
    if not all(isinstance(t, (BitsT, IntT, BoolT)) for t in (lt, rt)):
        raise NotConstant
    try:
        operand, result = ops.binary_result_type(e.op, lt, rt, e.span)
        if e.op not in ("<<", ">>", "++", "&&", "||") and isinstance(operand, BitsT):
            left, right = ops.wrap(left, operand), ops.wrap(right, operand)
        width = rt.width if isinstance(rt, BitsT) else None
        return ops.fold_binary(e.op, left, right, operand, result, e.span, width), result
    except CompileError:
        raise NotConstant from None  # the body checker reports operand errors


def _underlying(t: P4Type) -> P4Type:
    return t.underlying if isinstance(t, EnumT) and t.underlying is not None else t


def _cast(e: ast.Cast, scope: Scope) -> tuple[Any, P4Type]:
    target = resolve(e.type, scope)
    value, src = fold(e.expr, scope)
    src = _underlying(src)
    if isinstance(target, BitsT) and isinstance(src, (BitsT, IntT)):
        return ops.wrap(value, target), target
    if isinstance(target, BitsT) and isinstance(src, BoolT) and target.width == 1:
        return int(value), target
    if isinstance(target, BoolT) and isinstance(src, BitsT) and src.width == 1:
        return bool(value), target
    if isinstance(target, IntT) and isinstance(src, (BitsT, IntT)):
        return value, target
    raise NotConstant


def _min_size(e: ast.MethodCall, scope: Scope) -> tuple[Any, P4Type]:
    """``h_t.minSizeInBits()`` and ``minSizeInBytes()`` on a header type name."""
    target = e.target
    if isinstance(target, ast.Member) and not e.args and \
            target.member in ("minSizeInBits", "minSizeInBytes") and \
            isinstance(target.expr, ast.Name):
        binding = scope.lookup(target.expr.name)
        if isinstance(binding, TypeBinding) and isinstance(binding.type, HeaderT):
            bits = binding.type.width
            return (bits if target.member == "minSizeInBits" else (bits + 7) // 8), IntT()
    raise NotConstant
