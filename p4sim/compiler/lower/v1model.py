"""The v1model architecture's externs and packet methods as BMv2 primitives."""
from __future__ import annotations

from typing import TYPE_CHECKING

from p4sim.compiler import ast
from p4sim.compiler.control_plane import DigestInfo
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.lower import ir
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.lower.arguments import bind_arguments
from p4sim.compiler.lower.context import ExternObj, Lowering, PacketRef
from p4sim.compiler.lower.expressions import StackMember
from p4sim.compiler.lower.p4rt_types import struct_member
from p4sim.compiler.lower.storage import (
    DynFieldRef, FieldRef, HeaderRef, StructRef, leaves)
from p4sim.compiler.lower.text import source_info
from p4sim.compiler.lower.values import Val
from p4sim.compiler.semantic.types import (
    AggregateT, BitsT, BoolT, EnumT, ErrorT, HeaderT, IntT, P4Type, StructT, TupleT,
    UnionT, VarbitT, bit_width)

if TYPE_CHECKING:  # statements imports this module (through calls)
    from p4sim.compiler.lower.statements import StatementLowerer


def enum_member(val: Val, enum_name: str, span: SourceSpan) -> str:
    t = val.type
    if not isinstance(t, EnumT) or t.name != enum_name or not val.is_const:
        raise CompileError(span, f"expected a {enum_name} constant")
    return t.members[t.values.index(val.const)]


def _args(call: ast.MethodCall, decl_params: tuple[ast.Parameter, ...], what: str) -> list:
    return bind_arguments(decl_params, call.args, what, call.span)


def _positional(call: ast.MethodCall, count: tuple[int, ...], what: str,
                names: tuple[str, ...] = ()) -> list:
    """The arguments in parameter order; named ones (``index = i``) are put in place
    by ``names``, the method's parameter names in v1model.p4."""
    if len(call.args) not in count:
        raise CompileError(call.span, f"wrong number of arguments: {what} expects "
                           f"{' or '.join(map(str, count))}, got {len(call.args)}")
    if not any(a.name for a in call.args):
        return [a.value for a in call.args]
    result: list[ast.Expression | None] = [None] * len(names)
    for a in call.args:
        if a.name is None:
            raise CompileError(a.span, "cannot mix named and positional arguments")
        if a.name not in names:
            raise CompileError(a.span, f"'{what}' has no parameter named '{a.name}'")
        result[names.index(a.name)] = a.value
    return result


def _out_field(body: StatementLowerer, e: ast.Expression, what: str) -> Val:
    val = body.expr.lower(e)
    body.check_writable(val, e)
    if not isinstance(val.ref, (FieldRef, DynFieldRef)):
        raise CompileError(e.span, f"{what} must be a field or variable")
    return val


def _dropped_result(body: StatementLowerer, typed_by: list, call: ast.MethodCall) -> Val:
    """Scratch storage for an out argument given as ``_``, typed by the arguments that
    share its type parameter (an int literal gives no width, as in p4c)."""
    for arg in typed_by:
        t = body.expr.lower(arg).type
        if isinstance(t, BitsT):
            ref = body.lw.layout.temp(t)
            return Val(t, ref.json(), ref=ref)
    raise CompileError(call.span, "could not infer a width for the result given as '_': "
                       "give the bounds a width (8w0) or the result a variable")


