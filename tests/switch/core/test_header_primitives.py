"""assign_header, assign_union, assign_header_stack, remove_header and the hash
primitive's base + (hash mod size) on synthetic programs."""
from __future__ import annotations

from p4sim.switch.program import Program
from .synth import field, hexstr, single_action_program

H_TYPE = {"name": "h_t", "id": 2, "fields": [["x", 8, False], ["y", 8, False]]}


def hdr(name: str) -> dict:
    return {"type": "header", "value": name}


def headers(*names: str, first_id: int = 2) -> list:
    return [{"name": n, "id": first_id + i, "header_type": "h_t", "metadata": False}
            for i, n in enumerate(names)]


def run(program: Program, setup) -> object:
    pkt = program.new_packet(b"", 0)
    setup(pkt)
    program.ingress(pkt)
    assert pkt.arch.drop_errors == []
    return pkt


def make_valid(pkt, name: str, x: int, y: int) -> None:
    info = pkt.layout.header_by_name[name]
    pkt.f[info.valid_slot] = 1
    pkt.set_field(name, "x", x)
    pkt.set_field(name, "y", y)


def test_assign_header_copies_fields_and_validity() -> None:
    prims = [{"op": "assign_header", "parameters": [hdr("b"), hdr("a")]},
             {"op": "remove_header", "parameters": [hdr("a")]}]
    program = Program.load(single_action_program(prims, [], header_types=[H_TYPE],
                                                 headers=headers("a", "b")))
    pkt = run(program, lambda p: make_valid(p, "a", 1, 2))
    assert pkt.is_valid("b") and not pkt.is_valid("a")
    assert (pkt.get_field("b", "x"), pkt.get_field("b", "y")) == (1, 2)
    # an invalid source invalidates the destination
    pkt = run(program, lambda p: make_valid(p, "b", 7, 7))
    assert not pkt.is_valid("b")


def test_assign_union_and_header_stack() -> None:
    union_type = {"name": "u_t", "id": 0, "headers": [["m", "h_t"], ["n", "h_t"]]}
    prims = [
        {"op": "assign_union", "parameters": [{"type": "header_union", "value": "u2"},
                                              {"type": "header_union", "value": "u1"}]},
        {"op": "assign_header_stack", "parameters": [{"type": "header_stack", "value": "s2"},
                                                     {"type": "header_stack", "value": "s1"}]},
    ]
    doc = single_action_program(
        prims, [], header_types=[H_TYPE],
        headers=headers("u1.m", "u1.n", "u2.m", "u2.n", "s1[0]", "s1[1]", "s2[0]", "s2[1]"),
        header_union_types=[union_type],
        header_unions=[{"name": "u1", "id": 0, "union_type": "u_t", "header_ids": [2, 3]},
                       {"name": "u2", "id": 1, "union_type": "u_t", "header_ids": [4, 5]}],
        header_stacks=[{"name": "s1", "id": 0, "header_type": "h_t", "size": 2,
                        "header_ids": [6, 7]},
                       {"name": "s2", "id": 1, "header_type": "h_t", "size": 2,
                        "header_ids": [8, 9]}])
    program = Program.load(doc)

    def setup(p):
        make_valid(p, "u1.n", 3, 4)
        make_valid(p, "u2.m", 9, 9)
        make_valid(p, "s1[0]", 5, 6)
        p.f[p.layout.stacks["s1"].next_slot] = 1
        make_valid(p, "s2[1]", 8, 8)
    pkt = run(program, setup)
    assert not pkt.is_valid("u2.m") and pkt.is_valid("u2.n")
    assert pkt.get_field("u2.n", "y") == 4
    assert pkt.is_valid("s2[0]") and not pkt.is_valid("s2[1]")
    assert pkt.get_field("s2[0]", "x") == 5
    assert pkt.f[pkt.layout.stacks["s2"].next_slot] == 1


def test_hash_based_offset_is_base_plus_hash_mod_size() -> None:
    calc = {"name": "c", "id": 0, "algo": "identity",
            "input": [{"type": "field", "value": ["scalars", "k"]}]}
    prims = [{"op": "modify_field_with_hash_based_offset", "parameters": [
        field("scalars", "out"), hexstr(100), {"type": "calculation", "value": "c"},
        hexstr(7)]}]
    program = Program.load(single_action_program(
        prims, [["k", 16, False], ["out", 16, False]], calculations=[calc]))
    pkt = run(program, lambda p: p.set_field("scalars", "k", 0x1234))
    assert pkt.get_field("scalars", "out") == 100 + 0x1234 % 7
