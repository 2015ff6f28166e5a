"""Named calculations: a field list turned into bytes the way bm_sim's BufBuilder
does (bits packed MSB first, fields of invalid headers skipped, zero padding at the
end, optional payload), then hashed."""
from __future__ import annotations

from typing import Any, Callable

from p4sim.switch.errors import LoadError
from p4sim.switch.hashes import HashFn, HashRegistry
from p4sim.switch.loader import LoadContext, parse_hexstr, require
from p4sim.switch.loader_layout import field_slot

BufBuilder = Callable[[Any], bytes]


def header_bits(info, f: list[int]) -> tuple[int, int]:
    """A valid header's bits as (value, nbits), varbit included."""
    value, nbits = 0, 0
    base = info.base
    for i, width in enumerate(info.widths):
        if i == info.varbit_index:
            width = f[info.vl_width_slot]
        value = (value << width) | f[base + i]
        nbits += width
    return value, nbits


def compile_buf_builder(ctx: LoadContext, inputs: list, where: str) -> BufBuilder:
    """Compile a calculation's input list into a closure producing its bytes."""
    items: list[tuple] = []
    with_payload = False
    for item in inputs:
        kind = item.get("type") if isinstance(item, dict) else None
        if kind == "field":
            slot, width, _, info = field_slot(ctx, item.get("value"), where, item)
            items.append(("f", slot, width, info.valid_slot))
        elif kind == "hexstr":
            width = item.get("bitwidth")
            if not isinstance(width, int) or width <= 0:
                raise LoadError(where, "a hexstr input needs a positive 'bitwidth'", item)
            value = parse_hexstr(item.get("value"), where, item) & ((1 << width) - 1)
            items.append(("c", value, width))
        elif kind == "header":
            info = ctx.layout.header_by_name.get(item.get("value"))
            if info is None:
                raise LoadError(where, f"unknown header {item.get('value')!r}", item)
            items.append(("h", info))
        elif kind == "payload":
            with_payload = True
        else:
            raise LoadError(where, "calculation inputs must be field, hexstr, header or payload",
                            item)
    simple = all(it[0] == "f" for it in items)
    if simple:
        fields = [(slot, width, vslot) for _, slot, width, vslot in items]

        def build_fields(p) -> bytes:
            f = p.f
            value, nbits = 0, 0
            for slot, width, vslot in fields:
                if f[vslot]:
                    value = (value << width) | f[slot]
                    nbits += width
            pad = -nbits % 8
            data = (value << pad).to_bytes((nbits + pad) // 8, "big")
            return data + p.payload if with_payload else data
        return build_fields

    def build(p) -> bytes:
        f = p.f
        value, nbits = 0, 0
        for it in items:
            if it[0] == "f":
                if f[it[3]]:
                    value = (value << it[2]) | f[it[1]]
                    nbits += it[2]
            elif it[0] == "c":
                value = (value << it[2]) | it[1]
                nbits += it[2]
            else:
                info = it[1]
                if f[info.valid_slot]:
                    hv, hn = header_bits(info, f)
                    value = (value << hn) | hv
                    nbits += hn
        pad = -nbits % 8
        data = (value << pad).to_bytes((nbits + pad) // 8, "big")
        return data + p.payload if with_payload else data
    return build


class Calculation:
    """A named calculation: its buffer builder and hash function."""

    def __init__(self, name: str, build: BufBuilder, fn: HashFn, algo: str) -> None:
        self.name = name
        self.build = build
        self.fn = fn
        self.algo = algo

    def compute(self, p) -> int:
        return self.fn(self.build(p))


def compile_calculations(ctx: LoadContext, hashes: HashRegistry) -> None:
    for calc in ctx.doc.get("calculations", []) or []:
        name = require(calc, "name", "calculations", str)
        where = f"calculations[{name}]"
        algo = require(calc, "algo", where, str)
        fn = hashes.get(algo)
        if fn is None:
            raise LoadError(where, f"unknown hash algorithm {algo!r} "
                            f"(supported: {', '.join(HashRegistry.SUPPORTED)})", calc)
        build = compile_buf_builder(ctx, require(calc, "input", where, list), where)
        ctx.calculations[name] = Calculation(name, build, fn, algo)