# ---------------------------------------------------------------------- data lists
def flatten(body: StatementLowerer, val: Val, span: SourceSpan, copy: bool = False
            ) -> list[tuple[dict, int, str]]:
    """The scalar elements of a data list argument as (json, width, name). With
    ``copy`` every element is copied to a temporary first (digests)."""
    ref = val.ref
    out: list[tuple[dict, int, str]] = []
    if isinstance(ref, tuple) and ref and ref[0] == "list":
        for item, src in zip(ref[1], ref[2].elements):
            out.extend(flatten(body, item, src.span, copy))
        return out
    if isinstance(ref, tuple) and ref and ref[0] == "struct":
        for _, item in ref[1]:
            out.extend(flatten(body, item, span, copy))
        return out
    if isinstance(ref, StructRef):
        for leaf in leaves(ref):
            out.extend(flatten(body, body.expr.from_binding(leaf, span), span, copy))
        return out
    if isinstance(ref, HeaderRef):
        for f in ref.type.fields:
            if isinstance(f.type, VarbitT):
                continue
            fref = ref.field(f.name)
            out.extend(flatten(body, body.expr.from_binding(fref, span), span, copy))
        return out
    if isinstance(val.type, VarbitT) and isinstance(ref, FieldRef) and not copy:
        # a varbit field contributes its current bits (checksums over IPv4 options)
        out.append((ref.json(), 0, ref.field))
        return out
    if isinstance(val.type, VarbitT):
        raise CompileError(span, "a varbit value can only be listed as a field of a "
                           "checksum or hash, not copied into a digest or field list")
    if val.type is None or isinstance(val.type, IntT) and not val.is_const:
        raise CompileError(span, "this value cannot be part of a field list")
    if isinstance(val.type, IntT):
        raise CompileError(span, "constants in a field list need a width (e.g. 8w0)")
    width = bit_width(val.type)
    name = ref.field if isinstance(ref, FieldRef) else "tmp"
    if isinstance(ref, FieldRef) and not copy:
        out.append((ref.json(), width, name))
        return out
    if val.is_const and not copy:
        const = J.hexstr(val.const if not isinstance(val.const, bool) else int(val.const), width)
        const["bitwidth"] = width
        out.append((const, width, name))
        return out
    temp = body.lw.layout.temp(val.type if not isinstance(val.type, BoolT) else BitsT(1))
    body.emit("assign", [J.as_param(temp.json()), J.as_param(val.data(span, width))])
    out.append((temp.json(), width, name))
    return out


def calculation(body: StatementLowerer, algo: str, data: Val, span: SourceSpan, node: ast.Node,
                payload: bool = False) -> str:
    inputs = [j for j, _, _ in flatten(body, data, span)]
    if payload:
        inputs.append({"type": "payload", "value": None})
    lw = body.lw
    name = lw.calc_name("calc")
    lw.program.calculations.append(ir.CalculationIR(
        name, len(lw.program.calculations), algo, inputs, source_info(node)))
    return name


def field_list_for_index(lw: Lowering, index: int, span: SourceSpan) -> int:
    """The field list of ``@field_list(index)``; as p4c, an index no field carries is a
    warning and preserves nothing (an empty list)."""
    if index not in lw.field_list_by_index:
        lw.warn(span, f"no field is annotated @field_list({index}): no metadata is "
                "preserved")
        fl = ir.FieldListIR(f"field_list{index}", index, [])
        lw.field_list_by_index[index] = fl
        lw.program.field_lists.append(fl)
        lw.program.field_lists.sort(key=lambda f: f.id)
    return index


def empty_field_list(lw: Lowering) -> int:
    if lw.empty_field_list is None:
        ident = max([f.id for f in lw.program.field_lists] + [0]) + 1
        lw.empty_field_list = ir.FieldListIR("fl", ident, [])
        lw.program.field_lists.append(lw.empty_field_list)
    return lw.empty_field_list.id


def data_field_list(body: StatementLowerer, data: Val, span: SourceSpan) -> int:
    elements = [j for j, _, _ in flatten(body, data, span)]
    lw = body.lw
    ident = max([f.id for f in lw.program.field_lists] + [0]) + 1
    lw.program.field_lists.append(ir.FieldListIR(f"field_list{ident}", ident, elements))
    return ident


