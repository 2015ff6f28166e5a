"""The whole BMv2 JSON document, section by section in p4c's order."""
from __future__ import annotations

from p4sim.compiler.bmv2 import (
    actions, calculations, deparsers, headers, lists, parsers, pipelines, resources)
from p4sim.compiler.lower import ir

JSON_VERSION = [2, 23]

# simple_switch looks for these P4_14-era names; map them onto standard_metadata.
_ALIASES = [
    ("queueing_metadata.enq_timestamp", "enq_timestamp"),
    ("queueing_metadata.enq_qdepth", "enq_qdepth"),
    ("queueing_metadata.deq_timedelta", "deq_timedelta"),
    ("queueing_metadata.deq_qdepth", "deq_qdepth"),
    ("intrinsic_metadata.ingress_global_timestamp", "ingress_global_timestamp"),
    ("intrinsic_metadata.egress_global_timestamp", "egress_global_timestamp"),
    ("intrinsic_metadata.mcast_grp", "mcast_grp"),
    ("intrinsic_metadata.egress_rid", "egress_rid"),
    ("intrinsic_metadata.priority", "priority"),
]


def to_json(program: ir.ProgramIR) -> dict:
    return {
        "header_types": headers.header_types(program),
        "headers": headers.headers(program),
        "header_stacks": headers.header_stacks(program),
        "header_union_types": headers.header_union_types(program),
        "header_unions": headers.header_unions(program),
        "header_union_stacks": headers.header_union_stacks(program),
        "field_lists": lists.field_lists(program),
        "errors": [[name, value] for name, value in program.errors],
        "enums": [{"name": n, "entries": [[m, v] for m, v in entries]}
                  for n, entries in program.enums],
        "parsers": parsers.parsers(program),
        "parse_vsets": parsers.parse_vsets(program),
        "deparsers": deparsers.deparsers(program),
        "meter_arrays": resources.meter_arrays(program),
        "counter_arrays": resources.counter_arrays(program),
        "register_arrays": resources.register_arrays(program),
        "calculations": calculations.calculations(program),
        "learn_lists": lists.learn_lists(program),
        "actions": actions.actions(program),
        "pipelines": pipelines.pipelines(program),
        "checksums": calculations.checksums(program),
        "force_arith": [],
        "extern_instances": resources.extern_instances(program),
        "field_aliases": [[alias, ["standard_metadata", name]] for alias, name in _ALIASES],
        "program": program.program,
        "__meta__": {"version": JSON_VERSION, "compiler": "p4sim-compile"},
    }
