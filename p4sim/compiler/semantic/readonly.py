"""Writes to read-only parameters in every action and function, called or not.

Lowering checks the code it reaches; p4c's type checker also refuses an assignment to
an ``in`` or directionless parameter in an action or function that nothing calls. This
syntactic pass covers those (a parameter redeclared in the body is left alone)."""
from __future__ import annotations

from dataclasses import fields
from typing import Iterator

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError


def check_readonly_parameters(program: ast.Program) -> None:
    """Raise a located CompileError for the first write to a read-only parameter."""
    for decl in program.declarations:
        _check_callable(decl)
        for local in getattr(decl, "locals", ()):
            _check_callable(local)


def _check_callable(decl: ast.Node) -> None:
    if not isinstance(decl, (ast.ActionDecl, ast.FunctionDecl)):
        return
    readonly = {p.name: p.direction for p in decl.params if p.direction in ("", "in")}
    if not readonly:
        return
    redeclared = {n.decl.name for n in _walk(decl.body)
                  if isinstance(n, ast.DeclarationStatement)}
    for node in _walk(decl.body):
        if not isinstance(node, ast.Assignment):
            continue
        root = _root(node.left)
        if isinstance(root, ast.Name) and root.name in readonly and \
                root.name not in redeclared:
            direction = readonly[root.name]
            if isinstance(decl, ast.ActionDecl) and not direction:
                why = "an action parameter (directionless parameters are read-only)"
            elif direction:
                why = f"'{root.name}' is an in parameter"
            else:
                why = f"'{root.name}' is a directionless parameter (read-only)"
            raise CompileError(node.span, f"cannot assign to '{root.name}': {why}")


def _root(e: ast.Expression) -> ast.Expression:
    while isinstance(e, (ast.Member, ast.Slice, ast.ArrayIndex)):
        e = e.expr
    return e


def _walk(node: object) -> Iterator[ast.Node]:
    """Every AST node under ``node`` (itself included), depth first."""
    if isinstance(node, (tuple, list)):
        for item in node:
            yield from _walk(item)
        return
    if not isinstance(node, ast.Node):
        return
    yield node
    for f in fields(node):  # type: ignore[arg-type]
        if f.name != "span":
            yield from _walk(getattr(node, f.name))
