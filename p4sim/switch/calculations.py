"""Named calculations: a field list turned into bytes the way bm_sim's BufBuilder
does (bits packed MSB first, fields of invalid headers skipped, zero padding at the
end, optional payload), then hashed."""
from __future__ import annotations

from typing import Any, Callable

from p4sim.switch.errors import LoadError
from p4sim.switch.hashes import HashFn, HashRegistry, csum16_of_int
from p4sim.switch.loader import LoadContext, parse_hexstr, require
from p4sim.switch.loader_codegen import make_packer
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
            if info.varbit_index is not None and slot == info.base + info.varbit_index:
                # a varbit field: as many bits as the packet's instance holds
                items.append(("v", slot, info.vl_width_slot, info.valid_slot))
            else:
                items.append(("f", slot, width, info.valid_slot))
        elif kind == "hexstr":
            width = item.get("bitwidth")
            if not isinstance(width, int) or width <= 0:
                raise LoadError(where, "a hexstr input needs a positive 'bitwidth'", item)
            value = parse_hexstr(item.get("value"), where, item) & ((1 << width) - 1)
            items.append(("c", value, width))
        elif kind == "header":
            header = ctx.layout.header_by_name.get(item.get("value"))
            if header is None:
                raise LoadError(where, f"unknown header {item.get('value')!r}", item)
            items.append(("h", header))
        elif kind == "payload":
            with_payload = True
        else:
            raise LoadError(where, "calculation inputs must be field, hexstr, header or payload",
                            item)
    if all(it[0] == "f" for it in items):
        return _field_list_builder([(slot, width, vslot) for _, slot, width, vslot in items],
                                   with_payload)

    def build(p) -> bytes:
        f = p.f
        value, nbits = 0, 0
        for it in items:
            if it[0] == "f":
                if f[it[3]]:
                    value = (value << it[2]) | f[it[1]]
                    nbits += it[2]
            elif it[0] == "v":
                if f[it[3]]:
                    width = f[it[2]]
                    value = (value << width) | f[it[1]]
                    nbits += width
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


def _field_list_builder(fields: list[tuple[int, int, int]], with_payload: bool) -> BufBuilder:
    """Fields only: consecutive fields of one header are packed by one generated
    expression, skipped together when that header is invalid."""
    runs: list[tuple[int, list[tuple[int, int]], int]] = []  # (valid slot, fields, bits)
    for slot, width, vslot in fields:
        if not runs or runs[-1][0] != vslot:
            runs.append((vslot, [], 0))
        vs, members, bits = runs[-1]
        members.append((slot, width))
        runs[-1] = (vs, members, bits + width)
    packed = []
    for vslot, members, bits in runs:
        shifts, pos = [], bits
        for slot, width in members:
            pos -= width
            shifts.append((slot, pos))
        packed.append((vslot, make_packer(shifts), bits))
    packed_t = tuple(packed)

    def build_int(p) -> tuple[int, int]:
        f = p.f
        value, nbits = 0, 0
        for vslot, pack, bits in packed_t:
            if f[vslot]:
                value = (value << bits) | pack(f)
                nbits += bits
        return value, nbits

    def build_fields(p) -> bytes:
        value, nbits = build_int(p)
        pad = -nbits % 8
        data = (value << pad).to_bytes((nbits + pad) // 8, "big")
        return data + p.payload if with_payload else data
    if not with_payload:
        build_fields.as_int = build_int  # type: ignore[attr-defined]
        if len(packed_t) == 1:
            build_fields.one_header = packed_t[0]  # type: ignore[attr-defined]
    return build_fields


class Calculation:
    """A named calculation: its buffer builder and hash function."""

    def __init__(self, name: str, build: BufBuilder, fn: HashFn, algo: str) -> None:
        self.name = name
        self.build = build
        self.fn = fn
        self.algo = algo
        # packet -> hash value; the two checksum fast paths below replace the general one
        self.compute: Callable[[Any], int] = self._compute
        as_int = getattr(build, "as_int", None)
        one_header = getattr(build, "one_header", None)
        if one_header is not None and algo in ("csum16", "cksum16"):
            self.compute = _header_csum16(*one_header)
        elif as_int is not None and algo in ("csum16", "cksum16"):
            def compute_csum(p) -> int:
                return csum16_of_int(*as_int(p))
            self.compute = compute_csum

    def _compute(self, p: Any) -> int:
        return self.fn(self.build(p))


def _header_csum16(valid_slot: int, pack: Callable[[list], int],
                   bits: int) -> Callable[[Any], int]:
    """csum16 of fields of one header (the IPv4 checksum case) in one call: the same
    arithmetic as hashes.csum16_of_int, inlined because it runs twice per packet."""
    pad = -bits % 16
    empty = csum16_of_int(0, 0)

    def compute_header_csum(p) -> int:
        f = p.f
        if not f[valid_slot]:
            return empty
        n = pack(f) << pad
        return ~(0 if n == 0 else (n - 1) % 0xFFFF + 1) & 0xFFFF
    return compute_header_csum


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
