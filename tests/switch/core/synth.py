"""Small hand-written BMv2 JSON programs for unit tests of single features."""
from __future__ import annotations

import copy
from typing import Any

from p4sim.switch.program import Program
from .helpers import reference_json

_BASE = reference_json("l3_lpm")
STD_TYPE = next(t for t in _BASE["header_types"] if t["name"] == "standard_metadata")


def field(header: str, name: str) -> dict:
    return {"type": "field", "value": [header, name]}


def hexstr(value: int) -> dict:
    return {"type": "hexstr", "value": hex(value) if value >= 0 else "-" + hex(-value)}


def expr(op: str, left: Any, right: Any, **extra: Any) -> dict:
    return {"type": "expression", "value": {"op": op, "left": left, "right": right, **extra}}


def assign(dst: dict, src: dict) -> dict:
    return {"op": "assign", "parameters": [dst, src]}


def document(meta_fields: list | None = None, header_types: list | None = None,
             headers: list | None = None, actions: list | None = None,
             ingress_init: str | None = None, tables: list | None = None,
             conditionals: list | None = None, parse_states: list | None = None,
             deparse_order: list | None = None, **sections: Any) -> dict:
    """A complete, loadable BMv2 JSON document with the given parts."""
    doc = {
        "header_types": [
            {"name": "scalars_0", "id": 0, "fields": meta_fields or []},
            copy.deepcopy(STD_TYPE),
        ] + (header_types or []),
        "headers": [
            {"name": "scalars", "id": 0, "header_type": "scalars_0", "metadata": True},
            {"name": "standard_metadata", "id": 1, "header_type": "standard_metadata",
             "metadata": True},
        ] + (headers or []),
        "header_stacks": [], "header_union_types": [], "header_unions": [],
        "header_union_stacks": [], "field_lists": [], "errors": copy.deepcopy(_BASE["errors"]),
        "enums": [],
        "parsers": [{"name": "parser", "id": 0, "init_state": "start", "parse_states":
                     parse_states or [{"name": "start", "id": 0, "parser_ops": [],
                                       "transitions": [{"type": "default", "value": None,
                                                        "mask": None, "next_state": None}],
                                       "transition_key": []}]}],
        "parse_vsets": [],
        "deparsers": [{"name": "deparser", "id": 0, "order": deparse_order or []}],
        "meter_arrays": [], "counter_arrays": [], "register_arrays": [], "calculations": [],
        "learn_lists": [], "actions": actions or [],
        "pipelines": [
            {"name": "ingress", "id": 0, "init_table": ingress_init, "tables": tables or [],
             "action_profiles": [], "conditionals": conditionals or []},
            {"name": "egress", "id": 1, "init_table": None, "tables": [], "action_profiles": [],
             "conditionals": []},
        ],
        "checksums": [], "force_arith": [], "extern_instances": [], "field_aliases": [],
        "program": "synth.p4", "__meta__": {"version": [2, 23], "compiler": "test"},
    }
    doc.update(sections)
    return doc


def keyless_table(name: str, action_id: int, action_name: str, next_node: str | None = None,
                  table_id: int = 0) -> dict:
    """A compiler-style synthetic table that always runs one action."""
    return {
        "name": name, "id": table_id, "key": [], "match_type": "exact", "type": "simple",
        "max_size": 1024, "with_counters": False, "support_timeout": False,
        "direct_meters": None, "action_ids": [action_id], "actions": [action_name],
        "base_default_next": next_node, "next_tables": {action_name: next_node},
        "default_entry": {"action_id": action_id, "action_const": True, "action_data": [],
                          "action_entry_const": True},
    }


def single_action_program(primitives: list, meta_fields: list, **kwargs: Any) -> dict:
    action = {"name": "act", "id": 0, "runtime_data": [], "primitives": primitives}
    return document(meta_fields=meta_fields, actions=[action], ingress_init="tbl_act",
                    tables=[keyless_table("tbl_act", 0, "act")], **kwargs)


EXPR_FIELDS = [["a", 8, False], ["b", 8, False], ["s", 8, True], ["t", 8, True],
               ["out", 64, False], ["sout", 16, True]]


def eval_expression(expression: dict, inputs: dict[str, int], target: str = "out") -> int:
    """Load a program whose one action assigns `expression` to scalars.<target>."""
    doc = single_action_program([assign(field("scalars", target), expression)], EXPR_FIELDS)
    program = Program.load(doc)
    pkt = program.new_packet(b"", 0)
    for name, value in inputs.items():
        pkt.set_field("scalars", name, value)
    program.ingress(pkt)
    assert pkt.arch.drop_errors == []
    return pkt.get_field("scalars", target)
