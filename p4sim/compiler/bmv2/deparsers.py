"""deparsers."""
from __future__ import annotations

from p4sim.compiler.lower import ir


def deparsers(program: ir.ProgramIR) -> list[dict]:
    out = []
    for d in program.deparsers:
        entry = {"name": d.name, "id": d.id}
        if d.source_info:
            entry["source_info"] = d.source_info
        entry.update(order=d.order, primitives=[])
        out.append(entry)
    return out
