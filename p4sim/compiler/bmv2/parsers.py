"""parsers, parse_vsets."""
from __future__ import annotations

from p4sim.compiler.lower import ir


def parsers(program: ir.ProgramIR) -> list[dict]:
    return [{"name": p.name, "id": p.id, "init_state": p.init_state,
             "parse_states": [_state(s) for s in p.states]} for p in program.parsers]


def _state(s: ir.ParseStateIR) -> dict:
    return {"name": s.name, "id": s.id, "parser_ops": s.ops, "transitions": s.transitions,
            "transition_key": s.transition_key}


def parse_vsets(program: ir.ProgramIR) -> list[dict]:
    return [{"name": v.name, "id": v.id, "compressed_bitwidth": v.bitwidth,
             "max_size": v.max_size} for v in program.parse_vsets]
