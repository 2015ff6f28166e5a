"""References to run-time storage: what a P4 lvalue path lowers to.

Struct-typed parameters (``hdr``, ``meta``) are trees of references; leaves are header
instances, stacks, unions and fields of BMv2 header instances (metadata lives in the
``scalars`` instance). Binding a parameter name to such a tree is how controls,
actions and functions are inlined.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.semantic.types import BitsT, HeaderT, P4Type, StackT, StructT, UnionT


@dataclass(frozen=True)
class FieldRef:
    header: str
    field: str
    type: P4Type

    def json(self) -> J.Json:
        return J.field(self.header, self.field)


@dataclass(frozen=True)
class DynFieldRef:
    """A field of a header chosen at run time (stack element with variable index)."""

    header_json: J.Json
    offset: int
    type: P4Type

    def json(self) -> J.Json:
        return {"type": "expression", "value": {"op": "access_field", "left":
                                                self.header_json, "right": self.offset}}


@dataclass(frozen=True)
class HeaderRef:
    name: str
    type: HeaderT

    def json(self) -> J.Json:
        return {"type": "header", "value": self.name}

    def field(self, name: str) -> Any:
        """The field ``name`` (a StructRef over the flat fields for a struct field)."""
        t = self.type.field_type(name)
        if t is not None:
            return FieldRef(self.name, name, t)
        nested = dict(self.type.nested).get(name)
        if nested is None:
            return None
        return _nested_struct(nested, name, lambda flat, ft: FieldRef(self.name, flat, ft))

    def valid(self) -> FieldRef:
        return FieldRef(self.name, "$valid$", BitsT(1))


@dataclass(frozen=True)
class DynHeaderRef:
    """A header chosen at run time: a header stack's element with a variable index
    (``stack[i]``, ``stack.last``), or a member header of such an element of a
    header-union stack (``ustack.last.h``)."""

    header_json: J.Json
    type: HeaderT

    def json(self) -> J.Json:
        return self.header_json

    def field(self, name: str) -> Any:
        offsets = {f.name: (i, f.type) for i, f in enumerate(self.type.fields)}
        if name in offsets:
            i, t = offsets[name]
            return DynFieldRef(self.json(), i, t)
        nested = dict(self.type.nested).get(name)
        if nested is None:
            return None
        return _nested_struct(nested, name, lambda flat, ft: DynFieldRef(
            self.json(), offsets[flat][0], ft))


@dataclass(frozen=True)
class DynUnionRef:
    """An element of a header-union stack chosen at run time (``ustack[i]``,
    ``ustack.last``): BMv2's ``dereference_union_stack``; its members are reached with
    ``access_union_header`` by their position in the union type."""

    stack: "StackRef"
    index_json: J.Json

    @property
    def type(self) -> UnionT:
        return self.stack.type.element  # type: ignore[return-value]

    def json(self) -> J.Json:
        return J.op("dereference_union_stack", self.stack.json(), self.index_json)

    def member(self, name: str) -> DynHeaderRef | None:
        for offset, f in enumerate(self.type.fields):
            if f.name == name and isinstance(f.type, HeaderT):
                access = {"op": "access_union_header", "left": self.json(), "right": offset}
                return DynHeaderRef({"type": "expression", "value": access}, f.type)
        return None


def stack_element(stack: "StackRef", index_json: J.Json) -> "DynHeaderRef | DynUnionRef":
    """The element of ``stack`` at a run-time index: a header, or a header union."""
    if isinstance(stack.type.element, UnionT):
        return DynUnionRef(stack, index_json)
    element = stack.type.element
    assert isinstance(element, HeaderT)  # a stack holds headers or header unions
    return DynHeaderRef(J.op("dereference_header_stack", stack.json(), index_json), element)


@dataclass(frozen=True)
class StackRef:
    name: str
    type: StackT
    elements: tuple[Any, ...]  # HeaderRef or UnionRef per index

    def json(self) -> J.Json:
        kind = "header_union_stack" if isinstance(self.type.element, UnionT) else "header_stack"
        return {"type": kind, "value": self.name}


@dataclass(frozen=True)
class UnionRef:
    name: str
    type: UnionT
    members: tuple[tuple[str, HeaderRef], ...]

    def json(self) -> J.Json:
        return {"type": "header_union", "value": self.name}

    def member(self, name: str) -> HeaderRef | None:
        return dict(self.members).get(name)


@dataclass(frozen=True)
class StructRef:
    type: StructT
    members: tuple[tuple[str, Any], ...]

    def member(self, name: str) -> Any:
        return dict(self.members).get(name)


@dataclass(frozen=True)
class ParamRef:
    """An action parameter (control-plane runtime data)."""

    index: int
    type: P4Type

    def json(self) -> J.Json:
        return {"type": "local", "value": self.index}


def leaves(ref: Any) -> list[Any]:
    """Every header/stack/union/field reachable from ``ref``, in declaration order."""
    if isinstance(ref, StructRef):
        out: list[Any] = []
        for _, member in ref.members:
            out.extend(leaves(member))
        return out
    return [ref]


def _nested_struct(t: StructT, prefix: str, leaf: Callable[[str, P4Type], Any]) -> "StructRef":
    """A struct field of a header as a StructRef whose leaves are the header's flat
    fields ``prefix_member`` (see HeaderT)."""
    members = []
    for f in t.fields:
        flat = f"{prefix}_{f.name}"
        if isinstance(f.type, StructT):
            members.append((f.name, _nested_struct(f.type, flat, leaf)))
        else:
            members.append((f.name, leaf(flat, f.type)))
    return StructRef(t, tuple(members))
