"""Type arguments of generic functions (``T max<T>(in T a, in T b)``).

Functions are inlined at each call, so a generic one is simply lowered with its type
parameters bound, in the callee's scope, to the call's explicit type arguments or to
the types of the arguments passed where a parameter's type is a type parameter.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower.stack_index import has_call
from p4sim.compiler.semantic.scope import Scope, TypeBinding
from p4sim.compiler.semantic.types import (
    AggregateT, BitsT, BoolT, EnumT, ErrorT, IntT, P4Type, StackT, TupleT, VarbitT)

if TYPE_CHECKING:
    from p4sim.compiler.lower.statements import StatementLowerer


def bind_type_arguments(decl: ast.FunctionDecl, call: ast.MethodCall,
                        args: list[ast.Expression | None], caller: StatementLowerer,
                        scope: Scope) -> None:
    """Declare each of ``decl``'s type parameters in ``scope`` (the callee's)."""
    names = [p.name for p in decl.type_params]
    if call.type_args:
        if len(call.type_args) != len(names):
            raise CompileError(call.span, f"function '{decl.name}' has {len(names)} type "
                               f"parameter(s), got {len(call.type_args)} type argument(s)")
        for name, given in zip(names, call.type_args):
            resolved = caller.expr.resolve(given)
            if not _holds_values(resolved):
                raise CompileError(given.span, f"type argument {resolved.describe()} for "
                                   f"'{name}' of function '{decl.name}': a function's "
                                   "parameters hold values, and no value of this type can be "
                                   "stored")
            scope.declare(name, TypeBinding(resolved))
        return
    inferred: dict[str, P4Type] = {}
    for param, arg in zip(decl.params, args):
        if not isinstance(param.type, ast.NamedType) or param.type.name not in names or \
                arg is None or isinstance(arg, ast.DontCare) or has_call(arg):
            continue
        var = param.type.name
        found = caller.expr.lower(arg).type
        if found is None or isinstance(found, IntT):
            continue  # an int literal adapts to the width found elsewhere
        previous = inferred.setdefault(var, found)
        if previous != found:
            raise CompileError(arg.span, f"type parameter '{var}' of function "
                               f"'{decl.name}' is both {previous.describe()} and "
                               f"{found.describe()}")
    for var in names:
        if var not in inferred:
            raise CompileError(call.span, f"cannot infer type parameter '{var}' of "
                               f"function '{decl.name}': give it explicitly "
                               f"({decl.name}<...>(...))")
        if not _holds_values(inferred[var]):
            raise CompileError(call.span, f"type parameter '{var}' of function "
                               f"'{decl.name}' would be {inferred[var].describe()}, of which "
                               "no value can be stored")
        scope.declare(var, TypeBinding(inferred[var]))


def _holds_values(t: P4Type) -> bool:
    """Whether a variable of ``t`` can exist (not match_kind, string, int, externs...)."""
    if isinstance(t, (BitsT, BoolT, EnumT, ErrorT, VarbitT)):
        return True
    if isinstance(t, AggregateT):
        return all(_holds_values(f.type) for f in t.fields)
    if isinstance(t, StackT):
        return _holds_values(t.element)
    if isinstance(t, TupleT):
        return all(_holds_values(e) for e in t.elements)
    return False
