"""The control-plane name of a table key without an @name, by p4c's rules (its front end
names every key before P4Info and the BMv2 JSON see it): paths, members, indexes,
slices, constants and ``&`` spell themselves; ``h.isValid()`` of a header or union is
``h.$valid$``, the name P4Runtime expects; a struct or header field with an @name is
spelled by it (a leading dot drops what stands before it). Any other expression has no
name, and p4c refuses it without an @name."""
from __future__ import annotations

import re
from typing import Callable

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower.naming import annotation, string_arg
from p4sim.compiler.lower.text import expr_text
from p4sim.compiler.semantic.types import AggregateT, HeaderT, P4Type, UnionT

TypeOf = Callable[[ast.Expression], P4Type]

_WIDTH_PREFIX = re.compile(r"^\d+[ws]")


def key_name(e: ast.Expression, type_of: TypeOf) -> str:
    name = _name(e, type_of)
    if name is None:
        raise _complex(e)
    return name


def _complex(e: ast.Expression) -> CompileError:
    return CompileError(e.span, f"{expr_text(e)}: Complex key expression requires a @name "
                        "annotation")


def _name(e: ast.Expression, type_of: TypeOf) -> str | None:
    if isinstance(e, ast.Name):
        return expr_text(e)
    if isinstance(e, ast.Member):
        return _member(e, type_of)
    if isinstance(e, ast.ArrayIndex):
        return _joined(type_of, e.expr, e.index, "{}[{}]")
    if isinstance(e, ast.Slice):
        return _joined(type_of, e.expr, e.hi, e.lo, "{}[{}:{}]")
    if isinstance(e, ast.IntLiteral):
        return _WIDTH_PREFIX.sub("", e.text) if e.text else str(e.value)
    if isinstance(e, ast.Binary) and e.op == "&":
        return _joined(type_of, e.left, e.right, "{} & {}")
    if isinstance(e, ast.MethodCall):
        method = _name(e.target, type_of)
        if method is not None and method.endswith("$valid$") and not e.args:
            return method
    raise _complex(e)


def _joined(type_of: TypeOf, *parts_and_form: ast.Expression | str) -> str | None:
    *parts, form = parts_and_form
    names = [_name(p, type_of) for p in parts]   # type: ignore[arg-type]
    if any(n is None for n in names):
        return None
    return str(form).format(*names)


def _member(e: ast.Member, type_of: TypeOf) -> str | None:
    component = e.member
    try:
        base_type: P4Type | None = type_of(e.expr)
    except CompileError:    # a type or namespace, not a value: spelled as written
        base_type = None
    if isinstance(base_type, (HeaderT, UnionT)) and e.member == "isValid":
        component = "$valid$"
    elif isinstance(base_type, AggregateT):
        for f in base_type.fields:
            if f.name == e.member:
                component = string_arg(annotation(f.annotations, "name")) or e.member
    if component.startswith("."):
        return component[1:]
    base = _name(e.expr, type_of)
    return None if base is None else f"{base}.{component}"
