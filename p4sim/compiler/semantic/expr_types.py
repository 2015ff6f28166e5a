"""Types of expressions in any body, with the errors p4c's type checker gives for them:
undeclared names, unknown fields and members, operand types (operators.py's rules),
calls with a wrong number of arguments or a wrong argument type, non-lvalues passed to
``out`` parameters.

Conservative by construction: a sub-expression whose type the checker cannot tell
(type variables, generic results, list expressions, ``{#}``, what the constant folder
does not evaluate) has the type None, and no rule fires on None. Only a certain error
is raised."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.semantic import operators as ops
from p4sim.compiler.semantic.const_fold import NotConstant, fold, resolve
from p4sim.compiler.semantic.environment import Var
from p4sim.compiler.semantic.scope import (
    ConstBinding, DeclBinding, ErrorMemberBinding, GenericTypeBinding, Scope, TypeBinding)
from p4sim.compiler.semantic.types import (
    AggregateT, BitsT, BoolT, EnumT, ErrorT, ExternT, HeaderT, IntT, P4Type, StackT, StringT, StructT,
    TupleT, TypeVarT, UnionT, VarbitT, VoidT)
from p4sim.compiler.unparse import unparse

HEADER_METHODS = {"isValid": BoolT(), "setValid": VoidT(), "setInvalid": VoidT(),
                  "minSizeInBits": IntT(), "minSizeInBytes": IntT(),
                  "maxSizeInBits": IntT(), "maxSizeInBytes": IntT()}
# Operand types operators.py has rules for (others, e.g. tuples, are left alone).
_OPERANDS = (BitsT, IntT, BoolT, EnumT, ErrorT, HeaderT, StructT, UnionT, StackT, VarbitT)


@dataclass(frozen=True)
class Named:
    """What a name denotes when it is not a value: a declaration or a type."""

    binding: Any


@dataclass(frozen=True)
class TableResult:
    """The value of ``t.apply()``: ``hit``, ``miss`` and ``action_run``."""


Typed = P4Type | Named | TableResult | None


class ExprTyper:
    """Types expressions in one scope; ``in_parser`` for ``stack.next`` / ``last``."""

    def __init__(self, scope: Scope, in_parser: bool = False):
        self.scope = scope
        self.in_parser = in_parser

    def type_of(self, e: ast.Expression) -> P4Type | None:
        """The type of ``e`` as a value (None when unknown or not a value)."""
        t = self.eval(e)
        return t if isinstance(t, P4Type) else None

    def lookup(self, name: ast.Name) -> Any:
        return self.scope.root().lookup(name.name) if name.top_level else \
            self.scope.lookup(name.name)

    def eval(self, e: ast.Expression) -> Typed:
        method = getattr(self, "_" + type(e).__name__, None)
        return method(e) if method is not None else None

    # ------------------------------------------------------------------ leaves
    def _IntLiteral(self, e: ast.IntLiteral) -> Typed:
        return IntT() if e.width is None else BitsT(e.width, e.signed)

    def _BoolLiteral(self, e: ast.BoolLiteral) -> Typed:
        return BoolT()

    def _StringLiteral(self, e: ast.StringLiteral) -> Typed:
        return StringT()

    def _Name(self, e: ast.Name) -> Typed:
        binding = self.lookup(e)
        if binding is None:
            if e.name == "error" and not e.top_level:
                return Named("error")
            raise CompileError(e.span, f"undeclared name '{e.name}'")
        if isinstance(binding, ConstBinding):
            return binding.type
        if isinstance(binding, Var):
            return binding.type
        if isinstance(binding, (TypeBinding, GenericTypeBinding, DeclBinding)):
            return Named(binding)
        return None  # Unknown

    def _TypeNameExpression(self, e: ast.TypeNameExpression) -> Typed:
        if isinstance(e.type, ast.ErrorType):
            return Named("error")
        return None

    def _InvalidHeader(self, e: ast.InvalidHeader) -> Typed:
        return self.resolve(e.type) if e.type is not None else None

    def resolve(self, t: ast.Type) -> P4Type | None:
        """The type ``t`` names (unknown type: CompileError; unfoldable width: None)."""
        try:
            return resolve(t, self.scope)
        except NotConstant:
            return None

    def constant(self, e: ast.Expression) -> Any:
        try:
            value, _ = fold(e, self.scope)
        except NotConstant:
            return None
        return value

    # ------------------------------------------------------------------ members
    def _Member(self, e: ast.Member) -> Typed:
        base = self.eval(e.expr)
        return self.member(base, e, called=False)

    def member(self, base: Typed, e: ast.Member, called: bool) -> Typed:
        name = e.member
        if base == Named("error"):
            if not isinstance(self.scope.root().lookup(f"error.{name}"), ErrorMemberBinding):
                raise CompileError(e.span, f"unknown error 'error.{name}'")
            return ErrorT()
        if isinstance(base, Named) and isinstance(base.binding, TypeBinding) and \
                isinstance(base.binding.type, EnumT):
            enum = base.binding.type
            if enum.value_of(name) is None:
                raise CompileError(e.span, f"enum '{enum.name}' has no member '{name}'")
            return enum
        if isinstance(base, TableResult):
            return BoolT() if name in ("hit", "miss") else None
        if isinstance(base, HeaderT):
            t = base.field_type(name)
            nested = dict(base.nested).get(name)
            if t is not None or nested is not None:
                return t if t is not None else nested
            if name in HEADER_METHODS:
                return None
            raise CompileError(e.span, f"header '{base.name}' has no field '{name}'")
        if isinstance(base, UnionT):
            t = base.field_type(name)
            if t is None and name not in HEADER_METHODS:
                raise CompileError(e.span, f"header_union '{base.name}' has no member "
                                   f"'{name}'")
            return t
        if isinstance(base, StructT):
            t = base.field_type(name)
            if t is None and not called:
                raise CompileError(e.span, f"struct '{base.name}' has no field '{name}'")
            return t
        if isinstance(base, StackT):
            return self._stack_member(base, e)
        if isinstance(base, (BitsT, BoolT, IntT)):
            raise CompileError(e.span, f"a value of type {base.describe()} has no "
                               f"member '{name}'")
        return None

    def _stack_member(self, stack: StackT, e: ast.Member) -> Typed:
        if e.member == "size":
            return BitsT(32)
        if e.member in ("next", "last", "lastIndex"):
            if not self.in_parser:
                # P4_16 (header stacks) and p4c's type checker, in p4c's words
                raise CompileError(e.span, f"{unparse(e.expr)}.{e.member}: " + (
                    "'lastIndex' for stacks can only be used in a parser"
                    if e.member == "lastIndex" else
                    "'last', and 'next' for stacks can only be used in a parser"))
            return BitsT(32) if e.member == "lastIndex" else stack.element
        return None

    def _ArrayIndex(self, e: ast.ArrayIndex) -> Typed:
        base = self.type_of(e.expr)
        self.type_of(e.index)
        if isinstance(base, StackT):
            i = self.constant(e.index)
            if isinstance(i, int) and not isinstance(i, bool) and not 0 <= i < base.size:
                name = e.expr.member if isinstance(e.expr, ast.Member) else unparse(e.expr)
                raise CompileError(e.index.span, f"index {i} is out of bounds for "
                                   f"{name}[{base.size}]")
            return base.element
        if isinstance(base, TupleT):
            i = self.constant(e.index)
            if isinstance(i, int) and 0 <= i < len(base.elements):
                return base.elements[i]
        return None

    def _Slice(self, e: ast.Slice) -> Typed:
        base = self.type_of(e.expr)
        self.type_of(e.hi)
        self.type_of(e.lo)
        hi, lo = self.constant(e.hi), self.constant(e.lo)
        if not isinstance(hi, int) or not isinstance(lo, int) or isinstance(hi, bool) \
                or isinstance(lo, bool):
            return None
        if isinstance(base, BitsT) and not (0 <= lo <= hi < base.width):
            raise CompileError(e.span, f"slice [{hi}:{lo}] is out of range for "
                               f"{base.describe()}")
        if isinstance(base, (BitsT, IntT)) and 0 <= lo <= hi:
            return BitsT(hi - lo + 1)
        return None

    # ------------------------------------------------------------------ operators
    def _Unary(self, e: ast.Unary) -> Typed:
        t = self.type_of(e.operand)
        if t is None:
            return BoolT() if e.op == "!" else None
        if e.op == "!":
            if not isinstance(t, BoolT):
                raise CompileError(e.span, f"'!' needs a bool operand, not {t.describe()}")
            return t
        if not isinstance(t, (BitsT, IntT)):
            raise CompileError(e.span, f"'{e.op}' cannot be applied to {t.describe()}")
        return t

    def _Binary(self, e: ast.Binary) -> Typed:
        left, right = self.type_of(e.left), self.type_of(e.right)
        if e.op in ("&&&", ".."):
            self._keyset_operands(e, left, right)
            return None
        self._constant_operands(e)
        boolean = e.op in ops.LOGIC_OPS or e.op in ops.COMPARE_OPS or \
            e.op in ops.EQUALITY_OPS
        if left is None or right is None:
            return BoolT() if boolean else None
        if left != right:
            left, right = _underlying(left), _underlying(right)
        if not isinstance(left, _OPERANDS) or not isinstance(right, _OPERANDS):
            return BoolT() if boolean else None
        _, result = ops.binary_result_type(e.op, left, right, e.span)
        return result

    def _keyset_operands(self, e: ast.Binary, left: Typed, right: Typed) -> None:
        """A mask or range joins two values of one type (an untyped integer adapts);
        a constant range runs upwards."""
        if isinstance(left, BitsT) and isinstance(right, BitsT) and left != right:
            raise CompileError(e.span, f"the operands of '{e.op}' have different types: "
                               f"{left.describe()} and {right.describe()}")
        if e.op == "..":
            low, high = self.constant(e.left), self.constant(e.right)
            if isinstance(low, int) and isinstance(high, int) and low > high:
                raise CompileError(e.span, f"the range {low} .. {high} is empty: its end is "
                                   "below its start")

    def _constant_operands(self, e: ast.Binary) -> None:
        """What P4 leaves undefined, wherever the operands are constants: a shift by a
        negative amount, division or modulo by zero or of negative numbers."""
        if e.op in ops.SHIFT_OPS:
            amount = self.constant(e.right)
            if _negative(amount):
                raise CompileError(e.right.span, f"a shift by a negative amount ({amount}) "
                                   "is not permitted")
        elif e.op in ("/", "%"):
            word = "division" if e.op == "/" else "modulo"
            divisor = self.constant(e.right)
            if isinstance(divisor, int) and not isinstance(divisor, bool) and divisor == 0:
                raise CompileError(e.right.span, f"{word} by zero")
            for side in (e.left, e.right):
                value = self.constant(side)
                if _negative(value):
                    raise CompileError(side.span, f"{word} is not defined on negative "
                                       f"numbers ({value})")
            self._compile_time_division(e, word, divisor)

    def _compile_time_division(self, e: ast.Binary, word: str, divisor: Any) -> None:
        """'/' and '%' exist only at compile time: p4c folds constants, turns a division
        or modulo by a power of two into a shift or a mask, and refuses what is left
        ("could not evaluate expression at compilation time", its p4_16_errors div3.p4).
        A plain name is given the benefit of the doubt: p4c's copy propagation may
        make a local variable a constant."""
        if isinstance(divisor, int) and not isinstance(divisor, bool):
            if divisor > 0 and divisor & (divisor - 1) == 0:
                return                   # a shift or a mask
            runtime = e.left             # a constant divisor: the dividend must be constant
            if self.constant(runtime) is not None:
                return
        else:
            runtime = e.right
        if isinstance(runtime, ast.Name):
            return
        raise CompileError(e.span, f"{word} of a value known only at run time: '{e.op}' is "
                           "computed at compile time only (on constants, or by a power-of-two "
                           "constant, which becomes a shift or a mask), as in p4c")

    def _Ternary(self, e: ast.Ternary) -> Typed:
        cond = self.type_of(e.cond)
        if cond is not None and not isinstance(cond, BoolT):
            raise CompileError(e.cond.span, "the condition of '?:' must be bool")
        then, other = self.type_of(e.then), self.type_of(e.otherwise)
        if isinstance(then, (BitsT, IntT)) and isinstance(other, (BitsT, IntT)):
            return ops.unify("?:", then, other, e.span)
        return then if then == other else None

    def _Cast(self, e: ast.Cast) -> Typed:
        source, target = self.type_of(e.expr), self.resolve(e.type)
        if isinstance(source, BoolT) and isinstance(target, BitsT) and target.width != 1:
            raise CompileError(e.span, f"cannot cast bool to {target.describe()}")
        if isinstance(source, BitsT) and isinstance(target, BitsT):
            if source.signed != target.signed and source.width != target.width:
                raise CompileError(e.span, f"cannot cast {source.describe()} to "
                                   f"{target.describe()} in one step: a cast changes the "
                                   "width or the signedness, not both")
            if target.new_type is not None and (source.width, source.signed) != \
                    (target.width, target.signed):
                raise CompileError(e.span, f"cannot cast {source.describe()} to "
                                   f"{target.new_type.name}, a type over "
                                   f"{BitsT(target.width, target.signed).describe()}: cast "
                                   "to that first")
        return target

    def _ListExpression(self, e: ast.ListExpression) -> Typed:
        for x in e.elements:
            self.type_of(x)
        return None

    def _StructExpression(self, e: ast.StructExpression) -> Typed:
        for f in e.fields:
            self.type_of(f.value)
        return self.resolve(e.type) if e.type is not None else None

    def _SelectExpression(self, e: ast.SelectExpression) -> Typed:
        for x in e.exprs:
            self.type_of(x)
        return None

    def _ConstructorCall(self, e: ast.ConstructorCall) -> Typed:
        for a in e.args:
            self.type_of(a.value)
        return None

    def _MethodCall(self, e: ast.MethodCall) -> Typed:
        """Calls are typed by calls.CallTyper; here only their arguments are visited."""
        for a in e.args:
            self.type_of(a.value)
        return None


def _underlying(t: P4Type) -> P4Type:
    return t.underlying if isinstance(t, EnumT) and t.underlying is not None else t


def assignable(target: P4Type | None, source: P4Type | None) -> bool:
    """False only when a value of ``source`` certainly cannot be stored in ``target``
    without a cast (int literals adapt; a serializable enum converts to its type)."""
    if target is None or source is None:
        return True
    if isinstance(target, BitsT):
        if isinstance(source, (IntT, TypeVarT)):
            return True
        if isinstance(source, EnumT):   # lowering reports a plain enum; be as lax
            return source.underlying is None or source.underlying == target
        if isinstance(source, BitsT):
            # a `type` converts to and from its underlying type only by a cast
            return source == target and source.new_type_name == target.new_type_name
        return not isinstance(source, (BoolT, HeaderT, StructT, UnionT, StackT, StringT))
    if isinstance(target, BoolT):
        return not isinstance(source, (BitsT, IntT, HeaderT, StructT, UnionT, StackT,
                                       EnumT, ErrorT, StringT))
    if isinstance(target, AggregateT) and isinstance(source, AggregateT):
        # headers, unions and structs are named types: equal fields do not make them one
        return type(target) is type(source) and target.name == source.name
    if isinstance(target, StringT):
        return isinstance(source, (StringT, TypeVarT))
    if isinstance(target, IntT):
        return isinstance(source, (IntT, BitsT, TypeVarT))
    return True


def _negative(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value < 0


def check_assignable(target: P4Type | None, source: P4Type | None, span: SourceSpan) -> None:
    if not assignable(target, source):
        assert target is not None and source is not None
        if isinstance(target, BitsT) and isinstance(source, BitsT) and target == source:
            raise CompileError(span, f"type mismatch: expected {target.describe_named()}, "
                               f"got {source.describe_named()}: a 'type' converts to and "
                               "from its underlying type only by an explicit cast")
        raise CompileError(span, f"type mismatch: expected {target.describe()}, got "
                           f"{source.describe()}")


def extern_decl(t: ExternT, scope: Scope) -> ast.ExternDecl | None:
    binding = scope.root().lookup(t.name)
    if isinstance(binding, DeclBinding) and isinstance(binding.decl, ast.ExternDecl):
        return binding.decl
    return None
