"""Type and reference checks over every body of the program, instantiated or not.

Lowering checks what the V1Switch package reaches; p4c's type checker runs over every
declaration, so a control nobody instantiates, a function never called or a program
for another architecture still gets its errors. This pass walks every top-level
action, function, control and parser (and what they declare) with expr_types.py and
calls.py, raising the first error in source order:

- names (values, callees, types, parser states, actions in tables, match kinds);
- operand, condition, assignment, initializer and argument types;
- writes to constants and read-only parameters (``in`` ones, and the directionless
  parameters of actions and functions), lvalues for ``out``/``inout`` arguments.
"""
from __future__ import annotations

from typing import Iterable

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic.call_context import check_call_context
from p4sim.compiler.semantic.calls import CallTyper
from p4sim.compiler.semantic.const_fold import NotConstant
from p4sim.compiler.semantic.environment import (
    Unknown, Var, declare_callable, declare_local_constant, global_environment)
from p4sim.compiler.semantic.expr_types import check_assignable
from p4sim.compiler.semantic.initial_values import check_value
from p4sim.compiler.semantic.returns import returns as path_returns
from p4sim.compiler.semantic.scope import DeclBinding, GlobalInfo, Scope, TypeBinding
from p4sim.compiler.semantic.switch_labels import check_switch_labels
from p4sim.compiler.semantic.table_properties import check_table_properties
from p4sim.compiler.semantic.types import BoolT, ExternT, P4Type, TypeVarT, VoidT
from p4sim.compiler.unparse import unparse

_BUILTIN_FILES = ("core.p4", "v1model.p4")


def check_bodies(program: ast.Program) -> GlobalInfo:
    """Raise CompileError at the first type or reference error in any body; the
    global environment it built, for the checks after it."""
    info = global_environment(program)
    kinds = set(info.match_kinds)
    for decl in program.declarations:
        if decl.span.file.endswith(_BUILTIN_FILES):
            continue
        if isinstance(decl, (ast.ActionDecl, ast.FunctionDecl)):
            _Body(info.scope, kinds).callable(decl)
        elif isinstance(decl, ast.ControlDecl) and not decl.is_type_decl:
            _Body(info.scope, kinds).control(decl)
        elif isinstance(decl, ast.ParserDecl) and not decl.is_type_decl:
            _Body(info.scope, kinds, in_parser=True).parser(decl)
        elif isinstance(decl, (ast.ControlDecl, ast.ParserDecl)):   # a type: its parameters
            _Body(info.scope, kinds).signature(decl)
        elif isinstance(decl, ast.Instantiation) and decl.name != "main":
            _Body(info.scope.child(), kinds).locals((decl,))
    return info


def _readonly(param: ast.Parameter, owner: str) -> str | None:
    """Why a parameter may not be written, in readonly.py's words (None: writable)."""
    if param.direction == "in":
        return f"'{param.name}' is an in parameter"
    if param.direction:
        return None
    if owner == "action":
        return "an action parameter (directionless parameters are read-only)"
    return f"'{param.name}' is a directionless parameter (read-only)"


def _explain_hidden_local(exc: CompileError, inst: ast.Instantiation, outer: Scope
                          ) -> CompileError:
    """``exc``, with a note when it is an undeclared name that the enclosing block does
    declare: the one mistake the initializer's narrower scope invites."""
    hidden = next((n.name for d in inst.initializer for n in ast.walk(d)
                   if isinstance(n, ast.Name) and n.span == exc.span
                   and outer.lookup(n.name) is not None), None)
    if hidden is None or not exc.message.startswith("undeclared name"):
        return exc
    note = (f"'{hidden}' is declared around instance '{inst.name}', but an abstract method "
            "sees only its parameters, top-level declarations, its initializer block's "
            "instances and 'this'")
    return CompileError(exc.span, exc.message, (*exc.notes, note))


