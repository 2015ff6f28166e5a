"""Whole-program lowering for the v1model architecture (V1Switch package)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.control_plane import ControllerHeaderInfo, StructMemberInfo
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.lower import ir
from p4sim.compiler.lower.arguments import bind_arguments
from p4sim.compiler.lower.checksums import lower_checksum_control
from p4sim.compiler.lower.context import Lowering, PacketRef
from p4sim.compiler.lower.controls import ControlGraph
from p4sim.compiler.lower.deparser import lower_deparser
from p4sim.compiler.lower.expressions import ExprLowerer, ReadOnly
from p4sim.compiler.lower.instances import instantiate
from p4sim.compiler.lower.naming import annotation, cp_extras, qualified, string_arg
from p4sim.compiler.lower.p4rt_types import struct_member
from p4sim.compiler.lower.package_info import package_info
from p4sim.compiler.lower.parsers import lower_parser
from p4sim.compiler.lower.storage import HeaderRef, StructRef
from p4sim.compiler.lower.text import source_info
from p4sim.compiler.semantic.package_arguments import in_parameter_order, instantiated_block
from p4sim.compiler.semantic.scope import (
    ConstBinding, DeclBinding, GlobalInfo, Scope, TypeBinding, build_global_scope)
from p4sim.compiler.semantic.types import (
    AggregateT, BitsT, FieldT, HeaderT, P4Type, StructT, bit_width)

V1SWITCH_ROLES = ("parser", "verify_checksum", "ingress", "egress", "compute_checksum",
                  "deparser")
BUILTIN_FILES = ("core.p4", "v1model.p4")


def const_eval(e: ast.Expression, scope: Scope) -> tuple[Any, P4Type]:
    return ExprLowerer(scope).const_eval(e, scope)


def lower_program(program: ast.Program, program_file: str) -> Lowering:
    """Lower a checked program that has been through the mid end (driver.py)."""
    info = build_global_scope(program, const_eval)
    lw = Lowering(info, program_file)
    lw.index_declarations(program)
    blocks = _main_blocks(info, program_file)
    parser_decl, parser_scope = blocks["parser"]
    header_t, meta_t = _header_and_meta_types(parser_decl, parser_scope)
    std_t = _standard_metadata(info, program_file)
    _allocate(lw, header_t, meta_t, std_t)
    _global_instances(lw, program)
    _field_lists(lw, meta_t)
    _controller_headers(lw, info)
    if info.main is not None:
        lw.cp.package = package_info(lw, info.main)
    _lower_blocks(lw, blocks)
    lw.program.errors = [(name, i) for i, name in enumerate(info.errors)]
    lw.cp.error_members = tuple(info.errors)
    lw.program.enums = [(e.name, list(zip(e.members, e.values))) for e in info.enums
                        if e.underlying is None and e.name not in _builtin_enum_names(program)]
    lw.layout.finish_scalars()
    lw.sort_control_plane()
    return lw


def _global_instances(lw: Lowering, program: ast.Program) -> None:
    """Top-level extern instances (shared by several controls), named without prefix."""
    scope = lw.info.scope
    for decl in program.declarations:
        if isinstance(decl, ast.Instantiation) and decl is not lw.info.main:
            binding = scope.lookup(decl.type.name) if isinstance(decl.type, ast.NamedType) \
                else None
            if isinstance(binding, DeclBinding) and isinstance(binding.decl, ast.ExternDecl):
                scope.declare(decl.name, instantiate(lw, decl, scope, ""))


def _builtin_enum_names(program: ast.Program) -> set[str]:
    return {d.name for d in program.declarations
            if isinstance(d, ast.EnumDecl) and d.span.file.endswith(BUILTIN_FILES)}


def _end_of_file(path: str) -> SourceSpan:
    """Where a missing declaration would go: the last line of the program file."""
    try:
        with open(path, encoding="utf-8") as source:
            lines = source.read().splitlines() or [""]
    except (OSError, UnicodeDecodeError):
        return SourceSpan(path, 1, 1)
    return SourceSpan(path, len(lines), len(lines[-1]) + 1, lines[-1])


def _main_blocks(info: GlobalInfo, program_file: str) -> dict[str, tuple[Any, Scope]]:
    main = info.main
    if main is None:
        raise CompileError(_end_of_file(program_file),
                           "the program has no 'main' package instantiation",
                           ("v1model programs end with 'V1Switch(...) main;'",))
    if not isinstance(main.type, ast.NamedType) or main.type.name != "V1Switch":
        name = main.type.name if isinstance(main.type, ast.NamedType) else "?"
        raise CompileError(main.span, f"unsupported architecture package '{name}'; "
                           "only v1model's V1Switch is supported")
    if len(main.args) != 6:
        raise CompileError(main.span, f"wrong number of arguments: V1Switch expects 6, got "
                           f"{len(main.args)}")
    blocks = {}
    scope = info.scope
    for role, value in zip(V1SWITCH_ROLES, _package_arguments(main, scope)):
        reference = instantiated_block(value, scope)
        if reference is None:
            raise CompileError(value.span, f"'{value.name}' is not an instance"
                               if isinstance(value, ast.Name) else
                               f"unsupported V1Switch argument for the {role}")
        name, ctor_args = reference
        binding = scope.lookup(name)
        if not isinstance(binding, DeclBinding) or not isinstance(
                binding.decl, (ast.ParserDecl, ast.ControlDecl)) or binding.decl.is_type_decl:
            raise CompileError(value.span, f"'{name}' is not a parser or control")
        want = ast.ParserDecl if role == "parser" else ast.ControlDecl
        if not isinstance(binding.decl, want):
            raise CompileError(value.span, f"the {role} of V1Switch must be a "
                               f"{'parser' if role == 'parser' else 'control'}")
        blocks[role] = (binding.decl, _with_constructor_args(binding.decl, binding.scope,
                                                             ctor_args))
    return blocks


def _package_arguments(main: ast.Instantiation, scope: Scope) -> list[ast.Expression]:
    """V1Switch's arguments in parameter order: named ones (``ig = I()``) may come in
    any order, as the package declaration's parameter names say."""
    package = scope.lookup("V1Switch")
    if not any(a.name for a in main.args) or not isinstance(package, DeclBinding) \
            or not isinstance(package.decl, ast.PackageDecl):
        return [a.value for a in main.args]
    bind_arguments(package.decl.params, main.args, "V1Switch", main.span)  # names valid
    return [b for b in in_parameter_order(main, package.decl.params) if b is not None]


