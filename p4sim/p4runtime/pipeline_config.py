"""SetForwardingPipelineConfig checks: the device config must be BMv2 JSON that loads,
and every P4Info object the server will translate must exist in it with the same
fully qualified name, key layout and parameter count."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, TypeVar

from p4.config.v1 import p4info_pb2

from p4sim.p4runtime.errors import invalid
from p4sim.p4runtime.p4info_index import P4InfoIndex

if TYPE_CHECKING:   # the switch program is imported when a pipeline is loaded
    from p4sim.switch.program import Program, RuntimeState

_T = TypeVar("_T")


def parse_device_config(data: bytes) -> dict:
    """The BMv2 JSON object of a device config (INVALID_ARGUMENT if it is not JSON)."""
    if not data:
        raise invalid("the device config is empty: it must be the BMv2 JSON")
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise invalid(f"the device config is not BMv2 JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise invalid("the device config is not a BMv2 JSON object")
    return obj


def load_program(json_obj: dict) -> Program:
    """Build the switch program once to prove the JSON loads (INVALID_ARGUMENT)."""
    from p4sim.switch.errors import LoadError
    from p4sim.switch.program import Program
    try:
        return Program.load(json_obj)
    except LoadError as exc:
        raise invalid(f"the BMv2 JSON does not load: {exc}") from None


def _require(collection: dict[str, _T], name: str, kind: str) -> _T:
    if name not in collection:
        raise invalid(f"P4Info {kind} '{name}' is not in the BMv2 JSON")
    return collection[name]


def check_binding(index: P4InfoIndex, runtime: RuntimeState) -> None:
    """INVALID_ARGUMENT unless the P4Info describes the loaded program."""
    for table in index.tables.values():
        tr = _require(runtime.tables, table.name, "table")
        fields = list(table.proto.match_fields)
        if len(fields) != len(tr.key_spec):
            raise invalid(f"table '{table.name}' has {len(fields)} match fields in the "
                          f"P4Info but {len(tr.key_spec)} in the BMv2 JSON")
        for mf, key in zip(fields, tr.key_spec):
            if key.match_kind != "valid" and mf.bitwidth != key.bitwidth:
                raise invalid(f"table '{table.name}' field '{mf.name}' is {mf.bitwidth} "
                              f"bits in the P4Info but {key.bitwidth} in the BMv2 JSON")
        for action_id in table.action_ids:
            action = index.actions.get(action_id)
            if action is None:
                raise invalid(f"table '{table.name}' refers to unknown action "
                              f"{action_id:#x}")
            if action.name not in tr.action_names:
                raise invalid(f"action '{action.name}' of table '{table.name}' is not "
                              "in the BMv2 JSON table")
    for kind, collection in (("action_profiles", "action_profiles"),
                             ("counters", "counters"), ("meters", "meters"),
                             ("registers", "registers"), ("value_sets", "value_sets")):
        for obj in getattr(index, kind).values():
            _require(getattr(runtime, collection), obj.preamble.name,
                     kind.rstrip("s").replace("_", " "))


def check_p4info(p4info: p4info_pb2.P4Info) -> P4InfoIndex:
    """Index a P4Info. One without tables or actions is fine (a program that only
    parses and rewrites, or only sends digests), and so is an empty one: BMv2 (PI)
    accepts both, and check_binding has nothing to check against the JSON then."""
    return P4InfoIndex(p4info)
