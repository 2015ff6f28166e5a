"""SetForwardingPipelineConfig checks, all made before anything changes.

The device config must be BMv2 JSON (finite numbers, bounded nesting) that loads into
a program; the P4Info must be consistent in itself (`p4info_check`) and describe that
program (`binding_check`).  `verify` runs them in that order and returns what a commit
needs; every problem is INVALID_ARGUMENT naming the object and the reason.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import binding_check, device_config, p4info_check
from p4sim.p4runtime.controller_packets import ControllerHeader
from p4sim.p4runtime.errors import invalid
from p4sim.p4runtime.p4info_index import P4InfoIndex

if TYPE_CHECKING:   # the switch program is imported when a pipeline is loaded
    from p4sim.switch.program import Program

# Real programs nest their BMv2 JSON well under 100 levels (expressions are the deep
# part); the loader compiles expressions recursively, so a bound keeps it off Python's
# recursion limit and gives a clear message instead.
MAX_JSON_DEPTH = 400


@dataclass
class VerifiedConfig:
    """A config that passed every check, with what was built to check it."""
    config: p4runtime_pb2.ForwardingPipelineConfig
    index: P4InfoIndex
    json_obj: dict
    program: Program


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _depth(obj: Any) -> int:
    deepest, stack = 0, [(obj, 1)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if level > MAX_JSON_DEPTH:
            break
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


def parse_device_config(data: bytes) -> dict:
    """The BMv2 JSON object of a device config (INVALID_ARGUMENT if it is not JSON)."""
    if not data:
        raise invalid("the device config is empty: it must be the BMv2 JSON")
    try:
        obj = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise invalid("the device config is not BMv2 JSON: nested too deeply") from None
    except (UnicodeDecodeError, ValueError) as exc:   # JSONDecodeError is a ValueError
        raise invalid(f"the device config is not BMv2 JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise invalid("the device config is not a BMv2 JSON object")
    if _depth(obj) > MAX_JSON_DEPTH:
        raise invalid(f"the BMv2 JSON nests deeper than {MAX_JSON_DEPTH} levels")
    return obj


def load_program(json_obj: dict) -> Program:
    """Build the switch program once to prove the JSON loads (INVALID_ARGUMENT)."""
    from p4sim.switch.errors import LoadError
    from p4sim.switch.program import Program
    try:
        return Program.load(json_obj)
    except LoadError as exc:
        raise invalid(f"the BMv2 JSON does not load: {exc}") from None
    except RecursionError:
        raise invalid("the BMv2 JSON does not load: an expression nests too deeply")


def check_p4info(p4info: p4info_pb2.P4Info) -> P4InfoIndex:
    """Check and index a P4Info.  One without tables or actions is fine (a program that
    only parses and rewrites, or only sends digests), and so is an empty one: BMv2 (PI)
    accepts both, and the binding check has nothing to check against the JSON then."""
    p4info_check.check_p4info(p4info)
    index = P4InfoIndex(p4info)
    for name in ("packet_in", "packet_out"):
        ControllerHeader(index.controller_headers.get(name))
    return index


def check_binding(index: P4InfoIndex, program: Program, json_obj: dict) -> None:
    """INVALID_ARGUMENT unless the P4Info describes the program built from json_obj."""
    binding_check.check_binding(index, program, json_obj)


def verify(config: p4runtime_pb2.ForwardingPipelineConfig) -> VerifiedConfig:
    """Every check of a config, in order; nothing is installed."""
    index = check_p4info(config.p4info)
    json_obj = parse_device_config(device_config.bmv2_json_bytes(config.p4_device_config))
    program = load_program(json_obj)
    check_binding(index, program, json_obj)
    return VerifiedConfig(config, index, json_obj, program)
