"""Calls that are well typed but made where they cannot run: an action from a function
or a parser, verify() outside a parser, the sizing extract on a header without varbit."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic.expr_types import ExprTyper
from p4sim.compiler.semantic.scope import DeclBinding
from p4sim.compiler.semantic.types import HeaderT, VarbitT
from p4sim.compiler.unparse import unparse


def check_call_context(call: ast.MethodCall, typer: ExprTyper, caller: str | None) -> None:
    """``caller``: "action" or "function" when the call is in one's body."""
    _parser_only_call(call, typer)
    _action_call(call, typer, caller)
    _sized_extract(call, typer)


def _action_call(call: ast.MethodCall, typer: ExprTyper, caller: str | None) -> None:
    """Actions run from controls (their apply blocks and other actions): p4c
    refuses a call from a parser state or from a function."""
    if not isinstance(call.target, ast.Name):
        return
    where = "a function" if caller == "function" else "a parser" if typer.in_parser else None
    if where is None:
        return
    decls = _callees(call.target, typer)
    if decls and all(isinstance(d, ast.ActionDecl) for d in decls):
        raise CompileError(call.span, f"action '{call.target.name}' cannot be called "
                           f"from {where}: actions run from controls")


def _sized_extract(call: ast.MethodCall, typer: ExprTyper) -> None:
    """``extract(h, bits)`` sizes a header's varbit field: a header without one
    takes the one-argument form."""
    if not (isinstance(call.target, ast.Member) and call.target.member == "extract"
            and len(call.args) == 2):
        return
    header = typer.type_of(call.args[0].value)
    if isinstance(header, HeaderT) and not any(isinstance(f.type, VarbitT)
                                               for f in header.fields):
        raise CompileError(call.span, f"extract({unparse(call.args[0].value)}, ...): "
                           f"the two-argument extract sizes a varbit field, and "
                           f"'{header.describe()}' has none")


def _parser_only_call(call: ast.MethodCall, typer: ExprTyper) -> None:
    """core.p4's verify() outside a parser: p4c refuses it wherever it is."""
    if typer.in_parser or not (isinstance(call.target, ast.Name) and call.target.name == "verify"):
        return
    if any(isinstance(d, ast.ExternFunctionDecl) for d in _callees(call.target, typer)):
        raise CompileError(call.span, "verify() can only be called in a parser")


def _callees(name: ast.Name, typer: ExprTyper) -> tuple[ast.Node, ...]:
    """The declarations a called name may stand for (overloads are a tuple of them)."""
    binding = typer.lookup(name)
    if not isinstance(binding, DeclBinding):
        return ()
    return binding.decl if isinstance(binding.decl, tuple) else (binding.decl,)
