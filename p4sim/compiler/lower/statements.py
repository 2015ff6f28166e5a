"""Statement lowering into a flat list of BMv2 primitives (action bodies, parser
states, and the straight-line parts of control apply blocks).

Calls to actions and functions are inlined by binding their parameters in a child
scope; ``if`` inside an action becomes ``_jump_if_zero``/``_jump`` primitives.
"""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.lower import calls
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.lower.context import Lowering
from p4sim.compiler.lower.expressions import ExprLowerer
from p4sim.compiler.lower.stack_index import expand_dynamic_index
from p4sim.compiler.lower.storage import (
    DynFieldRef, DynHeaderRef, FieldRef, HeaderRef, ParamRef, StackRef, StructRef, UnionRef)
from p4sim.compiler.lower.text import expr_text, source_info
from p4sim.compiler.lower.values import Val
from p4sim.compiler.semantic.scope import Scope, declare_constant
from p4sim.compiler.semantic.types import (
    BitsT, BoolT, EnumT, ErrorT, HeaderT, IntT, P4Type, StackT, StructT, UnionT, VarbitT)


class StatementLowerer:
    """Turns statements into primitives appended to ``self.out``.

    ``mode`` is ``action`` (an action or synthetic action body) or ``parser`` (a
    parse state, where calls like ``extract`` are allowed)."""

    def __init__(self, lowering: Lowering, scope: Scope, mode: str = "action"):
        self.lw = lowering
        self.scope = scope
        self.mode = mode
        self.out: list[dict] = []
        self.expr = ExprLowerer(scope, calls.call_expression)
        self.expr.owner = self  # type: ignore[attr-defined]
        self.return_jumps: list[list[int]] = []
        self.return_targets: list[Any] = []
        # per enclosing 'for' loop: indexes of its 'break' and 'continue' jumps
        self.loop_jumps: list[tuple[list[int], list[int]]] = []

    # ------------------------------------------------------------------ helpers
    def emit(self, op: str, params: list[dict], node: ast.Node | None = None) -> None:
        self.out.append(J.primitive(op, params, source_info(node) if node else None))

    def with_scope(self, scope: Scope) -> "StatementLowerer":
        """A lowerer writing into the same primitive list but resolving names in
        ``scope`` (used for inlined actions and functions)."""
        child = StatementLowerer.__new__(StatementLowerer)
        child.lw, child.scope, child.mode, child.out = self.lw, scope, self.mode, self.out
        child.expr = ExprLowerer(scope, calls.call_expression)
        child.expr.owner = child  # type: ignore[attr-defined]
        child.return_jumps = self.return_jumps
        child.return_targets = self.return_targets
        child.loop_jumps = getattr(self, "loop_jumps", [])
        return child

    # ------------------------------------------------------------------ statements
    def statements(self, stmts: tuple[ast.Statement, ...] | list[ast.Statement]) -> None:
        for s in stmts:
            self.statement(s)
            if isinstance(s, (ast.ExitStatement, ast.ReturnStatement)):
                break

    def statement(self, s: ast.Statement) -> None:
        if self.mode != "parser" and isinstance(s, (ast.Assignment, ast.MethodCallStatement)):
            expanded = expand_dynamic_index(s, self.expr.lower)
            if expanded is not None:
                self.statement(expanded)
                return
        if isinstance(s, ast.Assignment):
            self.assignment(s)
        elif isinstance(s, ast.MethodCallStatement):
            calls.call_statement(s.call, self)
        elif isinstance(s, ast.BlockStatement):
            inner = self.with_scope(self.scope.child())
            inner.statements(s.statements)
        elif isinstance(s, ast.EmptyStatement):
            pass
        elif isinstance(s, ast.DeclarationStatement):
            self.declaration(s.decl)
        elif isinstance(s, ast.IfStatement):
            self.if_statement(s)
        elif isinstance(s, ast.ExitStatement):
            if self.mode == "parser":
                raise CompileError(s.span, "'exit' is not allowed in a parser")
            self.emit("exit", [], s)
        elif isinstance(s, ast.ReturnStatement):
            self.return_statement(s)
        elif isinstance(s, ast.ForStatement):
            self.for_statement(s)
        elif isinstance(s, (ast.BreakStatement, ast.ContinueStatement)):
            word = "break" if isinstance(s, ast.BreakStatement) else "continue"
            if not self.loop_jumps:
                raise CompileError(s.span, f"'{word}' outside of a 'for' loop")
            self.loop_jumps[-1][0 if word == "break" else 1].append(len(self.out))
            self.emit("_jump", [J.hexstr(0, 32)], s)
        elif isinstance(s, ast.SwitchStatement):
            # the mid end has made value switches if statements (midend/value_switch.py)
            if self.mode == "parser":
                raise CompileError(s.span, "switch statements are not allowed in parser "
                                   "states")
            raise CompileError(s.span, "switch on action_run is only allowed in a "
                               "control's apply block")
        else:
            raise CompileError(s.span, f"unsupported statement ({type(s).__name__})")

    def declaration(self, decl: ast.Declaration) -> None:
        if isinstance(decl, ast.ConstantDecl):
            declare_constant(decl, self.scope, self.expr.const_eval)
            return
        if not isinstance(decl, ast.VariableDecl):
            raise CompileError(decl.span, f"unsupported local declaration "
                               f"({type(decl).__name__})")
        declare_variable(self, decl)

    def callable_body(self, stmts: tuple[ast.Statement, ...],
                      return_target: tuple[P4Type, Any] | None = None) -> None:
        """Lower an action or function body inline; its ``return``s store the value in
        ``return_target`` (type, storage) and jump to the first primitive after it."""
        self.return_jumps.append([])
        self.return_targets.append(return_target)
        self.statements(stmts)
        jumps = self.return_jumps.pop()
        self.return_targets.pop()
        if jumps and jumps[-1] == len(self.out) - 1 and self.out[-1]["op"] == "_jump":
            self.out.pop()  # a trailing return jumps nowhere
            jumps = jumps[:-1]
        end = len(self.out)
        for index in jumps:
            self.out[index]["parameters"][0] = J.hexstr(end, 32)

    def return_statement(self, s: ast.ReturnStatement) -> None:
        if not self.return_jumps:
            raise CompileError(s.span, "'return' is not allowed here")
        target = self.return_targets[-1]
        if s.value is not None:
            if target is None:
                raise CompileError(s.span, "this action or function returns no value")
            rtype, dest = target
            value = self.expr.lower_typed(s.value, rtype)
            self.store(dest, value, s.value.span)
        elif target is not None:
            raise CompileError(s.span, "return needs a value here")
        self.return_jumps[-1].append(len(self.out))
        self.emit("_jump", [J.hexstr(0, 32)])

    def for_statement(self, s: ast.ForStatement) -> None:
        """``for (init; cond; updates) body`` as BMv2 jumps: the condition is tested at
        the top (``_jump_if_zero`` to the end), ``continue`` jumps to the updates, the
        updates jump back to the test, ``break`` jumps to the end."""
        if self.mode == "parser":
            raise CompileError(s.span, "'for' loops in parser states are not supported "
                               "by this target")
        inner = self.with_scope(self.scope.child())  # the loop variables' scope
        inner.statements(s.init)
        top = len(self.out)
        exit_jump = None
        if s.cond is not None:
            cond = inner.expr.lower(s.cond)
            if not isinstance(cond.type, BoolT):
                raise CompileError(s.cond.span, "the condition of 'for' must be bool, not "
                                   f"{cond.type.describe() if cond.type else 'this'}")
            if cond.is_const and not cond.const:
                return
            if not cond.is_const:
                exit_jump = len(self.out)
                self.emit("_jump_if_zero", [J.as_param(J.op("b2d", None, cond.cond(s.span))),
                                            J.hexstr(0, 32)], s)
        breaks: list[int] = []
        continues: list[int] = []
        inner.loop_jumps.append((breaks, continues))
        try:
            inner.with_scope(inner.scope.child()).statement(s.body)
        finally:
            inner.loop_jumps.pop()
        update_at = len(self.out)
        inner.statements(s.updates)
        self.emit("_jump", [J.hexstr(top, 32)], s)
        end = len(self.out)
        if exit_jump is not None:
            self.out[exit_jump]["parameters"][1] = J.hexstr(end, 32)
        for index in breaks:
            self.out[index]["parameters"][0] = J.hexstr(end, 32)
        for index in continues:
            self.out[index]["parameters"][0] = J.hexstr(update_at, 32)

    def if_statement(self, s: ast.IfStatement) -> None:
        cond = self.expr.lower(s.cond)
        if not isinstance(cond.type, BoolT):
            raise CompileError(s.cond.span, "the condition of 'if' must be bool, not "
                               f"{cond.type.describe() if cond.type else 'this'}")
        if cond.is_const:
            branch = s.then if cond.const else s.otherwise
            if branch is not None:
                self.statement(branch)
            return
        if self.mode == "parser":
            raise CompileError(s.span, "'if' statements in parser states are not supported "
                               "by this target; use select")
        jump_at = len(self.out)
        self.emit("_jump_if_zero", [J.as_param(J.op("b2d", None, cond.cond(s.span))),
                                    J.hexstr(0, 32)], s)
        self.statement(s.then)
        if s.otherwise is not None:
            skip_at = len(self.out)
            self.emit("_jump", [J.hexstr(0, 32)])
            self.out[jump_at]["parameters"][1] = J.hexstr(len(self.out), 32)
            self.statement(s.otherwise)
            self.out[skip_at]["parameters"][0] = J.hexstr(len(self.out), 32)
        else:
            self.out[jump_at]["parameters"][1] = J.hexstr(len(self.out), 32)

    # ------------------------------------------------------------------ assignment
    def assignment(self, s: ast.Assignment) -> None:
        if isinstance(s.left, ast.DontCare):
            self.expr.lower(s.right)
            return
        target = self.expr.lower(s.left)
        self.check_writable(target, s.left)
        value = self.value_for(target, s.right)
        self.store_val(target, value, s.span, s)

    def check_writable(self, target: Val, node: ast.Expression) -> None:
        if target.readonly:
            raise CompileError(node.span, f"cannot assign to '{expr_text(node)}': "
                               f"{target.readonly}")
        if target.is_const or target.ref is None or isinstance(target.ref, ParamRef):
            what = "a constant" if target.is_const else \
                "an action parameter (directionless parameters are read-only)" \
                if isinstance(target.ref, ParamRef) else "not an lvalue"
            raise CompileError(node.span, f"cannot assign to '{expr_text(node)}': {what}")

    def value_for(self, target: Val, e: ast.Expression) -> Val:
        t = target.type
        if isinstance(target.ref, tuple) and target.ref and target.ref[0] == "slice":
            return self.expr.lower_typed(e, t)  # type: ignore[arg-type]
        if t is None:
            raise CompileError(e.span, "cannot assign to this expression")
        return self.expr.lower_typed(e, t)

    def store_val(self, target: Val, value: Val, span: SourceSpan, node: ast.Node | None
                  = None) -> None:
        ref = target.ref
        if isinstance(ref, tuple) and ref and ref[0] == "slice":
            _, base, hi, lo = ref
            self.store_slice(base, hi, lo, value, span, node)
            return
        self.store(ref, value, span, node)

    def store(self, ref: Any, value: Val, span: SourceSpan, node: ast.Node | None = None
              ) -> None:
        """Assign ``value`` to the storage ``ref`` (recursively for aggregates)."""
        if isinstance(ref, FieldRef) and isinstance(ref.type, VarbitT) and \
                isinstance(value.ref, FieldRef) and isinstance(value.ref.type, VarbitT):
            # varbit data moves with its current length (BMv2's assign_VL)
            self.emit("assign_VL", [J.as_param(ref.json()), J.as_param(value.ref.json())], node)
            return
        if isinstance(ref, (FieldRef, DynFieldRef)):
            if value.type is not None and isinstance(ref.type, (BitsT, EnumT, ErrorT)) and \
                    not isinstance(value.type, (BitsT, IntT, EnumT, ErrorT)):
                raise CompileError(span, f"cannot assign {value.type.describe()} to "
                                   f"{ref.type.describe()}")
            data = value.data(span, _width(ref.type))
            self.emit("assign", [J.as_param(ref.json()), J.as_param(data)], node)
            return
        if isinstance(ref, (HeaderRef, DynHeaderRef, UnionRef)) and \
                isinstance(value.ref, tuple) and value.ref[0] == "invalid":
            self._invalidate(ref, node)
            return
        if isinstance(ref, (HeaderRef, DynHeaderRef)):
            if isinstance(value.ref, (HeaderRef, DynHeaderRef)):
                self.emit("assign_header", [J.as_param(ref.json()),
                                            J.as_param(value.ref.json())], node)
                return
            if isinstance(value.ref, tuple) and value.ref[0] in ("list", "struct"):
                self.emit("add_header", [J.as_param(ref.json())], node)
                self.store_fields(ref, ref.type, value, span, node)
                return
            if value.ref is None and value.json is None:
                raise CompileError(span, "cannot assign this value to a header")
        if isinstance(ref, StackRef) and isinstance(value.ref, StackRef):
            self.emit("assign_header_stack", [ref.json(), value.ref.json()], node)
            return
        if isinstance(ref, UnionRef) and isinstance(value.ref, UnionRef):
            self.emit("assign_union", [ref.json(), value.ref.json()], node)
            return
        if isinstance(ref, StructRef):
            if isinstance(value.ref, StructRef):
                for name, member in ref.members:
                    src = value.ref.member(name)
                    self.store(member, self.expr.from_binding(src, span), span, node)
                return
            if isinstance(value.ref, tuple) and value.ref[0] in ("list", "struct"):
                self.store_fields(ref, ref.type, value, span, node)
                return
        raise CompileError(span, "cannot assign this value here (type mismatch)")

    def _invalidate(self, ref: Any, node: ast.Node | None) -> None:
        """``h = {#}``: the header (each member of a union) becomes invalid."""
        if isinstance(ref, UnionRef):
            for _, member in ref.members:
                self.emit("remove_header", [J.as_param(member.json())], node)
            return
        self.emit("remove_header", [J.as_param(ref.json())], node)

    def store_fields(self, ref: Any, t: Any, value: Val, span: SourceSpan,
                     node: ast.Node | None) -> None:
        kind, items, src = value.ref
        fields = t.fields
        if kind == "list":
            if len(items) != len(fields):
                raise CompileError(span, f"'{t.name}' has {len(fields)} fields but the "
                                   f"initializer has {len(items)}")
            pairs = [(f.name, v, e) for f, v, e in zip(fields, items, src.elements)]
        else:
            names = {f.name for f in fields}
            for name, _ in items:
                if name not in names:
                    raise CompileError(span, f"'{t.name}' has no field '{name}'")
            pairs = [(name, v, None) for name, v in items]
        for name, v, _ in pairs:
            member = ref.member(name) if isinstance(ref, StructRef) else ref.field(name)
            mtype = t.field_type(name)
            v = self.expr.convert(v, mtype, span) if not isinstance(
                mtype, (StructT, HeaderT, StackT, UnionT)) else v
            self.store(member, v, span, node)

    def store_slice(self, base: Any, hi: int, lo: int, value: Val, span: SourceSpan,
                    node: ast.Node | None) -> None:
        if not isinstance(base, (FieldRef, DynFieldRef)) or not isinstance(base.type, BitsT):
            raise CompileError(span, "only slices of fields can be assigned")
        width = base.type.width
        field_mask = ((1 << (hi - lo + 1)) - 1) << lo
        keep = J.op("&", base.json(), J.hexstr(((1 << width) - 1) ^ field_mask, width))
        data = value.data(span, hi - lo + 1)
        shifted = J.op("<<", data, J.hexstr(lo, 32)) if lo else data
        new = J.op("|", keep, J.op("&", shifted, J.hexstr(field_mask, width)))
        self.emit("assign", [J.as_param(base.json()), J.as_param(new)], node)


def _width(t: P4Type) -> int | None:
    if isinstance(t, BitsT):
        return t.width
    if isinstance(t, EnumT):
        return t.underlying.width if t.underlying else 32
    if isinstance(t, ErrorT):
        return None
    return None


def declare_variable(body: StatementLowerer, decl: ast.VariableDecl) -> None:
    """Allocate storage for a local variable and run its initializer."""
    t = body.expr.resolve(decl.type)
    if isinstance(t, IntT):
        raise CompileError(decl.span, f"local variables of type {t.describe()} are not "
                           "supported")
    ref = body.lw.layout.variable(decl.name, t, decl.span)
    body.scope.declare(decl.name, ref)
    if decl.init is not None:
        value = body.expr.lower_typed(decl.init, t)
        body.store(ref, value, decl.init.span, decl)
    elif isinstance(ref, HeaderRef):
        body.emit("remove_header", [ref.json()], decl)