def _with_constructor_args(decl, scope: Scope, args) -> Scope:
    """The declaration scope extended with the block's constructor parameters."""
    params = decl.constructor_params
    if not params and not args:
        return scope
    bound = bind_arguments(params, tuple(args), f"'{decl.name}'", decl.span)
    inner = scope.child(scope.prefix)
    ex = ExprLowerer(scope)
    for p, a in zip(params, bound):
        if a is None:  # an omitted @optional parameter: a constructor needs them all
            raise CompileError(decl.span, f"'{decl.name}': missing constructor argument "
                               f"'{p.name}'")
        val = ex.lower_typed(a, ex.resolve(p.type))
        if not val.is_const:
            raise CompileError(a.span, "constructor arguments must be constants")
        assert val.type is not None  # lower_typed gives a value of the parameter's type
        inner.declare(p.name, ConstBinding(val.const, val.type))
    return inner


def _header_and_meta_types(decl: ast.ParserDecl, scope: Scope):
    if len(decl.params) != 4:
        raise CompileError(decl.span, f"the V1Switch parser needs 4 parameters, "
                           f"'{decl.name}' has {len(decl.params)}")
    ex = ExprLowerer(scope)
    header_t = ex.resolve(decl.params[1].type)
    meta_t = ex.resolve(decl.params[2].type)
    if not isinstance(header_t, StructT):
        raise CompileError(decl.params[1].span, "the headers parameter must be a struct")
    if not isinstance(meta_t, StructT):
        raise CompileError(decl.params[2].span, "the metadata parameter must be a struct")
    return header_t, meta_t


def _standard_metadata(info: GlobalInfo, program_file: str) -> StructT:
    binding = info.scope.lookup("standard_metadata_t")
    if binding is None:
        raise CompileError(_end_of_file(program_file),
                           "standard_metadata_t is not declared; include <v1model.p4>")
    return binding.type


def _allocate(lw: Lowering, header_t: StructT, meta_t: StructT, std_t: StructT) -> None:
    layout = lw.layout
    layout.used_names.add("scalars")
    fields = list(std_t.fields)
    total = sum(bit_width(f.type) for f in fields)
    if total % 8:
        fields.append(FieldT("_padding", BitsT(8 - total % 8)))
        layout.used_names.add("_padding")
    std_header = HeaderT("standard_metadata", tuple(fields))
    lw.std_meta = layout.header("standard_metadata", std_header, metadata=True)
    lw.hdr_ref = layout.storage("hdr", header_t, scalar_prefix=header_t.name)
    lw.meta_ref = layout.storage("meta", meta_t, scalar_prefix=meta_t.name)
    std_members = tuple((f.name, lw.std_meta.field(f.name)) for f in std_t.fields)
    lw.std_ref = StructRef(std_t, std_members)


