"""Matching call arguments to parameters (positional, named, defaults)."""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan


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
                               f"{_count(params)}, got {len(args)}")
        for i, a in enumerate(args):
            result[i] = a.value
    for i, p in enumerate(params):
        if result[i] is None:
            if p.default is not None:
                result[i] = p.default
            elif not _optional(p):
                raise CompileError(span, f"wrong number of arguments: {what} expects "
                                   f"{_count(params)}, got {len(args)} (missing "
                                   f"'{p.name}')")
    return result


def _optional(p: ast.Parameter) -> bool:
    return any(a.name == "optional" for a in p.annotations)


def _count(params: tuple[ast.Parameter, ...]) -> str:
    required = sum(1 for p in params if p.default is None and not _optional(p))
    if required == len(params):
        return str(len(params))
    return f"{required} to {len(params)}"


def pick_overload(decls: tuple[Any, ...], args: tuple[ast.Argument, ...], what: str,
                  span: SourceSpan) -> Any:
    """The declaration among overloads whose parameter count fits the arguments."""
    fitting = []
    for d in decls:
        params = d.params
        required = sum(1 for p in params if p.default is None and not _optional(p))
        if any(a.name for a in args):
            names = {p.name for p in params}
            given = {a.name for a in args}
            if given <= names and all(p.name in given for p in params
                                      if p.default is None and not _optional(p)):
                fitting.append(d)
        elif required <= len(args) <= len(params):
            fitting.append(d)
    if not fitting:
        counts = sorted({len(d.params) for d in decls})
        raise CompileError(span, f"wrong number of arguments: {what} expects "
                           f"{' or '.join(map(str, counts))}, got {len(args)}")
    return fitting[0]
