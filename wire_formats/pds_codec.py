"""Fast encode/decode of the UEC PDS headers, with every field's position taken from
the scapy layers in ``wire_formats.layers`` (never written down a second time).

Building a scapy packet costs ~100 µs; an endpoint sending a few thousand packets a
second cannot afford that per packet. So, once per layer, a ``HeaderCodec`` takes the
layer's ``HeaderLayout`` (bit positions from the ``fields_desc`` widths, the variant's
ConditionalFields in or out) and checks it against one scapy build. Encoding and
decoding are then integer shifts and masks over the header taken as one big-endian
number.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from scapy.fields import ConditionalField
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
from wire_formats.layout import HeaderLayout, LayoutError

_CHECK_PATTERN = int.from_bytes(b"\xa5\x3c" * 32, "big")  # distinct bits in every field


def _present(layer: type[Packet], values: dict[str, Any]) -> tuple[bool, ...]:
    """Which of ``layer``'s ConditionalFields a packet with ``values`` carries."""
    packet = layer(**values)
    return tuple(field._evalcond(packet) for field in layer.fields_desc
                 if isinstance(field, ConditionalField))


def _selectors(layer: type[Packet], layout: HeaderLayout, fixed: dict[str, Any]) -> set[str]:
    """The fields whose value would bring ConditionalFields in or out: they pick the
    layout, so cannot be encoded. Only 0, 1 and all ones are tried against the variant's
    presence; a condition on another value goes unseen, so pass selectors as ``fixed``."""
    if not any(isinstance(field, ConditionalField) for field in layer.fields_desc):
        return set()
    variant = _present(layer, fixed)
    return {name for name, mask in zip(layout.names, layout.masks) if name not in fixed
            and any(_present(layer, {**fixed, name: value}) != variant for value in (0, 1, mask))}


class HeaderCodec:
    """Encodes and decodes one PDS layer (``fixed`` fields select its variant, e.g.
    the ACK_CC credit layout, and are built in: they cannot be encoded, and decode as
    fixed)."""

    def __init__(self, layer: type[Packet], **fixed: int) -> None:
        self.layer = layer
        # Any, as scapy's Packet takes field keywords (an int could otherwise be _pkt).
        self.fixed: dict[str, Any] = dict(fixed)
        layout = HeaderLayout.of(layer, **self.fixed)
        template = bytes(layer(**self.fixed))
        if len(template) != layout.size:
            raise LayoutError(f"{layer.__name__}: scapy builds {len(template)} bytes, its fixed "
                              f"fields span {layout.size}; the codec needs a fixed-size header")
        self.length = layout.size
        self._template = int.from_bytes(template, "big")
        selectors = _selectors(layer, layout, self.fixed)
        self._slots: dict[str, tuple[int, int]] = {
            name: (shift, mask)
            for name, shift, mask in zip(layout.names, layout.shifts, layout.masks)
            if name not in self.fixed and name not in selectors}
        self._decode_slots = tuple(self._slots.items())
        self._check_against_scapy()

    def _check_against_scapy(self) -> None:
        """One build with every field set: scapy and the layout must agree on each bit."""
        values = {name: (_CHECK_PATTERN >> index) & mask
                  for index, (name, (_shift, mask)) in enumerate(self._slots.items())}
        built: dict[str, Any] = {**self.fixed, **values}   # Any: see self.fixed
        if self.encode(**values) != bytes(self.layer(**built)):
            raise LayoutError(f"{self.layer.__name__}: scapy builds the fields elsewhere than "
                              f"their fields_desc widths place them")

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
            shift, mask = slot
            if not 0 <= value <= mask:
                raise ValueError(f"{self.layer.__name__}.{name} = {value} does not fit "
                                 f"in {mask.bit_length()} bits")
            word = (word & ~(mask << shift)) | (value << shift)
        return word.to_bytes(self.length, "big")

    def decode(self, header: bytes) -> SimpleNamespace:
        """Every field of the first ``length`` bytes, as attributes."""
        if len(header) < self.length:
            raise ValueError(f"{self.layer.__name__} needs {self.length} bytes, "
                             f"got {len(header)}")
        word = int.from_bytes(header[:self.length], "big")
        fields = dict(self.fixed)
        fields.update((name, (word >> shift) & mask)
                      for name, (shift, mask) in self._decode_slots)
        return SimpleNamespace(**fields)


class PdsCodecs:
    """The codec of every PDS type the endpoints use, keyed by type. Build one per
    process (building checks each layout against scapy, a few ms)."""

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
        self._type_shift, self._type_mask = HeaderLayout.of(UecPds).field("pds_type")

    def decode(self, body: bytes) -> tuple[SimpleNamespace, int] | None:
        """(fields, header length) of the PDS header at the start of ``body``; None
        when it is cut short or of a type the endpoints do not handle."""
        if len(body) < self.prologue.length:
            return None
        prologue = int.from_bytes(body[:self.prologue.length], "big")
        codec = self.by_type.get((prologue >> self._type_shift) & self._type_mask)
        if codec is None or len(body) < codec.length:
            return None
        return codec.decode(body), codec.length
