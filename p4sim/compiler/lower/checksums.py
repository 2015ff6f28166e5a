"""The V1Switch checksum controls: verify_checksum / update_checksum calls become
BMv2 calculations and checksums."""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower import ir
from p4sim.compiler.lower.arguments import bind_arguments, pick_overload
from p4sim.compiler.lower.context import Lowering
from p4sim.compiler.lower.statements import StatementLowerer
from p4sim.compiler.lower.storage import FieldRef
from p4sim.compiler.lower.text import source_info
from p4sim.compiler.lower.v1model import calculation, enum_member
from p4sim.compiler.semantic.calls import callable_binding
from p4sim.compiler.semantic.scope import DeclBinding, Scope

CHECKSUM_CALLS = {"verify_checksum": (True, False), "verify_checksum_with_payload": (True, True),
                  "update_checksum": (False, False), "update_checksum_with_payload": (False, True)}


def lower_checksum_control(lw: Lowering, decl: ast.ControlDecl, decl_scope: Scope,
                           bindings: dict[str, Any], verify: bool) -> None:
    scope = decl_scope.child(decl.name, bindings)
    body = StatementLowerer(lw, scope)
    assert decl.apply is not None
    _statements(lw, decl.apply.statements, body, verify)
    if body.out:
        raise CompileError(decl.apply.span, "checksum controls may only call "
                           "verify_checksum/update_checksum on BMv2")


def _statements(lw: Lowering, stmts, body: StatementLowerer, verify: bool) -> None:
    for s in stmts:
        if isinstance(s, ast.BlockStatement):
            _statements(lw, s.statements, body, verify)
            continue
        if isinstance(s, ast.EmptyStatement):
            continue
        if not (isinstance(s, ast.MethodCallStatement) and isinstance(s.call.target, ast.Name)
                and s.call.target.name in CHECKSUM_CALLS):
            raise CompileError(s.span, "checksum controls may only call verify_checksum / "
                               "update_checksum (and their _with_payload forms) on BMv2")
        name = s.call.target.name
        is_verify, payload = CHECKSUM_CALLS[name]
        if is_verify != verify:
            where = "VerifyChecksum" if verify else "ComputeChecksum"
            raise CompileError(s.span, f"{name}() cannot be used in the {where} control")
        binding = callable_binding(body.scope.lookup(name), body.scope, name, s.call.args)
        if not isinstance(binding, DeclBinding):
            raise CompileError(s.span, f"undeclared name '{name}'")
        if not isinstance(binding.decl, tuple):  # overloads; an action of that name is not
            raise CompileError(s.span, f"'{name}' is not the v1model extern function")
        decl = pick_overload(binding.decl, s.call.args, f"'{name}'", s.call.span)
        lw.cp.calls_extern_functions = True  # for the P4Info's type_info
        args: list[ast.Expression] = []
        for p, arg in zip(decl.params, bind_arguments(decl.params, s.call.args, f"'{name}'",
                                                      s.call.span)):
            if arg is None:  # v1model declares none of them @optional
                raise CompileError(s.call.span, f"{name}(): missing argument '{p.name}'")
            args.append(arg)
        cond = body.expr.lower(args[0])
        data = body.expr.lower(args[1])
        target = body.expr.lower(args[2])
        algo = enum_member(body.expr.lower(args[3]), "HashAlgorithm", args[3].span)
        if not isinstance(target.ref, FieldRef):
            raise CompileError(args[2].span, "the checksum must be a header field")
        calc = calculation(body, algo, data, args[1].span, s.call, payload)
        if_cond = None if cond.is_const and cond.const else cond.cond(args[0].span)
        base = lw.calc_name("cksum")
        lw.program.checksums.append(ir.ChecksumIR(
            base, len(lw.program.checksums), [target.ref.header, target.ref.field], calc,
            verify=is_verify, update=not is_verify, if_cond=if_cond,
            source_info=source_info(s.call)))
