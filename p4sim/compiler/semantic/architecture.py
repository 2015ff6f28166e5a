"""The architecture p4c-bm2-ss compiles for: v1model, whose main package is V1Switch.

p4c-bm2-ss checks every declaration first and looks at ``main`` last: a main package
without V1Switch's parser, checksum, ingress, egress and deparser parameters (a
program's own package type, another architecture's) gets p4c's model error, and a
warning that the package should be called V1Switch."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic.package_arguments import in_parameter_order, instantiated_block
from p4sim.compiler.semantic.expr_types import ExprTyper
from p4sim.compiler.semantic.scope import DeclBinding, GlobalInfo
from p4sim.compiler.semantic.types import P4Type, TypeVarT

# V1Switch's parameter names, which p4c's back end looks the pipeline blocks up by.
V1SWITCH_PARAMETERS = ("p", "vr", "ig", "eg", "ck", "dep")


def lowering_stops_at_main(program: ast.Program) -> bool:
    """Whether the program has no ``main``, or one of a package other than v1model's
    V1Switch, where lowering stops before any body (found by name, without scopes)."""
    main = next((d for d in reversed(program.declarations)
                 if isinstance(d, ast.Instantiation) and d.name == "main"), None)
    if main is None or not isinstance(main.type, ast.NamedType) or \
            main.type.name != "V1Switch":
        return True
    package = next((d for d in reversed(program.declarations)
                    if isinstance(d, ast.PackageDecl) and d.name == "V1Switch"), None)
    return package is not None and not package.span.file.endswith("v1model.p4")


def check_main_package(info: GlobalInfo) -> None:
    """Raise p4c-bm2-ss's model error for a main package that is not v1model's."""
    main = info.main
    if main is None or not isinstance(main.type, ast.NamedType):
        return   # lowering reports a missing main
    name = main.type.name
    binding = info.scope.lookup(name)
    if not isinstance(binding, DeclBinding) or not isinstance(binding.decl, ast.PackageDecl):
        return   # not a package: lowering reports it
    params = {p.name for p in binding.decl.params}
    if all(p in params for p in V1SWITCH_PARAMETERS):
        _check_block_parameters(main, binding.decl, info)
        return
    notes: tuple[str, ...] = ("Are you using an up-to-date v1model.p4?",)
    if name != "V1Switch":
        notes = (f"{name}: the main package should be called V1Switch; are you using the "
                 "wrong architecture? (p4c-bm2-ss compiles v1model programs)",) + notes
    raise CompileError(main.span, f"package {name}: main package does not match the "
                       "expected model", notes)


def _check_block_parameters(main: ast.Instantiation, package: ast.PackageDecl,
                            info: GlobalInfo) -> None:
    """Each block given to the package takes the parameters its package parameter's
    type declares, in number and direction (p4c unifies the two types and refuses a
    verify-checksum control taking ``in H`` where VerifyChecksum has ``inout H``)."""
    unified: dict[str, tuple[P4Type, str]] = {}   # package type variable -> (type, whose)
    for param, arg in zip(package.params, in_parameter_order(main, package.params)):
        expected = _block_type(param.type, info)
        given = _block_of(arg, info) if arg is not None else None
        if expected is None or given is None or arg is None:
            continue
        _unify(param, expected, given, package, info, unified, arg)
        if len(given.params) != len(expected.params):
            raise CompileError(arg.span, "Cannot unify functions with different number of "
                               f"arguments: {given.name} takes {len(given.params)}, "
                               f"{expected.name} {len(expected.params)}")
        for mine, theirs in zip(given.params, expected.params):
            if mine.direction != theirs.direction:
                raise CompileError(arg.span, f"Cannot unify '{mine.direction}' parameter "
                                   f"'{mine.name}' with '{theirs.direction}' parameter "
                                   f"'{theirs.name}' because they have different "
                                   "directions", (f"{given.name} is given as the package's "
                                                  f"'{param.name}' ({expected.name})",))


def _unify(param: ast.Parameter, expected: ast.ControlDecl | ast.ParserDecl,
           given: ast.ControlDecl | ast.ParserDecl, package: ast.PackageDecl,
           info: GlobalInfo, unified: dict[str, tuple[P4Type, str]], arg: ast.Node) -> None:
    """The package's type variables (V1Switch's H and M) stand for one type each: the
    parser's ``out H`` and the ingress's ``inout H`` are the same struct (p4c refuses
    an ingress whose headers and metadata come in the other order)."""
    if not isinstance(param.type, ast.NamedType):
        return
    variables = {tp.name for tp in package.type_params}
    to_package = {tp.name: a.name for tp, a in zip(expected.type_params, param.type.type_args)
                  if isinstance(a, ast.NamedType) and a.name in variables}
    typer = ExprTyper(info.scope)
    for mine, theirs in zip(given.params, expected.params):
        if not (isinstance(theirs.type, ast.NamedType) and theirs.type.name in to_package):
            continue
        variable = to_package[theirs.type.name]
        try:
            t = typer.resolve(mine.type)
        except CompileError:
            continue   # the checker reports an unknown type where it is written
        if t is None or isinstance(t, TypeVarT):
            continue
        first = unified.setdefault(variable, (t, f"{given.name}'s '{mine.name}'"))
        if first[0] != t:
            raise CompileError(arg.span, f"Cannot unify '{t.describe()}' with "
                               f"'{first[0].describe()}': {given.name}'s parameter "
                               f"'{mine.name}' has type {t.describe()}, where {first[1]} "
                               f"made the package's type parameter {variable} stand for "
                               f"{first[0].describe()}")


_BLOCKS = (ast.ControlDecl, ast.ParserDecl)


def _block_type(t: ast.Type, info: GlobalInfo) -> ast.ControlDecl | ast.ParserDecl | None:
    if not isinstance(t, ast.NamedType):
        return None
    binding = info.scope.lookup(t.name)
    if isinstance(binding, DeclBinding) and isinstance(binding.decl, _BLOCKS) \
            and binding.decl.is_type_decl:
        return binding.decl
    return None


def _block_of(arg: ast.Expression, info: GlobalInfo) -> ast.ControlDecl | ast.ParserDecl | None:
    """The control or parser a package argument instantiates."""
    reference = instantiated_block(arg, info.scope)
    binding = info.scope.lookup(reference[0]) if reference else None
    if isinstance(binding, DeclBinding) and isinstance(binding.decl, _BLOCKS) \
            and not binding.decl.is_type_decl:
        return binding.decl
    return None
