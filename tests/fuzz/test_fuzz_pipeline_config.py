"""Fuzz SetForwardingPipelineConfig with mutated BMv2 JSON and P4Info.

Nothing invalid gets in, nothing valid is lost: each case pushes one mutation of a
known-good config (VERIFY_AND_COMMIT) to a real P4Runtime server.  Either the push is
accepted and the new pipeline, programmed by name through the pushed P4Info, forwards
the program's known packets exactly as the unmutated one does; or it is refused with
INVALID_ARGUMENT and the previous pipeline still forwards them.  Mutations damage the
structure (wrong types, bad sizes and widths, dangling references, duplicate or
reserved IDs, NaN, deep nesting, empty sections) or are neutral (reordering, unknown
keys, fresh IDs), never a valid change of behaviour.

Seeded and bounded: P4SIM_FUZZ_SEED picks the seed (printed), P4SIM_FUZZ_CASES the
most cases per program, P4SIM_FUZZ_SECONDS the time per program (at least MIN_CASES
run however long they take).  Case n of a seed is always the same mutation.  A failure names the
seed, the case and the mutation.
"""
from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import grpc
import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from control.p4rt.entities import P4Names
from tests.p4runtime.p4rt_harness import RawClient, Rig, pipeline_request

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "tests" / "real_toolchain" / "project"
SEED = int(os.environ.get("P4SIM_FUZZ_SEED", "20261201"))
CASES = int(os.environ.get("P4SIM_FUZZ_CASES", "150"))
SECONDS = float(os.environ.get("P4SIM_FUZZ_SECONDS", "15"))
MIN_CASES = 20          # run at least these, however loaded the machine
Frames = list[tuple[int, bytes]]


@dataclass
class Target:
    """A known-good config, how to program it and the packets it must forward."""
    name: str
    json_obj: dict
    p4info: p4info_pb2.P4Info
    program: Callable[[RawClient, P4Names], None]
    packets: list[tuple[int, bytes]]


def _no_entries(client: RawClient, names: P4Names) -> None:
    """Corpus programs forward their STF packets with const entries only."""


def _stf_packets(name: str) -> list[tuple[int, bytes]]:
    packets = []
    for line in (ROOT / "tests" / "corpus" / f"{name}.stf").read_text().splitlines():
        words = line.split("#")[0].split()
        if words and words[0] == "packet":
            packets.append((int(words[1]), bytes.fromhex("".join(words[2:]))))
    assert packets, f"{name}.stf sends no packet"
    return packets


def corpus_target(name: str) -> Target:
    """A corpus program as real p4c compiled it (tests/real_toolchain/project)."""
    folder = PROJECT / name
    p4info = text_format.Parse((folder / f"{name}.p4info.txtpb").read_text(),
                               p4info_pb2.P4Info())
    return Target(name, json.loads((folder / f"{name}.json").read_text()), p4info,
                  _no_entries, _stf_packets(name))


