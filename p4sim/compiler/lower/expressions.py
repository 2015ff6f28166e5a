"""Expression lowering: AST expressions to typed BMv2 JSON values, folding constants.

Arithmetic in BMv2 is unbounded, so results that can leave their P4 width (``+``,
``-``, ``*``, ``<<``, ``~``, negation, narrowing casts) are masked as p4c does.
"""
from __future__ import annotations

from typing import Any, Callable

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.limits import MAX_WIDTH
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.lower.aggregate_ternary import AGGREGATE_TYPES, choose_aggregate
from p4sim.compiler.lower.static_assert import is_static_assert, static_assert_value
from p4sim.compiler.lower.storage import (
    DynFieldRef, DynHeaderRef, DynUnionRef, FieldRef, HeaderRef, ParamRef, StackRef, StructRef,
    UnionRef, stack_element)
from p4sim.compiler.lower.values import Val, const_val
from p4sim.compiler.semantic import operators as ops
from p4sim.compiler.semantic.scope import (
    ConstBinding, ErrorMemberBinding, Scope, StructValue, TypeBinding, resolve_type)
from p4sim.compiler.lower.equality import AGGREGATES, aggregate_equal, compare_with_invalid
from p4sim.compiler.semantic.types import (
    BitsT, BoolT, EnumT, ErrorT, HeaderT, IntT, P4Type, StringT, StructT, TupleT, UnionT,
    VarbitT)

CallHook = Callable[[ast.MethodCall, "ExprLowerer"], Val]

_JSON_OPS = {"&&": "and", "||": "or"}


class ReadOnly:
    """A binding that may be read but not written (``in`` parameters)."""

    def __init__(self, inner: Any, reason: str):
        self.inner = inner
        self.reason = reason


class StackMember:
    """``stack.next`` / ``stack.last`` before it is used (meaning depends on context);
    ``member``: a header of a union stack's next element (``stack.next.h``)."""

    def __init__(self, stack: StackRef, which: str, member: str | None = None):
        self.stack = stack
        self.which = which
        self.member = member


def _struct_constant(value: StructValue, t: P4Type) -> Val:
    """A struct constant as a built struct value: its fields are constants."""
    items = tuple((name, _struct_constant(v, ft) if isinstance(v, StructValue) else
                   const_val(v, ft)) for name, v, ft in value.fields)
    made = Val(t, None, ref=("struct", items, None))
    made.readonly = "it is a constant"
    return made


