"""header_types, headers, header_stacks, header_union_types, header_unions."""
from __future__ import annotations

from p4sim.compiler.lower import ir


def header_types(program: ir.ProgramIR) -> list[dict]:
    out = []
    for i, t in enumerate(program.header_types):
        fields = [[n, w, s] if w != "*" else [n, "*"] for n, w, s in t.fields]
        entry = {"name": t.name, "id": i, "fields": fields}
        if t.max_length is not None:
            entry["max_length"] = t.max_length
        out.append(entry)
    return out


def headers(program: ir.ProgramIR) -> list[dict]:
    return [{"name": h.name, "id": i, "header_type": h.header_type, "metadata": h.metadata,
             "pi_omit": True} for i, h in enumerate(program.headers)]


def _header_ids(program: ir.ProgramIR) -> dict[str, int]:
    return {h.name: i for i, h in enumerate(program.headers)}


def _union_ids(program: ir.ProgramIR) -> dict[str, int]:
    return {u.name: i for i, u in enumerate(program.unions)}


def header_stacks(program: ir.ProgramIR) -> list[dict]:
    ids = _header_ids(program)
    union_ids = _union_ids(program)
    out = []
    for i, s in enumerate(program.stacks):
        if s.elements and s.elements[0] in union_ids:
            continue
        out.append({"name": s.name, "id": i, "header_type": s.header_type,
                    "size": len(s.elements), "header_ids": [ids[e] for e in s.elements]})
    return out


def header_union_types(program: ir.ProgramIR) -> list[dict]:
    return [{"name": u.name, "id": i, "headers": [[m, t] for m, t in u.members]}
            for i, u in enumerate(program.union_types)]


def header_unions(program: ir.ProgramIR) -> list[dict]:
    ids = _header_ids(program)
    return [{"name": u.name, "id": i, "union_type": u.union_type,
             "header_ids": [ids[m] for m in u.members]}
            for i, u in enumerate(program.unions)]


def header_union_stacks(program: ir.ProgramIR) -> list[dict]:
    union_ids = _union_ids(program)
    out = []
    for i, s in enumerate(program.stacks):
        if s.elements and s.elements[0] in union_ids:
            out.append({"name": s.name, "id": i, "union_type": s.header_type,
                        "size": len(s.elements),
                        "header_union_ids": [union_ids[e] for e in s.elements]})
    return out
