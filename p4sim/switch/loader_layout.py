"""Build the PHV layout (header instances, stacks, unions) from BMv2 JSON."""
from __future__ import annotations

from typing import Any

from p4sim.switch.errors import LoadError
from p4sim.switch.loader import LoadContext, require
from p4sim.switch.packet import HeaderInfo, PhvLayout, StackInfo, UnionInfo, UnionStackInfo


# Widest field accepted: real headers stay far below; a bound keeps a bad width from
# building megabit masks at load time.
MAX_FIELD_BITS = 1 << 16


def _header_types(doc: dict) -> dict[str, dict]:
    types: dict[str, dict] = {}
    for ht in doc["header_types"]:
        name = require(ht, "name", "header_types", str)
        fields = require(ht, "fields", f"header_types[{name}]", list)
        for fld in fields:
            if (not isinstance(fld, list) or len(fld) not in (2, 3)
                    or not isinstance(fld[0], str)
                    or not (fld[1] == "*" or (isinstance(fld[1], int)
                                              and not isinstance(fld[1], bool)
                                              and 0 < fld[1] <= MAX_FIELD_BITS))):
                raise LoadError(f"header_types[{name}]",
                                "each field must be [name, width] or [name, width, signed], "
                                f"0 < width <= {MAX_FIELD_BITS}", fld)
        if name in types:
            raise LoadError("header_types", f"duplicate header type {name!r}", ht)
        types[name] = ht
    return types


def build_layout(ctx: LoadContext) -> None:
    """Allocate PHV slots for every header instance, stack and union."""
    doc = ctx.doc
    layout = ctx.layout
    types = _header_types(doc)
    for hdr in doc["headers"]:
        name = require(hdr, "name", "headers", str)
        hid = require(hdr, "id", f"headers[{name}]", int)
        type_name = require(hdr, "header_type", f"headers[{name}]", str)
        if type_name not in types:
            raise LoadError(f"headers[{name}]", f"unknown header_type {type_name!r}", hdr)
        if name in layout.header_by_name:
            raise LoadError("headers", f"duplicate header instance {name!r}", hdr)
        ht = types[type_name]
        field_names, widths, signed = [], [], []
        varbit_index = None
        for i, fld in enumerate(ht["fields"]):
            field_names.append(fld[0])
            is_signed = bool(fld[2]) if len(fld) == 3 else False
            signed.append(is_signed)
            if fld[1] == "*":
                if varbit_index is not None:
                    raise LoadError(f"header_types[{type_name}]",
                                    "more than one variable-length field", ht)
                varbit_index = i
                widths.append(0)
            else:
                widths.append(fld[1])
        max_bits = 0
        if varbit_index is not None:
            max_length = ht.get("max_length")
            fixed = sum(widths)
            if isinstance(max_length, int):
                max_bits = max_length * 8 - fixed
            else:
                max_bits = 1 << 20
        info = HeaderInfo(
            name=name, hid=hid, type_name=type_name, metadata=bool(hdr.get("metadata", False)),
            base=0, field_names=field_names, widths=widths, signed=signed,
            varbit_index=varbit_index, varbit_max_bits=max_bits, fixed_bits=sum(widths))
        info.base = layout.alloc(info.n_slots)
        layout.add_header(info)

    for stack in doc.get("header_stacks", []) or []:
        name = require(stack, "name", "header_stacks", str)
        ids = require(stack, "header_ids", f"header_stacks[{name}]", list)
        for hid in ids:
            if hid not in layout.header_by_id:
                raise LoadError(f"header_stacks[{name}]", f"unknown header id {hid!r}", stack)
        layout.stacks[name] = StackInfo(name, list(ids), layout.alloc(1))

    union_by_id = _build_unions(doc, layout)
    _build_union_stacks(doc, layout, union_by_id)

    std = layout.header_by_name.get("standard_metadata")
    if std is not None:
        for i, fname in enumerate(std.field_names):
            layout.std_slots[fname] = std.base + i  # (finish() also fills the masks)

    for err in doc.get("errors", []) or []:
        if (not isinstance(err, list) or len(err) != 2 or not isinstance(err[0], str)
                or not isinstance(err[1], int)):
            raise LoadError("errors", "each error must be [name, value]", err)
        ctx.errors[err[0]] = err[1]

    for fl in doc.get("field_lists", []) or []:
        fl_id = require(fl, "id", "field_lists", int)
        elements = []
        for el in require(fl, "elements", f"field_lists[{fl_id}]", list):
            if el.get("type") != "field":
                raise LoadError(f"field_lists[{fl_id}]", "elements must be fields", el)
            h, fname = field_ref(ctx, el.get("value"), f"field_lists[{fl_id}]", el)
            elements.append((h.name, fname))
        layout.field_lists[fl_id] = elements
    layout.finish()
    _apply_field_aliases(ctx)