# ---------------------------------------------------------------------- functions
def extern_function(decl: ast.ExternFunctionDecl, call: ast.MethodCall,
                    body: StatementLowerer) -> Val | None:
    name = decl.name
    args = _args(call, decl.params, f"'{name}'")
    ex = body.expr
    std = body.lw.std_meta
    assert std is not None  # program._allocate sets it before any block is lowered
    if name == "mark_to_drop":
        if args and args[0] is not None:
            # checked (an inout standard_metadata_t), but v1model has one instance of it
            meta = ex.lower(args[0])
            if not (isinstance(meta.type, StructT) and meta.type.name == "standard_metadata_t"):
                raise CompileError(args[0].span, "mark_to_drop() needs the standard metadata "
                                   "(an inout standard_metadata_t), not "
                                   f"{meta.type.describe() if meta.type else 'this'}")
            body.check_writable(meta, args[0])
        body.emit("mark_to_drop", [std.json()], call)
        return None
    if name in ("clone", "clone_preserving_field_list", "clone3"):
        kind = enum_member(ex.lower(args[0]), "CloneType", args[0].span)
        session = ex.lower_typed(args[1], BitsT(32)).data(call.span, 32)
        if name == "clone":
            fl = empty_field_list(body.lw)
        elif name == "clone3":
            fl = data_field_list(body, ex.lower(args[2]), args[2].span)
        else:
            fl = field_list_for_index(body.lw, ex.const_int(args[2]), args[2].span)
        op = "clone_ingress_pkt_to_egress" if kind == "I2E" else "clone_egress_pkt_to_egress"
        body.emit(op, [J.as_param(session), J.hexstr(fl)], call)
        return None
    if name in ("resubmit_preserving_field_list", "recirculate_preserving_field_list"):
        index = field_list_for_index(body.lw, ex.const_int(args[0]), args[0].span)
        body.emit(name.split("_")[0], [J.hexstr(index)], call)
        return None
    if name in ("resubmit", "recirculate"):
        fl = data_field_list(body, ex.lower(args[0]), args[0].span) if args and \
            args[0] is not None else empty_field_list(body.lw)
        body.emit(name, [J.hexstr(fl)], call)
        return None
    if name == "truncate":
        length = ex.lower_typed(args[0], BitsT(32))
        body.emit("truncate", [J.as_param(length.data(call.span, 32))], call)
        return None
    if name == "random":
        if isinstance(args[0], ast.DontCare):  # random(_, lo, hi): the value is dropped
            dest = _dropped_result(body, args[1:3], call)
        else:
            dest = _out_field(body, args[0], "the result of random()")
        assert dest.type is not None  # a field or variable has a type
        lo = ex.lower_typed(args[1], dest.type)
        hi = ex.lower_typed(args[2], dest.type)
        width = bit_width(dest.type)
        body.emit("modify_field_rng_uniform", [J.as_param(dest.ref.json()),
                                              J.as_param(lo.data(call.span, width)),
                                              J.as_param(hi.data(call.span, width))], call)
        return None
    if name == "hash":
        dest = _out_field(body, args[0], "the result of hash()")
        algo = enum_member(ex.lower(args[1]), "HashAlgorithm", args[1].span)
        base = ex.lower(args[2])
        data = ex.lower(args[3])
        maximum = ex.lower(args[4])
        calc = calculation(body, algo, data, args[3].span, call)
        base_w = base.type.width if isinstance(base.type, BitsT) else None
        max_w = maximum.type.width if isinstance(maximum.type, BitsT) else None
        body.emit("modify_field_with_hash_based_offset", [
            J.as_param(dest.ref.json()), J.as_param(base.data(call.span, base_w)),
            {"type": "calculation", "value": calc},
            J.as_param(maximum.data(call.span, max_w))], call)
        return None
    if name == "digest":
        digest(call, args, body)
        return None
    if name == "static_assert":
        # checked while compiling (core.p4): nothing runs on the target
        cond = ex.lower(args[0])
        if not cond.is_const:
            raise CompileError(args[0].span, "static_assert needs a condition known at "
                               "compile time")
        if not cond.const:
            message = ex.lower(args[1]).const if len(args) > 1 and args[1] is not None else None
            raise CompileError(call.span, "static assertion failed"
                               + (f": {message}" if isinstance(message, str) else ""))
        return None
    if name in ("assert", "assume"):
        cond = ex.lower(args[0])
        body.emit(name, [J.as_param(cond.cond(args[0].span))], call)
        return None
    if name == "log_msg":
        text = ex.lower(args[0])
        if not isinstance(text.const, str):
            raise CompileError(args[0].span, "log_msg needs a string literal")
        values = []
        if len(args) > 1 and args[1] is not None:
            values = [j for j, _, _ in flatten(body, ex.lower(args[1]), args[1].span,
                                               copy=True)]
        body.emit("log_msg", [{"type": "string", "value": text.const},
                              {"type": "parameters_vector", "value": values}], call)
        return None
    if name == "verify":
        if body.mode != "parser":
            raise CompileError(call.span, "verify() can only be called in a parser")
        cond = ex.lower(args[0])
        err = ex.lower(args[1])
        if not isinstance(err.type, ErrorT):
            raise CompileError(args[1].span, "the second argument of verify() must be an "
                               "error")
        cond_json = J.bool_expression(cond.const) if cond.is_const else cond.cond(args[0].span)
        body.out.append({"op": "verify", "parameters": [cond_json, J.hexstr(err.const)]})
        return None
    if name in ("verify_checksum", "update_checksum", "verify_checksum_with_payload",
                "update_checksum_with_payload"):
        raise CompileError(call.span, f"{name}() can only be called in the checksum "
                           "controls of V1Switch")
    raise CompileError(call.span, f"extern function '{name}' is not supported by this "
                       "target")


