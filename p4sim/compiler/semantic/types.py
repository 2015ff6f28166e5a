"""Semantic types: what an AST type means once names and widths are resolved."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class P4Type:
    def describe(self) -> str:
        return type(self).__name__


@dataclass(frozen=True)
class NewTypeTag:
    """A ``type bit<W> T`` name, with its ``@p4runtime_translation`` if any: what P4Info
    says of values of that type (type_name, bitwidth, type_info.new_types)."""

    name: str
    uri: str | None = None  # set when translated
    sdn_bitwidth: int | None = None  # None with a uri: translated to a string


@dataclass(frozen=True)
class BitsT(P4Type):
    """``bit<W>`` / ``int<W>``; BMv2 data of a fixed width. ``new_type`` names the
    ``type`` declaration a value was declared with (not part of type equality)."""

    width: int
    signed: bool = False
    new_type: NewTypeTag | None = field(default=None, compare=False)

    def describe(self) -> str:
        return f"{'int' if self.signed else 'bit'}<{self.width}>"

    @property
    def new_type_name(self) -> str | None:
        return self.new_type.name if self.new_type is not None else None

    def describe_named(self) -> str:
        """The type as the program names it: a ``type`` by its name."""
        return self.new_type.name if self.new_type is not None else self.describe()

    @property
    def mask(self) -> int:
        return (1 << self.width) - 1

    @property
    def value_range(self) -> tuple[int, int]:
        """The least and greatest value the type holds (two's complement if signed)."""
        if self.signed:
            return -(1 << (self.width - 1)), (1 << (self.width - 1)) - 1
        return 0, self.mask


@dataclass(frozen=True)
class IntT(P4Type):
    """Arbitrary-precision compile-time ``int``."""

    def describe(self) -> str:
        return "int"


@dataclass(frozen=True)
class BoolT(P4Type):
    def describe(self) -> str:
        return "bool"


@dataclass(frozen=True)
class StringT(P4Type):
    def describe(self) -> str:
        return "string"


@dataclass(frozen=True)
class VoidT(P4Type):
    def describe(self) -> str:
        return "void"


@dataclass(frozen=True)
class ErrorT(P4Type):
    def describe(self) -> str:
        return "error"


@dataclass(frozen=True)
class MatchKindT(P4Type):
    def describe(self) -> str:
        return "match_kind"


@dataclass(frozen=True)
class VarbitT(P4Type):
    max_width: int

    def describe(self) -> str:
        return f"varbit<{self.max_width}>"


@dataclass(frozen=True)
class FieldT:
    name: str
    type: P4Type
    annotations: tuple = ()


@dataclass(frozen=True)
class AggregateT(P4Type):
    """Common shape of header, header_union and struct types."""

    name: str
    fields: tuple[FieldT, ...]
    annotations: tuple = field(default=(), compare=False)
    span: Any = field(default=None, compare=False)  # the declaration, for located errors

    def field_type(self, name: str) -> P4Type | None:
        for f in self.fields:
            if f.name == name:
                return f.type
        return None

    def describe(self) -> str:
        return self.name


@dataclass(frozen=True)
class HeaderT(AggregateT):
    """``fields`` are flat, as BMv2 lays them out: a struct field ``s`` (P4_16 allows
    structs of bit<W>/bool/serializable enums in headers) is its members ``s_a``,
    ``s_b``...; ``nested`` keeps (``s``, its struct type) for ``hdr.h.s.a``."""

    nested: tuple = field(default=(), compare=False)

    @property
    def width(self) -> int:
        """The fixed-width fields' bits (a varbit field counts 0)."""
        return sum(bit_width(f.type) for f in self.fields if not isinstance(f.type, VarbitT))


@dataclass(frozen=True)
class UnionT(AggregateT):
    pass


@dataclass(frozen=True)
class StructT(AggregateT):
    pass


@dataclass(frozen=True)
class StackT(P4Type):
    element: P4Type
    size: int

    def describe(self) -> str:
        return f"{self.element.describe()}[{self.size}]"


@dataclass(frozen=True)
class TupleT(P4Type):
    elements: tuple[P4Type, ...]

    def describe(self) -> str:
        # an element is None where its type is not known yet: an invalid header {#}
        return "tuple<" + ", ".join(e.describe() if e is not None else "{#}"
                                    for e in self.elements) + ">"


@dataclass(frozen=True)
class EnumT(P4Type):
    """``enum E {..}`` (underlying None) or serializable ``enum bit<W> E {..}``."""

    name: str
    members: tuple[str, ...]
    values: tuple[int, ...]
    underlying: BitsT | None = None

    def describe(self) -> str:
        return self.name

    def value_of(self, member: str) -> int | None:
        if member in self.members:
            return self.values[self.members.index(member)]
        return None


@dataclass(frozen=True)
class ExternT(P4Type):
    """An extern object type, possibly specialized (``register<bit<32>>``)."""

    name: str
    type_args: tuple[P4Type, ...] = ()

    def describe(self) -> str:
        if self.type_args:
            return f"{self.name}<{', '.join(t.describe() for t in self.type_args)}>"
        return self.name


@dataclass(frozen=True)
class TypeVarT(P4Type):
    name: str

    def describe(self) -> str:
        return self.name


@dataclass(frozen=True)
class BlockT(P4Type):
    """A parser, control or package type (used for parameters and instances)."""

    kind: str
    name: str

    def describe(self) -> str:
        return self.name


def bit_width(t: P4Type) -> int:
    """Width of a scalar type as stored in BMv2 (bool as 1 bit, enums/errors 32)."""
    if isinstance(t, BitsT):
        return t.width
    if isinstance(t, BoolT):
        return 1
    if isinstance(t, EnumT):
        return t.underlying.width if t.underlying else 32
    if isinstance(t, ErrorT):
        return 32
    raise TypeError(f"no width for {t.describe()}")
