"""Method and function calls: header/stack built-ins, packet methods, v1model externs,
and inlining of user actions and functions."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.lower import v1model
from p4sim.compiler.lower.action_declarations import declare_called_action
from p4sim.compiler.lower.arguments import bind_arguments, pick_overload
from p4sim.compiler.lower.context import ControlInstance, ExternObj, PacketRef, TableObj
from p4sim.compiler.lower.expressions import ExprLowerer, ReadOnly
from p4sim.compiler.lower.generics import bind_type_arguments
from p4sim.compiler.lower.retval import REPORTS_PER_COPY, return_value_looks_unset
from p4sim.compiler.lower.stack_index import has_call
from p4sim.compiler.lower.storage import (
    DynHeaderRef, DynUnionRef, FieldRef, HeaderRef, StackRef, UnionRef)
from p4sim.compiler.lower.values import Val, const_val
from p4sim.compiler.semantic.calls import callable_binding
from p4sim.compiler.semantic.scope import ConstBinding, DeclBinding, Scope, resolve_type
from p4sim.compiler.semantic.types import BoolT, ExternT, HeaderT, IntT, StructT, TupleT, VoidT

if TYPE_CHECKING:  # statements imports this module
    from p4sim.compiler.lower.statements import StatementLowerer


def _owner(ex: ExprLowerer, span: SourceSpan) -> StatementLowerer:
    owner = getattr(ex, "owner", None)
    if owner is None:
        raise CompileError(span, "a method call is not allowed in this expression")
    return owner


def call_expression(call: ast.MethodCall, ex: ExprLowerer) -> Val:
    """A call whose value is used (isValid, lookahead, functions returning a value)."""
    target = call.target
    if isinstance(target, ast.Member):
        base = ex.lower(target.expr)
        name = target.member
        ref = base.ref
        if name == "isValid" and isinstance(ref, HeaderRef):
            _no_args(call, "isValid")
            return Val(BoolT(), J.op("d2b", None, ref.valid().json()))
        if name == "isValid" and isinstance(ref, DynHeaderRef):
            _no_args(call, "isValid")
            return Val(BoolT(), J.op("valid", None, ref.json()))
        if name == "isValid" and isinstance(ref, (UnionRef, DynUnionRef)):
            _no_args(call, "isValid")
            return Val(BoolT(), J.op("valid_union", None, ref.json()))
        if name in ("minSizeInBits", "minSizeInBytes") and \
                isinstance(ref, (HeaderRef, DynHeaderRef)):
            _no_args(call, name)
            return _min_size(ref.type.width, name)
        if isinstance(ref, PacketRef) and name == "lookahead":
            return v1model.lookahead(call, _owner(ex, call.span))
        if isinstance(ref, TableObj) and name == "apply":
            raise CompileError(call.span, "a table can only be applied in a control's "
                               "apply block")
        if isinstance(ref, ExternObj) and ref.kind == "Checksum16":
            raise CompileError(call.span, "Checksum16 (deprecated) is not supported by "
                               "this target: use verify_checksum / update_checksum")
        if isinstance(ref, ExternObj) and _returns_value(ref, name):
            raise CompileError(call.span, f"the value returned by '{ref.kind}.{name}()' "
                               "cannot be used on this target: BMv2 primitives return "
                               "nothing (pass an out parameter instead)")
    owner = _owner(ex, call.span)
    result = call_statement(call, owner)
    if result is None:
        raise CompileError(call.span, "this call returns no value")
    return result


def _returns_value(obj: ExternObj, name: str) -> bool:
    """Whether the program's own extern type declares ``name`` with a non-void result
    (of v1model's, only the deprecated Checksum16.get returns a value)."""
    decl = obj.info.get("extern_decl")
    methods = [m for m in getattr(decl, "methods", ()) if m.name == name]
    return bool(methods) and all(m.return_type is not None and
                                 not isinstance(m.return_type, ast.VoidType)
                                 for m in methods)


def call_statement(call: ast.MethodCall, body: StatementLowerer) -> Val | None:
    """A call as a statement; its value, for the calls that have one."""
    target = call.target
    if isinstance(target, ast.Member):
        base = body.expr.lower(target.expr)
        return _method(call, base, target.member, body)
    if isinstance(target, ast.Name):
        binding = body.scope.root().lookup(target.name) if target.top_level else \
            body.scope.lookup(target.name)
        if binding is None:
            raise CompileError(target.span, f"undeclared name '{target.name}'")
        binding = callable_binding(binding, body.scope, target.name, call.args)
        if isinstance(binding, DeclBinding):
            decl = binding.decl
            if isinstance(decl, ast.ActionDecl):
                inline_action(decl, binding.scope, call.args, body, call.span)
                return None
            if isinstance(decl, tuple):
                chosen = pick_overload(decl, call.args, f"'{target.name}'", call.span)
                if isinstance(chosen, ast.FunctionDecl):
                    return inline_function(chosen, binding.scope, call, body)
                body.lw.cp.calls_extern_functions = True
                return v1model.extern_function(chosen, call, body)
        raise CompileError(target.span, f"'{target.name}' cannot be called")
    raise CompileError(call.span, "unsupported call")


def _min_size(fixed_bits: int, name: str) -> Val:
    """minSizeInBits()/minSizeInBytes(): a compile-time int; varbit fields count as 0
    bits (P4_16 spec, "minSizeInBits")."""
    return const_val(fixed_bits if name == "minSizeInBits" else (fixed_bits + 7) // 8, IntT())


def _no_args(call: ast.MethodCall, name: str) -> None:
    if call.args:
        raise CompileError(call.span, f"wrong number of arguments: {name}() expects 0, "
                           f"got {len(call.args)}")


def _method(call: ast.MethodCall, base: Val, name: str, body: StatementLowerer) -> Val | None:
    ref = base.ref
    if isinstance(ref, (HeaderRef, DynHeaderRef)):
        if name in ("setValid", "setInvalid"):
            _no_args(call, name)
            if base.readonly:
                raise CompileError(call.span, f"cannot call {name}() here: {base.readonly}")
            op = "add_header" if name == "setValid" else "remove_header"
            body.emit(op, [J.as_param(ref.json())], call)
            return None
        if name == "isValid":
            return call_expression(call, body.expr)
        raise CompileError(call.span, f"headers have no method '{name}'")
    if isinstance(ref, (UnionRef, DynUnionRef)) and name == "isValid":
        return call_expression(call, body.expr)
    if isinstance(ref, StackRef):
        if name in ("push_front", "pop_front"):
            if len(call.args) != 1:
                raise CompileError(call.span, f"wrong number of arguments: {name} expects "
                                   f"1, got {len(call.args)}")
            body.expr.const_int(call.args[0].value)  # must be a constant
            op = "push" if name == "push_front" else "pop"
            amount = body.expr.lower(call.args[0].value)
            body.emit(op, [ref.json(), amount.data(call.span)], call)
            return None
        raise CompileError(call.span, f"header stacks have no method '{name}'")
    if isinstance(ref, PacketRef):
        v1model.packet_method(call, ref, name, body)
        return None
    if isinstance(ref, ExternObj):
        return v1model.extern_method(call, ref, name, body)
    if isinstance(ref, (TableObj, ControlInstance)):
        raise CompileError(call.span, f"'{name}' of a table or control can only be called "
                           "in a control's apply block")
    raise CompileError(call.span, f"unknown method '{name}'")


# ---------------------------------------------------------------------- inlining
def bind_parameters(params: tuple[ast.Parameter, ...], args: list[ast.Expression | None],
                    caller: StatementLowerer, scope: Scope, what: str,
                    copy_out: list[tuple[Any, Val]] | None = None,
                    generic: bool = False) -> None:
    """Bind callee parameters to caller arguments in ``scope`` (copy-in by reference
    for lvalues, by value otherwise). With ``copy_out``, an lvalue passed to two
    out/inout parameters gets a temporary per parameter instead, as P4's copy-in /
    copy-out requires; the caller stores each (temporary, argument) pair back, in
    parameter order, after the body. ``generic``: parameter types are resolved in
    ``scope``, where the callee's type parameters are bound."""
    aliased = _aliased_lvalues(params, args, caller) if copy_out is not None else set()
    for index, (p, arg) in enumerate(zip(params, args)):
        ptype = None if _is_type_var(p.type, scope) else \
            resolve_type(p.type, scope, caller.expr.const_eval) if generic else \
            caller.expr.resolve(p.type)
        if arg is None:
            continue
        if isinstance(ptype, ExternT):  # packet_in / packet_out and extern objects
            scope.declare(p.name, caller.expr.lower(arg).ref)
            continue
        if isinstance(arg, ast.DontCare):
            if p.direction not in ("out", "inout"):
                raise CompileError(arg.span, "'_' can only be passed to an out parameter")
            ref = caller.lw.layout.storage(p.name, ptype, p.name) if ptype else None
            scope.declare(p.name, ref)
            continue
        if p.direction in ("out", "inout"):
            val = caller.expr.lower(arg)
            caller.check_writable(val, arg)
            if index in aliased and ptype is not None and copy_out is not None:
                temp = caller.lw.layout.storage(p.name, ptype, p.name)
                if p.direction == "inout":
                    caller.store(temp, val, arg.span)
                scope.declare(p.name, temp)
                copy_out.append((temp, val))
                continue
            if ptype is not None and val.type != ptype and not isinstance(
                    val.ref, tuple):
                raise CompileError(arg.span, f"argument for '{p.name}' of {what} has type "
                                   f"{val.type.describe() if val.type else '?'}, expected "
                                   f"{ptype.describe()}")
            scope.declare(p.name, val.ref if not isinstance(val.ref, tuple) else val)
        else:
            why = f"'{p.name}' is an in parameter" if p.direction else \
                f"'{p.name}' is a directionless parameter (read-only)"
            val = caller.expr.lower_typed(arg, ptype) if ptype is not None else \
                caller.expr.lower(arg)
            if isinstance(ptype, (StructT, HeaderT, TupleT)) and isinstance(val.ref, tuple) and \
                    val.ref and val.ref[0] in ("list", "struct"):
                # an aggregate built in place ({...}): copy it in, so that its members
                # read like any other struct's or header's
                copy = caller.lw.layout.storage(p.name, ptype, p.name)
                caller.store(copy, val, arg.span)
                scope.declare(p.name, ReadOnly(copy, why))
                continue
            if val.is_const:
                assert val.type is not None  # constants are always typed (const_val)
                scope.declare(p.name, ConstBinding(val.const, val.type))
            elif val.ref is not None and not isinstance(val.ref, tuple):
                scope.declare(p.name, ReadOnly(val.ref, why))
            else:
                scope.declare(p.name, ReadOnly(val, why))


def _aliased_lvalues(params: tuple[ast.Parameter, ...], args: list[ast.Expression | None],
                     caller: StatementLowerer) -> set[int]:
    """Indexes of out/inout arguments naming the same storage as another one."""
    seen: dict[Any, list[int]] = {}
    for index, (p, arg) in enumerate(zip(params, args)):
        if p.direction not in ("out", "inout") or arg is None or \
                isinstance(arg, ast.DontCare) or has_call(arg):
            continue
        try:
            ref = caller.expr.lower(arg).ref
        except CompileError:
            continue   # reported when the argument is bound
        if isinstance(ref, (FieldRef, HeaderRef)):
            seen.setdefault(ref, []).append(index)
    return {i for indexes in seen.values() if len(indexes) > 1 for i in indexes}


def _copy_back(body: StatementLowerer, copy_out: list[tuple[Any, Val]], span: SourceSpan
               ) -> None:
    for temp, target in copy_out:
        body.store_val(target, body.expr.from_binding(temp, span), span)


def _is_type_var(t: ast.Type, scope: Scope) -> bool:
    return isinstance(t, ast.NamedType) and scope.lookup(t.name) is None


def inline_action(decl: ast.ActionDecl, decl_scope: Scope, args: tuple[ast.Argument, ...],
                  body: StatementLowerer, span: SourceSpan) -> None:
    bound = bind_arguments(decl.params, args, f"action '{decl.name}'", span)
    scope = decl_scope.child()
    copy_out: list[tuple[Any, Val]] = []
    bind_parameters(decl.params, bound, body, scope, f"action '{decl.name}'", copy_out)
    inner = body.with_scope(scope)
    declare_called_action(body.lw, decl, decl_scope)
    body.lw.action_depth += 1
    try:
        inner.callable_body(decl.body.statements)
    finally:
        body.lw.action_depth -= 1
    _copy_back(body, copy_out, span)


def inline_function(decl: ast.FunctionDecl, decl_scope: Scope, call: ast.MethodCall,
                    body: StatementLowerer) -> Val | None:
    bound = bind_arguments(decl.params, call.args, f"function '{decl.name}'", call.span)
    scope = decl_scope.child()
    generic = bool(decl.type_params)
    if generic:
        bind_type_arguments(decl, call, bound, body, scope)
    copy_out: list[tuple[Any, Val]] = []
    bind_parameters(decl.params, bound, body, scope, f"function '{decl.name}'", copy_out,
                    generic)
    rtype = resolve_type(decl.return_type, scope, body.expr.const_eval) if generic else \
        body.expr.resolve(decl.return_type)
    dest = None
    if not isinstance(rtype, VoidT):
        dest = body.lw.layout.storage("retval", rtype, "retval")
        if return_value_looks_unset(decl):
            for _ in range(REPORTS_PER_COPY):  # as often as p4c reports it
                body.lw.warn(call.span, f"return value of function '{decl.name}' may be "
                             "uninitialized: an early 'return' is not on every path")
    inner = body.with_scope(scope)
    inner.callable_body(decl.body.statements, (rtype, dest) if dest is not None else None)
    _copy_back(body, copy_out, call.span)
    if dest is None:
        return None
    return body.expr.from_binding(dest, call.span)