def digest(call: ast.MethodCall, args: list, body: StatementLowerer) -> None:
    ex = body.expr
    t: P4Type | None
    if call.type_args:
        t = ex.resolve(call.type_args[0])
        data = ex.lower(args[1])
    else:  # digest(r, data): T is the type of data, as P4's type inference gives it
        data = ex.lower(args[1])
        t = data.type
        if t is None and isinstance(data.ref, tuple) and data.ref and data.ref[0] == "list":
            t = TupleT(tuple(item.type for item in data.ref[1]))
    if isinstance(t, HeaderT) and any(isinstance(f.type, VarbitT) for f in t.fields):
        raise CompileError(call.span, f"the digest type '{t.name}' has a varbit field, "
                           "which a digest cannot carry")
    if not isinstance(t, (StructT, HeaderT, TupleT)):
        raise CompileError(args[1].span if not call.type_args else call.span,
                           "the digest type must be a struct or a header" + (
                               "" if call.type_args else
                               f", not {t.describe() if t is not None else 'a list'}: "
                               "give the struct as digest<T>(...) or (T){...}"))
    receiver = ex.lower_typed(args[0], BitsT(32))
    elements = flatten(body, data, args[1].span, copy=True)
    if len(elements) != _scalar_count(t):
        raise CompileError(args[1].span, f"digest data has {len(elements)} fields but "
                           f"'{t.describe()}' has {_scalar_count(t)}")
    lw = body.lw
    name = _tuple_digest_name(lw, t) if isinstance(t, TupleT) else t.name
    if name not in lw.learn_lists:
        lst = ir.FieldListIR(name, len(lw.learn_lists) + 1, [j for j, _, _ in elements])
        lw.learn_lists[name] = lst
        lw.program.learn_lists.append(lst)
        if isinstance(t, TupleT):
            lw.cp.digests.append(DigestInfo(name, "", tuple(
                struct_member(lw.cp, "", e) for e in t.elements), kind="tuple"))
        else:
            lw.cp.digests.append(DigestInfo(name, t.name, tuple(
                struct_member(lw.cp, f.name, f.type) for f in t.fields),
                kind="header" if isinstance(t, HeaderT) else "struct"))
    ident = lw.learn_lists[name].id
    body.emit("generate_digest", [J.as_param(receiver.data(call.span, 32)), J.hexstr(ident)],
              call)


def _tuple_digest_name(lw: Lowering, t: TupleT) -> str:
    """A tuple type has no name: p4c's P4Info (written before its mid end makes structs
    of tuples) calls its digest ``digest_0``, ``digest_1``... in order of first use; the
    JSON learn list takes the same name, which is how the switch's P4Runtime server
    finds it."""
    known = lw.tuple_digests.get(t)
    if known is None:
        known = lw.tuple_digests[t] = f"digest_{len(lw.tuple_digests)}"
    return known


def _scalar_count(t: P4Type) -> int:
    """How many scalar fields a (possibly nested) struct flattens to."""
    if isinstance(t, (StructT, HeaderT)):
        return sum(_scalar_count(f.type) for f in t.fields)
    if isinstance(t, TupleT):
        return sum(_scalar_count(e) for e in t.elements)
    return 1


# ---------------------------------------------------------------------- packets
def lookahead(call: ast.MethodCall, body: StatementLowerer) -> Val:
    if body.mode != "parser":
        raise CompileError(call.span, "lookahead() can only be called in a parser")
    if len(call.type_args) != 1:
        raise CompileError(call.span, "lookahead needs a type argument: lookahead<T>()")
    t = body.expr.resolve(call.type_args[0])
    if isinstance(t, HeaderT):
        return _lookahead_header(body, t, call.span)
    if isinstance(t, StructT):
        return _lookahead_struct(body, t, call.span)
    serializable = isinstance(t, EnumT) and t.underlying is not None
    if not isinstance(t, (BitsT, BoolT)) and not serializable:
        raise CompileError(call.span, f"lookahead of {t.describe()} is not supported")
    width = bit_width(t)
    temp = body.lw.layout.temp(t if isinstance(t, BitsT) else BitsT(width))
    body.out.append({"op": "set", "parameters": [temp.json(), {
        "type": "lookahead", "value": [0, width]}]})
    if isinstance(t, BoolT):
        return Val(BoolT(), J.op("d2b", None, temp.json()), ref=temp)
    return Val(t, temp.json(), ref=temp)  # int<W>, a `type` or an enum keep their type


