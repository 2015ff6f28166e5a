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
from p4sim.compiler.semantic.calls import CallTyper
from p4sim.compiler.semantic.const_fold import NotConstant
from p4sim.compiler.semantic.environment import (
    Unknown, Var, declare_callable, declare_local_constant, global_environment)
from p4sim.compiler.semantic.expr_types import assignable, check_assignable
from p4sim.compiler.semantic.returns import returns as path_returns
from p4sim.compiler.semantic.scope import DeclBinding, GlobalInfo, Scope, TypeBinding
from p4sim.compiler.semantic.types import (
    BitsT, BoolT, EnumT, ExternT, HeaderT, IntT, P4Type, StructT, TypeVarT, VarbitT,
    VoidT)
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
            self.fits(t, decl.init)
            self.fields_given(t, decl.init)
        self.scope.declare(decl.name, Var(t))

    def table(self, decl: ast.TableDecl) -> None:
        self.table_order(decl)
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

    def table_order(self, decl: ast.TableDecl) -> None:
        """What a table's properties say of each other: the default action names one
        the actions list (above it) has; the key does not read the table itself; when
        some entries give a priority, the first does; an entry repeats the arguments
        the actions list binds."""
        bound: dict[str, tuple[str, ...]] = {}
        listed = False
        for prop in decl.properties:
            for key in prop.key or ():
                if any(isinstance(n, ast.Name) and n.name == decl.name for n in ast.walk(key.expr)):
                    raise CompileError(key.span, f"table '{decl.name}': its key cannot "
                                       "refer to the table itself")
            if prop.actions is not None:
                listed = True
                bound.update((ref.name.lstrip("."), tuple(unparse(a.value) for a in ref.args))
                             for ref in prop.actions)
            if prop.action is not None and not listed:
                raise CompileError(prop.span, f"table '{decl.name}': its default_action "
                                   "comes before the actions list it must be one of")
            if prop.action is not None and listed and not any(
                    self.action_decl(prop.action) is self.action_decl(ref)
                    for p2 in decl.properties for ref in p2.actions or ()):
                raise CompileError(prop.action.span, f"default action "
                                   f"'{prop.action.name.lstrip('.')}' is not in the actions "
                                   f"of table '{decl.name}'")
            entries = prop.entries or ()
            if any(e.priority is not None for e in entries) and entries[0].priority is None:
                raise CompileError(entries[0].span, f"table '{decl.name}': this entry needs "
                                   "a priority, since later entries give theirs")
            for entry in entries:
                given = bound.get(entry.action.name.lstrip("."), ())
                for i, text in enumerate(given):
                    if i < len(entry.action.args) and \
                            unparse(entry.action.args[i].value) != text:
                        raise CompileError(entry.action.args[i].span, f"argument "
                                           f"{unparse(entry.action.args[i].value)} of "
                                           f"'{entry.action.name}' differs from the {text} "
                                           "its actions list binds")

    def action_decl(self, ref: ast.ActionRef) -> object:
        """The declaration an action reference names (``.a``: the top-level one)."""
        scope = self.scope.root() if ref.name.startswith(".") else self.scope
        binding = scope.lookup(ref.name.lstrip("."))
        return binding.decl if isinstance(binding, DeclBinding) else binding

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
            self.parser_only_call(s.call)
            self.action_call(s.call)
            self.sized_extract(s.call)
        elif isinstance(s, ast.DeclarationStatement):
            self.declaration(s.decl)
        elif isinstance(s, ast.IfStatement):
            self.condition(s.cond, "if")
            self.nested(s.then)
            self.nested(s.otherwise)
        elif isinstance(s, ast.SwitchStatement):
            typer.type_of(s.expr)
            self.action_labels(s)
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
        self.fits(returns, s.value)

    def fields_given(self, target: P4Type | None, value: ast.Expression) -> None:
        """``{a = .., b = ..}`` for a struct or header names each field once, and all of
        them unless it ends in ``...``."""
        if not isinstance(value, ast.StructExpression) or \
                not isinstance(target, (StructT, HeaderT)):
            return
        names = [f.name for f in value.fields]
        twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
        if twice is not None:
            raise CompileError(value.span, f"field '{twice}' is given twice")
        declared = [f.name for f in target.fields] + [n for n, _ in getattr(target, "nested", ())]
        unknown = [n for n in names if n not in declared]
        if unknown:
            raise CompileError(value.span, f"{target.describe()} has no field "
                               f"'{unknown[0]}'")
        missing = [n for n in declared if n not in names and not
                   any(n.startswith(f"{nested}_") for nested in names)]
        if missing and not value.rest:
            raise CompileError(value.span, f"the initializer of {target.describe()} lacks "
                               f"{', '.join(map(repr, missing))} (name every field, or end "
                               "with '...' for default values)")

    def fits(self, target: P4Type | None, value: ast.Expression) -> None:
        """An untyped integer constant given to a bit<W> or int<W> must fit it (lowering's
        words; it checks only the code the package reaches)."""
        if not isinstance(target, BitsT) or not isinstance(self.typer().type_of(value), IntT):
            return
        v = self.typer().constant(value)
        if not isinstance(v, int) or isinstance(v, bool):
            return
        low, high = (-(1 << (target.width - 1)), (1 << target.width) - 1) if target.signed \
            else (-(1 << target.width), target.mask)   # -1 fills an unsigned field
        if not low <= v <= high:
            raise CompileError(value.span, f"value {v} does not fit in {target.describe()}")

    def action_labels(self, s: ast.SwitchStatement) -> None:
        """``switch (t.apply().action_run)``: each label an action the table lists;
        and in any switch no label twice, by value (structure.py compares the spelling:
        ``(bit<8>)1`` twice, or ``error.E`` twice, gets past it)."""
        seen: dict[object, ast.Node] = {}
        switched = None if self.switched_table(s.expr) else self.typer().type_of(s.expr)
        for case in s.cases:
            if isinstance(case.label, ast.DefaultExpression):
                continue
            if switched is not None:
                label_type = self.typer().type_of(case.label)
                if label_type is not None and (not assignable(switched, label_type) or (
                        isinstance(switched, EnumT) and not isinstance(label_type, EnumT))):
                    raise CompileError(case.label.span, f"label {unparse(case.label)} has "
                                       f"type {label_type.describe()}, and the switch is on "
                                       f"{switched.describe()}")
            value = self.typer().constant(case.label)
            key = value if isinstance(value, (int, bool)) else unparse(case.label)
            if key in seen:
                raise CompileError(case.label.span, f"{unparse(case.label)}: duplicate "
                                   f"switch label (first at {seen[key].span})")
            seen[key] = case
        table = self.switched_table(s.expr)
        if table is None:
            return
        listed = {ref.name.lstrip(".") for prop in table.properties for ref in prop.actions or ()}
        for case in s.cases:
            if isinstance(case.label, ast.DefaultExpression):
                continue
            name = unparse(case.label).lstrip(".")
            if name not in listed:
                raise CompileError(case.label.span, f"'{name}' is not an action of table "
                                   f"'{table.name}'")

    def switched_table(self, e: ast.Expression) -> ast.TableDecl | None:
        if not (isinstance(e, ast.Member) and e.member == "action_run"
                and isinstance(e.expr, ast.MethodCall) and isinstance(e.expr.target, ast.Member)
                and e.expr.target.member == "apply" and isinstance(e.expr.target.expr, ast.Name)):
            return None
        binding = self.typer().lookup(e.expr.target.expr)
        if isinstance(binding, DeclBinding) and isinstance(binding.decl, ast.TableDecl):
            return binding.decl
        return None

    def action_call(self, call: ast.MethodCall) -> None:
        """Actions run from controls (their apply blocks and other actions): p4c
        refuses a call from a parser state or from a function."""
        if not isinstance(call.target, ast.Name):
            return
        where = "a function" if self.callers and self.callers[-1] == "function" else \
            "a parser" if self.in_parser else None
        if where is None:
            return
        binding = self.typer().lookup(call.target)
        decls = binding.decl if isinstance(binding, DeclBinding) else ()
        if all(isinstance(d, ast.ActionDecl) for d in
               (decls if isinstance(decls, tuple) else (decls,))) and decls:
            raise CompileError(call.span, f"action '{call.target.name}' cannot be called "
                               f"from {where}: actions run from controls")

    def sized_extract(self, call: ast.MethodCall) -> None:
        """``extract(h, bits)`` sizes a header's varbit field: a header without one
        takes the one-argument form."""
        if not (isinstance(call.target, ast.Member) and call.target.member == "extract"
                and len(call.args) == 2):
            return
        header = self.typer().type_of(call.args[0].value)
        if isinstance(header, HeaderT) and not any(isinstance(f.type, VarbitT)
                                                   for f in header.fields):
            raise CompileError(call.span, f"extract({unparse(call.args[0].value)}, ...): "
                               f"the two-argument extract sizes a varbit field, and "
                               f"'{header.describe()}' has none")

    def parser_only_call(self, call: ast.MethodCall) -> None:
        """core.p4's verify() outside a parser: p4c refuses it wherever it is."""
        if self.in_parser or not (isinstance(call.target, ast.Name) and call.target.name == "verify"):
            return
        binding = self.typer().lookup(call.target)
        decls = binding.decl if isinstance(binding, DeclBinding) else ()
        if any(isinstance(d, ast.ExternFunctionDecl) for d in
               (decls if isinstance(decls, tuple) else (decls,))):
            raise CompileError(call.span, "verify() can only be called in a parser")

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
        self.fits(target, s.right)
        self.fields_given(target, s.right)

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
