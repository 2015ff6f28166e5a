"""Calls in any body: the callee exists, takes that many arguments, each argument has
the parameter's type, and ``out``/``inout`` arguments are writable; the call's type.

Actions, functions and extern functions are found by name (overloads by argument
count); methods by the type of their target: headers, unions and stacks have their
built-in methods, tables ``apply``, controls and parsers ``apply``, extern objects the
methods their declaration lists. Type parameters stay type variables unless the call
or the instance gives them, and a type variable matches anything."""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic.arity import expected_count, fits, is_required
from p4sim.compiler.semantic.environment import Var
from p4sim.compiler.semantic.expr_types import (
    HEADER_METHODS, ExprTyper, Named, TableResult, Typed, check_assignable, extern_decl)
from p4sim.compiler.semantic.initializers import check_implementations
from p4sim.compiler.semantic.scope import ConstBinding, DeclBinding, Scope, TypeBinding
from p4sim.compiler.semantic.types import (
    ExternT, HeaderT, IntT, P4Type, StackT, StringT, TypeVarT, UnionT, VoidT)
from p4sim.compiler.unparse import unparse

_Params = tuple[ast.Parameter, ...]
_CALLABLES = (ast.ActionDecl, ast.FunctionDecl, ast.ExternFunctionDecl)


