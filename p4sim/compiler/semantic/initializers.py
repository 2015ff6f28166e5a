"""An extern instance's initializer block (``Virtual() v = { ... };``) against its
extern's abstract methods (P4_16 §11.3.1): the block is how a program supplies the
code an extern calls back, so a missing, extra or mis-typed method would be a call
into nothing or into the wrong signature.

Each abstract method is implemented once, with the abstract method's return type and
parameter types and directions (parameter names may differ); the block implements
nothing else; an extern with abstract methods is never instantiated without one."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic.expr_types import ExprTyper
from p4sim.compiler.semantic.scope import Scope
from p4sim.compiler.semantic.types import P4Type, TypeVarT


def check_implementations(inst: ast.Instantiation, extern: ast.ExternDecl,
                          extern_scope: Scope, scope: Scope) -> None:
    """``extern_scope``: where the extern was declared, its type parameters bound to
    the instance's type arguments; ``scope``: where the implementations' types are
    written."""
    abstract = {m.name: m for m in extern.methods if m.is_abstract}
    implemented: dict[str, ast.FunctionDecl] = {}
    for decl in inst.initializer:
        if not isinstance(decl, ast.FunctionDecl):
            continue
        if decl.name in implemented:
            raise CompileError(decl.span, f"{inst.name}: abstract method '{decl.name}' is "
                               "implemented twice in the initializer block")
        expected = abstract.get(decl.name)
        if expected is None:
            raise CompileError(decl.span, _not_abstract(decl.name, extern))
        _check_signature(decl, expected, extern, extern_scope, scope)
        implemented[decl.name] = decl
    missing = [name for name in abstract if name not in implemented]
    if missing:
        where = "its initializer block" if inst.initializer else \
            f"an initializer block ({extern.name}(...) {inst.name} = {{ ... }};)"
        raise CompileError(inst.span, f"{inst.name}: extern '{extern.name}' has abstract "
                           f"method{'s' if len(missing) > 1 else ''} "
                           f"{', '.join(repr(m) for m in missing)} that {inst.name} must "
                           f"implement in {where}")


def _not_abstract(name: str, extern: ast.ExternDecl) -> str:
    if any(m.name == name for m in extern.methods):
        return (f"'{name}' is a method of extern '{extern.name}' but not an abstract one: "
                "an initializer block implements abstract methods only")
    return f"extern '{extern.name}' has no abstract method '{name}' to implement"


def _check_signature(decl: ast.FunctionDecl, expected: ast.MethodPrototype,
                     extern: ast.ExternDecl, extern_scope: Scope, scope: Scope) -> None:
    what = f"'{decl.name}' implements abstract method '{extern.name}.{expected.name}'"
    want_return, got_return = (_resolve(t, s) for t, s in (
        (expected.return_type, extern_scope), (decl.return_type, scope)))
    if _differ(want_return, got_return):
        raise CompileError(decl.return_type.span, f"{what}, which returns "
                           f"{_describe(want_return)}, but returns {_describe(got_return)}")
    if len(decl.params) != len(expected.params):
        raise CompileError(decl.span, f"{what}, which takes {len(expected.params)} "
                           f"parameter{'s' if len(expected.params) != 1 else ''}, but takes "
                           f"{len(decl.params)}")
    for got, want in zip(decl.params, expected.params):
        if (got.direction or "") != (want.direction or ""):
            raise CompileError(got.span, f"{what}: parameter '{got.name}' is "
                               f"{_direction(got)}, the abstract method's '{want.name}' "
                               f"is {_direction(want)}")
        want_type, got_type = _resolve(want.type, extern_scope), _resolve(got.type, scope)
        if _differ(want_type, got_type):
            raise CompileError(got.span, f"{what}: parameter '{got.name}' has type "
                               f"{_describe(got_type)}, the abstract method's "
                               f"'{want.name}' has {_describe(want_type)}")


def _resolve(t: ast.Type | None, scope: Scope) -> P4Type | None:
    return ExprTyper(scope).resolve(t) if t is not None else None


def _differ(want: P4Type | None, got: P4Type | None) -> bool:
    """Whether two resolved types certainly differ (a type variable left unbound, or a
    type not resolved, is not compared)."""
    if want is None or got is None or isinstance(want, TypeVarT) or isinstance(got, TypeVarT):
        return False
    return want != got


def _describe(t: P4Type | None) -> str:
    return t.describe() if t is not None else "an unknown type"


def _direction(p: ast.Parameter) -> str:
    return p.direction or "directionless"
