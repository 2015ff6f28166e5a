"""The checker's view of names: the global scope and the bindings of values.

Built from scope.py's declare functions, one declaration at a time, with the checker's
own constant folder: a declaration whose widths or value the folder cannot compute is
bound as Unknown, so that what uses it is checked less rather than refused."""
from __future__ import annotations

from dataclasses import dataclass

from p4sim.compiler import ast
from p4sim.compiler.semantic.const_fold import NotConstant, fold, resolve
from p4sim.compiler.semantic.scope import (
    ConstBinding, DeclBinding, ErrorMemberBinding, GlobalInfo, Scope, declare_type)
from p4sim.compiler.semantic.types import P4Type


@dataclass(frozen=True)
class Unknown:
    """A name the checker knows is declared but cannot type."""


@dataclass(frozen=True)
class Var:
    """A variable or parameter: its type (None if unknown) and, for one that may not be
    written, why (in the words of the read-only error)."""

    type: P4Type | None
    readonly: str | None = None


_TYPE_DECLS = (ast.HeaderDecl, ast.HeaderUnionDecl, ast.StructDecl, ast.EnumDecl,
               ast.TypedefDecl, ast.ErrorDecl, ast.MatchKindDecl)


def global_environment(program: ast.Program) -> GlobalInfo:
    """Every top-level name bound, in source order (P4 declares before use)."""
    scope = Scope()
    info = GlobalInfo(scope)
    for decl in program.declarations:
        name = getattr(decl, "name", None)
        try:
            if isinstance(decl, _TYPE_DECLS):
                declare_type(decl, scope, info, fold)
            elif isinstance(decl, ast.ConstantDecl):
                declare_local_constant(decl, scope)
            else:
                _declare_object(decl, scope, info)
        except NotConstant:
            if name is not None:
                scope.declare(name, Unknown())
    for value, member in enumerate(info.errors):
        scope.declare(f"error.{member}", ErrorMemberBinding(member, value))
    return info


def declare_local_constant(decl: ast.ConstantDecl, scope: Scope) -> None:
    """A constant: its value when the folder computes it, else its type alone."""
    t = resolve(decl.type, scope)
    try:
        value, _ = fold(decl.value, scope)
    except NotConstant:
        scope.declare(decl.name, Var(t, "a constant"))
        return
    scope.declare(decl.name, ConstBinding(value, t))


def _declare_object(decl: ast.Node, scope: Scope, info: GlobalInfo) -> None:
    """Instances, callables, blocks and externs (overloads and extern merging as the
    lowering's global scope has them)."""
    name = getattr(decl, "name", None)
    if name is None:
        return
    previous = scope.names.get(name)
    if isinstance(decl, ast.Instantiation):
        if name == "main":
            info.main = decl
        scope.declare(name, DeclBinding(decl, scope))
    elif isinstance(decl, (ast.ExternFunctionDecl, ast.FunctionDecl, ast.ActionDecl)):
        declare_callable(decl, scope)
    elif isinstance(decl, ast.ExternDecl) and isinstance(previous, DeclBinding) and \
            isinstance(previous.decl, ast.ExternDecl):
        merged = ast.ExternDecl(name, decl.type_params, previous.decl.methods + decl.methods,
                                span=decl.span, annotations=decl.annotations)
        scope.declare(name, DeclBinding(merged, scope))
    elif isinstance(previous, DeclBinding) and getattr(decl, "is_type_decl", False):
        return  # a prototype after the definition: the definition stays
    else:
        scope.declare_type_beside_functions(name, DeclBinding(decl, scope))


def declare_callable(decl: ast.ActionDecl | ast.FunctionDecl | ast.ExternFunctionDecl,
                     scope: Scope) -> None:
    """Bind an action or function; one declared twice in ``scope`` (overloads by
    parameter count) is a tuple of its declarations."""
    if not isinstance(decl, ast.ActionDecl):
        scope.declare_function(decl.name, decl)
        return
    previous = scope.names.get(decl.name)
    overloads: tuple[ast.Node, ...] = ()
    if isinstance(previous, DeclBinding):
        if isinstance(previous.decl, tuple):
            overloads = previous.decl
        elif isinstance(previous.decl, ast.ActionDecl):
            overloads = (previous.decl,)
    if not overloads:
        scope.declare(decl.name, DeclBinding(decl, scope))
    else:
        scope.declare(decl.name, DeclBinding(overloads + (decl,), scope))
