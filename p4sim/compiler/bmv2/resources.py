"""meter_arrays, counter_arrays, register_arrays, extern_instances."""
from __future__ import annotations

from p4sim.compiler.bmv2.entry import named_entry
from p4sim.compiler.lower import ir


def meter_arrays(program: ir.ProgramIR) -> list[dict]:
    out = []
    for m in program.meters:
        entry = named_entry(m)
        entry.update(is_direct=m.is_direct, rate_count=m.rate_count, type=m.meter_type,
                     size=m.size)
        if m.is_direct:
            entry["binding"] = m.binding
            entry["result_target"] = m.result_target
        out.append(entry)
    return out


def counter_arrays(program: ir.ProgramIR) -> list[dict]:
    out = []
    for c in program.counters:
        entry = named_entry(c)
        if c.is_direct:
            entry.update(is_direct=True, binding=c.binding)
        else:
            entry.update(size=c.size, is_direct=False)
        out.append(entry)
    return out


def register_arrays(program: ir.ProgramIR) -> list[dict]:
    out = []
    for r in program.registers:
        entry = named_entry(r)
        entry.update(size=r.size, bitwidth=r.bitwidth)
        out.append(entry)
    return out


def extern_instances(program: ir.ProgramIR) -> list[dict]:
    return [{"name": e.name, "id": e.id, "type": e.type,
             "attribute_values": e.attribute_values} for e in program.extern_instances]
