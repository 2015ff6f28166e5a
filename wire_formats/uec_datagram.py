"""Bytes on the wire for the endpoints: IPv4/UDP around the project's UEC PDS headers.

The PDS headers go through ``PdsCodecs``, whose field positions come from the scapy
layers in ``wire_formats.layers`` (one definition of every UEC field). The plain IPv4 and
UDP headers around them are packed with ``struct``: building with scapy costs ~0.6 ms
a packet, which would cap a Python endpoint at under 2,000 packets/s.
"""
from __future__ import annotations

import socket
import struct
from dataclasses import dataclass
from types import SimpleNamespace

from wire_formats.layers import (
    CTL_CLOSE_CMD,
    CTL_CREDIT,
    CTL_CREDIT_REQUEST,
    DSCP_TRIMMABLE,
    DSCP_TRIMMED,
    ECN_CE,
    IP_PROTO_UDP,
    NACK_TRIMMED,
    PDS_ACK,
    PDS_ACK_CC,
    PDS_CONTROL,
    PDS_DATA_TYPES,
    PDS_NACK,
    PDS_RUD_CC_REQ,
    UDP_PORT_UEC,
)

from wire_formats.checksum import internet_checksum
from wire_formats.pds_codec import PdsCodecs

IPV4_HEADER = struct.Struct("!BBHHHBBH4s4s")
UDP_HEADER = struct.Struct("!HHHH")
ECN_ECT0 = 0b10
DEFAULT_TTL = 64
MAX_CREDIT = (1 << 24) - 1
"""Largest credit a 24-bit credit field carries."""


def ipv4_udp(src: str, dst: str, sport: int, dport: int, payload: bytes, *,
             dscp: int = 0, ecn: int = 0, ttl: int = DEFAULT_TTL) -> bytes:
    """An IPv4 datagram (DF set, checksum filled) carrying UDP with checksum 0, as
    UEC sends it."""
    udp = UDP_HEADER.pack(sport, dport, UDP_HEADER.size + len(payload), 0)
    total = IPV4_HEADER.size + len(udp) + len(payload)
    header = IPV4_HEADER.pack(0x45, (dscp << 2) | ecn, total, 0, 0x4000, ttl, IP_PROTO_UDP,
                              0, socket.inet_aton(src), socket.inet_aton(dst))
    checksum = internet_checksum(header)
    header = header[:10] + checksum.to_bytes(2, "big") + header[12:]
    return header + udp + payload


# ---------------------------------------------------------------- packets
@dataclass(frozen=True)
class Flow:
    """The addressing of one PDC as seen by the side that sends: own and peer IP,
    own and peer PDC identifiers."""

    src: str
    dst: str
    own_pdcid: int
    peer_pdcid: int = 0


@dataclass(frozen=True)
class Received:
    """One UEC packet as it arrived. ``pds``: every field of its PDS header as
    attributes (names as in ``wire_formats.layers``). ``trimmed``: the fabric cut it
    (trimmed DSCP, or fewer bytes than the IPv4/UDP lengths claim); ``ce``: ECN
    congestion experienced."""

    src: str
    dst: str
    sport: int
    dscp: int
    trimmed: bool
    ce: bool
    pds: SimpleNamespace
    payload: bytes

    @property
    def pds_type(self) -> int:
        return self.pds.pds_type

    @property
    def is_data(self) -> bool:
        return self.pds.pds_type in PDS_DATA_TYPES

    @property
    def is_control(self) -> bool:
        return self.pds.pds_type == PDS_CONTROL


