"""Declaration before use (P4_16 "Declarations"): an action, function or local object
must be declared before it is named, as p4c enforces (only parser states and type
variables may be named first).

Lowering binds every local of a control before it resolves anything, so without this
check a table could list an action declared below it and compile, where p4c refuses the
program. Positions are compared by declaration order (program order at the top level,
the order of a control's or parser's locals inside it), so included files need no
global text offsets. A name declared later in the control but earlier at the top level
means the top-level one, as in p4c's lookup, and is not refused here.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterator

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan

# Declarations whose name a program uses in a call or a table's action list.
_CALLABLE = (ast.ActionDecl, ast.FunctionDecl, ast.ExternFunctionDecl)
# Local objects named as `x.method()` or as a table property value.
_OBJECT = (ast.Instantiation, ast.TableDecl)

_Positions = dict[str, tuple[int, SourceSpan]]   # name -> (first index, declaration span)


def check_declaration_order(program: ast.Program) -> None:
    """Raise CompileError at the first use of a name that is only declared after it."""
    top: _Positions = {}
    for i, decl in enumerate(program.declarations):
        if isinstance(decl, _CALLABLE + _OBJECT):
            top.setdefault(decl.name, (i, decl.span))
    for i, decl in enumerate(program.declarations):
        if isinstance(decl, (ast.ActionDecl, ast.FunctionDecl)):
            _check(decl, _Uses(top, i, {}, 0, _bound_names(decl)))
        elif isinstance(decl, (ast.ControlDecl, ast.ParserDecl)) and not decl.is_type_decl:
            _check_block(decl, top, i)


def _check_block(decl: ast.ControlDecl | ast.ParserDecl, top: _Positions, at: int) -> None:
    local: _Positions = {}
    # parameters and local variables: a name that may mean one of them is not checked
    bound = {p.name for p in (*decl.params, *decl.constructor_params)}
    for j, item in enumerate(decl.locals):
        if isinstance(item, _CALLABLE + _OBJECT):
            local.setdefault(item.name, (j, item.span))
        else:
            bound.add(item.name)
    for j, item in enumerate(decl.locals):
        _check(item, _Uses(top, at, local, j, _bound_names(item) | bound))
    body = decl.apply if isinstance(decl, ast.ControlDecl) else decl.states
    rest = _Uses(top, at, local, len(decl.locals), _bound_names(body) | bound)
    _check(body, rest)


@dataclasses.dataclass(frozen=True)
class _Uses:
    """Where a use stands: in top-level declaration ``top_at``, and (inside a control or
    parser) before its local number ``local_at``; ``bound``: names a parameter or a
    local variable of the enclosing declaration may shadow."""

    top: _Positions
    top_at: int
    local: _Positions
    local_at: int
    bound: frozenset[str]

    def check(self, name: str, span: SourceSpan, shadowable: bool = False) -> None:
        if name.startswith("."):
            self._check_top(name[1:], span)
            return
        if shadowable and name in self.bound:
            return
        if name in self.local:
            index, declared = self.local[name]
            if index < self.local_at:
                return
            earlier = self.top.get(name)
            if earlier is not None and earlier[0] < self.top_at:
                return   # the top-level declaration of that name is the one meant
            _refuse(name, span, declared)
        self._check_top(name, span)

    def _check_top(self, name: str, span: SourceSpan) -> None:
        found = self.top.get(name)
        if found is not None and found[0] >= self.top_at:
            _refuse(name, span, found[1])


def _refuse(name: str, span: SourceSpan, declared: SourceSpan) -> None:
    raise CompileError(span, f"{name}: declaration not found (it is declared later, at "
                       f"{declared}; P4_16 requires a declaration before its use)")


def _check(node: Any, uses: _Uses) -> None:
    for n in (x for part in (node if isinstance(node, tuple) else (node,)) for x in _walk(part)):
        if isinstance(n, ast.ActionRef):
            uses.check(n.name, n.span)
        elif isinstance(n, ast.MethodCall):
            target = n.target
            if isinstance(target, ast.Name):
                uses.check(("." if target.top_level else "") + target.name, target.span)
            elif isinstance(target, ast.Member) and isinstance(target.expr, ast.Name):
                base = target.expr
                uses.check(("." if base.top_level else "") + base.name, base.span,
                           shadowable=True)
        elif isinstance(n, ast.TableProperty) and isinstance(n.value, ast.Name):
            uses.check(n.value.name, n.value.span, shadowable=True)


def _bound_names(decl: Any) -> frozenset[str]:
    """Parameters and block-local declarations of ``decl``: a use of one of these names
    may mean them rather than a control-level object."""
    names = {p.name for p in getattr(decl, "params", ())}
    for part in decl if isinstance(decl, tuple) else (decl,):
        names.update(n.decl.name for n in _walk(part) if isinstance(n, ast.DeclarationStatement))
    return frozenset(names)


def _walk(node: Any) -> Iterator[Any]:
    """Every AST node under ``node`` (annotations left out: their expressions are not
    references the program executes)."""
    if isinstance(node, ast.Node):
        yield from ast.walk(node)
