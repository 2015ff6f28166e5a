"""Typing rules and compile-time folding of P4 operators (P4_16 spec section 8).

Unsized ``int`` operands take the width of the sized operand; two sized operands must
agree. Folded results wrap to the result width, as the target would compute them.
"""
from __future__ import annotations

from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.semantic.types import BitsT, BoolT, EnumT, ErrorT, IntT, P4Type

ARITH_OPS = {"+", "-", "*", "/", "%", "|+|", "|-|"}
BITWISE_OPS = {"&", "|", "^"}
COMPARE_OPS = {"<", "<=", ">", ">="}
EQUALITY_OPS = {"==", "!="}
SHIFT_OPS = {"<<", ">>"}
# Bound on ``int`` left shifts folded at compile time: far beyond any width a program
# can use (2048), far below what would exhaust memory.
MAX_CONSTANT_SHIFT = 1 << 16
LOGIC_OPS = {"&&", "||"}


def wrap(value: int, t: P4Type) -> int:
    """Reduce an integer to the range of a fixed-width type (two's complement)."""
    if isinstance(t, BitsT):
        value &= t.mask
        if t.signed and value >> (t.width - 1):
            value -= 1 << t.width
    return value


def unify(op: str, left: P4Type, right: P4Type, span: SourceSpan) -> P4Type:
    """The common operand type of a binary operator, or a located type error."""
    if isinstance(left, IntT) and isinstance(right, IntT):
        return left
    if isinstance(left, IntT) and isinstance(right, BitsT):
        return right
    if isinstance(right, IntT) and isinstance(left, BitsT):
        return left
    if isinstance(left, BitsT) and isinstance(right, BitsT):
        if left != right or left.new_type_name != right.new_type_name:
            raise CompileError(
                span, f"operands of '{op}' have different types: "
                f"{left.describe_named()} and {right.describe_named()}; insert a cast")
        return left
    if isinstance(left, EnumT) and isinstance(right, IntT) and left.underlying:
        return left.underlying
    if left == right and op in EQUALITY_OPS:
        return left
    raise CompileError(
        span, f"operator '{op}' cannot be applied to {left.describe()} and "
        f"{right.describe()}")


def binary_result_type(op: str, left: P4Type, right: P4Type, span: SourceSpan
                       ) -> tuple[P4Type, P4Type]:
    """(operand type, result type) of ``left op right``."""
    if op not in LOGIC_OPS and op not in EQUALITY_OPS:
        for side in (left, right) if op not in SHIFT_OPS else (left,):
            if isinstance(side, BitsT) and side.new_type is not None:
                raise CompileError(span, f"operator '{op}' cannot be applied to a value "
                                   f"of type {side.new_type.name}: a 'type' only "
                                   "compares for equality; cast it to "
                                   f"{side.describe()} first")
    if op in LOGIC_OPS:
        for side in (left, right):
            if not isinstance(side, BoolT):
                raise CompileError(span, f"operator '{op}' needs bool operands, "
                                   f"not {side.describe()}")
        return BoolT(), BoolT()
    if op in SHIFT_OPS:
        if isinstance(right, BitsT) and right.signed:
            raise CompileError(span, "shift amount must be unsigned")
        if isinstance(right, BitsT) and right.new_type is not None:
            raise CompileError(span, f"shift amount of type {right.new_type.name}: a shift "
                               "takes a bit<W> amount or a non-negative constant, not a "
                               "'type' (cast it)")
        if not isinstance(left, (BitsT, IntT)) or not isinstance(right, (BitsT, IntT)):
            raise CompileError(span, f"operator '{op}' cannot be applied to "
                               f"{left.describe()} and {right.describe()}")
        return left, left
    if op == "++":
        if not isinstance(left, BitsT) or not isinstance(right, BitsT):
            raise CompileError(span, "operands of '++' must have fixed widths; "
                               f"got {left.describe()} and {right.describe()}")
        return left, BitsT(left.width + right.width, left.signed)
    if op in EQUALITY_OPS:
        if isinstance(left, BoolT) and isinstance(right, BoolT):
            return BoolT(), BoolT()
        if isinstance(left, (EnumT, ErrorT)) or isinstance(right, (EnumT, ErrorT)):
            if left != right and not (isinstance(left, EnumT) and left.underlying):
                raise CompileError(span, f"cannot compare {left.describe()} with "
                                   f"{right.describe()}")
            return left, BoolT()
        return unify(op, left, right, span), BoolT()
    if op in COMPARE_OPS:
        return unify(op, left, right, span), BoolT()
    if op in ARITH_OPS or op in BITWISE_OPS:
        operand = unify(op, left, right, span)
        if not isinstance(operand, (BitsT, IntT)):
            raise CompileError(span, f"operator '{op}' cannot be applied to "
                               f"{operand.describe()}")
        return operand, operand
    raise CompileError(span, f"unsupported operator '{op}'")


def fold_binary(op: str, a: int, b: int, operand: P4Type, result: P4Type,
                span: SourceSpan, right_width: int | None = None) -> int | bool:
    """Compute a binary operator on constants with the target's width rules."""
    if op == "+":
        return wrap(a + b, result)
    if op == "-":
        return wrap(a - b, result)
    if op == "*":
        return wrap(a * b, result)
    if op in ("/", "%"):
        if b == 0:
            raise CompileError(span, "division by zero")
        if a < 0 or b < 0:
            raise CompileError(span, f"'{op}' needs non-negative operands")
        return wrap(a // b if op == "/" else a % b, result)
    if op == "|+|":
        return _saturate(a + b, operand)
    if op == "|-|":
        return _saturate(a - b, operand)
    if op == "&":
        return wrap(a & b, result)
    if op == "|":
        return wrap(a | b, result)
    if op == "^":
        return wrap(a ^ b, result)
    if op == "<<":
        if b < 0:
            raise CompileError(span, "negative shift amount")
        if isinstance(result, BitsT) and b >= result.width:
            return 0  # every bit shifted out (and a huge b would exhaust memory)
        if b > MAX_CONSTANT_SHIFT:
            raise CompileError(span, f"shift amount {b} is too large for a compile-time "
                               f"int (at most {MAX_CONSTANT_SHIFT})")
        return wrap(a << b, result)
    if op == ">>":
        if b < 0:
            raise CompileError(span, "negative shift amount")
        return wrap(a >> b, result)
    if op == "++":
        assert right_width is not None
        return wrap((a << right_width) | (b & ((1 << right_width) - 1)), result)
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    if op == ">=":
        return a >= b
    if op == "&&":
        return bool(a) and bool(b)
    if op == "||":
        return bool(a) or bool(b)
    raise CompileError(span, f"cannot fold operator '{op}'")


def _saturate(value: int, t: P4Type) -> int:
    if not isinstance(t, BitsT):
        return value
    low, high = t.value_range
    return max(low, min(high, value))