def _lookahead_header(body: StatementLowerer, t: HeaderT, span: SourceSpan) -> Val:
    """A header-typed lookahead: a scratch instance whose fields are set from the
    packet at their bit offsets, without consuming anything."""
    scratch = body.lw.layout.header(f"lookahead_{t.name}", t, metadata=True)
    offset = 0
    for f in t.fields:
        if isinstance(f.type, VarbitT):
            raise CompileError(span, "lookahead of a header with a varbit field "
                               f"({t.name}.{f.name}): its length is not known before it "
                               "is extracted")
        width = bit_width(f.type)
        body.out.append({"op": "set", "parameters": [
            J.field(scratch.name, f.name), {"type": "lookahead", "value": [offset, width]}]})
        offset += width
    return Val(t, scratch.json(), ref=scratch)


def _lookahead_struct(body: StatementLowerer, t: StructT, span: SourceSpan) -> Val:
    """A struct-typed lookahead: a struct of scalars, each set from the packet at its
    bit offset (the fields back to back, as the struct would be serialized)."""
    scratch = body.lw.layout.storage(f"lookahead_{t.name}", t)
    offset = 0
    for leaf in leaves(scratch):
        if not isinstance(leaf, FieldRef) or isinstance(leaf.type, VarbitT):
            raise CompileError(span, f"lookahead of {t.name}: only structs of bit<W>, bool "
                               "and serializable enum fields can be looked ahead")
        width = bit_width(leaf.type)
        body.out.append({"op": "set", "parameters": [
            leaf.json(), {"type": "lookahead", "value": [offset, width]}]})
        offset += width
    return Val(t, None, ref=scratch)


def _extract_to_nowhere(call: ast.MethodCall, body: StatementLowerer) -> None:
    """``extract<T>(_)``: the header's bits are consumed and dropped, which is BMv2's
    ``advance`` by the header's width (and, like an extract, PacketTooShort when the
    packet ends first)."""
    if len(call.type_args) != 1:
        raise CompileError(call.span, "extract(_) needs the header type: extract<T>(_)")
    htype = body.expr.resolve(call.type_args[0])
    if not isinstance(htype, HeaderT):
        raise CompileError(call.type_args[0].span, f"extract<{htype.describe()}>(_): "
                           "extract takes a header type")
    if any(isinstance(f.type, VarbitT) for f in htype.fields):
        raise CompileError(call.span, "a header with a varbit field needs "
                           "extract(hdr, length)")
    body.out.append({"op": "advance", "parameters": [J.hexstr(htype.width, 32)]})


def packet_method(call: ast.MethodCall, packet: PacketRef, name: str,
                  body: StatementLowerer) -> None:
    ex = body.expr
    if name == "emit":
        raise CompileError(call.span, "emit() is only allowed in the deparser")
    if body.mode != "parser":
        raise CompileError(call.span, f"packet.{name}() can only be called in a parser")
    if name == "extract":
        if len(call.args) not in (1, 2):
            raise CompileError(call.span, "wrong number of arguments: extract expects 1 "
                               f"or 2, got {len(call.args)}")
        if isinstance(call.args[0].value, ast.DontCare) and len(call.args) == 1:
            _extract_to_nowhere(call, body)
            return None
        target = ex.lower(call.args[0].value)
        ref = target.ref
        if isinstance(ref, StackMember) and ref.which == "next" and ref.member is not None:
            param = {"type": "union_stack", "value": [ref.stack.name, ref.member]}
        elif isinstance(ref, StackMember) and ref.which == "next" and \
                not isinstance(ref.stack.type.element, UnionT):
            param = {"type": "stack", "value": ref.stack.name}
        elif isinstance(ref, HeaderRef):
            param = {"type": "regular", "value": ref.name}
        else:
            raise CompileError(call.args[0].span, "extract needs a header or stack.next")
        if len(call.args) == 2:
            length = ex.lower(call.args[1].value)
            if not isinstance(length.type, (BitsT, IntT)):
                raise CompileError(call.args[1].span, "the varbit length must be bit<W>")
            body.out.append({"op": "extract_VL", "parameters": [
                param, {"type": "expression", "value": length.data(call.span, 32)}]})
        else:
            htype = target.type if isinstance(ref, StackMember) else ref.type
            assert isinstance(htype, AggregateT)  # a header (a stack's elements are headers)
            if any(isinstance(f.type, VarbitT) for f in htype.fields):
                raise CompileError(call.span, "a header with a varbit field needs "
                                   "extract(hdr, length)")
            body.out.append({"op": "extract", "parameters": [param]})
        return None
    if name == "advance":
        if len(call.args) != 1:
            raise CompileError(call.span, "wrong number of arguments: advance expects 1")
        amount = ex.lower_typed(call.args[0].value, BitsT(32))
        body.out.append({"op": "advance", "parameters": [amount.data(call.span, 32)]})
        return None
    if name == "lookahead":
        lookahead(call, body)
        return None
    if name == "length":
        raise CompileError(call.span, "packet_in.length() is not supported by BMv2")
    raise CompileError(call.span, f"packet_in has no method '{name}'")


