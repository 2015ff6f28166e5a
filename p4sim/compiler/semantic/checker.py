"""The checker's entry point: every body's types and references, then the main
package, as p4c-bm2-ss orders them (its front end checks all declarations before its
back end looks at ``main``)."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.semantic.architecture import check_main_package
from p4sim.compiler.semantic.bodies import check_bodies


def check_every_body(program: ast.Program) -> None:
    """Raise CompileError at the first type, reference or architecture error."""
    info = check_bodies(program)
    check_main_package(info)
