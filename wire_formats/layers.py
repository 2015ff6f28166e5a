"""scapy layers for the fabric's wire formats, shared by tests, endpoints and the
collector so that every party builds and reads the same bytes:

- INT-MD v2.1 over TCP/UDP: ``IntShim`` (4 B) and ``IntMD`` (12 B plus the metadata
  stack as 32-bit words). INT is signalled by a DSCP value, not a port, so scapy cannot
  find it on its own: use ``decode_int`` on received packets.
- Telemetry Report v2.0: ``ReportGroup`` (8 B), ``ReportIndividual`` (4 B) and
  ``IntReport`` (8 B plus the reporting node's own metadata per RepMdBits, then the
  inner packet: for the fabric's stacked reports the packet with its INT-MD header and
  whole stack embedded); bound to UDP destination port ``REPORT_UDP_PORT``.
- UEC PDS headers, bound to UDP destination port 4793 and told apart by their type:
  ``UecRequest`` (RUD/ROD), ``UecRequestCC`` (RUD_CC/ROD_CC), ``UecAck``, ``UecAckCC``
  (SACK bitmap; NSCC or credit state), ``UecNack``, ``UecControl`` (CREDIT,
  CREDIT_REQUEST, ...), and ``UecPds`` (prologue only) for the other types.

Bit 0 is the most significant bit everywhere, as in the specifications.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from scapy.fields import (
    BitField,
    ByteField,
    ConditionalField,
    FieldListField,
    IntField,
    LongField,
    ShortField,
    XBitField,
    XIntField,
    XShortField,
)
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Packet, Raw, bind_layers

# ---------------------------------------------------------------- codepoints
# Those also in p4src/include/define.p4 must agree with it:
# tests/fabric/test_constants_match_p4.py maps each P4 constant to its Python name.
CPU_PORT = 255
"""The switch port of packet-in/packet-out (fixed in the P4 program)."""
PUNT_REASON_ACL = 1
"""packet_in reason of a packet punted by an ACL rule."""
ETHERTYPE_IPV4 = 0x0800
ETHERTYPE_VLAN = 0x8100
IP_PROTO_TCP = 6
IP_PROTO_UDP = 17
ECN_CE = 0b11
UDP_PORT_UEC = 4793
"""UDP destination port of UEC transport (UDP mode)."""
REPORT_UDP_PORT = 32766
"""Default UDP destination port of telemetry reports (the collector's)."""
DSCP_INT = 0x17
"""Default DSCP that marks INT-MD packets (the INT spec's example value)."""
DSCP_INT_MASK = 0x3F
"""Default mask under which a packet's DSCP must equal ``DSCP_INT``."""
DSCP_TRIMMABLE = 0x0A
"""Default DSCP of UEC data packets that switches may trim."""
DSCP_TRIMMED = 0x0B
"""Default DSCP a trimmed packet carries."""

# INT-MD
INT_TYPE_MD = 1
INT_VERSION = 2
INT_MD_HEADER_WORDS = 3
INT_UNAVAILABLE = 0xFFFFFFFF

# Instruction bitmap bits (bit 0 = most significant bit of the 16-bit field).
INT_BIT_NODE_ID = 0x8000
INT_BIT_L1_PORTS = 0x4000
INT_BIT_HOP_LATENCY = 0x2000
INT_BIT_QUEUE = 0x1000
INT_BIT_INGRESS_TS = 0x0800
INT_BIT_EGRESS_TS = 0x0400
INT_BIT_L2_PORTS = 0x0200
INT_BIT_TX_UTIL = 0x0100
INT_BIT_BUFFER = 0x0080
INT_ALL_SUPPORTED = (INT_BIT_NODE_ID | INT_BIT_L1_PORTS | INT_BIT_HOP_LATENCY | INT_BIT_QUEUE
                     | INT_BIT_INGRESS_TS | INT_BIT_EGRESS_TS | INT_BIT_TX_UTIL)
"""Bits 0-5 and 7: what the fabric's switches supply (nine words per hop)."""

# (bit, metadata name, words) in wire order within one hop.
INT_METADATA_FIELDS: tuple[tuple[int, str, int], ...] = (
    (INT_BIT_NODE_ID, "node_id", 1),
    (INT_BIT_L1_PORTS, "l1_ports", 1),
    (INT_BIT_HOP_LATENCY, "hop_latency", 1),
    (INT_BIT_QUEUE, "queue", 1),
    (INT_BIT_INGRESS_TS, "ingress_ts", 2),
    (INT_BIT_EGRESS_TS, "egress_ts", 2),
    (INT_BIT_L2_PORTS, "l2_ports", 2),
    (INT_BIT_TX_UTIL, "tx_util", 1),
    (INT_BIT_BUFFER, "buffer", 1),
)

# Telemetry Report v2.0
REPORT_VERSION = 2
REPORT_INT_MAIN_BYTES = 8
"""INT report main contents without the reporting node's own metadata."""
REPORT_FIXED_BYTES = 14 + 20 + 8 + 8 + 4 + REPORT_INT_MAIN_BYTES
"""Bytes before the inner packet of a fabric report: Ethernet, IPv4, UDP, group,
individual, main contents (the sink's own metadata rides in the embedded stack)."""
REPORT_TYPE_INNER_ONLY = 0
REPORT_TYPE_INT = 1
REPORT_TYPE_IOAM = 2
REPORT_INNER_NONE = 0
REPORT_INNER_TLV = 1
REPORT_INNER_DS_EXTENSION = 2
REPORT_INNER_ETHERNET = 3
REPORT_INNER_IPV4 = 4
REPORT_INNER_IPV6 = 5
# RepMdBits: the reporting node's own metadata in the main contents. Bits 1-8 are
# the INT instruction bits' metadata (same sizes); bit 0 is reserved (the node ID is in
# the group header), so are bits 9-14; bit 15 is queue ID + drop reason (one word).
REPORT_MD_RESERVED = 0x8000 | 0x007E
REPORT_MD_DROP_REASON = 0x0001

# UEC PDS packet types.
PDS_TSS = 1
PDS_RUD_REQ = 2
PDS_ROD_REQ = 3
PDS_RUDI_REQ = 4
PDS_RUDI_RESP = 5
PDS_UUD_REQ = 6
PDS_ACK = 7
PDS_ACK_CC = 8
PDS_ACK_CCX = 9
PDS_NACK = 10
PDS_CONTROL = 11
PDS_NACK_CCX = 12
PDS_RUD_CC_REQ = 13
PDS_ROD_CC_REQ = 14
PDS_DATA_TYPES = frozenset({PDS_RUD_REQ, PDS_ROD_REQ, PDS_RUDI_REQ, PDS_UUD_REQ,
                            PDS_RUD_CC_REQ, PDS_ROD_CC_REQ})
"""Types a switch treats as trimmable data."""

# CONTROL packet types (carried in the prologue's next-header field).
CTL_NOOP = 0
CTL_ACK_REQ = 1
CTL_CLEAR_CMD = 2
CTL_CLEAR_REQ = 3
CTL_CLOSE_CMD = 4
CTL_CLOSE_REQ = 5
CTL_PROBE = 6
CTL_CREDIT = 7
CTL_CREDIT_REQUEST = 8
CTL_NEGOTIATION = 9

# ACK_CC congestion-control types.
CC_TYPE_NSCC = 0
CC_TYPE_CREDIT = 1

# NACK codes.
NACK_TRIMMED = 0x1
NACK_TRIMMED_LASTHOP = 0x2
NACK_TRIMMED_ACK = 0x3

_PDS_TYPE_NAMES = {
    PDS_TSS: "TSS", PDS_RUD_REQ: "RUD_REQ", PDS_ROD_REQ: "ROD_REQ", PDS_RUDI_REQ: "RUDI_REQ",
    PDS_RUDI_RESP: "RUDI_RESP", PDS_UUD_REQ: "UUD_REQ", PDS_ACK: "ACK", PDS_ACK_CC: "ACK_CC",
    PDS_ACK_CCX: "ACK_CCX", PDS_NACK: "NACK", PDS_CONTROL: "CONTROL", PDS_NACK_CCX: "NACK_CCX",
    PDS_RUD_CC_REQ: "RUD_CC_REQ", PDS_ROD_CC_REQ: "ROD_CC_REQ",
}
_CTL_NAMES = {
    CTL_NOOP: "NOOP", CTL_ACK_REQ: "ACK_REQ", CTL_CLEAR_CMD: "CLEAR_CMD",
    CTL_CLEAR_REQ: "CLEAR_REQ", CTL_CLOSE_CMD: "CLOSE_CMD", CTL_CLOSE_REQ: "CLOSE_REQ",
    CTL_PROBE: "PROBE", CTL_CREDIT: "CREDIT", CTL_CREDIT_REQUEST: "CREDIT_REQUEST",
    CTL_NEGOTIATION: "NEGOTIATION",
}


# ---------------------------------------------------------------- INT-MD
def _words_field(name: str, length_from) -> FieldListField:
    return FieldListField(name, [], XIntField("", 0), length_from=length_from)


class IntShim(Packet):
    """INT shim for TCP/UDP; with NPT 0 the packet's original DSCP travels here."""

    name = "INT shim (TCP/UDP)"
    fields_desc = [
        BitField("int_type", INT_TYPE_MD, 4),
        BitField("npt", 0, 2),
        BitField("rsvd0", 0, 2),
        ByteField("length", None),  # INT-MD header + stack, in words; shim excluded
        ByteField("rsvd1", 0),
        BitField("dscp", 0, 6),
        BitField("rsvd2", 0, 2),
    ]

    def post_build(self, pkt: bytes, pay: bytes) -> bytes:
        if self.length is None:
            stack = self.payload.stack if isinstance(self.payload, IntMD) else []
            pkt = pkt[:1] + bytes([INT_MD_HEADER_WORDS + len(stack)]) + pkt[2:]
        return pkt + pay


def _stack_bytes(md: Packet) -> int:
    shim = md.underlayer
    if isinstance(shim, IntShim) and shim.length is not None:
        return max(shim.length - INT_MD_HEADER_WORDS, 0) * 4
    return 0


class IntMD(Packet):
    """INT-MD metadata header followed by the metadata stack (newest hop first)."""

    name = "INT-MD"
    fields_desc = [
        BitField("ver", INT_VERSION, 4),
        BitField("d", 0, 1),
        BitField("e", 0, 1),
        BitField("m", 0, 1),
        BitField("rsvd", 0, 12),
        BitField("hop_ml", None, 5),
        ByteField("remaining_hop_cnt", 0),
        XShortField("instruction_mask", 0),
        ShortField("domain_id", 0),
        XShortField("ds_instruction", 0),
        XShortField("ds_flags", 0),
        _words_field("stack", _stack_bytes),
    ]

    def post_build(self, pkt: bytes, pay: bytes) -> bytes:
        if self.hop_ml is None:
            first = int.from_bytes(pkt[:4], "big") & ~(0x1F << 8)
            first |= (hop_ml(self.instruction_mask) & 0x1F) << 8
            pkt = first.to_bytes(4, "big") + pkt[4:]
        return pkt + pay

    def guess_payload_class(self, payload: bytes):
        udp = self.firstlayer().getlayer(UDP)
        if udp is not None and udp.dport == UDP_PORT_UEC:
            return UecPds
        return Raw


def report_md_words(rep_md_bits: int) -> int:
    """Words of baseline metadata a RepMdBits value announces (reserved bits aside)."""
    baseline = hop_ml(rep_md_bits & ~REPORT_MD_RESERVED)
    return baseline + (1 if rep_md_bits & REPORT_MD_DROP_REASON else 0)


def hop_ml(instructions: int) -> int:
    """Words each hop pushes for an instruction bitmap (bits the fabric supplies or
    fills with all ones: 0-8)."""
    return sum(words for bit, _name, words in INT_METADATA_FIELDS if instructions & bit)


@dataclass(frozen=True)
class IntHop:
    """One hop's metadata, decoded; absent fields are None."""

    node_id: int | None = None
    ingress_port: int | None = None
    egress_port: int | None = None
    hop_latency: int | None = None
    queue_id: int | None = None
    queue_occupancy: int | None = None
    ingress_ts: int | None = None
    egress_ts: int | None = None
    l2_ports: int | None = None
    tx_util: int | None = None
    buffer: int | None = None


def int_hop_words(instructions: int, hop: IntHop) -> list[int]:
    """The words one hop pushes for ``instructions``, in wire order; a value the hop
    lacks is all ones (as the INT spec requires)."""
    words: list[int] = []
    for bit, name, count in INT_METADATA_FIELDS:
        if not instructions & bit:
            continue
        if name == "l1_ports":
            words.append(_ports_word(hop.ingress_port, hop.egress_port))
        elif name == "queue":
            words.append(_queue_word(hop.queue_id, hop.queue_occupancy))
        else:
            value = getattr(hop, name)
            full = (1 << (32 * count)) - 1
            value = full if value is None else value
            words.extend((value >> (32 * i)) & 0xFFFFFFFF for i in reversed(range(count)))
    return words


def _ports_word(ingress: int | None, egress: int | None) -> int:
    if ingress is None or egress is None:
        return INT_UNAVAILABLE
    return (ingress & 0xFFFF) << 16 | (egress & 0xFFFF)


def _queue_word(queue_id: int | None, occupancy: int | None) -> int:
    if queue_id is None or occupancy is None:
        return INT_UNAVAILABLE
    return (queue_id & 0xFF) << 24 | (occupancy & 0xFFFFFF)


def split_int_stack(words: Sequence[int], instructions: int) -> list[IntHop]:
    """Decodes a metadata stack (newest hop first) into hops, newest first."""
    per_hop = hop_ml(instructions)
    if per_hop == 0:
        return []
    if len(words) % per_hop:
        raise ValueError(f"INT stack of {len(words)} words is not a whole number of "
                         f"{per_hop}-word hops for instruction bitmap {instructions:#06x}")
    return [_decode_hop(words[i:i + per_hop], instructions)
            for i in range(0, len(words), per_hop)]


def _decode_hop(words: Sequence[int], instructions: int) -> IntHop:
    values: dict[str, int] = {}
    pos = 0
    for bit, name, count in INT_METADATA_FIELDS:
        if not instructions & bit:
            continue
        chunk = words[pos:pos + count]
        pos += count
        value = 0
        for word in chunk:
            value = value << 32 | word
        if name == "l1_ports":
            values["ingress_port"], values["egress_port"] = value >> 16, value & 0xFFFF
        elif name == "queue":
            values["queue_id"], values["queue_occupancy"] = value >> 24, value & 0xFFFFFF
        else:
            values[name] = value
    return IntHop(**values)


def decode_int(packet: Packet, int_dscps: Iterable[int] = (DSCP_INT,)) -> Packet:
    """Re-dissects the L4 payload of a packet whose DSCP signals INT as IntShim/IntMD
    (scapy alone cannot tell, since INT is signalled by DSCP); other packets are
    returned unchanged."""
    ip = packet.getlayer(IP)
    if ip is None or (ip.tos >> 2) not in set(int_dscps):
        return packet
    l4 = packet.getlayer(UDP) or packet.getlayer(TCP)
    if l4 is None or isinstance(l4.payload, IntShim):
        return packet
    data = bytes(l4.payload)
    copy = packet.copy()
    copy_l4 = copy.getlayer(type(l4))
    assert copy_l4 is not None  # a copy has the layers of the original
    copy_l4.remove_payload()
    copy_l4.add_payload(IntShim(data, _underlayer=copy_l4))
    return copy


# ---------------------------------------------------------------- Telemetry Report v2.0
class ReportGroup(Packet):
    """Report group header: which node sent the report, with a sequence number."""

    name = "Telemetry report group"
    fields_desc = [
        BitField("ver", REPORT_VERSION, 4),
        BitField("hw_id", 0, 6),
        BitField("seq_no", 0, 22),
        IntField("node_id", 0),
    ]


class ReportIndividual(Packet):
    """Individual report header; lengths in 4-byte words, the first word excluded."""

    name = "Telemetry individual report"
    fields_desc = [
        BitField("rep_type", REPORT_TYPE_INT, 4),
        BitField("in_type", REPORT_INNER_ETHERNET, 4),
        ByteField("report_length", None),
        ByteField("md_length", None),
        BitField("d", 0, 1),
        BitField("q", 0, 1),
        BitField("f", 0, 1),
        BitField("i", 0, 1),
        BitField("rsvd", 0, 4),
    ]

    def post_build(self, pkt: bytes, pay: bytes) -> bytes:
        if self.md_length is None:
            metadata = self.payload.metadata if isinstance(self.payload, IntReport) else []
            pkt = pkt[:2] + bytes([len(metadata)]) + pkt[3:]
        if self.report_length is None:
            pkt = pkt[:1] + bytes([(len(pay) + 3) // 4]) + pkt[2:]
        return pkt + pay

    def guess_payload_class(self, payload: bytes):
        return IntReport if self.rep_type == REPORT_TYPE_INT else _inner_class(self.in_type)


def _inner_class(in_type: int):
    return {REPORT_INNER_ETHERNET: Ether, REPORT_INNER_IPV4: IP}.get(in_type, Raw)


def _report_md_bytes(pkt: Packet) -> int:
    ind = pkt.underlayer
    if isinstance(ind, ReportIndividual) and ind.md_length is not None:
        return ind.md_length * 4
    return 0


class IntReport(Packet):
    """INT report main contents: RepMdBits, domain fields, the reporting node's own
    metadata (``metadata``, MD Length words), then the inner packet."""

    name = "INT report"
    fields_desc = [
        XShortField("rep_md_bits", 0),
        ShortField("domain_id", 0),
        XShortField("ds_md_bits", 0),
        XShortField("ds_md_status", 0),
        _words_field("metadata", _report_md_bytes),
    ]

    def guess_payload_class(self, payload: bytes):
        ind = self.underlayer
        return _inner_class(ind.in_type) if isinstance(ind, ReportIndividual) else Raw


# ---------------------------------------------------------------- UEC PDS
class UecPds(Packet):
    """PDS prologue alone, for the types without a layer of their own; also the class
    bound to UDP 4793, which dispatches on the type to the specific layer."""

    name = "UEC PDS"
    fields_desc = [
        BitField("pds_type", 0, 5),
        BitField("next_hdr", 0, 4),
        BitField("flags", 0, 7),
    ]

    @classmethod
    def dispatch_hook(cls, _pkt: bytes | None = None, *args, **kargs):
        if _pkt and len(_pkt) >= 1:
            return _PDS_CLASSES.get(_pkt[0] >> 3, cls)
        return cls

    def mysummary(self) -> str:
        return f"PDS {_PDS_TYPE_NAMES.get(self.pds_type, self.pds_type)}"


class UecRequest(UecPds):
    """RUD/ROD request (12 B)."""

    name = "UEC PDS request"
    fields_desc = [
        BitField("pds_type", PDS_RUD_REQ, 5),
        BitField("next_hdr", 0, 4),
        BitField("rsvd1", 0, 2),
        BitField("retrans", 0, 1),
        BitField("ackreq", 0, 1),
        BitField("syn", 0, 1),
        BitField("rsvd2", 0, 2),
        ShortField("clear_psn_offset", 0),
        IntField("psn", 0),
        ShortField("spdcid", 0),
        ShortField("dpdcid", 0),
    ]


class UecRequestCC(UecRequest):
    """RUD_CC/ROD_CC request: a request plus congestion-control state (16 B)."""

    name = "UEC PDS request with CC"
    fields_desc = [
        BitField("pds_type", PDS_RUD_CC_REQ, 5),
        *UecRequest.fields_desc[1:],
        ByteField("ccc_id", 0),
        BitField("credit_target", 0, 24),
    ]


_ACK_FIELDS = [
    BitField("pds_type", PDS_ACK, 5),
    BitField("next_hdr", 0, 4),
    BitField("rsvd1", 0, 1),
    BitField("ecn_marked", 0, 1),
    BitField("retrans", 0, 1),
    BitField("probe", 0, 1),
    BitField("request", 0, 2),
    BitField("rsvd2", 0, 1),
    ShortField("ack_psn_offset", 0),
    IntField("cack_psn", 0),
    ShortField("spdcid", 0),
    ShortField("dpdcid", 0),
]


class UecAck(UecPds):
    """ACK (12 B)."""

    name = "UEC PDS ACK"
    fields_desc = list(_ACK_FIELDS)


def _is_nscc(pkt: Packet) -> bool:
    return pkt.cc_type == CC_TYPE_NSCC


def _is_credit(pkt: Packet) -> bool:
    return pkt.cc_type == CC_TYPE_CREDIT


class UecAckCC(UecPds):
    """ACK_CC (32 B): an ACK with a 64-bit SACK bitmap and NSCC or credit state."""

    name = "UEC PDS ACK_CC"
    fields_desc = [
        BitField("pds_type", PDS_ACK_CC, 5),
        *_ACK_FIELDS[1:],
        BitField("cc_type", CC_TYPE_NSCC, 4),
        BitField("cc_flags", 0, 4),
        ByteField("mpr", 0),
        ShortField("sack_psn_offset", 0),
        XBitField("sack_bitmap", 0, 64),
        ConditionalField(ShortField("service_time", 0), _is_nscc),
        ConditionalField(BitField("restore_cwnd", 0, 1), _is_nscc),
        ConditionalField(BitField("rcv_cwnd_pend", 0, 7), _is_nscc),
        ConditionalField(BitField("rcvd_bytes", 0, 24), _is_nscc),
        ConditionalField(BitField("credit", 0, 24), _is_credit),
        ConditionalField(ByteField("credit_rsvd1", 0), _is_credit),
        ConditionalField(ShortField("credit_rsvd2", 0), _is_credit),
        ShortField("ooo_count", 0),
    ]


class UecNack(UecPds):
    """NACK (16 B); ``nack_code`` says why (1 = the packet was trimmed)."""

    name = "UEC PDS NACK"
    fields_desc = [
        BitField("pds_type", PDS_NACK, 5),
        BitField("next_hdr", 0, 4),
        BitField("rsvd1", 0, 1),
        BitField("ecn_marked", 0, 1),
        BitField("retrans", 0, 1),
        BitField("nack_type", 0, 1),
        BitField("rsvd2", 0, 3),
        ByteField("nack_code", NACK_TRIMMED),
        ByteField("vendor_code", 0),
        IntField("nack_psn", 0),
        ShortField("spdcid", 0),
        ShortField("dpdcid", 0),
        XIntField("nack_payload", 0),  # not "payload": that name is scapy's own
    ]


class UecControl(UecPds):
    """CONTROL packet (16 B). For CREDIT and CREDIT_REQUEST the 32-bit payload is a
    ``marked`` flag (set by a switch that reduced the credit), 7 reserved bits and a
    24-bit ``credit`` amount (the project's convention; see p4src/README.md)."""

    name = "UEC PDS CONTROL"
    fields_desc = [
        BitField("pds_type", PDS_CONTROL, 5),
        BitField("ctl_type", CTL_CREDIT, 4),
        BitField("rsvd1", 0, 1),
        BitField("isrod", 0, 1),
        BitField("retrans", 0, 1),
        BitField("ackreq", 0, 1),
        BitField("syn", 0, 1),
        BitField("rsvd2", 0, 2),
        ShortField("probe_opaque", 0),
        IntField("psn", 0),
        ShortField("spdcid", 0),
        ShortField("dpdcid", 0),
        BitField("marked", 0, 1),
        BitField("credit_rsvd", 0, 7),
        BitField("credit", 0, 24),
    ]

    def mysummary(self) -> str:
        return f"PDS CONTROL {_CTL_NAMES.get(self.ctl_type, self.ctl_type)}"


_PDS_CLASSES: dict[int, type[UecPds]] = {
    PDS_RUD_REQ: UecRequest,
    PDS_ROD_REQ: UecRequest,
    PDS_RUD_CC_REQ: UecRequestCC,
    PDS_ROD_CC_REQ: UecRequestCC,
    PDS_ACK: UecAck,
    PDS_ACK_CC: UecAckCC,
    PDS_NACK: UecNack,
    PDS_CONTROL: UecControl,
}

# ---------------------------------------------------------------- bindings
bind_layers(UDP, UecPds, dport=UDP_PORT_UEC)
bind_layers(UDP, ReportGroup, dport=REPORT_UDP_PORT)
bind_layers(ReportGroup, ReportIndividual)
bind_layers(IntShim, IntMD)