# ---------------------------------------------------------------------- extern objects
def extern_method(call: ast.MethodCall, obj: ExternObj, name: str,
                  body: StatementLowerer) -> Val | None:
    ex = body.expr
    kind = obj.kind
    if kind == "counter" and name == "count":
        (index,) = _positional(call, (1,), "count", ("index",))
        idx = ex.lower(index)
        body.emit("count", [{"type": "counter_array", "value": obj.name},
                            J.as_param(idx.data(call.span, 32))], call)
        return None
    if kind == "direct_counter" and name == "count":
        _positional(call, (0,), "count")
        return None
    if kind == "meter" and name == "execute_meter":
        index, result = _positional(call, (2,), "execute_meter", ("index", "result"))
        idx = ex.lower(index)
        dest = _out_field(body, result, "the meter result")
        body.emit("execute_meter", [{"type": "meter_array", "value": obj.name},
                                    J.as_param(idx.data(call.span, 32)),
                                    J.as_param(dest.ref.json())], call)
        return None
    if kind == "direct_meter" and name == "read":
        (result,) = _positional(call, (1,), "read", ("result",))
        dest = _out_field(body, result, "the meter result")
        if not isinstance(dest.ref, FieldRef):
            raise CompileError(result.span, "the direct meter result must be a field")
        target = [dest.ref.header, dest.ref.field]
        previous = obj.info.get("result_target")
        if previous is not None and previous != target:
            raise CompileError(call.span, "a direct meter can only be read into one field")
        obj.info["result_target"] = target
        if obj.ir is not None:
            obj.ir.result_target = target
        return None
    if kind == "register" and name == "read":
        result, index = _positional(call, (2,), "read", ("result", "index"))
        dest = _out_field(body, result, "the register read result")
        idx = ex.lower(index)
        body.emit("register_read", [J.as_param(dest.ref.json()),
                                    {"type": "register_array", "value": obj.name},
                                    J.as_param(idx.data(call.span, 32))], call)
        return None
    if kind == "register" and name == "write":
        index, value = _positional(call, (2,), "write", ("index", "value"))
        elem = obj.type_args[0] if obj.type_args else BitsT(32)
        idx = ex.lower(index)
        val = ex.lower_typed(value, elem)
        body.emit("register_write", [{"type": "register_array", "value": obj.name},
                                     J.as_param(idx.data(call.span, 32)),
                                     J.as_param(val.data(call.span, bit_width(elem)))], call)
        return None
    decl = obj.info.get("extern_decl")
    if decl is not None:
        methods = [m for m in decl.methods if m.name == name and m.return_type is not None]
        if methods:
            params = []
            for a in call.args:
                val = ex.lower(a.value)
                params.append(J.as_param(val.data(a.span) if val.type is not None and
                                         not isinstance(val.ref, (HeaderRef,)) else
                                         val.ref.json()))
            body.emit(f"_{kind}_{name}", [{"type": "extern", "value": obj.name}] + params,
                      call)
            return None
    raise CompileError(call.span, f"'{kind}' has no method '{name}' (or it is not "
                       "supported by this target)")
