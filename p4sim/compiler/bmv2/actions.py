"""actions."""
from __future__ import annotations

from p4sim.compiler.lower import ir


def actions(program: ir.ProgramIR) -> list[dict]:
    return [{"name": a.name, "id": a.id,
             "runtime_data": [{"name": n, "bitwidth": w} for n, w in a.runtime_data],
             "primitives": a.primitives} for a in program.actions]