class CallTyper(ExprTyper):
    """ExprTyper that also checks and types calls."""

    def _MethodCall(self, e: ast.MethodCall) -> Typed:
        target = e.target
        if isinstance(target, ast.Name):
            binding = self.lookup(target)
            if binding is None:
                raise CompileError(target.span, f"undeclared name '{target.name}'")
            binding = callable_binding(binding, self.scope, target.name, e.args)
            self._visit_args(e)
            if isinstance(binding, DeclBinding):
                return self._call_declared(binding, target.name, e)
            return None
        if isinstance(target, ast.Member):
            base = self.eval(target.expr)
            self._visit_args(e)
            return self._method(base, target, e)
        self._visit_args(e)
        return None

    def _visit_args(self, e: ast.MethodCall) -> None:
        for a in e.args:
            if not isinstance(a.value, ast.DontCare):
                self.type_of(a.value)

    # ------------------------------------------------------------------ by name
    def _call_declared(self, binding: DeclBinding, name: str, e: ast.MethodCall) -> Typed:
        decl = binding.decl
        if isinstance(decl, ast.ActionDecl):
            check_arity(decl.params, e, f"action '{name}'")
            self._check_arguments(decl.params, e, binding.scope)
            return VoidT()
        if isinstance(decl, tuple):
            chosen = _overload([d for d in decl if isinstance(d, _CALLABLES)], e, name)
            if chosen is None:
                return None
            if isinstance(chosen, ast.ActionDecl):
                self._check_arguments(chosen.params, e, binding.scope)
                return VoidT()
            inner = _with_type_params(binding.scope, chosen.type_params, e.type_args, self)
            if not e.type_args:
                self._check_widths_inferable(chosen, e)
            self._check_arguments(chosen.params, e, inner)
            return _result(chosen.return_type, inner)
        return None

    # ------------------------------------------------------------------ methods
    def _method(self, base: Typed, target: ast.Member, e: ast.MethodCall) -> Typed:
        name = target.member
        if isinstance(base, HeaderT):
            if name in HEADER_METHODS:
                _no_arguments(e, name)
                return HEADER_METHODS[name]
            if base.field_type(name) is None and name not in dict(base.nested):
                raise CompileError(e.span, f"headers have no method '{name}'")
            return None
        if isinstance(base, UnionT):
            if name in HEADER_METHODS and name not in ("setValid", "setInvalid"):
                _no_arguments(e, name)
                return HEADER_METHODS[name]
            return self.member(base, target, called=True)
        if isinstance(base, StackT):
            if name in ("push_front", "pop_front"):
                if len(e.args) != 1:
                    raise CompileError(e.span, f"wrong number of arguments: {name} expects "
                                       f"1, got {len(e.args)}")
                return VoidT()
            return None
        if isinstance(base, ExternT):
            decl = extern_decl(base, self.scope)
            return self._extern_method(decl, base.type_args, name, e) if decl else None
        if isinstance(base, Named):
            return self._named_method(base.binding, target, e)
        if isinstance(base, P4Type):
            self.member(base, target, called=True)
        return None

    def _named_method(self, binding: Any, target: ast.Member, e: ast.MethodCall) -> Typed:
        name = target.member
        if isinstance(binding, TypeBinding) and isinstance(binding.type, HeaderT) and \
                name in ("minSizeInBits", "minSizeInBytes", "maxSizeInBits", "maxSizeInBytes"):
            return HEADER_METHODS[name]
        if not isinstance(binding, DeclBinding):
            self.member(Named(binding), target, called=True)
            return None
        decl = binding.decl
        if isinstance(decl, ast.TableDecl):
            if name != "apply":
                raise CompileError(e.span, f"table '{decl.name}' has no method '{name}' "
                                   "(tables have apply())")
            _no_arguments(e, name)
            return TableResult()
        if isinstance(decl, (ast.ControlDecl, ast.ParserDecl)):
            return self._apply(decl, name, e, binding.scope)   # a type applied directly
        if isinstance(decl, ast.Instantiation) and isinstance(decl.type, ast.NamedType):
            kind = binding.scope.lookup(decl.type.name)
            if not isinstance(kind, DeclBinding):
                return None
            if isinstance(kind.decl, ast.ExternDecl):
                args = tuple(self.resolve(t) or TypeVarT("_") for t in decl.type.type_args)
                return self._extern_method(kind.decl, args, name, e)
            if isinstance(kind.decl, (ast.ControlDecl, ast.ParserDecl)):
                return self._apply(kind.decl, name, e, kind.scope)
        return None

    def _apply(self, decl: ast.ControlDecl | ast.ParserDecl, name: str, e: ast.MethodCall,
               decl_scope: Scope) -> Typed:
        kind = "control" if isinstance(decl, ast.ControlDecl) else "parser"
        if name != "apply":
            raise CompileError(e.span, f"{kind} '{decl.name}' has no method '{name}' "
                               f"({kind}s have apply())")
        check_arity(decl.params, e, f"'{decl.name}.apply'")
        if not decl.type_params:
            self._check_arguments(decl.params, e, decl_scope)
        return VoidT()

    def _extern_method(self, decl: ast.ExternDecl, type_args: tuple[P4Type, ...], name: str,
                       e: ast.MethodCall) -> Typed:
        methods = [m for m in decl.methods if m.name == name and m.return_type is not None]
        if not methods:
            raise CompileError(e.span, f"extern '{decl.name}' has no method '{name}'")
        method = _overload(methods, e, f"{decl.name}.{name}")
        if method is None:
            return None
        binding = self.scope.root().lookup(decl.name)
        outer = binding.scope if isinstance(binding, DeclBinding) else self.scope.root()
        inner = outer.child()
        given = len(type_args) == len(decl.type_params)
        for i, p in enumerate(decl.type_params):
            inner.declare(p.name, TypeBinding(type_args[i] if given else TypeVarT(p.name)))
        inner = _with_type_params(inner, method.type_params, e.type_args, self)
        if not e.type_args:
            self._check_widths_inferable(method, e)
        self._check_arguments(method.params, e, inner)
        return _result(method.return_type, inner) if method.return_type else None

    def _check_widths_inferable(self, method: ast.MethodPrototype | ast.FunctionDecl |
                                ast.ExternFunctionDecl, e: ast.MethodCall) -> None:
        """A type parameter of a method or function that only int literals give has no
        width to take."""
        variables = {p.name for p in method.type_params}
        literal_only: dict[str, ast.Expression] = {}
        typed: set[str] = set()
        for param, arg in _pairs(method.params, e.args):
            if not (isinstance(param.type, ast.NamedType) and param.type.name in variables):
                continue
            if isinstance(self.type_of(arg.value), IntT):
                literal_only.setdefault(param.type.name, arg.value)
            elif not isinstance(arg.value, ast.DontCare):
                typed.add(param.type.name)
        for name, arg_value in literal_only.items():
            if name not in typed:
                raise CompileError(arg_value.span, f"{unparse(arg_value)}: could not infer a "
                                   f"width for type parameter '{name}' of "
                                   f"'{method.name}' (write the value with a width, such "
                                   "as 16w0, or give the type arguments)")

    def check_constructor_call(self, inst: ast.Instantiation) -> None:
        """An extern instance's arguments against the constructor they pick, and its
        initializer block against the extern's abstract methods (initializers.py); an
        initializer block on anything but an extern instance."""
        named = inst.type
        binding = self.scope.lookup(named.name) if isinstance(named, ast.NamedType) else None
        if isinstance(named, ast.NamedType) and binding is None:
            raise CompileError(named.span, f"unknown type '{named.name}'")
        if not isinstance(named, ast.NamedType) or isinstance(binding, TypeBinding):
            raise CompileError(inst.span, f"{inst.name}: {unparse(inst.type)} cannot be "
                               "instantiated: only externs, controls, parsers and packages "
                               "can")
        if not (isinstance(binding, DeclBinding) and isinstance(binding.decl, ast.ExternDecl)):
            if inst.initializer:
                raise CompileError(inst.span, f"{inst.name}: only an extern instance takes "
                                   "an initializer block (its abstract methods), and "
                                   f"'{named.name}' is not an extern")
            return
        decl = binding.decl
        self.resolve(named)   # its type arguments: no more than the extern has parameters
        inner = _with_type_params(binding.scope, decl.type_params, named.type_args, self)
        constructors = [m for m in decl.methods if m.name == decl.name and m.return_type is None]
        call = ast.MethodCall(ast.Name(decl.name, span=inst.span), (), inst.args,
                              span=inst.span)
        chosen = _overload(constructors, call, decl.name) if constructors else None
        if chosen is not None:
            self._check_arguments(chosen.params, call, inner)
        check_implementations(inst, decl, inner, self.scope)

    # ------------------------------------------------------------------ arguments
    def _check_arguments(self, params: _Params, e: ast.MethodCall, decl_scope: Scope) -> None:
        """Each argument against its parameter: the type for ``in`` and directionless
        ones, writability for ``out`` and ``inout`` ones."""
        for param, arg in _pairs(params, e.args):
            if isinstance(arg.value, ast.DontCare):
                continue
            ptype = _param_type(param, decl_scope)
            atype = self.type_of(arg.value)
            if isinstance(atype, StringT) and isinstance(ptype, TypeVarT):
                raise CompileError(arg.value.span, f"a string cannot be passed as "
                                   f"'{param.name}' of type {ptype.name}: a type parameter "
                                   "stands for data (bit<W>, int<W>, bool, structs, headers, "
                                   "tuples), and strings go to string parameters only")
            check_assignable(ptype, atype, arg.value.span)
            if param.direction in ("out", "inout"):
                problem = self.not_writable(arg.value)
                if problem is not None:
                    raise CompileError(arg.value.span, f"'{unparse(arg.value)}' cannot be "
                                       f"passed to the {param.direction} parameter "
                                       f"'{param.name}': {problem}")

    def not_writable(self, e: ast.Expression) -> str | None:
        """Why ``e`` cannot be written (None when it can, or when unsure)."""
        if isinstance(e, (ast.IntLiteral, ast.BoolLiteral, ast.StringLiteral, ast.Binary,
                          ast.Unary, ast.Cast, ast.Ternary, ast.ListExpression,
                          ast.StructExpression, ast.InvalidHeader)):
            return "it is not an lvalue"
        while isinstance(e, (ast.Member, ast.ArrayIndex, ast.Slice)):
            e = e.expr
        if isinstance(e, ast.MethodCall):
            return "it is not an lvalue"   # a call's result, e.g. t.apply().hit
        if isinstance(e, ast.Name):
            binding = self.lookup(e)
            if isinstance(binding, ConstBinding):
                return "it is a constant"
            if isinstance(binding, Var) and binding.readonly:
                return binding.readonly
        return None


