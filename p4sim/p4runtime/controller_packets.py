"""The @controller_header("packet_out") / ("packet_in") headers on the CPU port.

A PacketOut's metadata becomes the packet_out header, bit-packed in P4Info order in
front of the payload, which is what the P4 parser extracts on the CPU port; a frame the
pipeline sends to the CPU port starts with the packet_in header, whose fields become
the PacketIn metadata.  Without such a header the payload passes through unchanged.
"""
from __future__ import annotations

from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import codec
from p4sim.p4runtime.errors import from_codec_error, invalid


class ControllerHeader:
    """Pack/unpack one controller header described by P4Info."""

    def __init__(self, meta: p4info_pb2.ControllerPacketMetadata | None):
        self.fields = list(meta.metadata) if meta is not None else []
        self.name = meta.preamble.name if meta is not None else ""
        self.bits = sum(f.bitwidth for f in self.fields)
        if self.bits % 8:
            raise invalid(f"controller header '{self.name}' is {self.bits} bits, not a "
                          "whole number of bytes")

    def pack(self, packet: p4runtime_pb2.PacketOut) -> bytes:
        """Header bytes + payload; missing metadata fields are zero."""
        if not self.fields:
            return packet.payload
        by_id = {f.id: f for f in self.fields}
        values: dict[int, int] = {}
        for meta in packet.metadata:
            spec = by_id.get(meta.metadata_id)
            if spec is None:
                raise invalid(f"'{self.name}' has no metadata with ID {meta.metadata_id}")
            if meta.metadata_id in values:
                raise invalid(f"'{self.name}' metadata '{spec.name}' is given twice")
            try:
                values[meta.metadata_id] = codec.decode_int(
                    meta.value, spec.bitwidth, f"'{self.name}' metadata '{spec.name}'")
            except codec.CodecError as exc:
                raise from_codec_error(exc) from None
        header = 0
        for spec in self.fields:
            header = (header << spec.bitwidth) | values.get(spec.id, 0)
        return header.to_bytes(self.bits // 8, "big") + packet.payload

    def unpack(self, frame: bytes) -> p4runtime_pb2.PacketIn:
        """PacketIn of a frame sent to the CPU port."""
        size = self.bits // 8
        if not self.fields or len(frame) < size:
            return p4runtime_pb2.PacketIn(payload=frame)
        header = int.from_bytes(frame[:size], "big")
        packet = p4runtime_pb2.PacketIn(payload=frame[size:])
        shift = self.bits
        for spec in self.fields:
            shift -= spec.bitwidth
            value = (header >> shift) & ((1 << spec.bitwidth) - 1)
            packet.metadata.add(metadata_id=spec.id,
                                value=codec.encode_int(value, spec.bitwidth))
        return packet
