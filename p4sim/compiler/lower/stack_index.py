"""Header stack elements chosen at run time, spelled out as p4c does for BMv2.

p4c never leaves ``stack[i]`` with a run-time ``i`` in a statement: it rewrites the
statement into ``if (i == 0) {...stack[0]...} else if (i == 1) {...}`` over every
element, so on BMv2 a statement whose index is out of bounds simply does nothing
(no pipeline fault, no dropped packet). This module does the same rewrite."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower.storage import StackRef


def expand_dynamic_index(s: ast.Statement, lower: Callable[[ast.Expression], Any]
                         ) -> ast.Statement | None:
    """The if-chain replacing ``s`` when it indexes a stack with a run-time value free
    of calls (innermost first), or None. ``lower`` lowers an expression to a Val."""
    found = _dynamic_index(s, lower)
    if found is None:
        return None
    node, size = found
    span = node.span
    chain: ast.Statement | None = None
    for k in reversed(range(size)):
        fixed = ast.ArrayIndex(node.expr, ast.IntLiteral(k, span=span), span=span)
        test = ast.Binary("==", node.index, ast.IntLiteral(k, span=span), span=span)
        chain = ast.IfStatement(test, _replace(s, node, fixed), chain, span=s.span)
    return chain


def _dynamic_index(n: Any, lower: Callable[[ast.Expression], Any]
                   ) -> tuple[ast.ArrayIndex, int] | None:
    for child in _children(n):
        inner = _dynamic_index(child, lower)
        if inner is not None:
            return inner
    if not isinstance(n, ast.ArrayIndex) or has_call(n.index):
        return None
    try:
        base = lower(n.expr)
        index = lower(n.index)
    except CompileError:
        return None   # let the normal lowering report it
    if isinstance(base.ref, StackRef) and not index.is_const:
        return n, base.ref.type.size
    return None


def _children(n: Any) -> list[Any]:
    return ast.child_nodes(n) if isinstance(n, ast.Node) else []


def has_call(e: Any) -> bool:
    """Whether evaluating ``e`` calls anything (so it may have side effects)."""
    return isinstance(e, ast.MethodCall) or any(has_call(c) for c in _children(e))


def _replace(n: Any, target: ast.Node, new: ast.Node) -> Any:
    """A copy of ``n`` with the node ``target`` (by identity) replaced by ``new``."""
    if n is target:
        return new
    if type(n) is tuple:
        return tuple(_replace(v, target, new) for v in n)
    if not isinstance(n, ast.Node):
        return n
    changes = {}
    for f in dataclasses.fields(n):
        value = getattr(n, f.name)
        if isinstance(value, ast.Node) or type(value) is tuple:
            replaced = _replace(value, target, new)
            if replaced is not value:
                changes[f.name] = replaced
    return dataclasses.replace(n, **changes) if changes else n