class _Body:
    """One top-level declaration's walk: its scopes and its typer."""

    def __init__(self, scope: Scope, match_kinds: set[str], in_parser: bool = False):
        self.scope = scope
        self.match_kinds = match_kinds
        self.in_parser = in_parser
        self.return_type: list[P4Type | None] = []
        self.callers: list[str] = []     # "action" or "function", innermost last

    def typer(self) -> CallTyper:
        return CallTyper(self.scope, self.in_parser)

    def resolve(self, t: ast.Type) -> P4Type | None:
        return self.typer().resolve(t)

    def enter(self) -> Scope:
        outer = self.scope
        self.scope = outer.child()
        return outer

    # ------------------------------------------------------------------ declarations
    def type_params(self, params: Iterable[ast.TypeParameter]) -> None:
        for p in params:
            self.scope.declare(p.name, TypeBinding(TypeVarT(p.name)))

    def params(self, params: Iterable[ast.Parameter], owner: str) -> None:
        """Bind parameters; ``owner`` is "action", "function", "block" (a control's
        or parser's) or "constructor", which say how they may be written."""
        for p in params:
            t = self.resolve(p.type)
            if isinstance(t, ExternT) and (p.direction or owner == "action"):
                raise CompileError(p.span, f"{p.name}: a parameter of extern type "
                                   f"'{t.describe()}' " + ("cannot belong to an action" if
                                   owner == "action" else "cannot have a direction"))
            if owner == "constructor":
                reason: str | None = f"'{p.name}' is a constructor parameter"
            elif isinstance(t, ExternT):
                reason = None   # an object: used through its methods
            else:
                reason = _readonly(p, owner)
            self.scope.declare(p.name, Var(t, reason))

    def callable(self, decl: ast.ActionDecl | ast.FunctionDecl) -> None:
        outer = self.enter()
        if isinstance(decl, ast.FunctionDecl):
            self.type_params(decl.type_params)
            self.return_type.append(self.resolve(decl.return_type))
        else:
            self.return_type.append(VoidT())
        kind = "action" if isinstance(decl, ast.ActionDecl) else "function"
        self.params(decl.params, kind)
        self.callers.append(kind)
        self.statements(decl.body.statements)
        self.callers.pop()
        returns = self.return_type.pop()
        if isinstance(decl, ast.FunctionDecl) and returns is not None and \
                not isinstance(returns, VoidT) and not path_returns(decl.body, every=True):
            raise CompileError(decl.span, f"function '{decl.name}' does not return a value "
                               "on every path")
        self.scope = outer

    def control(self, decl: ast.ControlDecl) -> None:
        outer = self.enter()
        self.type_params(decl.type_params)
        self.params(decl.params, "block")
        self.params(decl.constructor_params, "constructor")
        self.locals(decl.locals)
        if decl.apply is not None:
            self.block(decl.apply)
        self.scope = outer

    def signature(self, decl: ast.ControlDecl | ast.ParserDecl) -> None:
        outer = self.enter()
        self.type_params(decl.type_params)
        self.params(decl.params, "block")
        self.scope = outer

    def parser(self, decl: ast.ParserDecl) -> None:
        outer = self.enter()
        self.type_params(decl.type_params)
        self.params(decl.params, "block")
        self.params(decl.constructor_params, "constructor")
        self.locals(decl.locals)
        states = {s.name for s in decl.states} | {"accept", "reject"}
        for state in decl.states:
            saved = self.enter()
            self.statements(state.statements)
            self.transition(state.transition, states)
            self.scope = saved
        self.scope = outer

    def locals(self, decls: Iterable[ast.Node]) -> None:
        for local in decls:
            if isinstance(local, (ast.ActionDecl, ast.FunctionDecl)):
                self.callable(local)
                declare_callable(local, self.scope)
            elif isinstance(local, ast.TableDecl):
                self.table(local)
                self.scope.declare(local.name, DeclBinding(local, self.scope))
            elif isinstance(local, ast.Instantiation):
                for a in local.args:
                    self.typer().type_of(a.value)
                self.typer().check_constructor_call(local)
                self.scope.declare(local.name, DeclBinding(local, self.scope))
                if local.initializer:
                    self.initializer(local)
            elif isinstance(local, (ast.VariableDecl, ast.ConstantDecl)):
                self.declaration(local)
            elif isinstance(local, ast.Declaration):   # a value_set: select keysets only
                self.scope.declare(local.name, Unknown())

    def initializer(self, inst: ast.Instantiation) -> None:
        """The initializer block's declarations where P4_16 §11.3.1 puts them: an
        abstract method sees its parameters, the top level, the block's own instances
        and ``this`` (the instance), not the enclosing control's or parser's locals."""
        outer = self.scope
        self.scope = outer.root().child()
        self.scope.declare("this", DeclBinding(inst, outer))
        try:
            self.locals(inst.initializer)
        except CompileError as exc:
            raise _explain_hidden_local(exc, inst, outer) from None
        finally:
            self.scope = outer

    def declaration(self, decl: ast.Declaration) -> None:
        if isinstance(decl, ast.ConstantDecl):
            typer = self.typer()
            typer.type_of(decl.value)
            try:
                declare_local_constant(decl, self.scope)
            except NotConstant:
                self.scope.declare(decl.name, Unknown())
            return
        if not isinstance(decl, ast.VariableDecl):
            self.scope.declare(decl.name, Unknown())
            return
        t = self.resolve(decl.type)
        if decl.init is not None:
            check_assignable(t, self.typer().type_of(decl.init), decl.init.span)
            check_value(t, decl.init, self.typer())
        self.scope.declare(decl.name, Var(t))

    def table(self, decl: ast.TableDecl) -> None:
        check_table_properties(decl, self.typer())
        typer = self.typer()
        for prop in decl.properties:
            for key in prop.key or ():
                typer.type_of(key.expr)
                if key.match_kind not in self.match_kinds:
                    raise CompileError(key.span, f"unknown match kind '{key.match_kind}'")
            listed: set[str] = set()
            for ref in prop.actions or ():
                self.action_ref(ref, decl)
                if ref.name in listed:
                    raise CompileError(ref.span, f"action '{ref.name}' is listed twice")
                listed.add(ref.name)
            if prop.action is not None:
                self.action_ref(prop.action, decl)
            for entry in prop.entries or ():
                for k in entry.keyset:
                    typer.type_of(k)
                self.action_ref(entry.action, decl)
            if prop.value is not None:
                typer.type_of(prop.value)

    def action_ref(self, ref: ast.ActionRef, table: ast.TableDecl) -> None:
        name = ref.name[1:] if ref.name.startswith(".") else ref.name
        scope = self.scope.root() if ref.name.startswith(".") else self.scope
        binding = scope.lookup(name)
        if binding is None:
            raise CompileError(ref.span, f"unknown action '{name}' in table '{table.name}'")
        typer = self.typer()
        for a in ref.args:
            if not isinstance(a.value, ast.DontCare):
                typer.type_of(a.value)

    # ------------------------------------------------------------------ statements
    def block(self, block: ast.BlockStatement) -> None:
        outer = self.enter()
        self.statements(block.statements)
        self.scope = outer

    def statements(self, statements: Iterable[ast.Statement]) -> None:
        for s in statements:
            self.statement(s)

    def nested(self, s: ast.Statement | None) -> None:
        if s is None:
            return
        outer = self.enter()
        self.statement(s)
        self.scope = outer

    def statement(self, s: ast.Statement) -> None:
        typer = self.typer()
        if isinstance(s, ast.BlockStatement):
            self.block(s)
        elif isinstance(s, ast.Assignment):
            self.assignment(s)
        elif isinstance(s, ast.MethodCallStatement):
            typer.type_of(s.call)
            check_call_context(s.call, typer, self.callers[-1] if self.callers else None)
        elif isinstance(s, ast.DeclarationStatement):
            self.declaration(s.decl)
        elif isinstance(s, ast.IfStatement):
            self.condition(s.cond, "if")
            self.nested(s.then)
            self.nested(s.otherwise)
        elif isinstance(s, ast.SwitchStatement):
            typer.type_of(s.expr)
            check_switch_labels(s, typer)
            for case in s.cases:
                if case.body is not None:
                    self.block(case.body)
        elif isinstance(s, ast.ReturnStatement):
            self.return_statement(s)
        elif isinstance(s, ast.ForStatement):
            outer = self.enter()
            self.statements(s.init)
            if s.cond is not None:
                self.condition(s.cond, "for")
            self.statements(s.updates)
            self.nested(s.body)
            self.scope = outer

    def return_statement(self, s: ast.ReturnStatement) -> None:
        """A value exactly where the action or function returns one (a control's or
        parser's apply has no return type: there ``return;`` only ends it)."""
        returns = self.return_type[-1] if self.return_type else None
        if s.value is None:
            if returns is not None and not isinstance(returns, VoidT):
                raise CompileError(s.span, f"this function returns {returns.describe()}: "
                                   "'return' needs a value")
            return
        t = self.typer().type_of(s.value)
        if isinstance(returns, VoidT) or not self.return_type:
            raise CompileError(s.span, "this action or function returns no value")
        check_assignable(returns, t, s.value.span)
        check_value(returns, s.value, self.typer())

    def condition(self, cond: ast.Expression, what: str) -> None:
        t = self.typer().type_of(cond)
        if t is not None and not isinstance(t, BoolT):
            raise CompileError(cond.span, f"the condition of '{what}' must be bool, not "
                               f"{t.describe()}")

    def assignment(self, s: ast.Assignment) -> None:
        typer = self.typer()
        if isinstance(s.left, ast.DontCare):
            typer.type_of(s.right)
            return
        target = typer.type_of(s.left)
        problem = typer.not_writable(s.left)
        if problem is not None:
            raise CompileError(s.left.span, f"cannot assign to '{unparse(s.left)}': "
                               f"{_assign_reason(problem)}")
        check_assignable(target, typer.type_of(s.right), s.right.span)
        check_value(target, s.right, typer)

    def transition(self, transition: ast.Expression | None, states: set[str]) -> None:
        if isinstance(transition, ast.Name):
            self.state(transition.name, transition, states)
        elif isinstance(transition, ast.SelectExpression):
            typer = self.typer()
            typer.type_of(transition)
            for case in transition.cases:
                typer.type_of(case.keyset)
                self.state(case.next_state, case, states)

    @staticmethod
    def state(name: str, node: ast.Node, states: set[str]) -> None:
        if name not in states:
            raise CompileError(node.span, f"unknown parser state '{name}'")


def _assign_reason(problem: str) -> str:
    return "a constant" if problem == "it is a constant" else problem
