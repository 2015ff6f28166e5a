"""Builders for BMv2 type-value JSON objects (expressions, constants, references)."""
from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def hexstr(value: int, width: int | None = None) -> Json:
    """A constant, zero-padded to whole bytes of ``width`` as p4c prints it."""
    if width is not None and width > 0:
        if value < 0:
            value &= (1 << width) - 1
        digits = max(1, (width + 7) // 8) * 2
        return {"type": "hexstr", "value": "0x" + format(value, f"0{digits}x")}
    if value < 0:
        return {"type": "hexstr", "value": "-0x" + format(-value, "x")}
    return {"type": "hexstr", "value": "0x" + format(value, "x")}


def hex_text(value: int, width: int) -> str:
    return hexstr(value, width)["value"]


def bool_expression(value: bool) -> Json:
    """A constant condition written as an expression (some consumers of BMv2 JSON only
    accept ``expression`` where a condition is expected)."""
    return op("not", None, boolean(not value))


def field(header: str, name: str) -> Json:
    return {"type": "field", "value": [header, name]}


def boolean(value: bool) -> Json:
    return {"type": "bool", "value": bool(value)}


def op(name: str, left: Json | None, right: Json | None, cond: Json | None = None) -> Json:
    body: Json = {"op": name, "left": left, "right": right}
    if cond is not None:
        body["cond"] = cond
    return {"type": "expression", "value": body}


def mask(value: Json, width: int) -> Json:
    return op("&", value, hexstr((1 << width) - 1, width))


def as_param(value: Json) -> Json:
    """A value as a primitive parameter: computed expressions are wrapped once more
    and action parameters become ``runtime_data``."""
    if value.get("type") == "expression":
        return {"type": "expression", "value": value}
    if value.get("type") == "local":
        return {"type": "runtime_data", "value": value["value"]}
    return value


def primitive(name: str, params: list[Json], source_info: Json | None = None) -> Json:
    prim: Json = {"op": name, "parameters": params}
    if source_info:
        prim["source_info"] = source_info
    return prim
