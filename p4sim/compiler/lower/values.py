"""Typed values produced by expression lowering."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.semantic.types import (
    BitsT, BoolT, EnumT, ErrorT, P4Type, bit_width)


@dataclass
class Val:
    """A lowered expression: its type, and either a compile-time constant (``const``)
    or a run-time BMv2 JSON value (``json``). ``ref`` is the storage reference for
    lvalues and aggregates, or the object a name denotes (table, extern, type)."""

    type: P4Type | None
    json: J.Json | None = None
    const: Any = None
    ref: Any = None
    readonly: str | None = None  # set when rooted at an `in` parameter / constant

    @property
    def is_const(self) -> bool:
        return self.const is not None and not isinstance(self.const, str)

    def data(self, span: SourceSpan, width_hint: int | None = None) -> J.Json:
        """The value as BMv2 data (bools converted with ``b2d``)."""
        if self.is_const:
            if isinstance(self.const, bool):
                return J.op("b2d", None, J.boolean(self.const))
            width = width_hint
            if isinstance(self.type, (BitsT, EnumT, ErrorT)):
                width = bit_width(self.type) if not isinstance(self.type, ErrorT) else None
            return J.hexstr(self.const, width)
        if self.json is None:
            raise CompileError(span, "this expression has no value")
        if isinstance(self.type, BoolT):
            if self.ref is not None and hasattr(self.ref, "json"):
                return self.ref.json()  # a bool stored as a bit<1> field
            return J.op("b2d", None, self.json)
        return self.json

    def cond(self, span: SourceSpan) -> J.Json:
        """The value as a BMv2 boolean expression."""
        if not isinstance(self.type, BoolT):
            raise CompileError(span, f"expected a bool expression, not "
                               f"{self.type.describe() if self.type else 'this'}")
        if self.is_const:
            return J.boolean(self.const)
        assert self.json is not None
        return self.json


def const_val(value: Any, t: P4Type) -> Val:
    return Val(t, const=value)