def _field_lists(lw: Lowering, meta_t: StructT) -> None:
    for leaf, annotations in _annotated_fields(lw.meta_ref, meta_t):
        ann = annotation(annotations, "field_list")
        if ann is None:
            continue
        for index in _field_list_indexes(lw, ann):
            fl = lw.field_list_by_index.get(index)
            if fl is None:
                fl = ir.FieldListIR(f"field_list{index}", index, [])
                lw.field_list_by_index[index] = fl
                lw.program.field_lists.append(fl)
            fl.elements.append(leaf.json())
    lw.program.field_lists.sort(key=lambda f: f.id)


def _field_list_indexes(lw: Lowering, ann: ast.Annotation) -> list[int]:
    """The indexes of ``@field_list(a, b...)``: integer constants, named constants or
    serializable enum members (``@field_list(FieldLists.redirect)``)."""
    if not ann.args and ann.body and ann.body.strip():
        raise CompileError(ann.span, f"@field_list({ann.body.strip()}): the field list "
                           "indexes must be integer constants")
    ex = ExprLowerer(lw.info.scope)
    indexes = []
    for arg in ann.args:
        val = ex.lower(arg)
        if not val.is_const or isinstance(val.const, (bool, str)) or \
                not isinstance(val.const, int):
            raise CompileError(arg.span, "a @field_list index must be an integer constant "
                               "or a serializable enum member")
        indexes.append(int(val.const))
    return indexes


def _annotated_fields(ref: StructRef, t: StructT):
    for f in t.fields:
        member = ref.member(f.name)
        if isinstance(member, StructRef) and isinstance(f.type, StructT):
            yield from _annotated_fields(member, f.type)
        elif hasattr(member, "json") and not isinstance(member, HeaderRef):
            yield member, f.annotations


def _controller_headers(lw: Lowering, info: GlobalInfo) -> None:
    for binding in info.scope.names.values():
        t = getattr(binding, "type", None)
        if not isinstance(t, HeaderT):
            continue
        name = string_arg(annotation(t.annotations, "controller_header"))
        if name is None:
            continue
        lw.cp.controller_headers.append(ControllerHeaderInfo(
            name, tuple(_metadata_field(lw, f) for f in t.fields),
            t.name, **cp_extras(t.annotations)))


def _metadata_field(lw: Lowering, f: FieldT) -> StructMemberInfo:
    """A controller header's field as P4Info lists it: by its control-plane name, with
    its @id and its other annotations, as p4c copies them."""
    extras = cp_extras(f.annotations)
    name = qualified("", f.name, f.annotations)
    return replace(struct_member(lw.cp, name, f.type), annotations=extras["annotations"],
                   fixed_id=extras["fixed_id"])


def _type_name(lw: Lowering, t: ast.Type) -> str:
    """The name of the struct, header or extern a parameter's type denotes, through
    typedefs (``typedef standard_metadata_t std_m;``)."""
    if not isinstance(t, ast.NamedType):
        return ""
    binding = lw.info.scope.lookup(t.name)
    if isinstance(binding, TypeBinding) and isinstance(binding.type, AggregateT):
        return binding.type.name
    return t.name


def _bindings(lw: Lowering, decl, role: str) -> dict[str, Any]:
    """Parameter name -> storage for a V1Switch block: packet, then headers, then
    metadata, then standard metadata, by position as V1Switch declares them."""
    out: dict[str, Any] = {}
    data = [lw.hdr_ref, lw.meta_ref]
    for p in decl.params:
        tname = _type_name(lw, p.type)
        if tname in ("packet_in", "packet_out"):
            out[p.name] = PacketRef(tname)
        elif tname == "standard_metadata_t":
            out[p.name] = lw.std_ref
        elif data:
            out[p.name] = data.pop(0)
        else:
            raise CompileError(p.span, f"unexpected parameter '{p.name}' for the {role}")
        if p.direction == "in":
            out[p.name] = ReadOnly(out[p.name], f"'{p.name}' is an in parameter")
    return out


def _lower_blocks(lw: Lowering, blocks: dict[str, tuple[Any, Scope]]) -> None:
    decl, scope = blocks["parser"]
    lower_parser(lw, decl, scope, _bindings(lw, decl, "parser"))
    for role in ("ingress", "egress"):
        decl, scope = blocks[role]
        pipeline = ir.PipelineIR(role, len(lw.program.pipelines),
                                 source_info=source_info(decl, decl.name))
        lw.current_pipeline = pipeline
        if len(decl.params) != 3:
            raise CompileError(decl.span, f"the V1Switch {role} control needs 3 parameters")
        ControlGraph(lw, pipeline).lower_control(decl, scope, decl.name,
                                                 _bindings(lw, decl, role))
        lw.program.pipelines.append(pipeline)
    decl, scope = blocks["deparser"]
    lower_deparser(lw, decl, scope, _bindings(lw, decl, "deparser"))
    for role, verify in (("compute_checksum", False), ("verify_checksum", True)):
        decl, scope = blocks[role]
        lower_checksum_control(lw, decl, scope, _bindings(lw, decl, role), verify)
