"""The architecture p4c-bm2-ss compiles for: v1model, whose main package is V1Switch.

p4c-bm2-ss checks every declaration first and looks at ``main`` last: a main package
without V1Switch's parser, checksum, ingress, egress and deparser parameters (a
program's own package type, another architecture's) gets p4c's model error, and a
warning that the package should be called V1Switch."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic.scope import DeclBinding, GlobalInfo

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
        return
    notes: tuple[str, ...] = ("Are you using an up-to-date v1model.p4?",)
    if name != "V1Switch":
        notes = (f"{name}: the main package should be called V1Switch; are you using the "
                 "wrong architecture? (p4c-bm2-ss compiles v1model programs)",) + notes
    raise CompileError(main.span, f"package {name}: main package does not match the "
                       "expected model", notes)
