"""Fixed-size header layouts derived from the scapy layers' ``fields_desc``.

The fast decoder must not restate the wire format: wire_formats/layers.py is the one place
that defines it. A ``HeaderLayout`` reads a layer's fixed leading fields once (bit
widths of BitFields, struct sizes of plain fields) and turns them into shifts and masks
over one big-endian integer, so decoding a header is one ``int.from_bytes`` plus a few
shifts instead of a scapy dissection. It is the one place that turns ``fields_desc``
into bit positions: the PDS codecs (pds_codec.py) encode and decode over it too.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scapy.fields import AnyField, ConditionalField, Field, _BitField, _FieldContainer
from scapy.packet import Packet

_UNSIGNED_STRUCT_CODES = "BHIQ"


class LayoutError(ValueError):
    """A layer whose leading fields cannot be read as fixed-width unsigned integers."""


@dataclass(frozen=True)
class HeaderLayout:
    layer: str
    names: tuple[str, ...]
    shifts: tuple[int, ...]  # of each field, from the least significant bit of the header
    masks: tuple[int, ...]
    size: int  # bytes

    @classmethod
    def of(cls, layer: type[Packet], **fixed: Any) -> "HeaderLayout":
        """The layout of ``layer``'s fixed fields, up to its first variable-size field.
        A ConditionalField is in or out as its condition says of ``layer(**fixed)``: the
        ``fixed`` values select the variant (e.g. ACK_CC's credit layout)."""
        widths: list[tuple[str, int]] = []
        variant: Packet | None = None
        for field in layer.fields_desc:
            if isinstance(field, ConditionalField):
                variant = layer(**fixed) if variant is None else variant
                if not field._evalcond(variant):
                    continue
                field = field.fld
            bits = _fixed_width(layer, field)
            if bits is None:
                break
            widths.append((field.name, bits))
        total = sum(bits for _, bits in widths)
        if total == 0 or total % 8:
            raise LayoutError(f"{layer.__name__}: fixed fields span {total} bits, "
                              f"not a whole number of bytes")
        shifts, position = [], total
        for _, bits in widths:
            position -= bits
            shifts.append(position)
        return cls(layer=layer.__name__, names=tuple(name for name, _ in widths),
                   shifts=tuple(shifts), masks=tuple((1 << bits) - 1 for _, bits in widths),
                   size=total // 8)

    def index(self, name: str) -> int:
        """Position of field ``name`` in the tuples ``unpack`` returns."""
        try:
            return self.names.index(name)
        except ValueError:
            raise LayoutError(f"{self.layer} has no fixed field {name!r} "
                              f"(fields: {', '.join(self.names)})") from None

    def field(self, name: str) -> tuple[int, int]:
        """(shift, mask) of field ``name`` within ``int.from_bytes`` of the header; the
        hot path keeps these in locals."""
        position = self.index(name)
        return self.shifts[position], self.masks[position]

    def unpack(self, data: bytes, offset: int = 0) -> tuple[int, ...]:
        """Every fixed field's value, in declaration order; ``data`` must hold the header."""
        value = int.from_bytes(data[offset:offset + self.size], "big")
        return tuple([(value >> shift) & mask for shift, mask in zip(self.shifts, self.masks)])


def _fixed_width(layer: type[Packet], field: AnyField) -> int | None:
    """Bits of a fixed-width unsigned field; None for the first variable-size one."""
    if isinstance(field, _BitField):
        return field.size
    if isinstance(field, _FieldContainer):  # conditional, padded, ...: not a fixed field
        return None
    if field.islist or type(field).getfield is not Field.getfield:
        return None
    if field.fmt[-1] not in _UNSIGNED_STRUCT_CODES or field.fmt[0] == "<":
        raise LayoutError(f"{layer.__name__}.{field.name}: struct format {field.fmt!r} is "
                          f"not a big-endian unsigned integer; the fast codecs cannot read it")
    return field.sz * 8


__all__ = ["HeaderLayout", "LayoutError"]
