"""Fused expressions (one generated function per expression tree, for speed) compute
exactly what the per-node closures compute: seeded random trees over unsigned and
signed fields, constants and every operator, evaluated both ways on random field
values, must give the same value, or the same pipeline error.

P4SIM_FUZZ_SEED picks the seed (printed); a failure names it and the expression.
"""
from __future__ import annotations

import json
import os
import random

import pytest

import p4sim.switch.expressions as expressions
import p4sim.switch.primitives as primitives
from p4sim.switch.program import Program

from sa_helpers import reference_json

SEED = int(os.environ.get("P4SIM_FUZZ_SEED", "1313"))
TREES = 300
BINARY = ["+", "-", "*", "&", "|", "^", "==", "!=", ">", ">=", "<", "<=", "/", "%"]
BOOLEAN = ["and", "or"]
FIELDS = [["a", 8, False], ["b", 8, False], ["s", 8, True], ["t", 8, True],
          ["out", 64, False]]


def field(header: str, name: str) -> dict:
    return {"type": "field", "value": [header, name]}


def hexstr(value: int) -> dict:
    return {"type": "hexstr", "value": hex(value)}


def expr(op: str, left: object, right: object, **extra: object) -> dict:
    return {"type": "expression", "value": {"op": op, "left": left, "right": right, **extra}}


def assign_program(tree: dict) -> dict:
    """l3_lpm's JSON cut down to one keyless table whose action assigns `tree` to
    scalars.out (a program shape p4c emits for straight-line code)."""
    doc = reference_json("l3_lpm")
    std = next(t for t in doc["header_types"] if t["name"] == "standard_metadata")
    doc["header_types"] = [{"name": "scalars_0", "id": 0, "fields": FIELDS}, std]
    doc["headers"] = [
        {"name": "scalars", "id": 0, "header_type": "scalars_0", "metadata": True},
        {"name": "standard_metadata", "id": 1, "header_type": "standard_metadata",
         "metadata": True}]
    for key in ("header_stacks", "field_lists", "calculations", "checksums",
                "counter_arrays", "register_arrays", "meter_arrays", "learn_lists"):
        doc[key] = []
    doc["parsers"][0]["parse_states"] = [{
        "name": "start", "id": 0, "parser_ops": [], "transition_key": [],
        "transitions": [{"type": "default", "value": None, "mask": None, "next_state": None}]}]
    doc["parsers"][0]["init_state"] = "start"
    doc["deparsers"][0]["order"] = []
    doc["actions"] = [{"name": "act", "id": 0, "runtime_data": [], "primitives": [
        {"op": "assign", "parameters": [field("scalars", "out"), tree]}]}]
    table = {"name": "tbl_act", "id": 0, "key": [], "match_type": "exact", "type": "simple",
             "max_size": 1024, "with_counters": False, "support_timeout": False,
             "direct_meters": None, "action_ids": [0], "actions": ["act"],
             "base_default_next": None, "next_tables": {"act": None},
             "default_entry": {"action_id": 0, "action_const": True, "action_data": [],
                               "action_entry_const": True}}
    for pipe in doc["pipelines"]:
        pipe.update(tables=[table] if pipe["name"] == "ingress" else [], conditionals=[],
                    action_profiles=[], init_table="tbl_act" if pipe["name"] == "ingress"
                    else None)
    return doc


def random_value(rng: random.Random, depth: int) -> dict:
    """A data-valued expression (an int)."""
    if depth <= 0 or rng.random() < 0.25:
        roll = rng.random()
        if roll < 0.6:
            return field("scalars", rng.choice(["a", "b", "s", "t"]))
        return hexstr(rng.choice([0, 1, 2, 7, 255, rng.randrange(0, 300)]))
    roll = rng.random()
    if roll < 0.55:
        op = rng.choice(BINARY)
        return expr(op, random_value(rng, depth - 1), random_value(rng, depth - 1))
    if roll < 0.65:
        return expr(rng.choice(["<<", ">>"]), random_value(rng, depth - 1),
                    hexstr(rng.randrange(0, 9)))
    if roll < 0.75:
        return expr("~", None, random_value(rng, depth - 1))
    if roll < 0.82:
        return expr("-", None, random_value(rng, depth - 1))
    if roll < 0.92:
        return expr("b2d", None, random_bool(rng, depth - 1))
    return expr("?", random_value(rng, depth - 1), random_value(rng, depth - 1),
                cond=random_bool(rng, depth - 1))


def random_bool(rng: random.Random, depth: int) -> dict:
    roll = rng.random()
    if depth <= 0 or roll < 0.3:
        return expr("d2b", None, random_value(rng, 0))
    if roll < 0.6:
        return expr(rng.choice(["==", "!=", "<", ">"]), random_value(rng, depth - 1),
                    random_value(rng, depth - 1))
    if roll < 0.85:
        return expr(rng.choice(BOOLEAN), random_bool(rng, depth - 1), random_bool(rng, depth - 1))
    return expr("not", None, random_bool(rng, depth - 1))


def run(doc: dict, inputs: dict[str, int]) -> tuple[int | str, list[str]]:
    try:
        program = Program.load(json.loads(json.dumps(doc)))
    except ArithmeticError as exc:           # constants folded at load time (x / 0)
        return f"load: {type(exc).__name__}", []
    pkt = program.new_packet(b"", 0)
    for name, value in inputs.items():
        pkt.set_field("scalars", name, value)
    program.ingress(pkt)
    return pkt.get_field("scalars", "out"), [e.split(":")[0] for e in pkt.arch.drop_errors]


def test_fused_expressions_equal_the_closures(monkeypatch: pytest.MonkeyPatch) -> None:
    print(f"fused expressions: seed {SEED} (P4SIM_FUZZ_SEED)")
    rng = random.Random(SEED)
    cases = []
    for _ in range(TREES):
        tree = random_value(rng, rng.randrange(1, 5))
        doc = assign_program(tree)
        inputs = {name: rng.randrange(0, 256) for name in ("a", "b", "s", "t")}
        cases.append((tree, doc, inputs))
    fused = [run(doc, inputs) for _, doc, inputs in cases]
    with monkeypatch.context() as patch:          # the same trees, closures only
        patch.setattr(expressions, "make_expression", lambda *args, **kwargs: None)
        patch.setattr(primitives, "MAX_FUSED_SOURCE", -1)
        plain = [run(doc, inputs) for _, doc, inputs in cases]
    for (tree, _doc, inputs), got, want in zip(cases, fused, plain):
        assert got == want, f"seed {SEED}: {json.dumps(tree)} on {inputs}: fused {got}, " \
                            f"closures {want}"
    assert sum(1 for value, errors in fused if isinstance(value, int) and not errors) > TREES // 2


def test_a_fused_tree_is_one_generated_function() -> None:
    """The point of fusing: `(a + b) & 0xff` assigned is one generated function."""
    tree = expr("&", expr("+", field("scalars", "a"), field("scalars", "b")), hexstr(0xFF))
    value = expressions._binary("&", expressions._binary(
        "+", expressions._read_field(3, 8, False), expressions._read_field(4, 8, False)),
        expressions._const(0xFF))
    assert value.source == "((p.f[3] + p.f[4]) & (255))"      # type: ignore[attr-defined]
    assert value.__code__.co_filename == "<string>"            # generated, not a closure tree
    assert run(assign_program(tree), {"a": 200, "b": 100}) == (44, [])
