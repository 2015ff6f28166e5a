"""Mid-end pass: a ``switch`` on a value becomes an if / else-if chain.

BMv2 has no multi-way branch on a value: its control graph branches on booleans and
its actions on ``_jump_if_zero``. Rewriting the switch once, on the tree, leaves the
converters one form to handle (``if``). A case ``L: { B }`` tests ``expr == L``;
labels without a body fall through to the next body (``a: b: { B }`` tests
``expr == a || expr == b``); the ``default`` body becomes the final ``else`` (labels
grouped with ``default`` need no test of their own). The switch expression is written
into each test, as the converter has always evaluated it.

Left alone: a switch on ``t.apply().action_run`` (a table's per-action successors, a
different construct) and switches in parser states (P4 has none; the converter
refuses them there).
"""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.midend.walk import map_program


def desugar_value_switches(program: ast.Program) -> ast.Program:
    """``program`` with every value switch of controls, actions and functions
    rewritten as ``if`` statements."""
    return map_program(program, _rewrite, parser_states=False)


def is_action_run_switch(s: ast.SwitchStatement) -> bool:
    """``switch (x.action_run)``: dispatch on the action a table ran."""
    return isinstance(s.expr, ast.Member) and s.expr.member == "action_run"


def _rewrite(s: ast.Statement) -> ast.Statement:
    if not isinstance(s, ast.SwitchStatement) or is_action_run_switch(s):
        return s
    chain = switch_to_ifs(s)
    # a switch with no body at all does nothing, but it still ends a run of statements
    # (it is not a plain statement): an empty block keeps that
    return chain if chain is not None else ast.BlockStatement((), span=s.span)


def switch_to_ifs(s: ast.SwitchStatement) -> ast.Statement | None:
    """The if/else-if chain of a value switch; None when no case has a body."""
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
    tests: list[tuple[ast.Expression, ast.Statement]] = []
    for group_labels, body, has_default in groups:
        if has_default:
            default_body = body
            continue
        cond: ast.Expression | None = None
        for label in group_labels:
            eq = ast.Binary("==", s.expr, label, span=label.span)
            cond = eq if cond is None else ast.Binary("||", cond, eq, span=label.span)
        if cond is not None:
            tests.append((cond, body))
    chain: ast.Statement | None = default_body
    for cond, then in reversed(tests):
        chain = ast.IfStatement(cond, then, chain, span=cond.span)
    return chain
