"""The P4_16 abstract syntax tree: the contract between the parser and everything after it.

Nodes are frozen dataclasses, declared once here; every node carries the SourceSpan of
its first token so later stages can report errors at the right place. The tree is
purely syntactic: names are unresolved strings and types are as written. Semantic
stages keep their results in side tables keyed by node identity (``id(node)``) or
build their own IR, rather than mutating the tree.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Iterator, TypeVar, Union, dataclass_transform

from p4sim.compiler.errors import SourceSpan

# Every node class is a frozen dataclass whose ``__eq__``, ``__hash__`` and ``__repr__``
# come from Node rather than being generated per class: the 80 classes then cost half
# as much to create, which is a noticeable part of the compiler's start-up. The
# inherited methods behave exactly like the generated ones.
_NodeClass = TypeVar("_NodeClass")


# Field types (as written) that never hold a node the passes walk: scalars, and the
# annotations, whose expressions are not code the program runs or names it uses.
_LEAF_FIELD_TYPES = frozenset({"SourceSpan", "str", "bool", "int", "str | None",
                               "int | None", "tuple[str, ...]", "Annotations"})


@dataclass_transform(frozen_default=True, eq_default=False, field_specifiers=(field,))
def node(cls: type[_NodeClass]) -> type[_NodeClass]:
    """Declare a node class (a frozen dataclass; type checkers see its fields)."""
    made = dataclass(frozen=True, eq=False, repr=False)(cls)
    declared = fields(made)  # type: ignore[arg-type]
    made._child_fields = tuple(  # type: ignore[attr-defined]
        f.name for f in declared if str(f.type) not in _LEAF_FIELD_TYPES)
    return made


@node
class Node:
    span: SourceSpan = field(compare=False, repr=False, kw_only=True)

    def _compared(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name, f in self.__dataclass_fields__.items()
                     if f.compare)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}"
                          for name, f in self.__dataclass_fields__.items() if f.repr)
        return f"{self.__class__.__qualname__}({shown})"


# --------------------------------------------------------------------------- annotations


@node
class Annotation(Node):
    """``@name(...)``. ``args`` holds parsed expressions when the body parses as an
    expression list (``@name("x")``, ``@id(5)``); ``body`` is always the raw token text
    between the parentheses (``None`` when there were no parentheses), so unknown
    annotations pass through untouched. A structured annotation (``@name[...]``) has
    ``structured`` set and holds either ``args`` or ``pairs`` (``@name[k = v, ...]``)."""

    name: str
    args: tuple["Expression", ...] = ()
    body: str | None = None
    structured: bool = False
    pairs: tuple[tuple[str, "Expression"], ...] = ()


Annotations = tuple[Annotation, ...]


# --------------------------------------------------------------------------- types


@node
class Type(Node):
    pass


@node
class BitType(Type):
    """``bit<W>`` (signed=False) or ``int<W>`` (signed=True). ``width`` is an expression
    (it may name a constant); a bare ``bit`` is ``bit<1>``."""

    width: "Expression"
    signed: bool = False


@node
class VarbitType(Type):
    max_width: "Expression"


@node
class IntType(Type):
    """Arbitrary-precision ``int`` (compile-time only)."""


@node
class BoolType(Type):
    pass


@node
class StringType(Type):
    pass


@node
class VoidType(Type):
    pass


@node
class ErrorType(Type):
    """The ``error`` type."""


@node
class MatchKindType(Type):
    pass


@node
class DontCareType(Type):
    """``_`` used as a type argument."""


@node
class NamedType(Type):
    """A type referred to by name, possibly specialized: ``H``, ``register<bit<32>>``,
    ``.Foo`` (top_level=True for a leading dot)."""

    name: str
    type_args: tuple[Type, ...] = ()
    top_level: bool = False


@node
class StackType(Type):
    """``H[N]``."""

    element: Type
    size: "Expression"


@node
class TupleType(Type):
    elements: tuple[Type, ...]


# --------------------------------------------------------------------------- expressions


@node
class Expression(Node):
    pass


@node
class IntLiteral(Expression):
    """``42``, ``8w5``, ``4s-3`` (sign folded into value), ``0x1F``. ``width`` is None for
    an unsized literal; ``signed`` tells ``s`` from ``w``."""

    value: int
    width: int | None = None
    signed: bool = False
    text: str = ""


@node
class BoolLiteral(Expression):
    value: bool


@node
class StringLiteral(Expression):
    value: str


@node
class Name(Expression):
    """An identifier in expression position (top_level=True for ``.x``)."""

    name: str
    top_level: bool = False


@node
class Member(Expression):
    """``expr.member`` (fields, methods, enum members, ``error.X``, ``T.x``)."""

    expr: Expression
    member: str


@node
class TypeNameExpression(Expression):
    """A type used where an expression is expected, e.g. ``bit<8>`` inside ``.. ``
    casts are handled by Cast; this covers ``error.NoError`` when ``error`` is parsed as
    a type, and enum qualifiers like ``HashAlgorithm`` when resolution needs a type."""

    type: Type


@node
class ArrayIndex(Expression):
    """``stack[i]``."""

    expr: Expression
    index: Expression


@node
class Slice(Expression):
    """``expr[hi:lo]``."""

    expr: Expression
    hi: Expression
    lo: Expression


@node
class Unary(Expression):
    """op in ``! ~ - +``."""

    op: str
    operand: Expression


@node
class Binary(Expression):
    """op in ``* / % + - |+| |-| << >> <= >= < > != == & ^ | && || ++ &&& ..``.

    ``&&&`` (mask) and ``..`` (range) only appear in select cases and table entries."""

    op: str
    left: Expression
    right: Expression


@node
class Ternary(Expression):
    cond: Expression
    then: Expression
    otherwise: Expression


@node
class Cast(Expression):
    type: Type
    expr: Expression


@node
class Argument(Node):
    """An argument of a call or instantiation; ``name`` for ``f(x = 1)``; ``value`` is
    ``DontCare`` for ``_``."""

    value: Expression
    name: str | None = None


@node
class MethodCall(Expression):
    """``target<type_args>(args)``; target is a Name or Member expression."""

    target: Expression
    type_args: tuple[Type, ...]
    args: tuple[Argument, ...]


@node
class ConstructorCall(Expression):
    """``T(args)`` used as an expression, e.g. ``V1Switch(MyParser(), ...)`` or an
    instance in a table property ``implementation = action_profile(32)``."""

    type: Type
    args: tuple[Argument, ...]


@node
class ListExpression(Expression):
    """``{a, b, c}`` (list / tuple / struct initializer by position)."""

    elements: tuple[Expression, ...]


@node
class NamedField(Node):
    name: str
    value: Expression


@node
class StructExpression(Expression):
    """``{a = 1, b = 2}`` or ``(T){...}``-style struct initializer; ``type`` is None
    when the type comes from context."""

    type: Type | None
    fields: tuple[NamedField, ...]
    rest: bool = False  # ``{a = 1, ...}``: the other fields take their default values


@node
class InvalidHeader(Expression):
    """``{#}`` (or ``(T){#}``): an invalid header (or header union) value."""

    type: Type | None = None


@node
class DefaultExpression(Expression):
    """``default`` in select cases, switch labels and table entries."""


@node
class DontCare(Expression):
    """``_``."""


Expr = Expression


# --------------------------------------------------------------------------- statements


@node
class Statement(Node):
    pass


@node
class Assignment(Statement):
    left: Expression
    right: Expression


@node
class MethodCallStatement(Statement):
    call: MethodCall


@node
class EmptyStatement(Statement):
    pass


@node
class BlockStatement(Statement):
    statements: tuple[Statement, ...]
    annotations: Annotations = ()


@node
class IfStatement(Statement):
    cond: Expression
    then: Statement
    otherwise: Statement | None = None


@node
class SwitchCase(Node):
    """One label of a switch. ``labels`` are Name expressions (action names), value
    expressions, or DefaultExpression; ``body`` is None for a fall-through label."""

    label: Expression
    body: BlockStatement | None


@node
class SwitchStatement(Statement):
    """``switch (t.apply().action_run) {...}`` or ``switch (expr) {...}``."""

    expr: Expression
    cases: tuple[SwitchCase, ...]


@node
class ExitStatement(Statement):
    pass


@node
class ReturnStatement(Statement):
    value: Expression | None = None


@node
class ForStatement(Statement):
    """``for (init; cond; updates) body``: ``init`` holds declarations and assignments,
    ``updates`` assignments and calls; ``cond`` None loops until a ``break``."""

    init: tuple[Statement, ...]
    cond: Expression | None
    updates: tuple[Statement, ...]
    body: Statement


@node
class BreakStatement(Statement):
    pass


@node
class ContinueStatement(Statement):
    pass


# --------------------------------------------------------------------------- declarations


@node
class Declaration(Node):
    name: str
    annotations: Annotations = field(default=(), kw_only=True)


@node
class Parameter(Node):
    """``direction`` is ``in``, ``out``, ``inout`` or ``""`` (directionless); ``default``
    is an optional default value expression."""

    name: str
    type: Type
    direction: str = ""
    default: Expression | None = None
    annotations: Annotations = ()


@node
class TypeParameter(Node):
    name: str


@node
class StructField(Node):
    name: str
    type: Type
    annotations: Annotations = ()


@node
class HeaderDecl(Declaration):
    fields: tuple[StructField, ...]
    type_params: tuple[TypeParameter, ...] = ()


@node
class HeaderUnionDecl(Declaration):
    fields: tuple[StructField, ...]
    type_params: tuple[TypeParameter, ...] = ()


@node
class StructDecl(Declaration):
    fields: tuple[StructField, ...]
    type_params: tuple[TypeParameter, ...] = ()


@node
class EnumMember(Node):
    name: str
    value: Expression | None = None  # set for serializable enums


@node
class EnumDecl(Declaration):
    """``enum E {A, B}`` (underlying None) or ``enum bit<8> E {A = 1}``."""

    members: tuple[EnumMember, ...]
    underlying: Type | None = None


@node
class ErrorDecl(Node):
    """``error { A, B }`` (may appear several times; members accumulate)."""

    members: tuple[str, ...]


@node
class MatchKindDecl(Node):
    members: tuple[str, ...]


@node
class TypedefDecl(Declaration):
    """``typedef T N;`` (is_new_type=False) or ``type T N;`` (is_new_type=True)."""

    type: Type
    is_new_type: bool = False


@node
class ConstantDecl(Declaration):
    type: Type
    value: Expression


@node
class VariableDecl(Declaration):
    """A local variable (in a control, parser, action, function or block)."""

    type: Type
    init: Expression | None = None


@node
class MethodPrototype(Node):
    """A method inside an extern, or an abstract method; ``return_type`` None for a
    constructor. ``is_abstract`` for ``abstract`` methods."""

    name: str
    return_type: Type | None
    params: tuple[Parameter, ...]
    type_params: tuple[TypeParameter, ...] = ()
    annotations: Annotations = ()
    is_abstract: bool = False


@node
class ExternDecl(Declaration):
    """``extern X<T> { methods }``."""

    type_params: tuple[TypeParameter, ...]
    methods: tuple[MethodPrototype, ...]


@node
class ExternFunctionDecl(Declaration):
    """``extern void f<T>(in T x);``."""

    return_type: Type
    params: tuple[Parameter, ...]
    type_params: tuple[TypeParameter, ...] = ()


@node
class FunctionDecl(Declaration):
    return_type: Type
    params: tuple[Parameter, ...]
    body: BlockStatement
    type_params: tuple[TypeParameter, ...] = ()


@node
class ActionDecl(Declaration):
    params: tuple[Parameter, ...]
    body: BlockStatement


@node
class Instantiation(Declaration):
    """``T(args) name;`` or ``T(args) name = { ... }`` (initializer: abstract methods)."""

    type: Type
    args: tuple[Argument, ...]
    initializer: tuple[Declaration, ...] = ()


@node
class ValueSetDecl(Declaration):
    """``value_set<T>(size) name;``."""

    element_type: Type
    size: Expression


# ----- tables


@node
class KeyElement(Node):
    expr: Expression
    match_kind: str
    annotations: Annotations = ()


@node
class ActionRef(Node):
    """An entry in ``actions = {...}``, or the action of an entry / default_action.
    ``name`` may be dotted (``.NoAction``); ``args`` empty when omitted."""

    name: str
    args: tuple[Argument, ...] = ()
    annotations: Annotations = ()
    has_args: bool = False  # True when written with parentheses


@node
class TableEntry(Node):
    """One ``const entries`` line: ``keyset`` is a tuple of key expressions (masks via
    ``&&&``, ranges via ``..``, DefaultExpression / DontCare for wildcard);
    ``priority`` from ``priority = N:`` when given."""

    keyset: tuple[Expression, ...]
    action: ActionRef
    priority: Expression | None = None
    is_const: bool = False
    annotations: Annotations = ()


@node
class TableProperty(Node):
    """A table property. Exactly one of the value forms is set:
    ``key`` (key = {...}), ``actions`` (actions = {...}), ``entries`` (entries = {...}),
    ``action`` (default_action = a(...)), or ``value`` (any other: size, counters,
    implementation, meters, support_timeout, user properties)."""

    name: str
    is_const: bool = False
    key: tuple[KeyElement, ...] | None = None
    actions: tuple[ActionRef, ...] | None = None
    entries: tuple[TableEntry, ...] | None = None
    action: ActionRef | None = None
    value: Expression | None = None
    annotations: Annotations = ()


@node
class TableDecl(Declaration):
    properties: tuple[TableProperty, ...]


# ----- parsers


@node
class SelectCase(Node):
    """``keyset: next_state;`` keyset is a ListExpression for tuples, or one
    expression (value, mask ``&&&``, range ``..``, value set Name, DefaultExpression,
    DontCare)."""

    keyset: Expression
    next_state: str


@node
class SelectExpression(Expression):
    exprs: tuple[Expression, ...]
    cases: tuple[SelectCase, ...]


@node
class ParserState(Declaration):
    """``transition`` is a Name (direct, including accept/reject) or a
    SelectExpression; None means implicit reject."""

    statements: tuple[Statement, ...]
    transition: Expression | None


@node
class ParserDecl(Declaration):
    """A parser type declaration (``states`` empty and is_type_decl True when it is a
    prototype like ``parser Parser<H>(...);``)."""

    params: tuple[Parameter, ...]
    constructor_params: tuple[Parameter, ...] = ()
    type_params: tuple[TypeParameter, ...] = ()
    locals: tuple[Declaration, ...] = ()
    states: tuple[ParserState, ...] = ()
    is_type_decl: bool = False


@node
class ControlDecl(Declaration):
    """A control (``apply`` None and is_type_decl True for a prototype)."""

    params: tuple[Parameter, ...]
    constructor_params: tuple[Parameter, ...] = ()
    type_params: tuple[TypeParameter, ...] = ()
    locals: tuple[Declaration, ...] = ()
    apply: BlockStatement | None = None
    is_type_decl: bool = False


@node
class PackageDecl(Declaration):
    params: tuple[Parameter, ...]
    type_params: tuple[TypeParameter, ...] = ()


@node
class DeclarationStatement(Statement):
    """A local declaration (variable or constant) appearing among statements."""

    decl: Declaration


TopLevel = Union[
    HeaderDecl, HeaderUnionDecl, StructDecl, EnumDecl, ErrorDecl, MatchKindDecl,
    TypedefDecl, ConstantDecl, ExternDecl, ExternFunctionDecl, FunctionDecl, ActionDecl,
    ParserDecl, ControlDecl, PackageDecl, Instantiation,
]


@node
class Program(Node):
    declarations: tuple[Node, ...]


def child_nodes(n: Node) -> list[Node]:
    """The nodes directly under ``n`` in field order, annotations left out: node fields,
    and the nodes of tuple fields. The one child walk every pass shares."""
    out: list[Node] = []
    for name in n._child_fields:  # type: ignore[attr-defined]  # set by @node
        value = getattr(n, name)
        if isinstance(value, Node):
            out.append(value)
        elif type(value) is tuple:
            out += [v for v in value if isinstance(v, Node)]
    return out


def walk(root: Node) -> Iterator[Node]:
    """Every node under ``root`` (itself included) in source order, annotations left
    out: their expressions are not code the program runs or names it uses."""
    if isinstance(root, Annotation):
        return
    stack: list[Node] = [root]
    while stack:
        n = stack.pop()
        yield n
        children = child_nodes(n)
        if children:
            children.reverse()
            stack += children
