"""Where a body returns: on every path (the checker: a function that must return a
value) or on some path (lowering: the return-value warning p4c's mid end gives)."""
from __future__ import annotations

from p4sim.compiler import ast


def returns(s: ast.Statement | None, every: bool) -> bool:
    """Whether every path (``every``) or some path through ``s`` ends in a ``return``;
    loops are not counted on, as their body may not run."""
    if isinstance(s, ast.ReturnStatement):
        return True
    if isinstance(s, ast.BlockStatement):
        return any(returns(inner, every) for inner in s.statements)
    if isinstance(s, ast.IfStatement):
        branches = (returns(s.then, every), returns(s.otherwise, every))
        return all(branches) if every else any(branches)
    if isinstance(s, ast.SwitchStatement):
        bodies = [returns(c.body, every) for c in s.cases if c.body is not None]
        if not every:
            return any(bodies)
        return any(isinstance(c.label, ast.DefaultExpression) for c in s.cases) and all(bodies)
    return False
