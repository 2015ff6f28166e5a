"""Name resolution: lexical scopes and the bindings names resolve to.

A Scope maps names to bindings; lookups walk outwards through parents. The global
scope is filled from the program's top-level declarations in source order, since P4
requires declaration before use.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.limits import MAX_STACK_SIZE, MAX_WIDTH
from p4sim.compiler.semantic.operators import wrap
from p4sim.compiler.semantic.types import (
    AggregateT, BitsT, BlockT, BoolT, EnumT, ErrorT, ExternT, FieldT, HeaderT, IntT, MatchKindT,
    NewTypeTag, P4Type, StackT, StringT, StructT, TupleT, TypeVarT, UnionT, VarbitT, VoidT)


@dataclass(frozen=True)
class TypeBinding:
    type: P4Type


@dataclass(frozen=True)
class GenericTypeBinding:
    """A struct or header declared with type parameters; specialized where used."""

    decl: ast.HeaderDecl | ast.HeaderUnionDecl | ast.StructDecl
    scope: "Scope"


@dataclass(frozen=True)
class ConstBinding:
    value: Any  # int | bool | str
    type: P4Type


@dataclass(frozen=True)
class DeclBinding:
    """A declaration that is expanded where it is used (action, function, control,
    parser, extern, table...), with the scope it was declared in. A function or
    extern function name's overloads are a tuple of their declarations."""

    decl: ast.Node | tuple[ast.Node, ...]
    scope: "Scope"


@dataclass(frozen=True)
class ErrorMemberBinding:
    name: str
    value: int


