"""The mid-end passes in the order the compiler runs them."""
from __future__ import annotations

from typing import Callable

from p4sim.compiler import ast
from p4sim.compiler.midend.direct_apply import instantiate_direct_applications
from p4sim.compiler.midend.table_hits import hoist_table_hits
from p4sim.compiler.midend.value_switch import desugar_value_switches

Pass = Callable[[ast.Program], ast.Program]

# Direct applications first (the others then see only instances applied); value
# switches before table hits, so that the ifs they become are hoisted too.
PASSES: tuple[Pass, ...] = (instantiate_direct_applications, desugar_value_switches,
                            hoist_table_hits)


def run_midend(program: ast.Program, passes: tuple[Pass, ...] = PASSES) -> ast.Program:
    """The checked ``program`` after every pass, in order."""
    for run in passes:
        program = run(program)
    return program
