"""calculations and checksums."""
from __future__ import annotations

from p4sim.compiler.bmv2.entry import named_entry
from p4sim.compiler.lower import ir


def calculations(program: ir.ProgramIR) -> list[dict]:
    out = []
    for c in program.calculations:
        entry = named_entry(c)
        entry.update(algo=c.algo, input=c.inputs)
        out.append(entry)
    return out


def checksums(program: ir.ProgramIR) -> list[dict]:
    out = []
    for c in program.checksums:
        entry = named_entry(c)
        entry.update(target=c.target, type="generic", calculation=c.calculation,
                     verify=c.verify, update=c.update, if_cond=c.if_cond)
        out.append(entry)
    return out
