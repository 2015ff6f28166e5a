"""Deparser lowering: the emit order of header instances."""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower import ir
from p4sim.compiler.lower.context import Lowering, PacketRef
from p4sim.compiler.lower.expressions import ExprLowerer
from p4sim.compiler.lower.storage import HeaderRef, StackRef, StructRef, UnionRef, leaves
from p4sim.compiler.lower.text import source_info
from p4sim.compiler.semantic.scope import Scope


def lower_deparser(lw: Lowering, decl: ast.ControlDecl, decl_scope: Scope,
                   bindings: dict[str, Any]) -> ir.DeparserIR:
    scope = decl_scope.child(decl.name, bindings)
    order: list[str] = []
    assert decl.apply is not None
    _statements(decl.apply.statements, scope, order)
    dep = ir.DeparserIR("deparser", len(lw.program.deparsers), order,
                        source_info(decl, decl.name))
    lw.program.deparsers.append(dep)
    return dep


def _statements(stmts, scope: Scope, order: list[str]) -> None:
    ex = ExprLowerer(scope)
    for s in stmts:
        if isinstance(s, ast.BlockStatement):
            _statements(s.statements, scope, order)
        elif isinstance(s, ast.EmptyStatement):
            continue
        elif isinstance(s, ast.MethodCallStatement) and isinstance(s.call.target, ast.Member) \
                and s.call.target.member == "emit":
            base = ex.lower(s.call.target.expr)
            if not isinstance(base.ref, PacketRef):
                raise CompileError(s.span, "emit must be called on the packet_out parameter")
            if len(s.call.args) != 1:
                raise CompileError(s.span, "wrong number of arguments: emit expects 1, got "
                                   f"{len(s.call.args)}")
            val = ex.lower(s.call.args[0].value)
            for name in _headers(val.ref, s):
                if name not in order:
                    order.append(name)
        else:
            raise CompileError(s.span, "the BMv2 deparser only supports emit() calls "
                               "(conditions are implicit: invalid headers are skipped)")


def _headers(ref: Any, node: ast.Node) -> list[str]:
    if isinstance(ref, HeaderRef):
        return [ref.name]
    if isinstance(ref, StackRef):
        out = []
        for e in ref.elements:
            out.extend(_headers(e, node))
        return out
    if isinstance(ref, UnionRef):
        return [h.name for _, h in ref.members]
    if isinstance(ref, StructRef):
        out = []
        for leaf in leaves(ref):
            if isinstance(leaf, (HeaderRef, StackRef, UnionRef)):
                out.extend(_headers(leaf, node))
        return out
    raise CompileError(node.span, "emit needs a header, header stack, union or struct of "
                       "headers")
