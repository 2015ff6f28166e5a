"""``static_assert(check[, message])`` as a value: core.p4 declares it to return bool so
that it can initialize a constant (``const bool ok = static_assert(...);``). It is
checked while compiling; its value is always ``true``."""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower.values import Val, const_val
from p4sim.compiler.semantic.scope import DeclBinding
from p4sim.compiler.semantic.types import BoolT


def is_static_assert(call: ast.MethodCall, scope: Any) -> bool:
    """Whether ``call`` names core.p4's extern function (not a user's own)."""
    target = call.target
    if not isinstance(target, ast.Name) or target.name != "static_assert":
        return False
    binding = scope.root().lookup(target.name) if target.top_level else \
        scope.lookup(target.name)
    return isinstance(binding, DeclBinding) and isinstance(binding.decl, tuple) and \
        all(isinstance(d, ast.ExternFunctionDecl) for d in binding.decl)


def static_assert_value(call: ast.MethodCall, ex: Any) -> Val:
    """Check the assertion now (a located error if it fails) and give ``true``."""
    if not 1 <= len(call.args) <= 2:
        raise CompileError(call.span, "wrong number of arguments: static_assert expects "
                           f"1 or 2, got {len(call.args)}")
    cond = ex.lower(call.args[0].value)
    if not cond.is_const or not isinstance(cond.type, BoolT):
        raise CompileError(call.args[0].span, "static_assert needs a bool condition known "
                           "at compile time")
    if not cond.const:
        message = ex.lower(call.args[1].value).const if len(call.args) > 1 else None
        raise CompileError(call.span, "static assertion failed"
                           + (f": {message}" if isinstance(message, str) else ""))
    return const_val(True, BoolT())
