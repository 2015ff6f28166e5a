"""The mid end as the driver runs it: every pass in order, on the checked program, and
a package that depends on the syntax tree only (never on the converters)."""
from __future__ import annotations

import ast as python_ast
from pathlib import Path

import pytest

import p4sim.compiler.midend as midend_package
from p4sim.compiler.driver import compile_program
from p4sim.compiler.errors import CompileError
from p4sim.compiler.midend.direct_apply import instantiate_direct_applications
from p4sim.compiler.midend.pipeline import PASSES, run_midend
from p4sim.compiler.midend.table_hits import hoist_table_hits
from p4sim.compiler.midend.value_switch import desugar_value_switches

from me_helpers import apply_text, parse, source, write

# The modules the mid end may import from outside its own package.
ALLOWED = {"p4sim.compiler.ast", "p4sim.compiler.errors"}


def test_the_passes_run_in_order() -> None:
    assert PASSES == (instantiate_direct_applications, desugar_value_switches,
                      hoist_table_hits)
    # the if a switch becomes has its table hit hoisted; the direct application
    # inside it applies the instance
    program = parse("switch (hdr.h.a) { 1: { Twice.apply(hdr.h.b); } }", globals_="""
control Twice(inout bit<8> v) { apply { v = v + v; } }""")
    assert apply_text(run_midend(program)) == (
        "{ s.egress_spec = 2; if (hdr.h.a == 1) { Twice$direct.apply(hdr.h.b); } }")
    program = parse("switch ((bit<8>)(bit<1>)t.apply().hit) { 1: { hdr.h.b = 1; } }",
                    locals_="table t { actions = { NoAction; } }")
    assert apply_text(run_midend(program)) == (
        "{ s.egress_spec = 2; { bool cond$1; bool tmp$2; "
        "if (t.apply().hit) tmp$2 = true; else tmp$2 = false; "
        "cond$1 = ((bit<8>)((bit<1>)tmp$2)) == 1; if (cond$1) { hdr.h.b = 1; } } }")


def test_a_program_with_nothing_to_rewrite_is_the_same_object() -> None:
    program = parse("hdr.h.a = hdr.h.b;")
    assert run_midend(program) is program


def test_the_checker_sees_the_program_as_written(tmp_path: Path) -> None:
    # the unused-instance warning is about the source: the instance the mid end adds
    # for 'Twice.apply' is not reported, the unused one the program declares is
    text = source("Twice.apply(hdr.h.a);", locals_="Twice() spare;", globals_="""
control Twice(inout bit<8> v) { apply { v = v + v; } }""")
    warnings = [w.message for w in compile_program(str(write(tmp_path, text))).warnings]
    assert warnings == ["spare: unused instance"]


def test_read_only_parameters_are_still_checked_in_uncalled_actions(tmp_path: Path) -> None:
    text = source("", locals_="action never(in bit<8> x) { x = 1; }")
    with pytest.raises(CompileError, match="cannot assign to 'x'"):
        compile_program(str(write(tmp_path, text)))


def _imports(path: Path) -> set[str]:
    tree = python_ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in python_ast.walk(tree):
        if isinstance(node, python_ast.ImportFrom) and node.module:
            # 'from p4sim.compiler import ast' imports p4sim.compiler.ast
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, python_ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_mid_end_imports_only_the_tree_and_itself() -> None:
    package = Path(midend_package.__file__).parent
    modules = sorted(package.glob("*.py"))
    assert len(modules) >= 4
    for module in modules:
        outside = {m for m in _imports(module) if m.startswith("p4sim.")
                   and not _within(m, "p4sim.compiler.midend")
                   and not any(_within(m, allowed) for allowed in ALLOWED)}
        assert not outside, f"{module.name} imports {outside}"


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")