class ExprLowerer:
    """Lowers expressions in one scope. ``call_hook`` handles method calls (externs,
    isValid, lookahead...) so that this module knows nothing about architectures."""

    def __init__(self, scope: Scope, call_hook: CallHook | None = None):
        self.scope = scope
        self.call_hook = call_hook

    # ------------------------------------------------------------------ entry points
    def const_eval(self, e: ast.Expression, scope: Scope) -> tuple[Any, P4Type]:
        val = ExprLowerer(scope, None).lower(e)
        if val.const is None:
            raise CompileError(e.span, "expected a compile-time constant")
        return val.const, val.type  # type: ignore[return-value]

    def key_constant(self, e: ast.Expression, width: int, what: str) -> int:
        """A constant matched against a ``width``-bit key (select cases, table entries):
        of that width when typed, and fitting in it."""
        val = self.lower(e)
        if not val.is_const:
            raise CompileError(e.span, f"{what} values must be constants")
        v = int(val.const)
        if isinstance(val.type, BitsT) and val.type.width != width:
            raise CompileError(e.span, f"{what} value has type {val.type.describe()} but "
                               f"the key is bit<{width}>")
        if v < 0 or v >> width:
            raise CompileError(e.span, f"value {v} does not fit in the {width}-bit key")
        return v

    def resolve(self, t: ast.Type) -> P4Type:
        return resolve_type(t, self.scope, self.const_eval)

    def lower(self, e: ast.Expression) -> Val:
        method = getattr(self, "_" + type(e).__name__, None)
        if method is None:
            raise CompileError(e.span, f"unsupported expression ({type(e).__name__})")
        return method(e)

    def lower_typed(self, e: ast.Expression, target: P4Type) -> Val:
        """Lower ``e`` where a value of type ``target`` is expected (int literals
        adapt; anything else must match exactly)."""
        if isinstance(e, ast.InvalidHeader) and isinstance(target, (HeaderT, UnionT)):
            return Val(target, None, ref=("invalid", e))
        if isinstance(e, ast.StructExpression) and e.rest and \
                isinstance(target, (StructT, HeaderT)):
            return self.lower(with_defaults(e, target))
        if isinstance(e, (ast.ListExpression, ast.StructExpression)) and \
                isinstance(target, (StructT, HeaderT, TupleT)):
            return self.lower(e)
        val = self.lower(e)
        return self.convert(val, target, e.span)

    def convert(self, val: Val, target: P4Type, span: SourceSpan) -> Val:
        t = val.type
        if t == target or isinstance(target, IntT) and isinstance(t, IntT):
            return val
        if isinstance(target, BitsT) and isinstance(t, IntT) and val.is_const:
            v = val.const
            limit_ok = (0 <= v <= target.mask) if not target.signed else \
                (-(1 << (target.width - 1)) <= v < (1 << target.width))
            if not limit_ok and not (v < 0 and -v <= (1 << target.width)):
                raise CompileError(span, f"value {v} does not fit in {target.describe()}")
            return const_val(ops.wrap(v, target), target)
        if isinstance(target, IntT) and isinstance(t, BitsT):
            return val
        if isinstance(target, EnumT) and isinstance(t, EnumT) and target.name == t.name:
            return val
        if isinstance(t, EnumT) and t.underlying is not None and t.underlying == target:
            # P4's one implicit cast besides int's: a serializable enum to its type
            return Val(t.underlying, val.json, val.const, val.ref)
        raise CompileError(span, f"type mismatch: expected {target.describe()}, got "
                           f"{t.describe() if t else 'a non-value'}")

    # ------------------------------------------------------------------ literals
    def _IntLiteral(self, e: ast.IntLiteral) -> Val:
        if e.width is None:
            return const_val(e.value, IntT())
        t = BitsT(e.width, e.signed)
        v = e.value
        if not e.signed and (v < 0 or v > t.mask):
            raise CompileError(e.span, f"value {v} does not fit in {t.describe()}")
        return const_val(ops.wrap(v, t), t)

    def _BoolLiteral(self, e: ast.BoolLiteral) -> Val:
        return const_val(bool(e.value), BoolT())

    def _StringLiteral(self, e: ast.StringLiteral) -> Val:
        return Val(StringT(), const=e.value)

    def _InvalidHeader(self, e: ast.InvalidHeader) -> Val:
        """An invalid header value; untyped inside an initializer, whose assignment
        gives it the field's type."""
        t = self.resolve(e.type) if e.type is not None else None
        if t is not None and not isinstance(t, (HeaderT, UnionT)):
            raise CompileError(e.span, f"'{{#}}' is a header value, not {t.describe()}")
        return Val(t, None, ref=("invalid", e))

    def _DefaultExpression(self, e: ast.DefaultExpression) -> Val:
        raise CompileError(e.span, "'default' is only allowed as a select or switch label")

    def _DontCare(self, e: ast.DontCare) -> Val:
        raise CompileError(e.span, "'_' is only allowed in keysets and as an out argument")

    # ------------------------------------------------------------------ names
    def _Name(self, e: ast.Name) -> Val:
        binding = self.scope.root().lookup(e.name) if e.top_level else \
            self.scope.lookup(e.name)
        if binding is None:
            raise CompileError(e.span, f"undeclared name '{e.name}'")
        if isinstance(binding, ReadOnly):
            val = self.from_binding(binding.inner, e.span)
            val.readonly = binding.reason
            return val
        return self.from_binding(binding, e.span)

    def from_binding(self, binding: Any, span: SourceSpan) -> Val:
        if isinstance(binding, ConstBinding):
            if isinstance(binding.type, StringT):
                return Val(StringT(), const=binding.value)
            if isinstance(binding.value, StructValue):
                return _struct_constant(binding.value, binding.type)
            return const_val(binding.value, binding.type)
        if isinstance(binding, (FieldRef, DynFieldRef, ParamRef)):
            if isinstance(binding.type, BoolT):
                return Val(BoolT(), J.op("d2b", None, binding.json()), ref=binding)
            return Val(binding.type, binding.json(), ref=binding)
        if isinstance(binding, (HeaderRef, StackRef, UnionRef, DynHeaderRef, DynUnionRef)):
            return Val(binding.type, binding.json(), ref=binding)
        if isinstance(binding, StructRef):
            return Val(binding.type, None, ref=binding)
        if isinstance(binding, Val):
            return binding
        return Val(None, ref=binding)

    def _TypeNameExpression(self, e: ast.TypeNameExpression) -> Val:
        if isinstance(e.type, ast.ErrorType):
            return Val(None, ref="error")
        return Val(None, ref=TypeBinding(self.resolve(e.type)))

    def _Member(self, e: ast.Member) -> Val:
        if isinstance(e.expr, ast.Name) and e.expr.name == "error" or \
                isinstance(e.expr, ast.TypeNameExpression) and isinstance(e.expr.type, ast.ErrorType):
            binding = self.scope.root().lookup(f"error.{e.member}")
            if not isinstance(binding, ErrorMemberBinding):
                raise CompileError(e.span, f"unknown error 'error.{e.member}'")
            return const_val(binding.value, ErrorT())
        base = self.lower(e.expr)
        result = self.member(base, e.member, e.span)
        result.readonly = result.readonly or base.readonly
        return result

    def member(self, base: Val, name: str, span: SourceSpan) -> Val:
        ref = base.ref
        if isinstance(ref, StackMember) and ref.member is None and \
                isinstance(ref.stack.type.element, UnionT):
            ftype = ref.stack.type.element.field_type(name)
            if ftype is None:
                raise CompileError(span, f"header_union '{ref.stack.type.element.name}' "
                                   f"has no member '{name}'")
            return Val(ftype, None, ref=StackMember(ref.stack, ref.which, name))
        if isinstance(ref, tuple) and ref and ref[0] == "struct" and \
                isinstance(base.type, StructT):
            for field_name, field_val in ref[1]:
                if field_name == name:
                    return field_val  # type: ignore[no-any-return]
            raise CompileError(span, f"struct '{base.type.name}' has no field '{name}'")
        if isinstance(ref, TypeBinding) and isinstance(ref.type, EnumT):
            value = ref.type.value_of(name)
            if value is None:
                raise CompileError(span, f"enum '{ref.type.name}' has no member '{name}'")
            return const_val(value, ref.type)
        if isinstance(ref, StructRef):
            member = ref.member(name)
            if member is None:
                raise CompileError(span, f"struct '{ref.type.name}' has no field '{name}'")
            return self.from_binding(member, span)
        if isinstance(ref, (HeaderRef, DynHeaderRef)):
            fref = ref.field(name)
            if fref is None:
                if name in ("isValid", "setValid", "setInvalid"):
                    return Val(None, ref=(ref, name))
                raise CompileError(span, f"header '{ref.type.name}' has no field '{name}'")
            return self.from_binding(fref, span)
        if isinstance(ref, (UnionRef, DynUnionRef)):
            member = ref.member(name)
            if member is None:
                if name == "isValid":
                    return Val(None, ref=(ref, name))
                raise CompileError(span, f"header_union '{ref.type.name}' has no member "
                                   f"'{name}'")
            return self.from_binding(member, span)
        if isinstance(ref, StackRef):
            if name == "size":
                return const_val(ref.type.size, BitsT(32))
            if name == "lastIndex":
                return Val(BitsT(32), J.op("last_stack_index", None, ref.json()))
            if name in ("next", "last"):
                owner = getattr(self, "owner", None)
                if owner is None or owner.mode != "parser":
                    # P4_16 (header stacks) and p4c's type checker, in p4c's words
                    raise CompileError(span, f"{ref.name}.{name}: 'last', and 'next' for "
                                       "stacks can only be used in a parser")
                if name == "last":
                    index = J.op("last_stack_index", None, ref.json())
                    return self.from_binding(stack_element(ref, index), span)
                return Val(ref.type.element, None, ref=StackMember(ref, name))
            return Val(None, ref=(ref, name))
        if base.type is not None and isinstance(base.type, (BitsT, BoolT, IntT)):
            raise CompileError(span, f"a value of type {base.type.describe()} has no "
                               f"member '{name}'")
        return Val(None, ref=(ref, name))

    def _ArrayIndex(self, e: ast.ArrayIndex) -> Val:
        base = self.lower(e.expr)
        if isinstance(base.ref, StructRef) and base.ref.type.name == "tuple":
            position = self.const_int(e.index)
            member = base.ref.member(f"f{position}")
            if member is None:
                raise CompileError(e.index.span, f"tuple index {position} is out of range")
            return self.from_binding(member, e.span)
        if not isinstance(base.ref, StackRef):
            raise CompileError(e.span, "only header stacks and tuples can be indexed")
        stack: StackRef = base.ref
        index = self.lower(e.index)
        if index.is_const:
            i = index.const
            if not 0 <= i < stack.type.size:
                raise CompileError(e.index.span, f"index {i} is out of bounds for "
                                   f"{stack.name}[{stack.type.size}]")
            result = self.from_binding(stack.elements[i], e.span)
            result.readonly = base.readonly
            return result
        if not isinstance(index.type, BitsT):
            raise CompileError(e.index.span, "a stack index must be a bit<W> value")
        return self.from_binding(stack_element(stack, index.data(e.span)), e.span)

    # ------------------------------------------------------------------ operators
    def _Slice(self, e: ast.Slice) -> Val:
        base = self.lower(e.expr)
        hi = self.const_int(e.hi)
        lo = self.const_int(e.lo)
        t = base.type
        if isinstance(t, IntT) and base.is_const:
            width = hi - lo + 1
            if not 0 <= lo <= hi or width > MAX_WIDTH:
                raise CompileError(e.span, f"slice [{hi}:{lo}] of an int constant must have "
                                   f"0 <= low <= high and a width of at most {MAX_WIDTH}")
            return const_val((base.const >> lo) & ((1 << width) - 1), BitsT(width))
        if not isinstance(t, BitsT):
            raise CompileError(e.span, "only bit<W> and int<W> values can be sliced")
        if not (0 <= lo <= hi < t.width):
            raise CompileError(e.span, f"slice [{hi}:{lo}] is out of range for "
                               f"{t.describe()}")
        width = hi - lo + 1
        rt = BitsT(width)
        if base.is_const:
            return const_val((ops.wrap(base.const, BitsT(t.width)) >> lo) & rt.mask, rt)
        data = base.data(e.span)
        shifted = J.op(">>", data, J.hexstr(lo, 32)) if lo else data
        ref = ("slice", base.ref, hi, lo) if base.ref is not None else None
        if isinstance(base.ref, tuple) and base.ref and base.ref[0] == "slice":
            _, field, _, outer_lo = base.ref   # x[a:b][c:d] is x[b+c:b+d]
            ref = ("slice", field, outer_lo + hi, outer_lo + lo)
        return Val(rt, J.mask(shifted, width) if width < t.width or lo else data, ref=ref)

    def const_int(self, e: ast.Expression) -> int:
        val = self.lower(e)
        if not val.is_const or isinstance(val.const, bool):
            raise CompileError(e.span, "expected an integer constant")
        return int(val.const)

    def _Unary(self, e: ast.Unary) -> Val:
        val = self.lower(e.operand)
        t = val.type
        if e.op == "!":
            if not isinstance(t, BoolT):
                raise CompileError(e.span, f"'!' needs a bool operand, not "
                                   f"{t.describe() if t else 'this'}")
            if val.is_const:
                return const_val(not val.const, BoolT())
            return Val(BoolT(), J.op("not", None, val.cond(e.span)))
        if not isinstance(t, (BitsT, IntT)):
            raise CompileError(e.span, f"'{e.op}' cannot be applied to "
                               f"{t.describe() if t else 'this'}")
        if e.op == "+":
            return val
        if val.is_const:
            if e.op == "-":
                return const_val(ops.wrap(-val.const, t), t)
            if e.op == "~":
                if isinstance(t, IntT):
                    raise CompileError(e.span, "'~' needs a fixed-width operand")
                return const_val(ops.wrap(~val.const, t), t)
        assert isinstance(t, BitsT)
        data = val.data(e.span)
        if e.op == "-":
            return Val(t, self.fit(J.op("-", J.hexstr(0, t.width), data), t))
        if e.op == "~":
            return Val(t, self.fit(J.op("~", None, data), t))
        raise CompileError(e.span, f"unsupported operator '{e.op}'")

    @staticmethod
    def fit(value: J.Json, t: P4Type) -> J.Json:
        """Bring an unbounded BMv2 result back to the P4 width."""
        if isinstance(t, BitsT):
            if t.signed:
                return J.op("two_comp_mod", value, J.hexstr(t.width, 32))
            return J.mask(value, t.width)
        return value

    def _Binary(self, e: ast.Binary) -> Val:
        if e.op in ("&&&", ".."):
            raise CompileError(e.span, f"'{e.op}' is only allowed in keysets")
        left = self.lower(e.left)
        if e.op in ("&&", "||") and left.is_const and isinstance(left.type, BoolT):
            if (e.op == "&&") != bool(left.const):  # short-circuit
                return const_val(bool(left.const), BoolT())
            right = self.lower(e.right)
            return right if isinstance(right.type, BoolT) else \
                self._binary(e, left, right)
        if _has_call(e.right):
            left = self._settle(left, e.left.span)
        right = self.lower(e.right)
        return self._binary(e, left, right)

    def _settle(self, val: Val, span: SourceSpan) -> Val:
        """``val`` as read now: a value read from storage is copied to a temporary when
        a call later in the same expression may change that storage (P4 evaluates
        left to right; p4c's side-effect ordering does the same)."""
        owner = getattr(self, "owner", None)
        if owner is None or val.is_const or not isinstance(val.type, (BitsT, BoolT)):
            return val
        if val.ref is not None and not isinstance(val.ref, (FieldRef, DynFieldRef)):
            return val
        temp = owner.lw.layout.temp(val.type)
        owner.store(temp, val, span)
        return self.from_binding(temp, span)

    def _binary(self, e: ast.Binary, left: Val, right: Val) -> Val:
        op = e.op
        invalid = compare_with_invalid(op, left, right, e.span) if op in ("==", "!=") else None
        if invalid is not None:  # h == {#}
            return invalid
        for side in (left, right):
            if side.type is None:
                raise CompileError(e.span, f"operator '{op}' needs values")
        if left.type != right.type:
            left, right = _enum_as_underlying(left), _enum_as_underlying(right)
        if op in ops.EQUALITY_OPS and isinstance(left.type, StructT) and \
                _is_built(right) and not _is_built(left):
            right = Val(left.type, None, ref=right.ref)  # {..} takes the struct's type
        elif op in ops.EQUALITY_OPS and isinstance(right.type, StructT) and \
                _is_built(left) and not _is_built(right):
            left = Val(right.type, None, ref=left.ref)
        operand, result = ops.binary_result_type(op, left.type, right.type, e.span)  # type: ignore[arg-type]
        if isinstance(operand, AGGREGATES) and op in ops.EQUALITY_OPS:
            same = aggregate_equal(self, left.ref, right.ref, e.span)
            return Val(BoolT(), same if op == "==" else J.op("not", None, same))
        if isinstance(operand, VarbitT) and op in ops.EQUALITY_OPS:
            # BMv2 compares the two fields' current values (as p4c emits it)
            return Val(BoolT(), J.op(op, left.data(e.span), right.data(e.span)))
        if not isinstance(operand, (BitsT, IntT, BoolT, EnumT, ErrorT)):
            raise CompileError(e.span, f"operator '{op}' on {operand.describe()} values is not "
                               "supported by this target")
        if op in ("<<", ">>") and isinstance(left.type, IntT) and not right.is_const:
            raise CompileError(e.span, "shifting an int constant needs a constant amount")
        if left.is_const and right.is_const:
            lv, rv = left.const, right.const
            if op not in ("<<", ">>", "++", "&&", "||"):
                lv = self.convert(left, operand, e.span).const if \
                    isinstance(left.type, IntT) and isinstance(operand, BitsT) else lv
                rv = self.convert(right, operand, e.span).const if \
                    isinstance(right.type, IntT) and isinstance(operand, BitsT) else rv
            rw = right.type.width if isinstance(right.type, BitsT) else None
            return const_val(ops.fold_binary(op, lv, rv, operand, result, e.span, rw), result)
        if op in ("&&", "||"):
            return Val(BoolT(), J.op(_JSON_OPS[op], left.cond(e.span), right.cond(e.span)))
        if op in ("==", "!=") and isinstance(operand, BoolT):
            return Val(BoolT(), J.op(op, left.data(e.span), right.data(e.span)))
        if op in ("<<", ">>"):
            ldata = left.data(e.span)
            rdata = right.data(e.span)
            raw = J.op(op, ldata, rdata)
            return Val(result, self.fit(raw, result) if op == "<<" else raw)
        if op == "++":
            assert isinstance(right.type, BitsT) and isinstance(result, BitsT)
            shifted = J.op("<<", left.data(e.span), J.hexstr(right.type.width, 32))
            rdata = right.data(e.span)
            if right.type.signed:
                rdata = J.mask(rdata, right.type.width)
            return Val(result, self.fit(J.op("|", shifted, rdata), result))
        lconv = self.convert(left, operand, e.span) if isinstance(left.type, IntT) else left
        rconv = self.convert(right, operand, e.span) if isinstance(right.type, IntT) else right
        ldata, rdata = lconv.data(e.span), rconv.data(e.span)
        if op in ops.COMPARE_OPS or op in ops.EQUALITY_OPS:
            return Val(BoolT(), J.op(op, ldata, rdata))
        if op in ("&", "|", "^"):
            return Val(result, J.op(op, ldata, rdata))
        if op == "-" and rconv.is_const and isinstance(result, BitsT) and not result.signed:
            # a - c == a + (2^W - c) mod 2^W, as p4c writes it
            neg = ops.wrap(-rconv.const, result)
            return Val(result, self.fit(J.op("+", ldata, J.hexstr(neg, result.width)), result))
        if op in ("+", "-", "*"):
            return Val(result, self.fit(J.op(op, ldata, rdata), result))
        if op in ("/", "%"):
            return self._divide(e, op, ldata, rconv, result)
        if op in ("|+|", "|-|"):
            return Val(result, self._saturating(op, ldata, rdata, result))
        raise CompileError(e.span, f"unsupported operator '{op}'")

    def _divide(self, e: ast.Binary, op: str, ldata: J.Json, right: Val, t: P4Type) -> Val:
        """Division and modulo (unsigned only, as P4 requires); a constant power of two
        becomes a shift or a mask."""
        if isinstance(t, BitsT) and t.signed:
            raise CompileError(e.span, f"'{op}' on signed values is not supported")
        if not right.is_const or right.const <= 0 or right.const & (right.const - 1):
            return Val(t, J.op(op, ldata, right.data(e.span)))
        shift = right.const.bit_length() - 1
        if op == "/":
            return Val(t, J.op(">>", ldata, J.hexstr(shift, 32)) if shift else ldata)
        width = t.width if isinstance(t, BitsT) else None
        return Val(t, J.op("&", ldata, J.hexstr(right.const - 1, width)))

    def _saturating(self, op: str, left: J.Json, right: J.Json, t: P4Type) -> J.Json:
        assert isinstance(t, BitsT)
        if t.signed:
            name = "sat_cast"
            raw = J.op("+" if op == "|+|" else "-", left, right)
            return J.op(name, raw, J.hexstr(t.width, 32))
        if op == "|+|":
            total = J.op("+", left, right)
            return J.op("?", J.hexstr(t.mask, t.width), total,
                        J.op(">", total, J.hexstr(t.mask, t.width)))
        return J.op("?", J.op("-", left, right), J.hexstr(0, t.width), J.op(">", left, right))

    def _Ternary(self, e: ast.Ternary) -> Val:
        cond = self.lower(e.cond)
        if not isinstance(cond.type, BoolT):
            raise CompileError(e.cond.span, "the condition of '?:' must be bool")
        owner = getattr(self, "owner", None)
        start = len(owner.out) if owner is not None else 0
        then = self.lower(e.then)
        if not cond.is_const and isinstance(then.type, AGGREGATE_TYPES):
            return choose_aggregate(self, e, cond, then, start)
        other = self.lower(e.otherwise)
        if cond.is_const:
            return then if cond.const else other
        if isinstance(then.type, IntT) and isinstance(other.type, IntT):
            raise CompileError(e.span, "'?:' on int constants needs a width; insert a cast")
        if isinstance(then.type, BoolT) and isinstance(other.type, BoolT):
            t: P4Type = BoolT()
            return Val(t, J.op("?", then.cond(e.span), other.cond(e.span), cond.cond(e.span)))
        t = ops.unify("?:", then.type, other.type, e.span)  # type: ignore[arg-type]
        then = self.convert(then, t, e.then.span)
        other = self.convert(other, t, e.otherwise.span)
        return Val(t, J.op("?", then.data(e.span), other.data(e.span), cond.cond(e.span)))

    def _Cast(self, e: ast.Cast) -> Val:
        target = self.resolve(e.type)
        val = self.lower(e.expr)
        return self.cast(val, target, e.span)

    def cast(self, val: Val, target: P4Type, span: SourceSpan) -> Val:
        src = val.type
        if src == target:
            if isinstance(src, BitsT) and isinstance(target, BitsT) and \
                    src.new_type != target.new_type:
                return Val(target, val.json, val.const, val.ref)  # into or out of a type
            return val
        if isinstance(target, BitsT):
            if isinstance(src, BoolT):
                if target.width != 1:
                    raise CompileError(span, f"cannot cast bool to {target.describe()}")
                if val.is_const:
                    return const_val(int(val.const), target)
                return Val(target, val.data(span))
            if isinstance(src, EnumT) and src.underlying is not None:
                src_t = src.underlying
                val = Val(src_t, val.json, val.const, val.ref)
                return self.cast(val, target, span)
            if isinstance(src, (BitsT, IntT)):
                if val.is_const:
                    return const_val(ops.wrap(val.const, target), target)
                assert isinstance(src, BitsT)
                data = val.data(span)
                if target.signed != src.signed:
                    if target.signed:
                        masked = J.mask(data, target.width) if target.width < src.width else data
                        return Val(target, J.op("two_comp_mod", masked,
                                                J.hexstr(target.width, 32)))
                    return Val(target, J.mask(data, target.width))
                if target.width < src.width:
                    return Val(target, self.fit(data, target))
                if src.signed and target.width > src.width:
                    return Val(target, J.op("two_comp_mod", data, J.hexstr(target.width, 32)))
                return Val(target, data)
        if isinstance(target, BoolT) and isinstance(src, BitsT) and src.width == 1:
            if val.is_const:
                return const_val(bool(val.const), BoolT())
            return Val(BoolT(), J.op("d2b", None, val.data(span)))
        if isinstance(target, IntT) and isinstance(src, (BitsT, IntT)) and val.is_const:
            return const_val(val.const, IntT())
        if isinstance(target, EnumT) and target.underlying is not None and \
                isinstance(src, (BitsT, IntT)):
            inner = self.cast(val, target.underlying, span)
            return Val(target, inner.json, inner.const, inner.ref)
        if isinstance(target, (StructT, HeaderT)) and isinstance(src, TupleT):
            return Val(target, None, ref=val.ref)
        raise CompileError(span, f"cannot cast {src.describe() if src else 'this'} to "
                           f"{target.describe()}")

    # ------------------------------------------------------------------ aggregates
    def _ListExpression(self, e: ast.ListExpression) -> Val:
        vals = self._in_order([x for x in e.elements])
        return Val(TupleT(tuple(v.type for v in vals)), None,  # type: ignore[misc]
                   ref=("list", tuple(vals), e))

    def _in_order(self, exprs: list[ast.Expression]) -> list[Val]:
        """The values of ``exprs`` evaluated left to right: a value is settled before a
        later element's call can change what it read."""
        vals = []
        for i, x in enumerate(exprs):
            val = self.lower(x)
            if any(_has_call(later) for later in exprs[i + 1:]):
                val = self._settle(val, x.span)
            vals.append(val)
        return vals

    def _StructExpression(self, e: ast.StructExpression) -> Val:
        vals = tuple(zip([f.name for f in e.fields],
                         self._in_order([f.value for f in e.fields])))
        t = self.resolve(e.type) if e.type is not None else TupleT(tuple(v.type for _, v in vals))  # type: ignore[misc]
        return Val(t, None, ref=("struct", vals, e))

    def _MethodCall(self, e: ast.MethodCall) -> Val:
        size = self._min_size(e)
        if size is not None:
            return size
        if is_static_assert(e, self.scope):
            return static_assert_value(e, self)
        if self.call_hook is None:
            raise CompileError(e.span, "a method call is not a compile-time constant")
        return self.call_hook(e, self)

    def _min_size(self, e: ast.MethodCall) -> Val | None:
        """``h.minSizeInBits()`` / ``h_t.minSizeInBytes()`` on a header (value or type):
        a compile-time int, usable in constants; varbit fields count as 0 bits."""
        target = e.target
        if not isinstance(target, ast.Member) or e.args or \
                target.member not in ("minSizeInBits", "minSizeInBytes"):
            return None
        base = self.lower(target.expr)
        t = base.ref.type if isinstance(base.ref, TypeBinding) else base.type
        if not isinstance(t, HeaderT):
            return None
        bits = t.width
        return const_val(bits if target.member == "minSizeInBits" else (bits + 7) // 8, IntT())

    def _ConstructorCall(self, e: ast.ConstructorCall) -> Val:
        return Val(None, ref=("construct", e))


def with_defaults(e: ast.StructExpression, t: StructT | HeaderT) -> ast.StructExpression:
    """``{a = 1, ...}`` of type ``t`` with every field it leaves out given its default
    value (P4_16 "default values": 0, false, an invalid header, recursively), so the
    rest of lowering sees a complete initializer."""
    if isinstance(t, HeaderT) and t.nested:
        raise CompileError(e.span, "'...' in a header with struct fields is not supported")
    given = {f.name for f in e.fields}
    fields = list(e.fields)
    for f in t.fields:
        if f.name not in given:
            fields.append(ast.NamedField(f.name, _default_value(f.type, e.span), span=e.span))
    return ast.StructExpression(e.type, tuple(fields), span=e.span)


def _default_value(t: P4Type, span: SourceSpan) -> ast.Expression:
    if isinstance(t, BitsT):
        return ast.IntLiteral(0, t.width, t.signed, span=span)
    if isinstance(t, BoolT):
        return ast.BoolLiteral(False, span=span)
    if isinstance(t, (HeaderT, UnionT)):
        return ast.InvalidHeader(None, span=span)
    if isinstance(t, StructT):
        return with_defaults(ast.StructExpression(None, (), True, span=span), t)
    raise CompileError(span, f"'...' cannot yet give a default value of type {t.describe()}")


def _has_call(e: ast.Expression | None) -> bool:
    """Whether evaluating ``e`` calls a function or method (other than isValid), which
    may change storage read earlier in the enclosing expression."""
    if isinstance(e, ast.MethodCall):
        if not (isinstance(e.target, ast.Member) and e.target.member == "isValid"):
            return True
        return _has_call(e.target.expr)
    if isinstance(e, ast.ListExpression):
        return any(_has_call(x) for x in e.elements)
    if isinstance(e, ast.StructExpression):
        return any(_has_call(f.value) for f in e.fields)
    for attr in ("left", "right", "operand", "expr", "cond", "then", "otherwise", "index",
                 "hi", "lo"):
        sub = getattr(e, attr, None)
        if isinstance(sub, ast.Expression) and _has_call(sub):
            return True
    return False


def _enum_as_underlying(val: Val) -> Val:
    """A serializable enum value, implicitly cast to its underlying bit<W> (an operand
    whose other side is not the same enum)."""
    t = val.type
    if isinstance(t, EnumT) and t.underlying is not None:
        return Val(t.underlying, val.json, val.const, val.ref)
    return val


def _is_built(val: Val) -> bool:
    """Whether ``val`` is a list or struct expression (``{1, 2}``, ``(T){a = 1}``)."""
    return isinstance(val.ref, tuple) and bool(val.ref) and val.ref[0] in ("list", "struct")
