"""Bottom-up rebuilding of the statements of a program, shared by the mid-end passes.

A pass gives a function from one statement to its replacement; the walk applies it to
every statement of every body (actions, functions, control apply blocks, parser states,
the abstract methods of instance initializers), innermost first, and rebuilds only the
nodes above a change. Unchanged declarations stay the very same objects, which matters
to later stages that key side tables by node identity.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, TypeVar

from p4sim.compiler import ast

StatementMap = Callable[[ast.Statement], ast.Statement]
_D = TypeVar("_D", bound=ast.Node)


def map_program(program: ast.Program, fn: StatementMap, parser_states: bool = True
                ) -> ast.Program:
    """``program`` with ``fn`` applied to each statement of each body (of parser states
    too unless ``parser_states`` is False)."""
    decls = tuple(map_declaration(d, fn, parser_states) for d in program.declarations)
    if all(new is old for new, old in zip(decls, program.declarations)):
        return program
    return replace(program, declarations=decls)


def map_declaration(decl: _D, fn: StatementMap, parser_states: bool = True) -> _D:
    """One declaration with its bodies rewritten (itself when nothing changed)."""
    changes: dict[str, object] = {}
    if isinstance(decl, (ast.ActionDecl, ast.FunctionDecl)):
        body = map_statement(decl.body, fn)
        if body is not decl.body:
            changes["body"] = _as_block(body)
    elif isinstance(decl, ast.ControlDecl):
        _map_tuple(decl, "locals", lambda d: map_declaration(d, fn, parser_states), changes)
        if decl.apply is not None:
            apply = map_statement(decl.apply, fn)
            if apply is not decl.apply:
                changes["apply"] = _as_block(apply)
    elif isinstance(decl, ast.ParserDecl):
        _map_tuple(decl, "locals", lambda d: map_declaration(d, fn, parser_states), changes)
        if parser_states:
            _map_tuple(decl, "states", lambda s: map_declaration(s, fn), changes)
    elif isinstance(decl, ast.ParserState):
        _map_tuple(decl, "statements", lambda s: map_statement(s, fn), changes)
    elif isinstance(decl, ast.Instantiation):
        _map_tuple(decl, "initializer", lambda d: map_declaration(d, fn, parser_states),
                   changes)
    return replace(decl, **changes) if changes else decl  # type: ignore[arg-type]


def map_statement(s: ast.Statement, fn: StatementMap, loops: bool = True) -> ast.Statement:
    """``fn`` applied to the statements nested in ``s``, then to ``s`` rebuilt; with
    ``loops`` False the statements inside ``for`` loops are left as they are."""
    changes: dict[str, object] = {}

    def inner(statement: ast.Statement) -> ast.Statement:
        return map_statement(statement, fn, loops)

    if isinstance(s, ast.BlockStatement):
        _map_tuple(s, "statements", inner, changes)
    elif isinstance(s, ast.IfStatement):
        then = inner(s.then)
        if then is not s.then:
            changes["then"] = then
        if s.otherwise is not None:
            otherwise = inner(s.otherwise)
            if otherwise is not s.otherwise:
                changes["otherwise"] = otherwise
    elif isinstance(s, ast.SwitchStatement):
        _map_tuple(s, "cases", lambda case: _map_case(case, inner), changes)
    elif isinstance(s, ast.ForStatement) and loops:
        _map_tuple(s, "init", inner, changes)
        _map_tuple(s, "updates", inner, changes)
        body = inner(s.body)
        if body is not s.body:
            changes["body"] = body
    rebuilt = replace(s, **changes) if changes else s  # type: ignore[arg-type]
    return fn(rebuilt)


def _map_case(case: ast.SwitchCase, inner: StatementMap) -> ast.SwitchCase:
    if case.body is None:
        return case
    body = inner(case.body)
    return case if body is case.body else replace(case, body=_as_block(body))


def _map_tuple(node: ast.Node, attr: str, fn: Callable, changes: dict[str, object]) -> None:
    old = getattr(node, attr)
    new = tuple(fn(item) for item in old)
    if any(n is not o for n, o in zip(new, old)):
        changes[attr] = new


def _as_block(s: ast.Statement) -> ast.BlockStatement:
    """Bodies that must stay blocks (actions, functions, apply, switch cases)."""
    if isinstance(s, ast.BlockStatement):
        return s
    return ast.BlockStatement((s,), span=s.span)
