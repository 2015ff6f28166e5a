"""Allocation of BMv2 header instances, stacks, unions and scalar metadata fields."""
from __future__ import annotations

from typing import Any

from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower import ir
from p4sim.compiler.lower.naming import fresh_name
from p4sim.compiler.lower.storage import FieldRef, HeaderRef, StackRef, StructRef, UnionRef
from p4sim.compiler.semantic.types import (
    BitsT, BoolT, EnumT, ErrorT, FieldT, HeaderT, P4Type, StackT, StructT, TupleT, UnionT,
    VarbitT, bit_width)

SCALARS = "scalars"


class StorageError(TypeError):
    """A type that has no run-time storage (raised where no source location is known;
    Layout.variable turns it into a located CompileError)."""


class Layout:
    """Owns every instance name; hands out unique names the way p4c spells them."""

    def __init__(self, program: ir.ProgramIR):
        self.program = program
        self.scalar_fields: list[tuple[str, int, bool]] = []
        self.used_names: set[str] = set()
        self.header_types: dict[str, ir.HeaderTypeIR] = {}
        self.union_types: dict[str, ir.UnionTypeIR] = {}

    # ------------------------------------------------------------------ names
    def unique(self, base: str) -> str:
        return fresh_name(self.used_names, base)

    # ------------------------------------------------------------------ scalars
    def scalar(self, base: str, t: P4Type) -> FieldRef:
        name = self.unique(base)
        signed = isinstance(t, BitsT) and t.signed
        self.scalar_fields.append((name, bit_width(t), signed))
        return FieldRef(SCALARS, name, t)

    def temp(self, t: P4Type) -> FieldRef:
        return self.scalar("tmp", t)

    # ------------------------------------------------------------------ headers
    def header_type(self, t: HeaderT) -> str:
        if t.name not in self.header_types:
            fields: list[tuple[str, Any, bool]] = []
            max_length = None
            for f in t.fields:
                if isinstance(f.type, VarbitT):
                    fields.append((f.name, "*", False))
                    max_length = (t.width + f.type.max_width + 7) // 8
                else:
                    signed = isinstance(f.type, BitsT) and f.type.signed
                    fields.append((f.name, bit_width(f.type), signed))
            hir = ir.HeaderTypeIR(t.name, fields, max_length)
            self.header_types[t.name] = hir
            self.program.header_types.append(hir)
        return t.name

    def header(self, base: str, t: HeaderT, metadata: bool = False) -> HeaderRef:
        if not metadata and t.span is not None:  # a declared header type
            _check_byte_aligned(t)
        name = self.unique(base)
        self.program.headers.append(ir.HeaderIR(name, self.header_type(t), metadata))
        return HeaderRef(name, t)

    def stack(self, base: str, t: StackT) -> StackRef:
        name = self.unique(base)
        elements: list[Any] = []
        for i in range(t.size):
            if isinstance(t.element, UnionT):
                elements.append(self.union(f"{name}[{i}]", t.element))
            else:
                elements.append(self.header(f"{name}[{i}]", t.element))  # type: ignore[arg-type]
        self.program.stacks.append(ir.StackIR(name, t.element.name,  # type: ignore[attr-defined]
                                              [e.name for e in elements]))
        return StackRef(name, t, tuple(elements))

    def union(self, base: str, t: UnionT) -> UnionRef:
        name = self.unique(base)
        if t.name not in self.union_types:
            uir = ir.UnionTypeIR(t.name, [(f.name, self.header_type(f.type))  # type: ignore[arg-type]
                                          for f in t.fields])
            self.union_types[t.name] = uir
            self.program.union_types.append(uir)
        members = tuple((f.name, self.header(f"{name}.{f.name}", f.type))  # type: ignore[arg-type]
                        for f in t.fields)
        self.program.unions.append(ir.UnionIR(name, t.name, [m.name for _, m in members]))
        return UnionRef(name, t, members)

    # ------------------------------------------------------------------ aggregates
    def storage(self, base: str, t: P4Type, scalar_prefix: str | None = None) -> Any:
        """Storage for a value of type ``t``. Headers get instances named by ``base``;
        scalar fields live in ``scalars`` named ``scalar_prefix.field``."""
        if isinstance(t, HeaderT):
            return self.header(base, t)
        if isinstance(t, StackT):
            return self.stack(base, t)
        if isinstance(t, UnionT):
            return self.union(base, t)
        if isinstance(t, StructT):
            prefix = scalar_prefix if scalar_prefix is not None else base
            members = []
            for f in t.fields:
                members.append((f.name, self.storage(
                    f.name if scalar_prefix is not None else f"{base}.{f.name}",
                    f.type, f"{prefix}.{f.name}")))
            return StructRef(t, tuple(members))
        if isinstance(t, TupleT):
            as_struct = StructT("tuple", tuple(FieldT(f"f{i}", e)
                                               for i, e in enumerate(t.elements)))
            return self.storage(base, as_struct, scalar_prefix)
        if isinstance(t, (BitsT, BoolT, EnumT, ErrorT)):
            return self.scalar(scalar_prefix or base, t)
        if isinstance(t, VarbitT):
            # BMv2 keeps variable-length data only in headers: a varbit variable is the
            # one field of a header instance of its own
            holder = HeaderT(f"{(scalar_prefix or base).replace('.', '_')}_varbit_t",
                             (FieldT("value", t),))
            return FieldRef(self.header(scalar_prefix or base, holder).name, "value", t)
        raise StorageError(f"cannot allocate storage for {t.describe()}")

    def variable(self, name: str, t: P4Type, span: Any) -> Any:
        """Storage for a declared variable; a located error for a type no variable can
        have (``int``, an extern, a string...), as p4c refuses it. The mid end's
        temporaries (``tmp$3``) are stored under the part of the name before the ``$``."""
        base = name.split("$", 1)[0]
        try:
            return self.storage(base, t, base)
        except StorageError:
            raise CompileError(span, f"variable '{name}' cannot have type {t.describe()}: "
                               "variables hold bit<W>, int<W>, bool, enums, errors, "
                               "headers, structs, stacks and tuples") from None

    def finish_scalars(self) -> None:
        """Declare the ``scalars`` metadata instance, byte-padded like p4c does."""
        fields = list(self.scalar_fields)
        total = sum(w for _, w, _ in fields)
        if total % 8:
            fields.append((self.unique("_padding"), 8 - total % 8, False))
        hir = ir.HeaderTypeIR("scalars_0", fields)
        self.program.header_types.insert(0, hir)
        self.program.headers.insert(0, ir.HeaderIR(SCALARS, "scalars_0", True))


def _check_byte_aligned(t: HeaderT) -> None:
    """BMv2 extracts and emits whole bytes: p4c-bm2-ss refuses a header whose fields
    (a varbit at its maximum width) do not add up to a multiple of 8 bits."""
    total = t.width + sum(f.type.max_width for f in t.fields if isinstance(f.type, VarbitT))
    if total % 8:
        raise CompileError(t.span, f"header {t.name}: Found header with fields totaling "
                           f"{total} bits.  BMv2 target only supports headers with fields "
                           "totaling a multiple of 8 bits.")
