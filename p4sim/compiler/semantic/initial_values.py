"""A value given to a typed place (an initializer, an assignment, a return) beyond its
type: an untyped integer constant fits the width, and a ``{..}`` initializer names the
fields it should."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic.expr_types import ExprTyper
from p4sim.compiler.semantic.types import BitsT, HeaderT, IntT, P4Type, StructT


def check_value(target: P4Type | None, value: ast.Expression, typer: ExprTyper) -> None:
    _fits(target, value, typer)
    _fields_given(target, value)


def _fits(target: P4Type | None, value: ast.Expression, typer: ExprTyper) -> None:
    """An untyped integer constant given to a bit<W> or int<W> must fit it (lowering's
    words; it checks only the code the package reaches)."""
    if not isinstance(target, BitsT) or not isinstance(typer.type_of(value), IntT):
        return
    v = typer.constant(value)
    if not isinstance(v, int) or isinstance(v, bool):
        return
    low, high = (-(1 << (target.width - 1)), (1 << target.width) - 1) if target.signed \
        else (-(1 << target.width), target.mask)   # -1 fills an unsigned field
    if not low <= v <= high:
        raise CompileError(value.span, f"value {v} does not fit in {target.describe()}")


def _fields_given(target: P4Type | None, value: ast.Expression) -> None:
    """``{a = .., b = ..}`` for a struct or header names each field once, and all of
    them unless it ends in ``...``."""
    if not isinstance(value, ast.StructExpression) or \
            not isinstance(target, (StructT, HeaderT)):
        return
    names = [f.name for f in value.fields]
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise CompileError(value.span, f"field '{twice}' is given twice")
    declared = [f.name for f in target.fields] + [n for n, _ in getattr(target, "nested", ())]
    unknown = [n for n in names if n not in declared]
    if unknown:
        raise CompileError(value.span, f"{target.describe()} has no field "
                           f"'{unknown[0]}'")
    missing = [n for n in declared if n not in names and not
               any(n.startswith(f"{nested}_") for nested in names)]
    if missing and not value.rest:
        raise CompileError(value.span, f"the initializer of {target.describe()} lacks "
                           f"{', '.join(map(repr, missing))} (name every field, or end "
                           "with '...' for default values)")
