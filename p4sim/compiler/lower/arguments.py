"""Matching call arguments to parameters (positional, named, defaults)."""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.semantic.arity import expected_count, fits, is_optional


def bind_arguments(params: tuple[ast.Parameter, ...], args: tuple[ast.Argument, ...],
                   what: str, span: SourceSpan) -> list[ast.Expression | None]:
    """One expression (or None for an omitted optional one) per parameter."""
    result: list[ast.Expression | None] = [None] * len(params)
    names = [p.name for p in params]
    named = any(a.name for a in args)
    if named:
        for a in args:
            if a.name is None:
                raise CompileError(a.span, "cannot mix named and positional arguments")
            if a.name not in names:
                raise CompileError(a.span, f"{what} has no parameter named '{a.name}'")
            result[names.index(a.name)] = a.value
    else:
        if len(args) > len(params):
            raise CompileError(span, f"wrong number of arguments: {what} expects "
                               f"{expected_count(params)}, got {len(args)}")
        for i, a in enumerate(args):
            result[i] = a.value
    for i, p in enumerate(params):
        if result[i] is None:
            if p.default is not None:
                result[i] = p.default
            elif not is_optional(p):
                raise CompileError(span, f"wrong number of arguments: {what} expects "
                                   f"{expected_count(params)}, got {len(args)} (missing "
                                   f"'{p.name}')")
    return result


def pick_overload(decls: tuple[Any, ...], args: tuple[ast.Argument, ...], what: str,
                  span: SourceSpan) -> Any:
    """The declaration among overloads whose parameter count fits the arguments."""
    fitting = [d for d in decls if fits(d.params, args)]
    if not fitting:
        counts = sorted({len(d.params) for d in decls})
        raise CompileError(span, f"wrong number of arguments: {what} expects "
                           f"{' or '.join(map(str, counts))}, got {len(args)}")
    return fitting[0]