class UecWire:
    """Builds and reads the endpoints' packets. One per endpoint (it holds the PDS
    codecs, learnt from the scapy layers when it is made)."""

    def __init__(self, port: int = UDP_PORT_UEC) -> None:
        self.port = port
        self._codecs = PdsCodecs()
        self._request_cc = self._codecs.by_type[PDS_RUD_CC_REQ]
        self._ack_cc = self._codecs.by_type[PDS_ACK_CC]     # credit variant
        self._ack = self._codecs.by_type[PDS_ACK]
        self._nack = self._codecs.by_type[PDS_NACK]
        self._control = self._codecs.by_type[PDS_CONTROL]

    def _udp(self, flow: Flow, ev: int, pds: bytes, **ip_fields: int) -> bytes:
        return ipv4_udp(flow.src, flow.dst, ev, self.port, pds, **ip_fields)

    def data_packet(self, flow: Flow, ev: int, psn: int, payload: bytes, *, syn: bool,
                    retrans: bool, ackreq: bool, clear_psn_offset: int,
                    credit_target: int) -> bytes:
        """A RUD_CC request: a RUD request whose CC fields tell the receiver how many
        more bytes of credit the sender wants (``credit_target``); trimmable DSCP,
        ECT(0)."""
        pds = self._request_cc.encode(
            pds_type=PDS_RUD_CC_REQ, syn=int(syn), retrans=int(retrans), ackreq=int(ackreq),
            clear_psn_offset=clear_psn_offset, psn=psn, spdcid=flow.own_pdcid,
            dpdcid=flow.peer_pdcid, credit_target=min(credit_target, MAX_CREDIT))
        return self._udp(flow, ev, pds + payload, dscp=DSCP_TRIMMABLE, ecn=ECN_ECT0)

    def ack_cc_packet(self, flow: Flow, ev: int, cack_psn: int, ack_psn_offset: int,
                      sack_bitmap: int, ooo_count: int, *, ecn_marked: bool,
                      retrans: bool, sack_psn_offset: int = 1, credit: int = 0) -> bytes:
        """ACK_CC (credit type): every PSN up to ``cack_psn`` received, and the one at
        ``cack_psn + ack_psn_offset`` (if the offset is not 0); SACK bitmap bit i
        (least significant first) stands for PSN ``cack_psn + sack_psn_offset + i``;
        ``credit``: bytes granted with this ACK (one packet carries both)."""
        pds = self._ack_cc.encode(
            pds_type=PDS_ACK_CC, cack_psn=cack_psn,
            ack_psn_offset=ack_psn_offset & 0xFFFF, sack_psn_offset=sack_psn_offset,
            sack_bitmap=sack_bitmap, ooo_count=min(ooo_count, 0xFFFF),
            ecn_marked=int(ecn_marked), retrans=int(retrans), spdcid=flow.own_pdcid,
            dpdcid=flow.peer_pdcid, credit=min(credit, MAX_CREDIT))
        return self._udp(flow, ev, pds)

    def plain_ack_packet(self, flow: Flow, ev: int, cack_psn: int) -> bytes:
        """Plain ACK, used to confirm the PDC close."""
        pds = self._ack.encode(pds_type=PDS_ACK, cack_psn=cack_psn, spdcid=flow.own_pdcid,
                               dpdcid=flow.peer_pdcid)
        return self._udp(flow, ev, pds)

    def nack_packet(self, flow: Flow, ev: int, psn: int, code: int = NACK_TRIMMED) -> bytes:
        pds = self._nack.encode(pds_type=PDS_NACK, nack_code=code, nack_psn=psn,
                                spdcid=flow.own_pdcid, dpdcid=flow.peer_pdcid)
        return self._udp(flow, ev, pds)

    def control_packet(self, flow: Flow, ev: int, ctl_type: int, *, psn: int = 0,
                       credit: int = 0, syn: bool = False) -> bytes:
        """CONTROL: CREDIT (receiver grants ``credit`` bytes), CREDIT_REQUEST (sender
        asks for ``credit`` bytes) or CLOSE_CMD (sender ends the PDC at ``psn``)."""
        pds = self._control.encode(pds_type=PDS_CONTROL, ctl_type=ctl_type, psn=psn,
                                   syn=int(syn), spdcid=flow.own_pdcid,
                                   dpdcid=flow.peer_pdcid, credit=min(credit, MAX_CREDIT))
        return self._udp(flow, ev, pds)

    def parse(self, datagram: bytes) -> Received | None:
        """The UEC packet in an IPv4 datagram (from a raw socket), or None when it is
        not UDP to our port, or too short to hold its whole PDS header."""
        if len(datagram) < IPV4_HEADER.size:
            return None
        (version_ihl, tos, total, _ident, _frag, _ttl, proto, _csum, src, dst) = \
            IPV4_HEADER.unpack_from(datagram)
        ihl = (version_ihl & 0x0F) * 4
        if version_ihl >> 4 != 4 or proto != IP_PROTO_UDP or len(datagram) < ihl + 8:
            return None
        sport, dport, udp_length, _udp_csum = UDP_HEADER.unpack_from(datagram, ihl)
        if dport != self.port:
            return None
        body = datagram[ihl + UDP_HEADER.size:]
        decoded = self._codecs.decode(body)
        if decoded is None:
            return None
        pds, header_length = decoded
        short = len(datagram) < total or len(datagram) - ihl < udp_length
        dscp = tos >> 2
        return Received(src=socket.inet_ntoa(src), dst=socket.inet_ntoa(dst), sport=sport,
                        dscp=dscp, trimmed=short or dscp == DSCP_TRIMMED,
                        ce=(tos & 0b11) == ECN_CE, pds=pds, payload=body[header_length:])


def is_credit(packet: Received) -> bool:
    return packet.is_control and packet.pds.ctl_type == CTL_CREDIT


def is_credit_request(packet: Received) -> bool:
    return packet.is_control and packet.pds.ctl_type == CTL_CREDIT_REQUEST


def is_close(packet: Received) -> bool:
    return packet.is_control and packet.pds.ctl_type == CTL_CLOSE_CMD
