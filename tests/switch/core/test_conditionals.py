"""Conditional nodes: the inline field tests (isValid(), ==, !=, masked compares, not)
take the same branch as the expression evaluated the general way."""
from __future__ import annotations

import pytest

from p4sim.switch.program import Program
from .synth import (EXPR_FIELDS, assign, document, eval_expression, expr, field, hexstr,
                    keyless_table)

A, S = field("scalars", "a"), field("scalars", "s")


def branch_program(condition: dict) -> Program:
    """Ingress: if (condition) out = 1 else out = 2."""
    actions = [{"name": f"set{v}", "id": v, "runtime_data": [],
                "primitives": [assign(field("scalars", "out"), hexstr(v))]} for v in (1, 2)]
    cond = {"name": "node_1", "id": 0, "expression": condition,
            "true_next": "tbl_set1", "false_next": "tbl_set2"}
    return Program.load(document(
        meta_fields=EXPR_FIELDS, actions=actions, ingress_init="node_1",
        tables=[keyless_table("tbl_set1", 1, "set1", table_id=0),
                keyless_table("tbl_set2", 2, "set2", table_id=1)],
        conditionals=[cond]))


def d2b(e: dict) -> dict:
    return expr("d2b", None, e)


CONDITIONS = {
    "is_set": d2b(A),
    "not_set": expr("not", None, d2b(A)),
    "equal": expr("==", A, hexstr(0x42)),
    "not_equal": expr("!=", A, hexstr(0x42)),
    "masked_not_equal": expr("!=", expr("&", A, hexstr(0xF0)), hexstr(0x40)),
    "masked_equal": expr("==", expr("&", A, hexstr(0xF0)), hexstr(0x40)),
    "not_equal_negated": expr("not", None, expr("==", A, hexstr(0x42))),
    "signed_equal": expr("==", S, hexstr(-1)),           # signed: the general path
}


@pytest.mark.parametrize("name", sorted(CONDITIONS))
def test_conditional_branch_matches_the_expression(name: str) -> None:
    condition = CONDITIONS[name]
    program = branch_program(condition)
    seen = set()
    for value in (0, 1, 0x40, 0x42, 0x4F, 0x50, 0xFF):
        pkt = program.new_packet(b"", 0)
        pkt.set_field("scalars", "a", value)
        pkt.set_field("scalars", "s", value)
        program.ingress(pkt)
        truth = eval_expression(expr("b2d", None, condition), {"a": value, "s": value})
        assert pkt.get_field("scalars", "out") == (1 if truth else 2), (name, value)
        seen.add(truth)
    assert seen == {0, 1}, f"{name}: both branches must be exercised"
