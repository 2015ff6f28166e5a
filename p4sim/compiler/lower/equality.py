"""``==`` / ``!=`` on headers, header stacks and structs, as one BMv2 boolean expression.

The P4_16 spec makes two headers equal when both are invalid, or both are valid with
equal fields; stacks and structs compare element by element. BMv2 has no aggregate
comparison, so (like p4c's front end) the comparison is spelled out over validity
bits and fields. The invalid-header literal ``{#}`` takes the type of the header (or
header union) it is compared with, so ``h == {#}`` holds iff ``h`` is invalid, and
``u == {#}`` iff no member of the union ``u`` is valid."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.lower.storage import (
    DynHeaderRef, DynUnionRef, HeaderRef, StackRef, StructRef, UnionRef)
from p4sim.compiler.lower.values import Val, const_val
from p4sim.compiler.semantic.types import BoolT, HeaderT, StackT, StructT, UnionT

if TYPE_CHECKING:   # expressions imports this module
    from p4sim.compiler.lower.expressions import ExprLowerer

AGGREGATES = (HeaderT, StackT, StructT)


def aggregate_equal(ex: "ExprLowerer", left: Any, right: Any, span: SourceSpan) -> J.Json:
    """The condition ``left == right`` for two storage references of one aggregate type."""
    if isinstance(left, (HeaderRef, DynHeaderRef)) and isinstance(right, (HeaderRef,
                                                                          DynHeaderRef)):
        return _headers_equal(ex, left, right, span)
    if isinstance(left, StackRef) and isinstance(right, StackRef):
        if len(left.elements) != len(right.elements):
            raise CompileError(span, "'==' needs header stacks of the same size")
        return _all([aggregate_equal(ex, a, b, span)
                     for a, b in zip(left.elements, right.elements)])
    if isinstance(left, StructRef) and isinstance(right, StructRef):
        return _all([_member_equal(ex, member, right.member(name), span)
                     for name, member in left.members])
    if isinstance(right, StructRef) and _built(left):
        left, right = right, left
    if isinstance(left, StructRef) and _built(right):
        return _all([_value_equal(ex, member, value, span)
                     for (_, member), value in zip(left.members, _built_values(left, right,
                                                                               span))])
    raise CompileError(span, "'==' on headers, stacks or structs needs two variables or "
                       "fields of the same type (not a list expression)")


def compare_with_invalid(op: str, left: Val, right: Val, span: SourceSpan) -> Val | None:
    """``x == {#}``, ``{#} != x`` (either side): the header's or union's validity, or
    None when neither operand is the invalid-header literal."""
    left_lit, right_lit = _is_invalid_literal(left), _is_invalid_literal(right)
    if not (left_lit or right_lit):
        return None
    if left_lit and right_lit:
        t = left.type or right.type
        if t is None:
            raise CompileError(span, f"'{op}' between two '{{#}}': the header type cannot "
                               "be inferred; insert a cast")
        if left.type is not None and right.type is not None and left.type != right.type:
            raise CompileError(span, f"operator '{op}' cannot be applied to "
                               f"{left.type.describe()} and {right.type.describe()}")
        return const_val(op == "==", BoolT())  # two invalid values are equal
    value, literal = (right, left) if left_lit else (left, right)
    t = value.type
    if not isinstance(t, (HeaderT, UnionT)):
        raise CompileError(span, f"'{{#}}' is a header value: it cannot be compared with "
                           f"{t.describe() if t else 'this'}")
    if literal.type is not None and literal.type != t:
        raise CompileError(span, f"operator '{op}' cannot be applied to "
                           f"{left.type.describe() if left.type else '{#}'} and "
                           f"{right.type.describe() if right.type else '{#}'}")
    valid = _validity(value.ref, span)
    return Val(BoolT(), J.op("not", None, valid) if op == "==" else valid)


def _is_invalid_literal(val: Val) -> bool:
    return isinstance(val.ref, tuple) and bool(val.ref) and val.ref[0] == "invalid"


def _validity(ref: Any, span: SourceSpan) -> J.Json:
    """Whether a header or union is valid, as a BMv2 boolean expression."""
    if isinstance(ref, HeaderRef):
        return J.op("d2b", None, ref.valid().json())
    if isinstance(ref, DynHeaderRef):
        return J.op("valid", None, ref.json())
    if isinstance(ref, (UnionRef, DynUnionRef)):
        return J.op("valid_union", None, ref.json())
    raise CompileError(span, "'{#}' can only be compared with a header or header union "
                       "variable or field")


def _member_equal(ex: "ExprLowerer", left: Any, right: Any, span: SourceSpan) -> J.Json:
    if isinstance(left, (HeaderRef, DynHeaderRef, StackRef, StructRef)):
        return aggregate_equal(ex, left, right, span)
    lv, rv = ex.from_binding(left, span), ex.from_binding(right, span)
    return J.op("==", lv.data(span), rv.data(span))


def _built(ref: Any) -> bool:
    return isinstance(ref, tuple) and bool(ref) and ref[0] in ("list", "struct")


def _built_values(left: StructRef, right: tuple, span: SourceSpan) -> list[Any]:
    """The values of a list / struct expression in the order of ``left``'s members."""
    kind, values = right[0], right[1]
    if kind == "list":
        items = list(values)
    else:
        by_name = dict(values)
        missing = [name for name, _ in left.members if name not in by_name]
        if missing:
            raise CompileError(span, f"struct expression has no field '{missing[0]}'")
        items = [by_name[name] for name, _ in left.members]
    if len(items) != len(left.members):
        raise CompileError(span, f"'==' between {left.type.describe()} and a list of "
                           f"{len(items)} values")
    return items


def _value_equal(ex: "ExprLowerer", member: Any, value: Any, span: SourceSpan) -> J.Json:
    """A struct member compared with one value of a list / struct expression."""
    if isinstance(member, StructRef):
        return aggregate_equal(ex, member, value.ref, span)
    if isinstance(member, (HeaderRef, DynHeaderRef, StackRef)):
        return aggregate_equal(ex, member, value.ref, span)
    lv = ex.from_binding(member, span)
    assert lv.type is not None  # a field has a type
    rv = ex.convert(value, lv.type, span)
    return J.op("==", lv.data(span), rv.data(span))


def _valid_bit(ref: Any) -> J.Json:
    """The header's validity as data (0 or 1), which BMv2 compares like any value."""
    if isinstance(ref, HeaderRef):
        return ref.valid().json()
    return J.op("b2d", None, J.op("valid", None, ref.json()))


def _headers_equal(ex: "ExprLowerer", left: Any, right: Any, span: SourceSpan) -> J.Json:
    if left.type != right.type:
        raise CompileError(span, f"'==' between headers of types {left.type.describe()} and "
                           f"{right.type.describe()}")
    fields = _all([_member_equal(ex, left.field(f.name), right.field(f.name), span)
                   for f in left.type.fields])
    lvalid = _valid_bit(left)
    invalid_or_fields = J.op("or", J.op("==", lvalid, J.hexstr(0, 1)), fields)
    return J.op("and", J.op("==", lvalid, _valid_bit(right)), invalid_or_fields)


def _all(conditions: list[J.Json]) -> J.Json:
    if not conditions:
        return J.bool_expression(True)
    result = conditions[0]
    for cond in conditions[1:]:
        result = J.op("and", result, cond)
    return result