def _build_unions(doc: dict, layout: PhvLayout) -> dict[Any, tuple[UnionInfo, Any]]:
    """Header unions, by name into the layout; returns them by id with their type name
    (what header_union_stacks refer to)."""
    union_types = {}
    for ut in doc.get("header_union_types", []) or []:
        union_types[require(ut, "name", "header_union_types", str)] = ut
    by_id: dict[Any, tuple[UnionInfo, Any]] = {}
    for union in doc.get("header_unions", []) or []:
        name = require(union, "name", "header_unions", str)
        ids = require(union, "header_ids", f"header_unions[{name}]", list)
        for hid in ids:
            if hid not in layout.header_by_id:
                raise LoadError(f"header_unions[{name}]", f"unknown header id {hid!r}", union)
        utype = union_types.get(union.get("union_type"), {})
        members = [m[0] for m in utype.get("headers", [])] or [
            layout.header_by_id[h].name for h in ids]
        if len(members) != len(ids):
            raise LoadError(f"header_unions[{name}]",
                            f"{len(ids)} header ids for union type "
                            f"{union.get('union_type')!r} of {len(members)} members", union)
        info = UnionInfo(name, list(ids), members)
        layout.unions[name] = info
        if "id" in union:
            by_id[union["id"]] = (info, union.get("union_type"))
    return by_id


def _build_union_stacks(doc: dict, layout: PhvLayout,
                        union_by_id: dict[Any, tuple[UnionInfo, Any]]) -> None:
    """Header-union stacks: elements in order (header_union_ids), all of the stack's
    union_type, plus a slot for the `next` index."""
    for ustack in doc.get("header_union_stacks", []) or []:
        name = require(ustack, "name", "header_union_stacks", str)
        where = f"header_union_stacks[{name}]"
        ids = require(ustack, "header_union_ids", where, list)
        if not ids:
            raise LoadError(where, "a header union stack needs at least one element", ustack)
        size = ustack.get("size", len(ids))
        if size != len(ids):
            raise LoadError(where, f"size {size!r} but {len(ids)} header_union_ids", ustack)
        utype = ustack.get("union_type")
        unions = []
        for uid in ids:
            if isinstance(uid, bool) or uid not in union_by_id:
                raise LoadError(where, f"unknown header union id {uid!r}", ustack)
            union, member_type = union_by_id[uid]
            if utype is not None and member_type is not None and member_type != utype:
                raise LoadError(where, f"element {union.name!r} is a {member_type!r}, "
                                f"not the stack's union_type {utype!r}", ustack)
            unions.append(union)
        if len({tuple(u.member_names) for u in unions}) != 1:
            raise LoadError(where, "elements have different union members", ustack)
        if name in layout.union_stacks or name in layout.stacks:
            raise LoadError("header_union_stacks", f"duplicate stack name {name!r}", ustack)
        layout.union_stacks[name] = UnionStackInfo(name, unions, layout.alloc(1))


def _apply_field_aliases(ctx: LoadContext) -> None:
    """Let get_std/set_std reach intrinsic fields a program keeps under other names
    (field_aliases such as 'intrinsic_metadata.mcast_grp' -> [meta, grp])."""
    layout = ctx.layout
    for alias in ctx.doc.get("field_aliases", []) or []:
        if (not isinstance(alias, list) or len(alias) != 2 or not isinstance(alias[0], str)):
            raise LoadError("field_aliases", "each alias must be [name, [header, field]]", alias)
        std_name = alias[0].rsplit(".", 1)[-1]
        if std_name in layout.std_slots:
            continue
        slot, width, _, _ = field_slot(ctx, alias[1], "field_aliases", alias)
        layout.std_slots[std_name] = slot
        layout.std_masks[std_name] = (1 << width) - 1


def field_ref(ctx: LoadContext, value: Any, where: str, fragment: Any) -> tuple[HeaderInfo, str]:
    """Resolve a ["header", "field"] pair; '$valid$' is accepted as a field."""
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, str) for v in value)):
        raise LoadError(where, "a field reference must be [header, field]", fragment)
    info = ctx.layout.header_by_name.get(value[0])
    if info is None:
        raise LoadError(where, f"unknown header instance {value[0]!r}", fragment)
    if value[1] != "$valid$" and value[1] not in info.field_names:
        raise LoadError(where, f"header {value[0]!r} has no field {value[1]!r}", fragment)
    return info, value[1]


def field_slot(ctx: LoadContext, value: Any, where: str,
               fragment: Any) -> tuple[int, int, bool, HeaderInfo]:
    """Slot, width, signedness and header of a field reference."""
    info, fname = field_ref(ctx, value, where, fragment)
    if fname == "$valid$":
        return info.valid_slot, 1, False, info
    i = info.field_names.index(fname)
    return info.base + i, info.widths[i], info.signed[i], info

