"""The switch's per-packet shortcuts give the results of the plain paths they replace:
header-stack shifts as one slice move, exact tables that skip the key while empty, and
runs of one-action tables fused with the conditional after them."""
from __future__ import annotations

import random

from p4sim.switch.program import Program
from p4sim.switch.runtime_api import ExactParam, LpmParam, TernaryParam
from .synth import assign, document, expr, field, hexstr, keyless_table

H_TYPE = {"name": "h_t", "id": 2, "fields": [["kind", 8, False], ["val", 8, False]]}
SIZE = 4


def _stack_doc(op: str) -> dict:
    headers = [{"name": f"hs[{i}]", "id": 2 + i, "header_type": "h_t", "metadata": False}
               for i in range(SIZE)]
    action = {"name": "shift", "id": 0, "runtime_data": [{"name": "n", "bitwidth": 8}],
              "primitives": [{"op": op, "parameters": [{"type": "header_stack", "value": "hs"},
                                                       {"type": "runtime_data", "value": 0}]}]}
    return document(header_types=[H_TYPE], headers=headers, actions=[action],
                    header_stacks=[{"name": "hs", "id": 0, "header_type": "h_t", "size": SIZE,
                                    "header_ids": list(range(2, 2 + SIZE))}])


def _element_wise(elements: list[list[int]], nxt: int, n: int, push: bool
                  ) -> tuple[list[list[int]], int]:
    """BMv2's push_front/pop_front, one element at a time: [kind, val, valid] each; an
    element shifted in keeps its fields and becomes invalid."""
    out = [list(e) for e in elements]
    for idx in range(SIZE):
        src = idx - n if push else idx + n
        if 0 <= src < SIZE:
            out[idx] = list(elements[src])
        else:
            out[idx][2] = 0
    return out, min(SIZE, max(0, nxt + (n if push else -n)))


def test_stack_shift_slice_move_matches_element_wise_shift() -> None:
    rng = random.Random(7)
    for op, push in (("push", True), ("pop", False)):
        program = Program.load(_stack_doc(op))
        run = program.actions[0].run
        assert run.__name__ == "shift_flat"        # the fast path is the one under test
        layout = program.layout
        infos = [layout.header_by_name[f"hs[{i}]"] for i in range(SIZE)]
        nslot = layout.stacks["hs"].next_slot
        for n in list(range(SIZE + 2)) * 4:
            pkt = program.new_packet(b"", 0)
            elements = [[rng.randrange(256), rng.randrange(256), rng.randrange(2)]
                        for _ in range(SIZE)]
            nxt = rng.randrange(SIZE + 1)
            for info, values in zip(infos, elements):
                pkt.f[info.base:info.valid_slot + 1] = values
            pkt.f[nslot] = nxt
            run(pkt, (n,))
            want, want_next = _element_wise(elements, nxt, n, push)
            got = [pkt.f[info.base:info.valid_slot + 1] for info in infos]
            assert (got, pkt.f[nslot]) == (want, want_next), (op, n, elements, nxt)


def _table_doc(match_type: str, kind: str) -> dict:
    set_out = {"name": "set_out", "id": 0, "runtime_data": [{"name": "v", "bitwidth": 8}],
               "primitives": [assign(field("scalars", "out"),
                                     {"type": "runtime_data", "value": 0})]}
    miss = {"name": "on_miss", "id": 1, "runtime_data": [],
            "primitives": [assign(field("scalars", "out"), hexstr(0xEE))]}
    table = {"name": "t", "id": 0, "key": [{"match_type": kind, "target": ["scalars", "k"],
                                            "mask": None}],
             "match_type": match_type, "type": "simple", "max_size": 16,
             "with_counters": False, "support_timeout": False, "direct_meters": None,
             "action_ids": [0, 1], "actions": ["set_out", "on_miss"],
             "base_default_next": None, "next_tables": {"set_out": None, "on_miss": None},
             "default_entry": {"action_id": 1, "action_const": False, "action_data": [],
                               "action_entry_const": False}}
    return document(meta_fields=[["k", 8, False], ["out", 8, False]], actions=[set_out, miss],
                    ingress_init="t", tables=[table])


def _out(program: Program, key: int) -> int:
    pkt = program.new_packet(b"", 0)
    pkt.set_field("scalars", "k", key)
    program.ingress(pkt)
    assert pkt.arch.drop_errors == []
    return pkt.get_field("scalars", "out")