class Scope:
    def __init__(self, parent: "Scope | None" = None, prefix: str = ""):
        self.parent = parent
        self.prefix = prefix  # fully qualified name prefix of objects declared here
        self.names: dict[str, Any] = {}
        self.functions_behind_types: dict[str, tuple[ast.Node, ...]] = {}

    def declare(self, name: str, binding: Any) -> None:
        self.names[name] = binding

    def declare_type_beside_functions(self, name: str, binding: Any) -> None:
        """Bind a type declaration; function overloads of that name stay reachable by
        calls (p4c tells a control named verify_checksum from v1model's extern
        function by the call's arguments)."""
        previous = self.names.get(name)
        if isinstance(previous, DeclBinding) and isinstance(previous.decl, tuple):
            self.functions_behind_types[name] = previous.decl
        self.names[name] = binding

    def declare_function(self, name: str, decl: ast.Node) -> None:
        """Add a function or extern function to the overloads of ``name`` (an action of
        that name joins them); behind a type of that name when one holds it."""
        previous = self.names.get(name)
        if isinstance(previous, DeclBinding) and isinstance(previous.decl, tuple):
            self.names[name] = DeclBinding(previous.decl + (decl,), self)
        elif isinstance(previous, DeclBinding) and isinstance(previous.decl, ast.ActionDecl):
            self.names[name] = DeclBinding((previous.decl, decl), self)
        elif previous is not None:
            self.functions_behind_types[name] = \
                self.functions_behind_types.get(name, ()) + (decl,)
        else:
            self.names[name] = DeclBinding((decl,), self)

    def hidden_functions(self, name: str) -> "DeclBinding | None":
        """The function overloads a type of the same name hides, nearest scope first."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.functions_behind_types:
                return DeclBinding(scope.functions_behind_types[name], scope)
            if name in scope.names:
                return None
            scope = scope.parent
        return None

    def lookup(self, name: str) -> Any:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def root(self) -> "Scope":
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def child(self, prefix: str | None = None, names: Mapping[str, Any] | None = None
              ) -> "Scope":
        """A nested scope (same prefix unless given), with ``names`` already bound."""
        scope = Scope(self, self.prefix if prefix is None else prefix)
        if names:
            scope.names.update(names)
        return scope


ConstEval = Callable[[ast.Expression, Scope], tuple[Any, P4Type]]


def const_int(expr: ast.Expression, scope: Scope, const_eval: ConstEval, what: str) -> int:
    value, _ = const_eval(expr, scope)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CompileError(expr.span, f"{what} must be an integer constant")
    return value


def _checked_width(width: int, what: str, span: SourceSpan) -> int:
    if width > MAX_WIDTH:
        raise CompileError(span, f"{what} {width} is too large: the compiler supports "
                           f"widths up to {MAX_WIDTH}, as p4c does")
    return width


def resolve_type(t: ast.Type, scope: Scope, const_eval: ConstEval) -> P4Type:
    """The semantic type an AST type denotes in ``scope``."""
    if isinstance(t, ast.BitType):
        width = const_int(t.width, scope, const_eval, "a type width")
        if width <= 0 or (t.signed and width < 2):
            raise CompileError(t.span, f"invalid width {width} for "
                               f"{'int' if t.signed else 'bit'} type")
        return BitsT(_checked_width(width, "width", t.span), t.signed)
    if isinstance(t, ast.VarbitType):
        width = const_int(t.max_width, scope, const_eval, "a varbit width")
        if width <= 0:
            raise CompileError(t.span, f"invalid maximum width {width} for varbit type")
        # no upper bound: p4c limits bit<W> to 2048 bits but not a varbit's maximum
        return VarbitT(width)
    if isinstance(t, ast.IntType):
        return IntT()
    if isinstance(t, ast.BoolType):
        return BoolT()
    if isinstance(t, ast.StringType):
        return StringT()
    if isinstance(t, ast.VoidType):
        return VoidT()
    if isinstance(t, ast.ErrorType):
        return ErrorT()
    if isinstance(t, ast.MatchKindType):
        return MatchKindT()
    if isinstance(t, ast.DontCareType):
        return TypeVarT("_")
    if isinstance(t, ast.StackType):
        element = resolve_type(t.element, scope, const_eval)
        size = const_int(t.size, scope, const_eval, "a header stack size")
        if size <= 0:
            raise CompileError(t.size.span, "header stack size must be positive")
        if size > MAX_STACK_SIZE:
            raise CompileError(t.size.span, f"header stack size {size} is too large: the "
                               f"compiler supports up to {MAX_STACK_SIZE}, as p4c does")
        return StackT(element, size)
    if isinstance(t, ast.TupleType):
        return TupleT(tuple(resolve_type(e, scope, const_eval) for e in t.elements))
    if isinstance(t, ast.NamedType):
        binding = scope.root().lookup(t.name) if t.top_level else scope.lookup(t.name)
        if binding is None:
            raise CompileError(t.span, f"unknown type '{t.name}'")
        if isinstance(binding, TypeBinding):
            if t.type_args:
                raise CompileError(t.span, f"'{t.name}' is not generic: it takes no type "
                                   f"arguments, and {len(t.type_args)} are given")
            return binding.type
        if isinstance(binding, GenericTypeBinding):
            return _specialize(binding, t, scope, const_eval)
        if isinstance(binding, DeclBinding):
            decl = binding.decl
            args = tuple(resolve_type(a, scope, const_eval) for a in t.type_args)
            if isinstance(decl, ast.ExternDecl):
                # fewer may be given: the bundled v1model declares register<T, I> and
                # counter<I>, which programs for older v1model versions write as
                # register<T> and counter
                if len(args) > len(decl.type_params):
                    raise CompileError(t.span, f"extern '{decl.name}' has "
                                       f"{len(decl.type_params)} type parameter(s), but "
                                       f"{len(args)} type arguments are given")
                return ExternT(decl.name, args)
            if isinstance(decl, (ast.ParserDecl, ast.ControlDecl, ast.PackageDecl)):
                kind = type(decl).__name__.replace("Decl", "").lower()
                return BlockT(kind, decl.name)
        raise CompileError(t.span, f"'{t.name}' is not a type")
    raise CompileError(t.span, f"unsupported type {type(t).__name__}")


def _specialize(binding: GenericTypeBinding, t: ast.NamedType, scope: Scope,
                const_eval: ConstEval) -> P4Type:
    decl = binding.decl
    params = decl.type_params
    if len(t.type_args) != len(params):
        raise CompileError(t.span, f"'{t.name}' needs {len(params)} type argument(s), got "
                           f"{len(t.type_args)}")
    args = [resolve_type(a, scope, const_eval) for a in t.type_args]
    inner = binding.scope.child()
    for p, a in zip(params, args):
        inner.declare(p.name, TypeBinding(a))
    name = f"{decl.name}<{', '.join(a.describe() for a in args)}>"
    fields = _fields(decl, inner, const_eval)
    if isinstance(decl, ast.HeaderDecl):
        flat, nested = _check_header_fields(decl, fields, t.span)
        return HeaderT(name, flat, decl.annotations, decl.span, nested)
    if isinstance(decl, ast.HeaderUnionDecl):
        _check_union_members(decl, fields, t.span)
        return UnionT(name, fields, decl.annotations)
    return StructT(name, fields, decl.annotations)


@dataclass
class GlobalInfo:
    """Program-wide facts collected from top-level declarations."""

    scope: Scope
    errors: list[str] = field(default_factory=list)
    match_kinds: list[str] = field(default_factory=list)
    enums: list[EnumT] = field(default_factory=list)
    main: ast.Instantiation | None = None


def _fields(decl, scope: Scope, const_eval: ConstEval) -> tuple[FieldT, ...]:
    seen: set[str] = set()
    out = []
    for f in decl.fields:
        if f.name in seen:
            raise CompileError(f.span, f"duplicate field '{f.name}' in '{decl.name}'")
        seen.add(f.name)
        field_type = resolve_type(f.type, scope, const_eval)
        if type(field_type) in _NOT_FIELD_TYPES:
            raise CompileError(f.span, f"field '{f.name}' of '{decl.name}' cannot have type "
                               f"'{field_type.describe()}' (fields hold data: bit<W>, int<W>, "
                               "varbit, bool, enum, error, headers, structs, stacks, tuples)")
        out.append(FieldT(f.name, field_type, f.annotations))
    return tuple(out)


# Types that denote no data a struct, header or union could hold (P4_16 7.2.8).
_NOT_FIELD_TYPES = frozenset({ExternT, BlockT, StringT, VoidT, MatchKindT, IntT})


def _check_union_members(decl: ast.HeaderUnionDecl, fields: tuple[FieldT, ...],
                         used_at: SourceSpan | None = None) -> None:
    """A header_union's members are headers (``used_at``: where a generic one is
    specialized, the place to report a type argument that makes one something else)."""
    for f, src in zip(fields, decl.fields):
        if not isinstance(f.type, HeaderT):
            raise CompileError(used_at or src.span, "header_union members must be headers"
                               + (f": '{decl.name}' member '{f.name}' would be "
                                  f"{f.type.describe()}" if used_at else ""))


def _check_header_fields(decl: ast.HeaderDecl, fields: tuple[FieldT, ...],
                         used_at: SourceSpan | None = None
                         ) -> tuple[tuple[FieldT, ...], tuple[tuple[str, StructT], ...]]:
    """The header's fields flattened (a struct field becomes ``s_a``, ``s_b``...) and
    its struct fields, or a located error for a field type a header cannot hold
    (``used_at``: where a generic header is specialized)."""
    flat: list[FieldT] = []
    nested: list[tuple[str, StructT]] = []
    for f, src in zip(fields, decl.fields):
        if isinstance(f.type, StructT):
            nested.append((f.name, f.type))
            flat.extend(_flat_struct_fields(f.name, f.type, src))
            continue
        if not _header_scalar(f.type):
            raise CompileError(used_at or src.span, f"header field '{f.name}' cannot have "
                               f"type {f.type.describe()}")
        flat.append(f)
    return tuple(flat), tuple(nested)


def _header_scalar(t: P4Type) -> bool:
    return isinstance(t, (BitsT, BoolT, VarbitT)) or (
        isinstance(t, EnumT) and t.underlying is not None)


def _flat_struct_fields(prefix: str, t: StructT, src: ast.Node) -> list[FieldT]:
    out: list[FieldT] = []
    for f in t.fields:
        name = f"{prefix}_{f.name}"
        if isinstance(f.type, StructT):
            out.extend(_flat_struct_fields(name, f.type, src))
        elif _header_scalar(f.type) and not isinstance(f.type, VarbitT):
            out.append(FieldT(name, f.type, f.annotations))
        else:
            raise CompileError(src.span, f"header field '{prefix}' is a struct with a field "
                               f"'{f.name}' of type {f.type.describe()}: a struct in a "
                               "header holds bit<W>, int<W>, bool and serializable enums")
    return out


def new_type_tag(decl: ast.TypedefDecl) -> NewTypeTag:
    """The P4Runtime view of ``type bit<W> T``: ``@p4runtime_translation("uri", N)``
    (N a width, ``bit<N>`` or ``string``) makes it a translated type."""
    for a in decl.annotations:
        if a.name != "p4runtime_translation":
            continue
        match = _TRANSLATION_RE.fullmatch(a.body or "")
        if match is None:
            raise CompileError(a.span, "@p4runtime_translation needs (\"uri\", width), "
                               "(\"uri\", bit<width>) or (\"uri\", string)")
        uri, target = match.group(1), match.group(2)
        if target == "string":
            return NewTypeTag(decl.name, uri, None)
        width = re.fullmatch(r"(?:bit\s*<\s*)?(\d+)(?:\s*>)?", target)
        if width is None:
            raise CompileError(a.span, f"@p4runtime_translation: '{target}' is not a "
                               "width, bit<width> or string")
        return NewTypeTag(decl.name, uri, int(width.group(1)))
    return NewTypeTag(decl.name)


_TRANSLATION_RE = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*,\s*(.*?)\s*', re.S)


def declare_type(decl: ast.Node, scope: Scope, info: GlobalInfo, const_eval: ConstEval
                 ) -> None:
    """Declare one type-like declaration (header, struct, enum, typedef, error...)."""
    if isinstance(decl, (ast.HeaderDecl, ast.HeaderUnionDecl, ast.StructDecl)) and \
            decl.type_params:
        scope.declare(decl.name, GenericTypeBinding(decl, scope))
        return
    if isinstance(decl, ast.HeaderDecl):
        scope.declare(decl.name, TypeBinding(HeaderT(decl.name, (), decl.annotations)))
        fields, nested = _check_header_fields(decl, _fields(decl, scope, const_eval))
        scope.declare(decl.name, TypeBinding(HeaderT(decl.name, fields, decl.annotations,
                                                     decl.span, nested)))
    elif isinstance(decl, ast.HeaderUnionDecl):
        fields = _fields(decl, scope, const_eval)
        _check_union_members(decl, fields)
        scope.declare(decl.name, TypeBinding(UnionT(decl.name, fields, decl.annotations)))
    elif isinstance(decl, ast.StructDecl):
        fields = _fields(decl, scope, const_eval)
        scope.declare(decl.name, TypeBinding(StructT(decl.name, fields, decl.annotations)))
    elif isinstance(decl, ast.EnumDecl):
        enum_t = _enum_type(decl, scope, const_eval)
        scope.declare(decl.name, TypeBinding(enum_t))
        info.enums.append(enum_t)
    elif isinstance(decl, ast.TypedefDecl):
        t = resolve_type(decl.type, scope, const_eval)
        if decl.is_new_type and isinstance(t, BitsT):
            t = dataclasses.replace(t, new_type=new_type_tag(decl))
        scope.declare(decl.name, TypeBinding(t))
    elif isinstance(decl, ast.ErrorDecl):
        for member in decl.members:
            if member not in info.errors:
                info.errors.append(member)
    elif isinstance(decl, ast.MatchKindDecl):
        for member in decl.members:
            if member not in info.match_kinds:
                info.match_kinds.append(member)


def _enum_type(decl: ast.EnumDecl, scope: Scope, const_eval: ConstEval) -> EnumT:
    names = tuple(m.name for m in decl.members)
    if len(set(names)) != len(names):
        raise CompileError(decl.span, f"duplicate member in enum '{decl.name}'")
    if decl.underlying is None:
        return EnumT(decl.name, names, tuple(range(len(names))))
    underlying = resolve_type(decl.underlying, scope, const_eval)
    if not isinstance(underlying, BitsT) or underlying.new_type is not None:
        raise CompileError(decl.underlying.span, "a serializable enum needs a bit<W> or "
                           "int<W> underlying type" + (
                               f", and '{underlying.new_type.name}' is a new type"
                               if isinstance(underlying, BitsT) and underlying.new_type
                               else ""))
    low, high = underlying.value_range
    values = []
    for m in decl.members:
        if m.value is None:
            raise CompileError(m.span, f"member '{m.name}' of serializable enum "
                               f"'{decl.name}' needs a value")
        value = const_int(m.value, scope, const_eval, "an enum value")
        if not low <= value <= high:
            raise CompileError(m.value.span, f"value {value} of '{decl.name}.{m.name}' does "
                               f"not fit in {underlying.describe()}")
        values.append(value)
    return EnumT(decl.name, names, tuple(values), underlying)


def build_global_scope(program: ast.Program, const_eval: ConstEval) -> GlobalInfo:
    """Bind every top-level name; constants are folded as they are declared."""
    scope = Scope()
    info = GlobalInfo(scope)
    for decl in program.declarations:
        name = getattr(decl, "name", None)
        if isinstance(decl, (ast.HeaderDecl, ast.HeaderUnionDecl, ast.StructDecl,
                             ast.EnumDecl, ast.TypedefDecl, ast.ErrorDecl,
                             ast.MatchKindDecl)):
            if name is not None and isinstance(scope.names.get(name), TypeBinding):
                raise CompileError(decl.span, f"'{name}' is declared more than once")
            declare_type(decl, scope, info, const_eval)
        elif isinstance(decl, ast.ConstantDecl):
            declare_constant(decl, scope, const_eval)
        elif isinstance(decl, ast.Instantiation):
            if decl.name == "main":
                info.main = decl
            scope.declare(decl.name, DeclBinding(decl, scope))
        elif isinstance(decl, (ast.ExternFunctionDecl, ast.FunctionDecl)):
            scope.declare_function(decl.name, decl)
        elif isinstance(decl, ast.ExternDecl):
            previous = scope.names.get(decl.name)
            if isinstance(previous, DeclBinding) and isinstance(previous.decl, ast.ExternDecl):
                merged = ast.ExternDecl(decl.name, decl.type_params,
                                        previous.decl.methods + decl.methods,
                                        span=decl.span, annotations=decl.annotations)
                scope.declare(decl.name, DeclBinding(merged, scope))
            else:
                scope.declare(decl.name, DeclBinding(decl, scope))
        elif name is not None:
            previous = scope.names.get(name)
            if isinstance(previous, DeclBinding) and not isinstance(previous.decl, tuple) \
                    and not _is_prototype(previous.decl) and not _is_prototype(decl):
                raise CompileError(decl.span, f"'{name}' is declared more than once")
            scope.declare_type_beside_functions(name, DeclBinding(decl, scope))
    for value, member in enumerate(info.errors):
        scope.declare(f"error.{member}", ErrorMemberBinding(member, value))
    return info


def _is_prototype(decl: Any) -> bool:
    return bool(getattr(decl, "is_type_decl", False))


@dataclass(frozen=True)
class StructValue:
    """A struct constant's value: each field's (name, value, type), a nested struct's
    value a StructValue itself."""

    fields: tuple[tuple[str, Any, P4Type], ...]


def struct_value(e: ast.Expression, target: StructT, scope: Scope,
                 const_eval: ConstEval) -> StructValue:
    """The value of a struct constant's initializer (``{ a = 1, b = 2 }`` or
    ``{ 1, 2 }``), each field folded and checked against its type."""
    if isinstance(e, ast.StructExpression) and not e.rest:
        given = {f.name: f.value for f in e.fields}
        unknown = [n for n in given if target.field_type(n) is None]
        if unknown:
            raise CompileError(e.span, f"'{target.name}' has no field '{unknown[0]}'")
    elif isinstance(e, ast.ListExpression):
        if len(e.elements) != len(target.fields):
            raise CompileError(e.span, f"'{target.name}' has {len(target.fields)} fields but "
                               f"the initializer has {len(e.elements)}")
        given = {f.name: v for f, v in zip(target.fields, e.elements)}
    else:
        raise CompileError(e.span, "expected a compile-time constant")
    values: list[tuple[str, Any, P4Type]] = []
    for f in target.fields:
        if f.name not in given:
            raise CompileError(e.span, f"the constant's field '{f.name}' has no value")
        item = given[f.name]
        if isinstance(f.type, StructT):
            values.append((f.name, struct_value(item, f.type, scope, const_eval), f.type))
            continue
        value, vtype = const_eval(item, scope)
        values.append((f.name, coerce_constant(value, vtype, f.type, item.span), f.type))
    return StructValue(tuple(values))


def declare_constant(decl: ast.ConstantDecl, scope: Scope, const_eval: ConstEval) -> None:
    target = resolve_type(decl.type, scope, const_eval)
    if isinstance(target, StructT) and isinstance(decl.value, (ast.StructExpression,
                                                                ast.ListExpression)):
        scope.declare(decl.name, ConstBinding(
            struct_value(decl.value, target, scope, const_eval), target))
        return
    value, vtype = const_eval(decl.value, scope)
    value = coerce_constant(value, vtype, target, decl.value.span)
    scope.declare(decl.name, ConstBinding(value, target))


def coerce_constant(value: Any, vtype: P4Type, target: P4Type, span: SourceSpan) -> Any:
    """Check that a constant fits ``target`` and convert it (int literals adapt)."""
    if isinstance(target, BitsT):
        if isinstance(vtype, IntT):
            if not target.signed and (value < 0 or value > target.mask):
                raise CompileError(span, f"value {value} does not fit in {target.describe()}")
            return wrap(value, target)
        if isinstance(vtype, BitsT) and vtype == target:
            return value
        if isinstance(vtype, EnumT) and vtype.underlying == target:
            return value
        raise CompileError(span, f"cannot use a value of type {vtype.describe()} as "
                           f"{target.describe()}")
    if isinstance(target, IntT) and isinstance(vtype, (IntT, BitsT)):
        return value
    if isinstance(target, BoolT) and isinstance(vtype, BoolT):
        return value
    if target == vtype:
        return value
    raise CompileError(span, f"cannot use a value of type {vtype.describe()} as "
                       f"{target.describe()}")
