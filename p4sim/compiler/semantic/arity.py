"""How many arguments a declaration takes: the one rule the checker and lowering share."""
from __future__ import annotations

from p4sim.compiler import ast

Params = tuple[ast.Parameter, ...]


def is_optional(p: ast.Parameter) -> bool:
    return any(a.name == "optional" for a in p.annotations)


def is_required(p: ast.Parameter) -> bool:
    return p.default is None and not is_optional(p)


def expected_count(params: Params) -> str:
    """'3', or '2 to 4' when some parameters have defaults or are @optional."""
    required = sum(1 for p in params if is_required(p))
    return str(len(params)) if required == len(params) else f"{required} to {len(params)}"


def fits(params: Params, args: tuple[ast.Argument, ...]) -> bool:
    """Whether a declaration with ``params`` can take ``args`` (by count or names)."""
    required = [p for p in params if is_required(p)]
    if any(a.name for a in args):
        names = {p.name for p in params}
        given = {a.name for a in args}
        return given <= names and all(p.name in given for p in required)
    return len(required) <= len(args) <= len(params)
