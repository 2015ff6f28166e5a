"""Control apply blocks to the BMv2 control-flow graph of tables and conditionals.

Statements are lowered front to back into fragments: an entry node plus dangling
exits (``next`` pointers still to be set). Straight-line statements become a
synthetic action in a keyless table ``tbl_<action>``; ``if`` becomes a conditional
``node_N``; ``switch`` on ``action_run`` uses the table's per-action next pointers;
nested control instances are inlined with their parameters bound to the arguments.
The mid end (midend/) has already made value switches ``if`` statements, computed
the expressions that apply tables into temporaries and given directly applied
control types an instance.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.lower import ir
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.lower.calls import bind_parameters, call_expression
from p4sim.compiler.lower.arguments import bind_arguments
from p4sim.compiler.lower.aggregate_ternary import NeedsStatements
from p4sim.compiler.lower.context import ControlInstance, Lowering, TableObj
from p4sim.compiler.lower.expressions import ExprLowerer
from p4sim.compiler.lower.instances import instantiate
from p4sim.compiler.lower.naming import duplicate_name, qualified
from p4sim.compiler.lower.statements import StatementLowerer
from p4sim.compiler.lower.action_declarations import action_name, declare_called_action
from p4sim.compiler.lower.tables import TableLowering, lower_action
from p4sim.compiler.lower.text import expr_text, source_info
from p4sim.compiler.semantic.scope import (
    ConstBinding, DeclBinding, Scope, declare_constant)
from p4sim.compiler.semantic.types import BoolT, bit_width

Exit = Callable[[str | None], None]


@dataclass
class Fragment:
    """``entry`` node plus dangling ``exits``. ``is_return`` marks a fragment that
    jumps straight to the end of the enclosing control (a bare ``return``)."""

    entry: str | None = None
    exits: list[Exit] = field(default_factory=list)
    empty: bool = True
    is_return: bool = False


RETURN = Fragment(None, [], False, True)


def link(setter: Exit, frag: Fragment, returns: list[Exit], exits: list[Exit]) -> None:
    """Point ``setter`` at ``frag``; dangling if it is empty, deferred if it returns."""
    if frag.empty:
        exits.append(setter)
    elif frag.is_return:
        returns.append(setter)
    else:
        setter(frag.entry)
        exits.extend(frag.exits)


def _set_table_next(table: ir.TableIR, key: str) -> Exit:
    def setter(target: str | None) -> None:
        table.next_tables[key] = target
    return setter


def _set_attr(obj: Any, attr: str) -> Exit:
    def setter(target: str | None) -> None:
        setattr(obj, attr, target)
    return setter


def enter_control(lw: Lowering, decl: ast.ControlDecl, decl_scope: Scope, prefix: str,
                  bindings: dict[str, Any], ctor_args: tuple | None = (),
                  args_scope: Scope | None = None) -> tuple[Scope, list]:
    """A scope with the control's parameters and locals bound; returns it and the
    statements that initialize local variables. Constructor arguments are evaluated
    in ``args_scope`` (the instantiating scope) when given."""
    scope = decl_scope.child(prefix, bindings)
    if decl.constructor_params and ctor_args is not None:
        args = bind_arguments(decl.constructor_params, ctor_args, f"control '{decl.name}'",
                              decl.span)
        ex = ExprLowerer(args_scope or decl_scope)
        for p, a in zip(decl.constructor_params, args):
            if a is None:  # an omitted @optional parameter: a constructor needs them all
                raise CompileError(decl.span, f"control '{decl.name}': missing constructor "
                                   f"argument '{p.name}'")
            passed = _control_argument(a, args_scope)
            if passed is not None:
                # a control instance given to a parameter of a control type
                scope.declare(p.name, passed)
                continue
            val = ex.lower_typed(a, ex.resolve(p.type))
            assert val.type is not None  # lower_typed gives a value of the parameter's type
            scope.declare(p.name, ConstBinding(val.const, val.type))
    prelude: list[ast.Statement] = []
    for local in decl.locals:
        declare_local(lw, local, scope, prefix, prelude)
    return scope, prelude


def declare_local(lw: Lowering, local: ast.Node, scope: Scope, prefix: str,
                  prelude: list[ast.Statement]) -> None:
    if isinstance(local, ast.ConstantDecl):
        declare_constant(local, scope, ExprLowerer(scope).const_eval)
    elif isinstance(local, ast.VariableDecl):
        t = ExprLowerer(scope).resolve(local.type)
        scope.declare(local.name, lw.layout.variable(local.name, t, local.span))
        if local.init is not None:
            prelude.append(ast.Assignment(ast.Name(local.name, span=local.span), local.init,
                                          span=local.span))
    elif isinstance(local, ast.ActionDecl):
        scope.declare(local.name, DeclBinding(local, scope))
    elif isinstance(local, ast.TableDecl):
        name = qualified(prefix, local.name, local.annotations)
        obj = lw.tables_by_name.get(name)
        if obj is not None and obj.decl is not local:
            raise duplicate_name(name, "table", local.span, obj.decl.span)
        if obj is None:
            obj = lw.tables_by_name[name] = TableObj(name, local, scope)
        scope.declare(local.name, obj)
    elif isinstance(local, ast.Instantiation):
        name = qualified(prefix, local.name, local.annotations)
        known = lw.instances_by_name.get(name)
        if known is not None and known[0] is not local:
            kind = local.type.name if isinstance(local.type, ast.NamedType) else "instance"
            raise duplicate_name(name, kind, local.span, known[0].span)
        if known is None:
            known = lw.instances_by_name[name] = (local, instantiate(lw, local, scope, prefix))
        scope.declare(local.name, known[1])
    elif isinstance(local, (ast.FunctionDecl,)):
        scope.declare(local.name, DeclBinding((local,), scope))
    else:
        raise CompileError(local.span, f"unsupported declaration in a control "
                           f"({type(local).__name__})")


class ControlGraph:
    """Builds one pipeline's graph from a top-level control."""

    def __init__(self, lw: Lowering, pipeline: ir.PipelineIR):
        self.lw = lw
        self.pipeline = pipeline
        self.table_objs: dict[str, TableObj] = {}
        self.control_decl: ast.ControlDecl | None = None  # the pipeline's top control
        self.plain_applied: set[str] = set()  # tables applied as a plain statement
        self.next_chosen: dict[str, dict[str | None, str | None]] = {}
        self.last_apply: dict[str, SourceSpan] = {}  # where each table was last applied

    # ------------------------------------------------------------------ top level
    def lower_control(self, decl: ast.ControlDecl, decl_scope: Scope, prefix: str,
                      bindings: dict[str, Any]) -> None:
        self.control_decl = decl
        scope, prelude = enter_control(self.lw, decl, decl_scope, prefix, bindings, None)
        assert decl.apply is not None
        returns: list[Exit] = []
        frag = self.block(list(prelude) + list(decl.apply.statements), scope, returns)
        for e in frag.exits + returns:
            e(None)
        self.pipeline.init_table = frag.entry
        self.pipeline.tables.sort(key=lambda t: t.id)

    # ------------------------------------------------------------------ sequencing
    @staticmethod
    def concat(first: Fragment, second: Fragment, returns: list[Exit]) -> Fragment:
        if first.empty:
            return second
        if first.is_return or second.empty:
            return first
        if second.is_return:
            returns.extend(first.exits)
            return Fragment(first.entry, [], False)
        for e in first.exits:
            e(second.entry)
        return Fragment(first.entry, second.exits, False)

    def block(self, stmts: list[ast.Statement], scope: Scope, returns: list[Exit]
              ) -> Fragment:
        scope = scope.child()
        result = Fragment()
        run: list[ast.Statement] = []
        for index, s in enumerate(stmts):
            if isinstance(s, ast.DeclarationStatement):
                declared = self._declare(s, scope)
                if declared is None:
                    continue
                s = declared
            if self._is_simple(s, scope):
                run.append(s)
                if isinstance(s, ast.ExitStatement):
                    self._declare_unreached_calls(stmts[index + 1:], scope)
                    break
                continue
            if run:
                result = self.concat(result, self.simple_run(run, scope), returns)
                run = []
            if isinstance(s, ast.ReturnStatement):
                if s.value is not None:
                    raise CompileError(s.span, "a control cannot return a value")
                self._declare_unreached_calls(stmts[index + 1:], scope)
                return self.concat(result, RETURN, returns)
            result = self.concat(result, self.statement(s, scope, returns), returns)
            if result.is_return:
                self._declare_unreached_calls(stmts[index + 1:], scope)
                return result
        if run:
            frag = self.simple_run(run, scope)
            if isinstance(run[-1], ast.ExitStatement):
                for e in frag.exits:
                    e(None)
                frag = Fragment(frag.entry, [], frag.empty)
            result = self.concat(result, frag, returns)
        return result

    def _declare_unreached_calls(self, stmts: list[ast.Statement], scope: Scope) -> None:
        """Actions called only after an ``exit`` or ``return`` never run, but p4c's P4Info
        still lists them as directly called (its sample global_action_after_exit.p4)."""
        for stmt in stmts:
            for n in ast.walk(stmt):
                if isinstance(n, ast.MethodCall) and isinstance(n.target, ast.Name):
                    binding = scope.lookup(n.target.name)
                    if isinstance(binding, DeclBinding) and \
                            isinstance(binding.decl, ast.ActionDecl):
                        declare_called_action(self.lw, binding.decl, binding.scope)

    def _declare(self, s: ast.DeclarationStatement, scope: Scope) -> ast.Statement | None:
        decl = s.decl
        if isinstance(decl, ast.ConstantDecl):
            declare_constant(decl, scope, ExprLowerer(scope).const_eval)
            return None
        if isinstance(decl, ast.VariableDecl):
            t = ExprLowerer(scope).resolve(decl.type)
            scope.declare(decl.name, self.lw.layout.variable(decl.name, t, decl.span))
            if decl.init is None:
                return None
            return ast.Assignment(ast.Name(decl.name, span=decl.span), decl.init,
                                  span=decl.span)
        raise CompileError(decl.span, "unsupported local declaration")

    def _is_simple(self, s: ast.Statement, scope: Scope) -> bool:
        if isinstance(s, (ast.Assignment, ast.EmptyStatement, ast.ExitStatement,
                          ast.ForStatement)):
            return True  # a 'for' loop runs inside one synthetic action (jumps)
        if isinstance(s, ast.MethodCallStatement):
            return self._call_kind(s.call, scope) == "primitive"
        return False

    def _call_kind(self, call: ast.MethodCall, scope: Scope) -> str:
        target = call.target
        if isinstance(target, ast.Member) and target.member == "apply":
            base = ExprLowerer(scope).lower(target.expr)
            if isinstance(base.ref, TableObj):
                return "table"
            if isinstance(base.ref, ControlInstance):
                return "control"
        if isinstance(target, ast.Name):
            binding = scope.lookup(target.name)
            if isinstance(binding, DeclBinding) and isinstance(binding.decl, ast.ActionDecl):
                return "action"
        return "primitive"

    # ------------------------------------------------------------------ statements
    def statement(self, s: ast.Statement, scope: Scope, returns: list[Exit]) -> Fragment:
        if isinstance(s, ast.BlockStatement):
            return self.block(list(s.statements), scope, returns)
        if self._is_simple(s, scope) or isinstance(s, (ast.ReturnStatement,
                                                       ast.DeclarationStatement)):
            return self.block([s], scope, returns)
        if isinstance(s, ast.IfStatement):
            return self.if_statement(s, scope, returns)
        if isinstance(s, ast.SwitchStatement):
            return self.switch(s, scope, returns)
        if isinstance(s, ast.MethodCallStatement):
            kind = self._call_kind(s.call, scope)
            if kind == "table":
                table = self.apply_table(s.call, scope, plain=True)
                self.last_apply[table.name] = s.span
                exits = [self._checked_next(table, a, s.span) for a, _ in table.actions]
                exits.append(self._checked_next(table, None, s.span))
                return self._with_key_prelude(table, Fragment(table.name, exits, False))
            if kind == "control":
                return self.apply_control(s.call, scope)
            if kind == "action":
                return self.direct_action(s.call, scope)
        raise CompileError(s.span, f"unsupported statement in an apply block "
                           f"({type(s).__name__})")

    def simple_run(self, stmts: list[ast.Statement], scope: Scope) -> Fragment:
        body = StatementLowerer(self.lw, scope)
        body.statements(stmts)
        if not body.out:
            return Fragment()
        name = self.lw.synthetic_name(f"{self.lw.prog_base}{stmts[0].span.line}")
        action = self.lw.new_action(name, [], body.out)
        return self._single_action_table(action, stmts[0], [])

    def _single_action_table(self, action: ir.ActionIR, node: ast.Node, data: list[str],
                             short: str | None = None) -> Fragment:
        tname = self.lw.table_name(f"tbl_{short or action.name}")
        table = ir.TableIR(tname, self.lw.table_ids.next(), [], "exact",
                           [(action.name, action.id)], source_info=source_info(node))
        table.default_entry = {"action_id": action.id, "action_const": True,
                               "action_data": data, "action_entry_const": True}
        self.pipeline.tables.append(table)
        return Fragment(tname, [_set_table_next(table, action.name),
                                _set_attr(table, "base_default_next")], False)

    def direct_action(self, call: ast.MethodCall, scope: Scope) -> Fragment:
        binding = scope.lookup(call.target.name)  # type: ignore[attr-defined]
        decl: ast.ActionDecl = binding.decl
        if not binding.scope.prefix and self.control_decl is not None:
            self.lw.remember_order("action", action_name(decl, binding.scope), decl,
                                   self.lw.position_in_control(self.control_decl, decl))
        bound = bind_arguments(decl.params, call.args, f"action '{decl.name}'", call.span)
        ex = ExprLowerer(scope)
        data: list[str] = []
        all_const = True
        for p, arg in zip(decl.params, bound):
            if p.direction or arg is None:
                all_const = False
                break
            try:
                val = ex.lower_typed(arg, ex.resolve(p.type))
            except CompileError:
                all_const = False
                break
            if not val.is_const:
                all_const = False
                break
            data.append(J.hex_text(int(val.const), bit_width(ex.resolve(p.type))))
        if all_const:
            action = lower_action(self.lw, decl, binding.scope, direct_call=True)
            return self._single_action_table(action, call, data, decl.name)
        stmt = ast.MethodCallStatement(call, span=call.span)
        return self.simple_run([stmt], scope)

    def if_statement(self, s: ast.IfStatement, scope: Scope, returns: list[Exit]) -> Fragment:
        """A branch on a table's hit or miss, or a conditional node (the mid end has
        computed the other conditions that apply tables or call functions into a
        temporary: midend/table_hits.py)."""
        applied = self._apply_hit(s.cond, scope)
        if applied is not None:
            table, on_true, on_false = applied
            then = self.statement(s.then, scope, returns)
            other = self.statement(s.otherwise, scope, returns) if s.otherwise else Fragment()
            exits: list[Exit] = [_set_attr(table, "base_default_next")]
            table.next_tables = {}  # BMv2: either per-action or __HIT__/__MISS__
            for key, frag in ((on_true, then), (on_false, other)):
                link(_set_table_next(table, key), frag, returns, exits)
            return self._with_key_prelude(table, Fragment(table.name, exits, False))
        ex = ExprLowerer(scope, call_expression)
        try:
            cond = ex.lower(s.cond)
        except NeedsStatements:  # a header or struct '?:': computed by an action first
            return self._if_through_temp(s, scope, returns)
        if not isinstance(cond.type, BoolT):
            raise CompileError(s.cond.span, "the condition of 'if' must be bool, not "
                               f"{cond.type.describe() if cond.type else 'this'}")
        if cond.is_const:
            branch = s.then if cond.const else s.otherwise
            return self.statement(branch, scope, returns) if branch else Fragment()
        node = ir.ConditionalIR(self.lw.node_name(), self.lw.cond_ids.next(),
                                cond.cond(s.span), source_info=source_info(
                                    s.cond, expr_text(s.cond)))
        self.pipeline.conditionals.append(node)
        then = self.statement(s.then, scope, returns)
        other = self.statement(s.otherwise, scope, returns) if s.otherwise else Fragment()
        exits = []
        for attr, frag in (("true_next", then), ("false_next", other)):
            link(_set_attr(node, attr), frag, returns, exits)
        return Fragment(node.name, exits, False)

    def _if_through_temp(self, s: ast.IfStatement, scope: Scope, returns: list[Exit]
                         ) -> Fragment:
        """A condition only an action can compute (a header or struct ``?:``): an
        action stores it in a bool temporary, the branch tests that."""
        name = f"$cond{self.lw.cond_ids.value}_{len(self.pipeline.tables)}"
        scope = scope.child()
        scope.declare(name, self.lw.layout.scalar("cond", BoolT()))
        temp = ast.Name(name, span=s.cond.span)
        stmts: list[ast.Statement] = [
            ast.Assignment(temp, s.cond, span=s.cond.span),
            ast.IfStatement(temp, s.then, s.otherwise, span=s.span)]
        return self.block(stmts, scope, returns)

    def _apply_hit(self, cond: ast.Expression, scope: Scope):
        negate = False
        while isinstance(cond, ast.Unary) and cond.op == "!":
            negate = not negate
            cond = cond.operand
        if isinstance(cond, ast.Member) and cond.member in ("hit", "miss") and \
                isinstance(cond.expr, ast.MethodCall):
            call = cond.expr
            if self._call_kind(call, scope) != "table":
                return None
            table = self.apply_table(call, scope)
            hit = (cond.member == "hit") != negate
            return (table, "__HIT__", "__MISS__") if hit else (table, "__MISS__", "__HIT__")
        return None

    def switch(self, s: ast.SwitchStatement, scope: Scope, returns: list[Exit]) -> Fragment:
        """A switch on ``t.apply().action_run`` (the mid end has made the switches on
        values if statements: midend/value_switch.py)."""
        e = s.expr
        if isinstance(e, ast.Member) and e.member == "action_run" and \
                isinstance(e.expr, ast.MethodCall) and self._call_kind(e.expr, scope) == "table":
            return self.switch_actions(s, self.apply_table(e.expr, scope), scope, returns)
        raise CompileError(e.span, "switch on action_run needs a table's apply(): "
                           "'switch (t.apply().action_run)'")

    def switch_actions(self, s: ast.SwitchStatement, table: ir.TableIR, scope: Scope,
                       returns: list[Exit]) -> Fragment:
        names = [a for a, _ in table.actions]
        short: dict[str, str] = {}
        for action_name in names:
            short.setdefault(action_name.split(".")[-1], action_name)
            short[action_name] = action_name
        exits: list[Exit] = [_set_attr(table, "base_default_next")]
        handled: set[str] = set()
        pending: list[str] = []
        default_pending = False
        for case in s.cases:
            if isinstance(case.label, ast.DefaultExpression):
                default_pending = True
            else:
                label = expr_text(case.label).lstrip(".")
                top_level = isinstance(case.label, ast.Name) and case.label.top_level
                full = self._resolve_case_action(label, scope, short, top_level)
                if full is None:
                    raise CompileError(case.label.span, f"'{label}' is not an action of "
                                       f"table '{table.name}'")
                if full in handled or full in pending:
                    raise CompileError(case.label.span, f"duplicate case '{label}'")
                pending.append(full)
            if case.body is None:
                continue
            frag = self.block(list(case.body.statements), scope, returns)
            targets = list(pending)
            pending = []
            if default_pending:
                default_frag = frag
            frag_exits: list[Exit] = []
            for full in targets:
                handled.add(full)
                link(_set_table_next(table, full), frag, returns, frag_exits)
            default_targets = []
            if default_pending:
                default_targets = [n for n in names if n not in handled and n not in
                                   _case_actions(s, scope, short, self)]
                for full in default_targets:
                    handled.add(full)
                    link(_set_table_next(table, full), frag, returns, frag_exits)
                default_pending = False
            if not frag.empty and not frag.is_return:
                exits.extend(frag.exits)
            exits.extend(e for e in frag_exits if e not in frag.exits)
        for full in names:
            if full not in handled:
                exits.append(_set_table_next(table, full))
        return self._with_key_prelude(table, Fragment(table.name, exits, False))

    def _resolve_case_action(self, label: str, scope: Scope, short: dict,
                             top_level: bool = False) -> str | None:
        """The table action a switch label names; ``.b`` names a top-level action only."""
        binding = scope.root().lookup(label) if top_level else scope.lookup(label)
        if isinstance(binding, DeclBinding) and isinstance(binding.decl, ast.ActionDecl):
            full = action_name(binding.decl, binding.scope)
            if full in short.values():
                return full
        return None if top_level else short.get(label)

    # ------------------------------------------------------------------ tables/controls
    def apply_table(self, call: ast.MethodCall, scope: Scope, plain: bool = False
                    ) -> ir.TableIR:
        """The table node of ``t.apply()``. A table has one node in BMv2's graph, so
        it may be applied at several places only as a plain statement each time, and
        only where every place continues the same way (see ``_checked_next``)."""
        if call.args:
            raise CompileError(call.span, "table.apply() takes no arguments")
        obj: TableObj = ExprLowerer(scope).lower(call.target.expr).ref  # type: ignore[attr-defined]
        if obj.lowered is not None:
            table = obj.lowered[0]
            if plain and table.name in self.plain_applied:
                return table
            raise CompileError(call.span, f"table '{obj.decl.name}' is applied more than "
                               "once")
        table, temps = TableLowering(self.lw, obj, self.pipeline).build()
        obj.lowered = (table, temps)
        self.table_objs[table.name] = obj
        if plain:
            self.plain_applied.add(table.name)
        table.next_tables = {a: None for a, _ in table.actions}
        return table

    def _checked_next(self, table: ir.TableIR, action: str | None, span: SourceSpan) -> Exit:
        """Set the table's next node after ``action`` (None: its base_default_next);
        a second application must agree with the first, as p4c's BMv2 back end
        requires ("table ... has multiple successors")."""
        chosen = self.next_chosen.setdefault(table.name, {})

        short = self.table_objs[table.name].decl.name

        def setter(target: str | None) -> None:
            if target == table.name:  # a path from the table back to itself
                raise CompileError(self.last_apply.get(table.name, span),
                                   f"table '{short}' is applied more than once")
            if action in chosen and chosen[action] != target:
                raise CompileError(span, f"table '{short}' is applied at several places "
                                   "that continue differently: BMv2 gives a table one "
                                   "successor per action (p4c: 'table has multiple "
                                   "successors')")
            chosen[action] = target
            if action is None:
                table.base_default_next = target
            else:
                table.next_tables[action] = target
        return setter

    def _with_key_prelude(self, table: ir.TableIR, frag: Fragment) -> Fragment:
        """Prefix a table with the synthetic action computing its complex keys."""
        obj = self.table_objs.get(table.name)
        if obj is None or not obj.lowered[1]:
            return frag
        temps = obj.lowered[1]
        body = StatementLowerer(self.lw, obj.scope)
        for expr, temp in temps:
            val = body.expr.lower(expr)
            body.store(temp, val, expr.span)
        name = self.lw.synthetic_name(f"{self.lw.prog_base}{temps[0][0].span.line}")
        action = self.lw.new_action(name, [], body.out)
        pre = self._single_action_table(action, temps[0][0], [])
        return self.concat(pre, frag, [])

    def apply_control(self, call: ast.MethodCall, scope: Scope) -> Fragment:
        """An instance's ``apply`` (the mid end has given the directly applied control
        types theirs: midend/direct_apply.py), inlined."""
        target = call.target
        assert isinstance(target, ast.Member)  # _call_kind saw 'x.apply'
        inst: ControlInstance = ExprLowerer(scope).lower(target.expr).ref
        decl = inst.decl
        bound = bind_arguments(decl.params, call.args, f"control '{decl.name}'", call.span)
        caller = StatementLowerer(self.lw, scope)
        param_scope = Scope(None)
        bind_parameters(decl.params, bound, caller, param_scope, f"control '{decl.name}'")
        if caller.out:
            raise CompileError(call.span, "control arguments must be lvalues or constants")
        inner_scope, prelude = enter_control(self.lw, decl, inst.decl_scope, inst.name,
                                             param_scope.names, inst.ctor_args,
                                             inst.args_scope)
        returns: list[Exit] = []
        assert decl.apply is not None  # instantiate() refuses a control type (prototype)
        frag = self.block(list(prelude) + list(decl.apply.statements), inner_scope, returns)
        if frag.empty or frag.is_return:
            return Fragment()
        return Fragment(frag.entry, frag.exits + returns, False)


def _control_argument(arg: ast.Expression, scope: Scope | None) -> ControlInstance | None:
    """The control instance an argument names (``C2(c1) c2;``), if it names one."""
    if scope is None or not isinstance(arg, ast.Name):
        return None
    binding = scope.lookup(arg.name)
    return binding if isinstance(binding, ControlInstance) else None


def _case_actions(s: ast.SwitchStatement, scope: Scope, short: dict, graph) -> set[str]:
    out = set()
    for case in s.cases:
        if not isinstance(case.label, ast.DefaultExpression):
            top_level = isinstance(case.label, ast.Name) and case.label.top_level
            full = graph._resolve_case_action(expr_text(case.label).lstrip("."), scope, short,
                                              top_level)
            if full:
                out.add(full)
    return out
