"""Instantiations inside controls and parsers: v1model extern objects and nested
controls."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.control_plane import ActionProfileInfo, CounterInfo, MeterInfo, RegisterInfo
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower import ir
from p4sim.compiler.lower.arguments import bind_arguments
from p4sim.compiler.lower.context import ControlInstance, ExternObj, Lowering
from p4sim.compiler.lower.expressions import ExprLowerer
from p4sim.compiler.lower.p4rt_types import struct_member
from p4sim.compiler.lower.naming import annotation, cp_extras, int_arg, qualified
from p4sim.compiler.lower.text import source_info
from p4sim.compiler.lower.v1model import enum_member
from p4sim.compiler.semantic.scope import DeclBinding, Scope
from p4sim.compiler.semantic.types import BitsT, BoolT, EnumT, bit_width

_COUNTER_UNITS = {"packets": "PACKETS", "bytes": "BYTES", "packets_and_bytes": "BOTH"}
_METER_UNITS = {"packets": "PACKETS", "bytes": "BYTES"}


def instantiate(lw: Lowering, decl: ast.Instantiation, scope: Scope, prefix: str
                ) -> ControlInstance | ExternObj:
    """The binding for ``T(args) name;`` declared in a control or parser."""
    if not isinstance(decl.type, ast.NamedType):
        raise CompileError(decl.span, "unsupported instantiation")
    binding = scope.lookup(decl.type.name)
    if not isinstance(binding, DeclBinding):
        raise CompileError(decl.type.span, f"unknown type '{decl.type.name}'")
    target = binding.decl
    name = qualified(prefix, decl.name, decl.annotations)
    if isinstance(target, ast.ControlDecl):
        if target.is_type_decl:
            raise CompileError(decl.span, f"'{target.name}' is only a control type")
        return ControlInstance(name, target, binding.scope, decl.args, scope)
    if isinstance(target, ast.ExternDecl):
        ex = ExprLowerer(scope)
        type_args = tuple(ex.resolve(t) for t in decl.type.type_args)
        return make_extern(lw, decl, target, name, type_args, ex)
    raise CompileError(decl.span, f"instantiating '{decl.type.name}' here is not supported")


def _ctor_args(decl: ast.Instantiation, target: ast.ExternDecl) -> list:
    ctors = [m for m in target.methods if m.return_type is None and m.name == target.name]
    for ctor in ctors:
        if len(ctor.params) == len(decl.args):
            return bind_arguments(ctor.params, decl.args, f"'{target.name}'", decl.span)
    if ctors:
        counts = sorted({len(c.params) for c in ctors})
        raise CompileError(decl.span, f"wrong number of arguments: '{target.name}' expects "
                           f"{' or '.join(map(str, counts))}, got {len(decl.args)}")
    return [a.value for a in decl.args]


def make_extern(lw: Lowering, decl: ast.Instantiation, target: ast.ExternDecl, name: str,
                type_args: tuple, ex: ExprLowerer) -> ExternObj:
    kind = target.name
    args = _ctor_args(decl, target)
    obj = ExternObj(name, kind, decl, type_args)
    extras = cp_extras(decl.annotations)
    for kind_name in ("counter", "meter", "register", "profile"):
        lw.remember_order(kind_name, name, decl)
    si = source_info(decl, decl.name)
    program = lw.program
    if kind == "counter":
        size = ex.const_int(args[0])
        unit = _COUNTER_UNITS[enum_member(ex.lower(args[1]), "CounterType", args[1].span)]
        obj.ir = ir.CounterIR(name, len(program.counters), size, False, source_info=si)
        program.counters.append(obj.ir)
        lw.cp.counters.append(CounterInfo(name, unit, size, **extras))
    elif kind == "direct_counter":
        unit = _COUNTER_UNITS[enum_member(ex.lower(args[0]), "CounterType", args[0].span)]
        obj.info.update(unit=unit, extras=extras)
        obj.ir = ir.CounterIR(name, -1, 0, True, source_info=si)
    elif kind == "meter":
        size = ex.const_int(args[0])
        mtype = enum_member(ex.lower(args[1]), "MeterType", args[1].span)
        obj.ir = ir.MeterIR(name, len(program.meters), size, mtype, False, source_info=si)
        program.meters.append(obj.ir)
        lw.cp.meters.append(MeterInfo(name, _METER_UNITS[mtype], size, **extras))
    elif kind == "direct_meter":
        mtype = enum_member(ex.lower(args[0]), "MeterType", args[0].span)
        obj.info.update(unit=_METER_UNITS[mtype], extras=extras)
        obj.ir = ir.MeterIR(name, -1, 0, mtype, True, source_info=si)
    elif kind == "register":
        if not type_args:
            raise CompileError(decl.span, "register needs a type argument: register<T>")
        size = ex.const_int(args[0])
        cell = type_args[0]
        if not isinstance(cell, (BitsT, BoolT)) and not (
                isinstance(cell, EnumT) and cell.underlying is not None):
            raise CompileError(decl.span, f"register<{cell.describe()}>: BMv2 registers hold "
                               "bit<W> or int<W> values, not structs or headers")
        width = bit_width(cell)
        obj.ir = ir.RegisterIR(name, len(program.registers), size, width, source_info=si)
        program.registers.append(obj.ir)
        plain = isinstance(cell, BitsT) and not cell.signed and cell.new_type is None
        lw.cp.registers.append(RegisterInfo(
            name, width, size, cell=None if plain else struct_member(lw.cp, name, cell),
            **extras))
    elif kind == "action_profile":
        if annotation(decl.annotations, "max_group_size") is not None:
            lw.warn(decl.span, f"Ignoring annotation @max_group_size on action profile "
                    f"'{name}', which does not have a selector")
        obj.info.update(size=ex.const_int(args[0]), extras=extras)
        _declare_profile(lw, obj, with_selector=False)
    elif kind == "action_selector":
        algo = enum_member(ex.lower(args[0]), "HashAlgorithm", args[0].span)
        max_group = int_arg(annotation(decl.annotations, "max_group_size"))
        obj.info.update(size=ex.const_int(args[1]), algo=algo, extras=extras,
                        max_group_size=max_group or 0,
                        output_width=ex.const_int(args[2]) if len(args) > 2 else None)
        _declare_profile(lw, obj, with_selector=True)
    else:
        obj.info["extern_decl"] = target
        attrs = []
        for param_decl, arg in zip(_ctor_params(target, decl), args):
            val = ex.lower(arg)
            if val.is_const and not isinstance(val.const, bool):
                attrs.append({"name": param_decl.name, "type": "hexstr",
                              "value": hex(val.const)})
        program.extern_instances.append(ir.ExternInstanceIR(
            name, len(program.extern_instances), kind, attrs))
    lw.extern_objects[name] = obj
    return obj


def _declare_profile(lw: Lowering, obj: ExternObj, with_selector: bool) -> None:
    """An action profile is in P4Info from its instantiation, used by a table or not
    (p4c keeps unused extern instances, with a warning; action_selector_unused-bmv2's
    P4Info lists its selector); each table that uses it adds its ID later."""
    lw.cp.action_profiles.append(ActionProfileInfo(
        obj.name, (), with_selector, obj.info["size"], obj.info.get("max_group_size", 0),
        **obj.info["extras"]))


def _ctor_params(target: ast.ExternDecl, decl: ast.Instantiation):
    for m in target.methods:
        if m.return_type is None and m.name == target.name and len(m.params) == len(decl.args):
            return m.params
    return ()