def callable_binding(binding: Any, scope: Scope, name: str,
                     args: tuple[ast.Argument, ...]) -> Any:
    """The function overloads a control, parser or package type of the same name hides,
    when the call's arguments fit one of them; else ``binding`` itself."""
    if isinstance(binding, DeclBinding) and not isinstance(binding.decl, tuple):
        hidden = scope.hidden_functions(name)
        if hidden is not None and isinstance(hidden.decl, tuple) and \
                any(isinstance(d, _CALLABLES) and fits(d.params, args)
                    for d in hidden.decl):
            return hidden
    return binding


def check_arity(params: _Params, e: ast.MethodCall, what: str) -> None:
    """Refuse a call with too many or too few arguments, in lowering's words."""
    if any(a.name for a in e.args):
        if not fits(params, e.args):
            raise CompileError(e.span, f"wrong number of arguments: {what} expects "
                               f"{expected_count(params)}, got {len(e.args)}")
        return
    if len(e.args) > len(params):
        raise CompileError(e.span, f"wrong number of arguments: {what} expects "
                           f"{expected_count(params)}, got {len(e.args)}")
    for p in params[len(e.args):]:
        if is_required(p):
            raise CompileError(e.span, f"wrong number of arguments: {what} expects "
                               f"{expected_count(params)}, got {len(e.args)} (missing '{p.name}')")


