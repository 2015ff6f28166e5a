"""Compile the deparser: valid headers in the JSON order, then the payload."""
from __future__ import annotations

from itertools import compress
from operator import itemgetter
from typing import Any, Callable

from p4sim.switch.calculations import header_bits
from p4sim.switch.errors import LoadError
from p4sim.switch.loader import LoadContext, require
from p4sim.switch.loader_codegen import make_packer
from p4sim.switch.packet import HeaderInfo


def _serializer(info: HeaderInfo) -> Callable[[list], bytes]:
    """f -> the bytes of a (valid) header."""
    if info.varbit_index is not None:
        def serialize_varbit(f):
            value, nbits = header_bits(info, f)
            return value.to_bytes(nbits // 8, "big")
        return serialize_varbit
    nbytes = info.fixed_bits // 8
    shifts, pos = [], info.fixed_bits
    for width in info.widths:
        pos -= width
        shifts.append(pos)
    pack = make_packer(list(zip(range(info.base, info.valid_slot), shifts)))

    def serialize(f):
        return pack(f).to_bytes(nbytes, "big")
    return serialize


def _validity_reader(slots: list[int]) -> Callable[[list], tuple]:
    """f -> the validity bits at `slots`, read in one C call (itemgetter) for a program
    with many headers rather than one Python test per header."""
    if not slots:
        return lambda f: ()
    if len(slots) == 1:
        only = slots[0]
        return lambda f: (f[only],)
    return itemgetter(*slots)


def compile_deparser(ctx: LoadContext, deparser: dict,
                     primitives: list[Callable]) -> Callable[[Any], bytes]:
    name = deparser.get("name", "deparser")
    order = require(deparser, "order", f"deparser {name}", list)
    items = []
    for hname in order:
        info = ctx.layout.header_by_name.get(hname)
        if info is None:
            raise LoadError(f"deparser {name}", f"unknown header {hname!r} in order", deparser)
        items.append((info.valid_slot, _serializer(info)))
    serializers = tuple(serialize for _, serialize in items)
    valid_bits = _validity_reader([vslot for vslot, _ in items])
    prims = tuple(primitives)

    def deparse(p) -> bytes:
        for prim in prims:
            prim(p, None)
        f = p.f
        out = []
        for serialize in compress(serializers, valid_bits(f)):
            out.append(serialize(f))
        out.append(p.payload)
        return b"".join(out)
    return deparse
