"""JSON shapes real p4c emits that p4sim-compile does not: the loader must run them.

p4c wraps plain operands of parser ops in an ``expression`` object (the length of an
``extract_VL``, the source of a ``set``); a varbit field may be a calculation input
(a checksum over IPv4 options). Each test builds the smallest document with the shape.
"""
from __future__ import annotations

import pytest

from p4sim.switch.errors import LoadError
from p4sim.switch.program import Program

from .helpers import run_unicast
from .synth import document, expr, field, hexstr

HDR_TYPES = [
    {"name": "len_t", "id": 2, "fields": [["n", 8, False]]},
    {"name": "opt_t", "id": 3, "fields": [["data", "*"]], "max_length": 8},
    {"name": "out_t", "id": 4, "fields": [["bits", 8, False], ["sum", 16, False]]},
]
HEADERS = [
    {"name": "len", "id": 2, "header_type": "len_t", "metadata": False},
    {"name": "opt", "id": 3, "header_type": "opt_t", "metadata": False},
    {"name": "out", "id": 4, "header_type": "out_t", "metadata": False},
]


def wrapped(operand: dict) -> dict:
    """``{"type": "expression", "value": <plain operand>}``, as p4c writes it."""
    return {"type": "expression", "value": operand}


def _state(ops: list) -> list:
    return [{"name": "start", "id": 0, "parser_ops": ops, "transition_key": [],
             "transitions": [{"type": "default", "value": None, "mask": None,
                              "next_state": None}]}]


def _program(ops: list, **sections) -> Program:
    doc = document(meta_fields=[["bits", 32, False]], header_types=HDR_TYPES,
                   headers=HEADERS, parse_states=_state(ops),
                   deparse_order=["len", "opt", "out"], **sections)
    return Program.load(doc)


PARSE_VL = [
    {"op": "extract", "parameters": [{"type": "regular", "value": "len"}]},
    {"op": "set", "parameters": [field("scalars", "bits"),
                                 wrapped(expr("<<", field("len", "n"), hexstr(3)))]},
    {"op": "extract_VL", "parameters": [{"type": "regular", "value": "opt"},
                                        wrapped(field("scalars", "bits"))]},
    {"op": "extract", "parameters": [{"type": "regular", "value": "out"}]},
]


def test_expression_wrapped_field_is_the_extract_vl_length() -> None:
    program = _program(PARSE_VL)
    data = bytes([2, 0xAA, 0xBB, 0x11, 0x22, 0x33, 0x44])
    port, out, pkt = run_unicast(program, 0, data)
    assert pkt.get_field("scalars", "bits") == 16
    assert pkt.get_field("out", "bits") == 0x11   # 2 option bytes were consumed
    assert out == data


def test_expression_wrapped_field_as_set_source() -> None:
    program = _program([
        {"op": "extract", "parameters": [{"type": "regular", "value": "len"}]},
        {"op": "set", "parameters": [field("scalars", "bits"), wrapped(field("len", "n"))]},
    ])
    _, _, pkt = run_unicast(program, 0, bytes([7]))
    assert pkt.get_field("scalars", "bits") == 7


def test_varbit_field_as_calculation_input_uses_its_current_bits() -> None:
    calc = {"name": "calc", "id": 0, "algo": "csum16",
            "input": [field("len", "n"), field("opt", "data")]}
    checksum = {"name": "ck", "id": 0, "target": ["out", "sum"], "type": "generic",
                "calculation": "calc", "verify": False, "update": True,
                "if_cond": None}
    program = _program(PARSE_VL, calculations=[calc], checksums=[checksum])
    # len.n = 2, options 0xAABB: csum16 over 02 AA BB (padded 02AA BB00)
    _, out, _ = run_unicast(program, 0, bytes([2, 0xAA, 0xBB, 0x11, 0, 0]))
    total = 0x02AA + 0xBB00
    expected = ~((total & 0xFFFF) + (total >> 16)) & 0xFFFF
    assert out[-2:] == expected.to_bytes(2, "big")
    # one option byte fewer gives another sum: the width follows the packet
    _, shorter, _ = run_unicast(program, 0, bytes([1, 0xAA, 0x11, 0, 0]))
    total = 0x01AA
    assert shorter[-2:] == (~total & 0xFFFF).to_bytes(2, "big")


def test_a_wrapped_non_operand_is_refused_with_its_place() -> None:
    ops = [{"op": "set", "parameters": [field("scalars", "bits"), wrapped(42)]}]
    with pytest.raises(LoadError, match="state start"):
        _program(ops)