def _pairs(params: _Params, args: tuple[ast.Argument, ...]
           ) -> list[tuple[ast.Parameter, ast.Argument]]:
    if any(a.name for a in args):
        by_name = {p.name: p for p in params}
        return [(by_name[a.name], a) for a in args if a.name in by_name]
    return list(zip(params, args))


def _with_type_params(scope: Scope, type_params: tuple[ast.TypeParameter, ...],
                      type_args: tuple[ast.Type, ...], typer: ExprTyper) -> Scope:
    """``scope`` with a callee's type parameters bound: to the call's explicit type
    arguments when it gives them all, else to type variables."""
    if not type_params:
        return scope
    inner = scope.child()
    given = len(type_args) == len(type_params)
    for i, p in enumerate(type_params):
        t = typer.resolve(type_args[i]) if given else None
        inner.declare(p.name, TypeBinding(t if t is not None else TypeVarT(p.name)))
    return inner


def _param_type(param: ast.Parameter, scope: Scope) -> P4Type | None:
    """A parameter's type where the callee was declared (None when not certain)."""
    try:
        return ExprTyper(scope).resolve(param.type)
    except CompileError:
        return None   # reported, if at all, where the callee is declared


def _result(t: ast.Type, scope: Scope) -> Typed:
    result = _param_type(ast.Parameter("", t, span=t.span), scope)
    return None if isinstance(result, TypeVarT) else result


def _no_arguments(e: ast.MethodCall, name: str) -> None:
    if e.args:
        raise CompileError(e.span, f"wrong number of arguments: {name}() expects 0, "
                           f"got {len(e.args)}")


def _overload(candidates: list[Any], e: ast.MethodCall, label: str) -> Any:
    """The one declaration among ``candidates`` whose parameters fit the call's
    arguments; None when several fit (the checker then does not guess); refused when
    none does, naming the argument counts there are."""
    fitting = [d for d in candidates if fits(d.params, e.args)]
    if not fitting:
        counts = sorted({len(d.params) for d in candidates})
        raise CompileError(e.span, f"wrong number of arguments: '{label}' expects "
                           f"{' or '.join(map(str, counts))}, got {len(e.args)}")
    return fitting[0] if len(fitting) == 1 else None
