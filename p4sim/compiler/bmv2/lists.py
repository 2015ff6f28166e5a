"""field_lists (preserved metadata for clone/resubmit/recirculate) and learn_lists
(digests)."""
from __future__ import annotations

from p4sim.compiler.lower import ir


def field_lists(program: ir.ProgramIR) -> list[dict]:
    return [{"id": f.id, "name": f.name, "elements": f.elements} for f in program.field_lists]


def learn_lists(program: ir.ProgramIR) -> list[dict]:
    return [{"id": f.id, "name": f.name, "elements": f.elements} for f in program.learn_lists]