def _fabric_build() -> tuple[Path, Path]:
    json_path, p4info_path = ROOT / "build/fabric.json", ROOT / "build/fabric.p4info.txtpb"
    if not (json_path.exists() and p4info_path.exists()):
        done = subprocess.run(["make", "-C", str(ROOT), "build"], capture_output=True,
                              text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    return json_path, p4info_path


ROUTER_MAC = "00:aa:00:00:00:01"


def _program_fabric(client: RawClient, names: P4Names) -> None:
    """10.0.9.0/24 through a one-member selector group to port 2."""
    selector = "FabricIngress.routing.multipath_selector"
    insert = p4runtime_pb2.Update.INSERT
    member = names.member(selector, 1, "FabricIngress.routing.forward",
                          {"port": 2, "src_mac": ROUTER_MAC, "dst_mac": "00:00:00:00:00:02",
                           "member_index": 2})
    group = names.group(selector, 1, {1: 1})
    route = names.table_entry("FabricIngress.routing.routes",
                              {"partition": 0, "ipv4_dst": "10.0.9.0/24"},
                              "FabricIngress.routing.set_group", {"group": 1})
    next_hop = names.table_entry("FabricIngress.routing.next_hops", {"group_id": 1},
                                 group_id=1)
    for entity in ({"action_profile_member": member}, {"action_profile_group": group},
                   {"table_entry": route}, {"table_entry": next_hop}):
        client.write(p4runtime_pb2.Update(type=insert, entity=p4runtime_pb2.Entity(**entity)))


def fabric_target() -> Target:
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether

    from wire_formats.layers import UDP_PORT_UEC, UecRequest
    json_path, p4info_path = _fabric_build()
    p4info = text_format.Parse(p4info_path.read_text(), p4info_pb2.P4Info())
    frame = bytes(Ether(src="00:00:00:00:00:01", dst=ROUTER_MAC)
                  / IP(src="10.0.1.1", dst="10.0.9.1")
                  / UDP(sport=30000, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=0)
                  / ("u" * 20))
    return Target("fabric", json.loads(json_path.read_text()), p4info, _program_fabric,
                  [(1, frame)])


# -- mutations ---------------------------------------------------------------------------
# Keys whose values the mutations damage: damage there is invalid or harmless, never a
# different valid behaviour (a constant, a transition target, a default action).
JSON_KEYS = ("name", "id", "max_size", "size", "bitwidth", "action_ids", "actions", "key",
             "match_type", "type", "next_tables", "action_profile", "with_counters",
             "direct_meters", "runtime_data", "header_type", "fields", "target",
             "compressed_bitwidth", "binding", "is_direct", "rate_count", "selector",
             "algo", "parse_states", "transitions", "parser_ops", "primitives",
             "parameters", "op", "order", "elements", "action_id", "action_data",
             "match_key", "prefix_length", "version", "__meta__", "default_entry_x")
SECTIONS = ("parsers", "deparsers", "pipelines", "actions", "header_types", "headers",
            "counter_arrays", "meter_arrays", "register_arrays", "parse_vsets",
            "calculations", "learn_lists")
BAD_VALUES: tuple[Any, ...] = (-1, -(2 ** 31), 2 ** 64, 0, 1.5, float("nan"),
                               float("inf"), "", "no_such_thing", "1024", [], {}, True,
                               [[[]]], {"type": "expression"})


def _paths(obj: Any, path: tuple = ()) -> list[tuple]:
    """Paths (key sequences) to every dict entry whose key is in JSON_KEYS."""
    found, stack = [], [(obj, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in JSON_KEYS:
                    found.append(where + (key,))
                stack.append((value, where + (key,)))
        elif isinstance(item, list):
            stack.extend((value, where + (i,)) for i, value in enumerate(item))
    found.sort(key=repr)
    return found


def _at(obj: Any, path: tuple) -> Any:
    for step in path:
        obj = obj[step]
    return obj


def mutate_json(rng: random.Random, doc: dict, paths: list[tuple]) -> tuple[str, bytes]:
    """(description, device config bytes) of one JSON mutation."""
    kind = rng.choice(("value", "value", "value", "delete", "section", "duplicate",
                       "neutral", "deep", "truncate", "nan_text"))
    if kind == "deep":
        depth = rng.choice((500, 5000, 100_000))
        text = json.dumps(doc)
        return f"deep nesting {depth}", (text[:-1] + ', "deep": ' + "[" * depth
                                         + "]" * depth + "}").encode()
    if kind == "truncate":
        text = json.dumps(doc).encode()
        cut = rng.randrange(1, len(text))
        return f"truncated at byte {cut}", text[:cut]
    doc = copy.deepcopy(doc)
    if kind == "nan_text":
        text = json.dumps(doc).replace('"max_size": ', '"max_size": NaN, "x": ', 1)
        return "NaN literal", text.encode()
    if kind == "section":
        section = rng.choice(SECTIONS)
        doc[section] = []
        return f"{section} emptied", json.dumps(doc).encode()
    if kind == "duplicate":
        section = rng.choice(("actions", "header_types", "headers", "counter_arrays",
                              "register_arrays", "meter_arrays"))
        if doc.get(section):
            doc[section].append(copy.deepcopy(rng.choice(doc[section])))
        tables = [t for p in doc["pipelines"] for t in p["tables"]]
        if rng.random() < 0.5 and tables:
            doc["pipelines"][0]["tables"].append(copy.deepcopy(rng.choice(tables)))
            section += " and a table"
        return f"duplicate element in {section}", json.dumps(doc).encode()
    if kind == "neutral":
        choice = rng.choice(("unknown key", "reorder header types", "reorder actions",
                             "reorder counters"))
        if choice == "unknown key":
            doc["p4sim_fuzz_extra"] = {"anything": [1, 2, 3]}
        else:
            section = {"reorder header types": "header_types", "reorder actions": "actions",
                       "reorder counters": "counter_arrays"}[choice]
            rng.shuffle(doc[section])
        return f"neutral: {choice}", json.dumps(doc).encode()
    path = rng.choice(paths)
    parent = _at(doc, path[:-1])
    if kind == "delete":
        del parent[path[-1]]
        return f"deleted {path}", json.dumps(doc).encode()
    value = rng.choice(BAD_VALUES)
    parent[path[-1]] = value
    return f"{path} = {value!r}", json.dumps(doc).encode()


P4INFO_INT_FIELDS = (("tables", "preamble.id"), ("tables", "size"),
                     ("tables", "implementation_id"), ("tables", "const_default_action_id"),
                     ("tables", "match_fields.id"), ("tables", "match_fields.bitwidth"),
                     ("tables", "match_fields.match_type"), ("tables", "action_refs.id"),
                     ("tables", "direct_resource_ids"), ("actions", "preamble.id"),
                     ("actions", "params.id"), ("actions", "params.bitwidth"),
                     ("action_profiles", "preamble.id"), ("action_profiles", "size"),
                     ("action_profiles", "table_ids"), ("action_profiles", "with_selector"),
                     ("counters", "size"), ("counters", "spec.unit"),
                     ("direct_counters", "spec.unit"), ("direct_counters", "direct_table_id"),
                     ("meters", "size"), ("meters", "spec.unit"), ("registers", "size"),
                     ("registers", "type_spec.bitstring.bit.bitwidth"),
                     ("value_sets", "size"), ("value_sets", "match.bitwidth"),
                     ("controller_packet_metadata", "metadata.bitwidth"),
                     ("controller_packet_metadata", "metadata.id"))


def _set_int(rng: random.Random, msg: Any, dotted: str, others: list[int]) -> str | None:
    """Set one (possibly repeated) integer field reached by a dotted path."""
    *steps, last = dotted.split(".")
    for step in steps:
        value = getattr(msg, step)
        if hasattr(value, "add"):            # repeated message: pick one element
            if not len(value):
                return None
            value = value[rng.randrange(len(value))]
        msg = value
    field = getattr(msg, last)
    old = field[0] if hasattr(field, "append") and len(field) else field
    if hasattr(field, "append") and not len(field):
        return None
    if isinstance(old, bool):
        new: Any = not old
    else:
        new = rng.choice([0, 99, -1, old + 1, old ^ 0x05000000 if old > 0xFFFFFF else 2,
                          rng.choice(others) if others else 7])
        new = max(new, 0) if last in ("id", "table_ids", "direct_resource_ids",
                                      "implementation_id", "const_default_action_id",
                                      "direct_table_id", "match_type", "unit") \
            and new < 0 else new
        if last in ("bitwidth", "id", "match_type", "unit"):
            new = min(new, 2 ** 31 - 1)
    if hasattr(field, "append"):
        field[0] = new
    else:
        setattr(msg, last, new)
    return f"{dotted} {old!r} -> {new!r}"


def mutate_p4info(rng: random.Random, p4info: p4info_pb2.P4Info) -> tuple[str, p4info_pb2.P4Info]:
    out = p4info_pb2.P4Info()
    out.CopyFrom(p4info)
    ids = [o.preamble.id for kind in ("tables", "actions", "counters", "action_profiles")
           for o in getattr(out, kind)]
    for _ in range(20):
        choice = rng.random()
        if choice < 0.1:
            kind = rng.choice(("tables", "actions", "counters", "registers"))
            items = getattr(out, kind)
            if len(items) >= 1:
                obj = items[rng.randrange(len(items))]
                other = items[rng.randrange(len(items))]
                new = rng.choice(("", other.preamble.name, obj.preamble.name + "_x"))
                old = obj.preamble.name
                obj.preamble.name = new
                return f"{kind} name {old!r} -> {new!r}", out
            continue
        if choice < 0.15:
            kind = rng.choice(("tables", "actions"))
            items = getattr(out, kind)
            order = list(items)
            rng.shuffle(order)
            copies = [type(o)() for o in order]
            for copy_, o in zip(copies, order):
                copy_.CopyFrom(o)
            del items[:]
            items.extend(copies)
            return f"neutral: {kind} reordered", out
        kind, dotted = rng.choice(P4INFO_INT_FIELDS)
        items = getattr(out, kind)
        if not len(items):
            continue
        description = _set_int(rng, items[rng.randrange(len(items))], dotted, ids)
        if description is not None:
            return f"{kind}: {description}", out
    return "no P4Info mutation applied", out


# -- the oracle --------------------------------------------------------------------------
def _push(client: RawClient, p4info: p4info_pb2.P4Info, device_config: bytes) -> None:
    client.stub.SetForwardingPipelineConfig(pipeline_request(
        p4info, device_config, election_id=client.election_id or 0), timeout=60)


def _forwarded(rig: Rig, target: Target) -> Frames:
    out: Frames = []
    for port, frame in target.packets:
        out.extend(rig.send(port, frame))
    return out


@pytest.mark.parametrize("make_target", [fabric_target,
                                         lambda: corpus_target("034_table_range_const"),
                                         lambda: corpus_target("040_action_profile_selector")],
                         ids=["fabric", "034_table_range_const",
                              "040_action_profile_selector"])
def test_fuzz_pipeline_config(make_target: Callable[[], Target]) -> None:
    target = make_target()
    seed = SEED ^ sum(target.name.encode())
    print(f"\npipeline-config fuzz {target.name}: seed {seed} "
          f"(P4SIM_FUZZ_SEED={SEED}), up to {CASES} cases / {SECONDS:.0f} s")
    rig = Rig()
    client = RawClient(rig.address, election_id=10)
    try:
        client.arbitrate()
        good_json = json.dumps(target.json_obj).encode()
        _push(client, target.p4info, good_json)
        target.program(client, P4Names(target.p4info))
        expected = _forwarded(rig, target)
        assert expected, f"{target.name}: the unmutated config forwards nothing"
        paths = _paths(target.json_obj)
        rng = random.Random(seed)
        accepted = refused = 0
        deadline = time.monotonic() + SECONDS
        case = 0
        while case < CASES and (case < MIN_CASES or time.monotonic() < deadline):
            p4info, device_config = target.p4info, good_json
            if rng.random() < 0.5:
                what, device_config = mutate_json(rng, target.json_obj, paths)
            else:
                what, p4info = mutate_p4info(rng, target.p4info)
            where = f"{target.name} seed {seed} case {case}: {what}"
            try:
                _push(client, p4info, device_config)
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.INVALID_ARGUMENT, \
                    f"{where}: refused with {exc.code()}: {exc.details()}"
                refused += 1
                assert _forwarded(rig, target) == expected, \
                    f"{where}: refused, and the previous pipeline no longer forwards"
            else:
                accepted += 1
                try:
                    target.program(client, P4Names(p4info))
                except (grpc.RpcError, KeyError, ValueError) as exc:
                    pytest.fail(f"{where}: accepted, but programming it failed: {exc}")
                assert _forwarded(rig, target) == expected, \
                    f"{where}: accepted, but it does not forward the known packets"
            case += 1
        print(f"{target.name}: {case} cases, {accepted} accepted (all forward), "
              f"{refused} refused with INVALID_ARGUMENT")
    finally:
        client.close()
        rig.close()