def test_tables_empty_then_filled_then_emptied_miss_and_hit_as_looked_up() -> None:
    params = {"exact": lambda v: ExactParam(v), "lpm": lambda v: LpmParam(v, 8),
              "ternary": lambda v: TernaryParam(v, 0xFF)}
    for match_type, kind in (("exact", "exact"), ("lpm", "lpm"), ("ternary", "ternary")):
        program = Program.load(_table_doc(match_type, kind))
        table = program.runtime.tables["t"]
        assert [_out(program, k) for k in (1, 2)] == [0xEE, 0xEE], match_type
        handle = table.add_entry([params[kind](1)], "set_out", [0x11], priority=1)
        assert [_out(program, k) for k in (1, 2)] == [0x11, 0xEE], match_type
        table.delete_entry(handle)
        assert _out(program, 1) == 0xEE, match_type
        table.add_entry([params[kind](2)], "set_out", [0x22], priority=1)
        assert [_out(program, k) for k in (1, 2)] == [0xEE, 0x22], match_type
        table.clear()
        assert _out(program, 2) == 0xEE, match_type
        table.add_entry([params[kind](2)], "set_out", [0x33], priority=1)  # after clear()
        assert _out(program, 2) == 0x33, match_type
        table.set_default_action("set_out", [0x44])
        assert _out(program, 9) == 0x44, match_type


def _chain_doc(condition: dict, exit_in_middle: bool = False) -> dict:
    """t1 (a = 3) -> t2 (a = a * 5) -> t3 (a = a + 1) -> condition ? yes (b = 1) : no (b = 2);
    order matters: any other order of the three gives another a."""
    a, b = field("scalars", "a"), field("scalars", "b")
    bodies = [[assign(a, hexstr(3))],
              [assign(a, expr("&", expr("*", a, hexstr(5)), hexstr(0xFF)))]
              + ([{"op": "exit", "parameters": []}] if exit_in_middle else []),
              [assign(a, expr("&", expr("+", a, hexstr(1)), hexstr(0xFF)))],
              [assign(b, hexstr(1))], [assign(b, hexstr(2))]]
    actions = [{"name": f"act{i}", "id": i, "runtime_data": [], "primitives": body}
               for i, body in enumerate(bodies)]
    tables = [keyless_table("t1", 0, "act0", "t2", 0), keyless_table("t2", 1, "act1", "t3", 1),
              keyless_table("t3", 2, "act2", "cond", 2), keyless_table("yes", 3, "act3", None, 3),
              keyless_table("no", 4, "act4", None, 4)]
    conditionals = [{"name": "cond", "id": 0, "expression": condition,
                     "true_next": "yes", "false_next": "no"}]
    return document(meta_fields=[["a", 8, False], ["b", 8, False]], actions=actions,
                    ingress_init="t1", tables=tables, conditionals=conditionals)


def _run_chain(doc: dict) -> tuple[int, int, Program]:
    program = Program.load(doc)
    pkt = program.new_packet(b"", 0)
    program.ingress(pkt)
    assert pkt.arch.drop_errors == []
    return pkt.get_field("scalars", "a"), pkt.get_field("scalars", "b"), program


def test_fused_one_action_tables_run_in_order_then_branch() -> None:
    a = field("scalars", "a")
    cases = [
        (expr("==", a, hexstr(16)), 1),                               # plain equality
        (expr("!=", a, hexstr(16)), 2),
        (expr("==", expr("&", a, hexstr(0x0F)), hexstr(0)), 1),       # masked test
        (expr(">", a, hexstr(15)), 1),                                # general expression
        (expr("<", a, hexstr(16)), 2),
    ]
    for condition, want_b in cases:
        got_a, got_b, program = _run_chain(_chain_doc({"type": "expression",
                                                       "value": condition["value"]}))
        assert (got_a, got_b) == (16, want_b), condition
        assert program._ingress.__name__ != "const_default"   # the fused node ran


def test_exit_in_a_fused_run_stops_the_rest() -> None:
    a = field("scalars", "a")
    got_a, got_b, _ = _run_chain(_chain_doc(expr("==", a, hexstr(16)), exit_in_middle=True))
    assert (got_a, got_b) == (15, 0)
