"""A switch's labels, in every body: of the switched value's type, none twice by value,
and on ``t.apply().action_run`` only actions the table lists."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic.expr_types import ExprTyper, assignable
from p4sim.compiler.semantic.scope import DeclBinding
from p4sim.compiler.semantic.types import EnumT
from p4sim.compiler.unparse import unparse


def check_switch_labels(s: ast.SwitchStatement, typer: ExprTyper) -> None:
    """``switch (t.apply().action_run)``: each label an action the table lists;
    and in any switch no label twice, by value (structure.py compares the spelling:
    ``(bit<8>)1`` twice, or ``error.E`` twice, gets past it)."""
    seen: dict[object, ast.Node] = {}
    table = _switched_table(typer, s.expr)
    switched = None if table else typer.type_of(s.expr)
    for case in s.cases:
        if isinstance(case.label, ast.DefaultExpression):
            continue
        if switched is not None:
            label_type = typer.type_of(case.label)
            if label_type is not None and (not assignable(switched, label_type) or (
                    isinstance(switched, EnumT) and not isinstance(label_type, EnumT))):
                raise CompileError(case.label.span, f"label {unparse(case.label)} has "
                                   f"type {label_type.describe()}, and the switch is on "
                                   f"{switched.describe()}")
        value = typer.constant(case.label)
        key = value if isinstance(value, (int, bool)) else unparse(case.label)
        if key in seen:
            raise CompileError(case.label.span, f"{unparse(case.label)}: duplicate "
                               f"switch label (first at {seen[key].span})")
        seen[key] = case
    if table is None:
        return
    listed = {ref.name.lstrip(".") for prop in table.properties for ref in prop.actions or ()}
    for case in s.cases:
        if isinstance(case.label, ast.DefaultExpression):
            continue
        name = unparse(case.label).lstrip(".")
        if name not in listed:
            raise CompileError(case.label.span, f"'{name}' is not an action of table "
                               f"'{table.name}'")


def _switched_table(typer: ExprTyper, e: ast.Expression) -> ast.TableDecl | None:
    if not (isinstance(e, ast.Member) and e.member == "action_run"
            and isinstance(e.expr, ast.MethodCall) and isinstance(e.expr.target, ast.Member)
            and e.expr.target.member == "apply" and isinstance(e.expr.target.expr, ast.Name)):
        return None
    binding = typer.lookup(e.expr.target.expr)
    if isinstance(binding, DeclBinding) and isinstance(binding.decl, ast.TableDecl):
        return binding.decl
    return None
