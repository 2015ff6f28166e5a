"""p4c's warning for a use of a declaration marked ``@deprecated("why")``: a call of such
a function or extern function (``mark_to_drop()`` with no argument, ``resubmit(data)``),
or an instance of such an extern type, anywhere in the program, used or not (p4c's type
checker gives it: ``mark_to_drop: Using deprecated feature mark_to_drop. Please use
mark_to_drop(standard_metadata) instead.``). Overloads are told apart by argument count,
as v1model's two mark_to_drop are."""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileWarning, SourceSpan

_CALLABLE = (ast.ExternFunctionDecl, ast.FunctionDecl, ast.ActionDecl)


def deprecated_warnings(program: ast.Program) -> list[CompileWarning]:
    callables: dict[str, list[Any]] = {}
    types: dict[str, str] = {}
    for decl in program.declarations:
        if isinstance(decl, _CALLABLE):
            callables.setdefault(decl.name, []).append(decl)
        elif isinstance(decl, ast.ExternDecl):
            reason = _reason(decl)
            if reason is not None:
                types[decl.name] = reason
    warnings: list[CompileWarning] = []
    for node in ast.walk(program):
        if isinstance(node, ast.MethodCall) and isinstance(node.target, ast.Name):
            reason = _call_reason(callables.get(node.target.name, ()), len(node.args))
            if reason is not None:
                warnings.append(_warning(node.target.span, node.target.name, reason))
        elif isinstance(node, (ast.Instantiation, ast.ConstructorCall)) and \
                isinstance(node.type, ast.NamedType) and node.type.name in types:
            warnings.append(_warning(node.type.span, node.type.name, types[node.type.name]))
    return warnings


def _call_reason(candidates: Any, arity: int) -> str | None:
    fitting = [d for d in candidates if _takes(d, arity)]
    if len(fitting) != 1:
        return None
    return _reason(fitting[0])


def _takes(decl: Any, arity: int) -> bool:
    required = sum(1 for p in decl.params if p.default is None
                   and not any(a.name == "optional" for a in p.annotations))
    return required <= arity <= len(decl.params) or isinstance(decl, ast.ActionDecl)


def _reason(decl: ast.Declaration) -> str | None:
    for a in decl.annotations:
        if a.name == "deprecated":
            return "".join(e.value for e in a.args if isinstance(e, ast.StringLiteral))
    return None


def _warning(span: SourceSpan, name: str, reason: str) -> CompileWarning:
    return CompileWarning(span, f"{name}: Using deprecated feature {name}. {reason}")
