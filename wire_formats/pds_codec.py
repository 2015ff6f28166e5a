"""Fast encode/decode of the UEC PDS headers, with every field's position learnt from
the scapy layers in ``wire_formats.layers`` (never written down a second time).

Building a scapy packet costs ~100 µs; an endpoint sending a few thousand packets a
second cannot afford that per packet. So, once per layer, a ``HeaderCodec`` asks scapy
to build the header with each field set to all ones and to zero: the difference is the
field's bit mask in the header. Encoding and decoding are then integer shifts and
masks over the header taken as one big-endian number.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Mapping

from scapy.fields import AnyField, BitField, ConditionalField
from scapy.packet import Packet

from wire_formats.layers import (
    CC_TYPE_CREDIT,
    PDS_ACK,
    PDS_ACK_CC,
    PDS_CONTROL,
    PDS_NACK,
    PDS_ROD_CC_REQ,
    PDS_ROD_REQ,
    PDS_RUD_CC_REQ,
    PDS_RUD_REQ,
    UecAck,
    UecAckCC,
    UecControl,
    UecNack,
    UecPds,
    UecRequest,
    UecRequestCC,
)


@dataclass(frozen=True)
class _FieldSlot:
    shift: int
    mask: int       # unshifted: (1 << width) - 1


def _field_bits(field: AnyField) -> int:
    if isinstance(field, ConditionalField):
        field = field.fld
    if isinstance(field, BitField):
        return field.size
    return field.sz * 8


def _built(layer: type[Packet], fixed: Mapping[str, Any], name: str, value: int) -> int:
    """The layer built with one field set, as a number; a build of another length
    than the template's is flagged by a leading 1 bit beyond it."""
    packet = layer(**fixed)
    packet.setfieldval(name, value)
    built = bytes(packet)
    template_length = len(bytes(layer(**fixed)))
    if len(built) != template_length:
        return 1 << (8 * template_length)
    return int.from_bytes(built, "big")


class HeaderCodec:
    """Encodes and decodes one PDS layer (``fixed`` fields select its variant, e.g.
    the ACK_CC credit layout, and are built in: they cannot be encoded, and decode as
    fixed)."""

    def __init__(self, layer: type[Packet], **fixed: int) -> None:
        self.layer = layer
        # Any, as scapy's Packet takes field keywords (an int could otherwise be _pkt).
        self.fixed: dict[str, Any] = dict(fixed)
        template = bytes(layer(**self.fixed))
        self.length = len(template)
        self._template = int.from_bytes(template, "big")
        self._slots: dict[str, _FieldSlot] = {}
        for field in layer(**self.fixed).fields_desc:
            if field.name in fixed or (isinstance(field, ConditionalField)
                                       and not field._evalcond(layer(**self.fixed))):
                continue
            all_ones = (1 << _field_bits(field)) - 1
            probe = _built(layer, fixed, field.name, all_ones)
            zero = _built(layer, fixed, field.name, 0)
            if probe.bit_length() > 8 * self.length or zero.bit_length() > 8 * self.length:
                continue   # the value changed the layout (a selector field)
            mask = probe ^ zero
            if mask == 0:
                continue
            shift = (mask & -mask).bit_length() - 1
            self._slots[field.name] = _FieldSlot(shift, mask >> shift)
        taken = 0
        for name, slot in self._slots.items():
            if taken & (slot.mask << slot.shift):
                raise ValueError(f"{layer.__name__}: field {name} overlaps another")
            taken |= slot.mask << slot.shift

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(self._slots)

    def encode(self, **values: int) -> bytes:
        """The header with ``values`` (others as the layer's defaults); a value wider
        than its field is an error, not silently cut."""
        word = self._template
        for name, value in values.items():
            slot = self._slots.get(name)
            if slot is None:
                raise KeyError(f"{self.layer.__name__} has no field {name!r}")
            if not 0 <= value <= slot.mask:
                raise ValueError(f"{self.layer.__name__}.{name} = {value} does not fit "
                                 f"in {slot.mask.bit_length()} bits")
            word = (word & ~(slot.mask << slot.shift)) | (value << slot.shift)
        return word.to_bytes(self.length, "big")

    def decode(self, header: bytes) -> SimpleNamespace:
        """Every field of the first ``length`` bytes, as attributes."""
        if len(header) < self.length:
            raise ValueError(f"{self.layer.__name__} needs {self.length} bytes, "
                             f"got {len(header)}")
        word = int.from_bytes(header[:self.length], "big")
        fields = dict(self.fixed)
        fields.update((name, (word >> slot.shift) & slot.mask)
                      for name, slot in self._slots.items())
        return SimpleNamespace(**fields)


class PdsCodecs:
    """The codec of every PDS type the endpoints use, keyed by type. Build one per
    process (building probes scapy a few hundred times, ~50 ms)."""

    def __init__(self) -> None:
        request = HeaderCodec(UecRequest)
        request_cc = HeaderCodec(UecRequestCC)
        self.by_type: dict[int, HeaderCodec] = {
            PDS_RUD_REQ: request, PDS_ROD_REQ: request,
            PDS_RUD_CC_REQ: request_cc, PDS_ROD_CC_REQ: request_cc,
            PDS_ACK: HeaderCodec(UecAck),
            PDS_ACK_CC: HeaderCodec(UecAckCC, cc_type=CC_TYPE_CREDIT),
            PDS_NACK: HeaderCodec(UecNack),
            PDS_CONTROL: HeaderCodec(UecControl),
        }
        self.prologue = HeaderCodec(UecPds)

    def decode(self, body: bytes) -> tuple[SimpleNamespace, int] | None:
        """(fields, header length) of the PDS header at the start of ``body``; None
        when it is cut short or of a type the endpoints do not handle."""
        if len(body) < self.prologue.length:
            return None
        pds_type = self.prologue.decode(body).pds_type
        codec = self.by_type.get(pds_type)
        if codec is None or len(body) < codec.length:
            return None
        return codec.decode(body), codec.length
