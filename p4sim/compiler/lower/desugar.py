"""Source-level rewrites shared by control and action lowering."""
from __future__ import annotations

from p4sim.compiler import ast


def switch_to_ifs(s: ast.SwitchStatement) -> ast.Statement | None:
    """A switch on a value as an if/else-if chain (labels without a body fall through
    to the next label's body); None when no case has a body."""
    groups: list[tuple[list[ast.Expression], ast.BlockStatement, bool]] = []
    labels: list[ast.Expression] = []
    is_default = False
    for case in s.cases:
        if isinstance(case.label, ast.DefaultExpression):
            is_default = True
        else:
            labels.append(case.label)
        if case.body is not None:
            groups.append((labels, case.body, is_default))
            labels, is_default = [], False
    default_body: ast.Statement | None = None
    conds: list[tuple[ast.Expression, ast.Statement]] = []
    for group_labels, body, has_default in groups:
        if has_default:
            default_body = body
            continue
        cond: ast.Expression | None = None
        for label in group_labels:
            eq = ast.Binary("==", s.expr, label, span=label.span)
            cond = eq if cond is None else ast.Binary("||", cond, eq, span=label.span)
        if cond is not None:
            conds.append((cond, body))
    stmt: ast.Statement | None = default_body
    for cond, then in reversed(conds):
        stmt = ast.IfStatement(cond, then, stmt, span=cond.span)
    return stmt
