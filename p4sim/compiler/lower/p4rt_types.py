"""How a control-plane value's type appears in P4Info: its bitwidth and type_name,
and the type_info entry of its named type (a ``type`` or a serializable enum)."""
from __future__ import annotations

from p4sim.compiler.control_plane import (
    ControlPlaneModel, NewTypeInfo, SerializableEnumInfo, StructMemberInfo)
from p4sim.compiler.semantic.types import BitsT, BoolT, EnumT, ErrorT, P4Type, StructT, bit_width


def p4rt_view(cp: ControlPlaneModel, t: P4Type) -> tuple[int, str | None]:
    """(bitwidth, type_name) of a match field, action parameter or packet metadata of
    type ``t``, recording its named type for type_info. A new type names itself and
    has its translated width (0 for a string); a serializable enum is described in
    type_info but, as p4c writes it, the value keeps its plain bitwidth only."""
    if isinstance(t, BitsT) and t.new_type is not None:
        tag = t.new_type
        cp.new_types.setdefault(tag.name, NewTypeInfo(tag.name, t.width, tag.uri,
                                                      tag.sdn_bitwidth))
        if tag.uri is None:
            return t.width, tag.name
        return tag.sdn_bitwidth or 0, tag.name
    if isinstance(t, EnumT) and t.underlying is not None:
        cp.serializable_enums.setdefault(t.name, SerializableEnumInfo(
            t.name, t.underlying.width, tuple(zip(t.members, t.values))))
    return bit_width(t), None


def struct_member(cp: ControlPlaneModel, name: str, t: P4Type) -> StructMemberInfo:
    """A packet metadata field or digest member of type ``t`` (see p4rt_view); a
    struct (in a digest struct) with its members."""
    if isinstance(t, StructT):
        members = tuple(struct_member(cp, f.name, f.type) for f in t.fields)
        return StructMemberInfo(name, 0, t.name, struct_members=members)
    if isinstance(t, EnumT) and t.underlying is None:
        cp.enums.setdefault(t.name, t.members)
        return StructMemberInfo(name, 0, t.name, kind="enum")
    if isinstance(t, ErrorT):
        cp.uses_error = True
        return StructMemberInfo(name, 0, kind="error")
    width, type_name = p4rt_view(cp, t)
    if isinstance(t, EnumT) and t.underlying is not None:
        return StructMemberInfo(name, width, t.name, kind="serializable_enum")
    if isinstance(t, BoolT):
        return StructMemberInfo(name, 1, kind="bool")
    if isinstance(t, BitsT) and t.signed and type_name is None:
        return StructMemberInfo(name, width, kind="int")
    return StructMemberInfo(name, width, type_name)
