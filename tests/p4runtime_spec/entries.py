"""Builders for the entities of p4/spec_features.p4, by P4Info name, so tests read as
the spec's examples do."""
from __future__ import annotations

from p4.v1 import p4runtime_pb2

from spec_target import Program


def field_id(program: Program, table: str, field: str) -> int:
    return next(f.id for f in program.table(table).match_fields if f.name == field)


def action(program: Program, name: str, *params: bytes) -> p4runtime_pb2.Action:
    """An Action with its parameters in P4Info order (ids 1, 2, ...)."""
    act = p4runtime_pb2.Action(action_id=program.id_of(name))
    for param_id, value in enumerate(params, start=1):
        act.params.add(param_id=param_id, value=value)
    return act


def entry(program: Program, table: str, matches: dict | None = None,
          act: p4runtime_pb2.Action | None = None, priority: int = 0,
          **fields) -> p4runtime_pb2.TableEntry:
    """A TableEntry; `matches` maps a field name to a dict of one FieldMatch kind,
    e.g. {"hdr.ipv4.dst_addr": {"lpm": {"value": b"...", "prefix_len": 8}}}."""
    te = p4runtime_pb2.TableEntry(table_id=program.id_of(table), priority=priority, **fields)
    for name, spec in (matches or {}).items():
        te.match.append(p4runtime_pb2.FieldMatch(field_id=field_id(program, table, name),
                                                 **spec))
    if act is not None:
        te.action.action.CopyFrom(act)
    return te


def exact(value: bytes) -> dict:
    return {"exact": {"value": value}}


def lpm(value: bytes, prefix_len: int) -> dict:
    return {"lpm": {"value": value, "prefix_len": prefix_len}}


def ternary(value: bytes, mask: bytes) -> dict:
    return {"ternary": {"value": value, "mask": mask}}


def range_(low: bytes, high: bytes) -> dict:
    return {"range": {"low": low, "high": high}}


def optional(value: bytes) -> dict:
    return {"optional": {"value": value}}


def table_query(program: Program, table: str | None = None) -> p4runtime_pb2.Entity:
    """A wildcard read of one table (or of every table with table=None)."""
    return p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry(
        table_id=program.id_of(table) if table else 0))


def set_port_counted(program: Program, port: bytes) -> p4runtime_pb2.Action:
    return action(program, "set_port_counted", port)
