"""deparsers."""
from __future__ import annotations

from p4sim.compiler.bmv2.entry import named_entry
from p4sim.compiler.lower import ir


def deparsers(program: ir.ProgramIR) -> list[dict]:
    out = []
    for d in program.deparsers:
        entry = named_entry(d)
        entry.update(order=d.order, primitives=[])
        out.append(entry)
    return out
