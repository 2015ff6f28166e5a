"""The fast decoder: the same reports and errors as the scapy decoder, about twenty
times faster. Both check the datagram with conformance.py first.

Header layouts come from the layers' ``fields_desc`` (see layout.py) and per-hop
metadata layouts from ``INT_METADATA_FIELDS``, both computed once at import into
immutable tables. The inner packet's 5-tuple is read directly for the usual case
(Ethernet or bare IPv4 without options, unfragmented, a whole UDP or option-less TCP
header); anything else is handed to scapy so the result always equals a full
dissection.
"""
from __future__ import annotations

import itertools
import socket
import struct
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from operator import itemgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Callable, Collection, Mapping, TypeVar

from control.collector.conformance import IndividualReport, check_datagram
from wire_formats.layout import HeaderLayout
from control.collector.report import DEFAULT_INT_DSCPS, FlowKey, TelemetryReport
from control.collector.scapy_decode import flow_of_inner_bytes
from wire_formats.layers import ETHERTYPE_IPV4 as _ETHERTYPE_IPV4
from wire_formats.layers import IP_PROTO_TCP as _PROTO_TCP
from wire_formats.layers import IP_PROTO_UDP as _PROTO_UDP
from wire_formats.layers import (INT_METADATA_FIELDS, REPORT_INNER_ETHERNET, REPORT_INNER_IPV4,
                            REPORT_MD_RESERVED, REPORT_TYPE_INT, IntHop, IntReport, ReportGroup,
                            ReportIndividual, hop_ml)

GROUP = HeaderLayout.of(ReportGroup)
INDIVIDUAL = HeaderLayout.of(ReportIndividual)
INT_REPORT = HeaderLayout.of(IntReport)
(_HW_SHIFT, _HW_MASK), (_SEQ_SHIFT, _SEQ_MASK), (_NODE_SHIFT, _NODE_MASK) = (
    GROUP.field(name) for name in ("hw_id", "seq_no", "node_id"))
(_D_SHIFT, _D_MASK), (_Q_SHIFT, _Q_MASK) = (INDIVIDUAL.field(name) for name in ("d", "q"))
(_BITS_SHIFT, _BITS_MASK), (_DOMAIN_SHIFT, _DOMAIN_MASK) = (
    INT_REPORT.field(name) for name in ("rep_md_bits", "domain_id"))

# Metadata words that hold more than one IntHop field: (field, shift, mask) within the word.
_SPLIT_WORDS: Mapping[str, tuple[tuple[str, int, int], ...]] = MappingProxyType({
    "l1_ports": (("ingress_port", 16, 0xFFFF), ("egress_port", 0, 0xFFFF)),
    "queue": (("queue_id", 24, 0xFF), ("queue_occupancy", 0, 0xFFFFFF)),
})
_HOP_FIELDS = tuple(f.name for f in dataclass_fields(IntHop))


if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_Record = TypeVar("_Record", bound="DataclassInstance")


def record_builder(cls: type[_Record]) -> Callable[..., _Record]:
    """Positional constructor of a frozen dataclass that fills ``__dict__`` in one step,
    as ``copy.copy`` does, instead of the generated ``__init__``'s one
    ``object.__setattr__`` per field: half the cost of a hop. Falls back to the class
    itself when that would skip behaviour (slots, ``__post_init__``)."""
    names = tuple(f.name for f in dataclass_fields(cls))
    if "__slots__" in vars(cls) or hasattr(cls, "__post_init__"):
        return cls
    new, zipped = object.__new__, zip

    def build(*values: object) -> _Record:
        if len(values) != len(names):
            return cls(*values)  # the class's own error for a wrong argument count
        record: _Record = new(cls)
        record.__dict__.update(zipped(names, values))
        return record
    return build


_new_hop = record_builder(IntHop)
_new_report = record_builder(TelemetryReport)
_WORD_CODES = {1: "I", 2: "Q"}


@dataclass(frozen=True)
class HopPlan:
    """How to read one hop's words for one instruction bitmap: a struct record of the
    metadata (two-word values as one 64-bit integer), the values split out of shared
    words (appended after a None), and which of them IntHop takes, in its field order."""

    words: int
    record: struct.Struct | None
    splits: tuple[tuple[int, int, int], ...]  # (record index, shift, mask)
    pick: Callable[[tuple], tuple]


def _hop_plan(instructions: int) -> HopPlan:
    codes: list[str] = []
    sources: dict[str, int] = {}
    splits: list[tuple[int, int, int]] = []
    for bit, name, count in INT_METADATA_FIELDS:
        if not instructions & bit:
            continue
        if count not in _WORD_CODES:
            raise ValueError(f"INT metadata {name!r} of {count} words: the fast decoder reads "
                             f"1 or 2")
        index = len(codes)
        codes.append(_WORD_CODES[count])
        for target, shift, mask in _SPLIT_WORDS.get(name, ((name, None, None),)):
            if target not in _HOP_FIELDS:
                raise ValueError(f"INT metadata {name!r} maps to {target!r}, not an IntHop field")
            if shift is None:
                sources[target] = index
            else:
                assert mask is not None  # _SPLIT_WORDS gives a shift and a mask together
                splits.append((index, shift, mask))
                sources[target] = -len(splits)  # resolved below, once the record length is known
    absent = len(codes)
    positions = [absent if f not in sources else
                 sources[f] if sources[f] >= 0 else absent - sources[f] for f in _HOP_FIELDS]
    words = sum(2 if code == "Q" else 1 for code in codes)
    if words != hop_ml(instructions):
        raise ValueError(f"hop plan of {words} words disagrees with hop_ml for {instructions:#06x}")
    return HopPlan(words=words, record=struct.Struct(">" + "".join(codes)) if codes else None,
                   splits=tuple(splits), pick=itemgetter(*positions))


_METADATA_BITS = tuple(bit for bit, _name, _words in INT_METADATA_FIELDS)
_METADATA_MASK = sum(_METADATA_BITS)
_MAIN_MASK = _METADATA_MASK & ~REPORT_MD_RESERVED  # RepMdBits of the reporting node's hop
_HOP_PLANS: Mapping[int, HopPlan] = MappingProxyType({
    sum(chosen): _hop_plan(sum(chosen))
    for size in range(len(_METADATA_BITS) + 1)
    for chosen in itertools.combinations(_METADATA_BITS, size)})


def decode_reports_fast(data: bytes, int_dscps: Collection[int] = DEFAULT_INT_DSCPS
                        ) -> list[TelemetryReport]:
    """Every individual report of one UDP payload; MalformedReport (a ReportDecodeError)
    on any breach of the specification."""
    reports = []
    group = int.from_bytes(data[:GROUP.size], "big") if len(data) >= GROUP.size else 0
    for span in check_datagram(data, int_dscps):
        reports.append(_decode_individual(data, group, span))
    return reports


def decode_report_fast(data: bytes, int_dscps: Collection[int] = DEFAULT_INT_DSCPS
                       ) -> TelemetryReport:
    """The first individual report of one UDP payload (all of it is checked)."""
    return decode_reports_fast(data, int_dscps)[0]


def _decode_individual(data: bytes, group: int, span: IndividualReport) -> TelemetryReport:
    node_id = (group >> _NODE_SHIFT) & _NODE_MASK
    individual = int.from_bytes(data[span.at:span.at + INDIVIDUAL.size], "big")
    domain_id = instructions = 0
    hops: list[IntHop] = []
    if span.rep_type == REPORT_TYPE_INT:
        body_at = span.at + INDIVIDUAL.size
        body = int.from_bytes(data[body_at:body_at + INT_REPORT.size], "big")
        instructions = (body >> _BITS_SHIFT) & _BITS_MASK
        domain_id = (body >> _DOMAIN_SHIFT) & _DOMAIN_MASK
        plan = _HOP_PLANS[instructions & _MAIN_MASK]
        if plan.record is not None:  # the reporting node's own metadata
            own = _read_hops(data, body_at + INT_REPORT.size, plan.words, plan)[0]
            hops.append(_new_hop(node_id, *[getattr(own, f) for f in _HOP_FIELDS[1:]]))
    embedded = span.embedded
    if embedded is not None:
        instructions = embedded.instructions
        plan = _HOP_PLANS[instructions & _METADATA_MASK]
        if plan.record is not None and plan.words == embedded.hop_ml:
            whole = embedded.words - embedded.words % plan.words
            hops.extend(_read_hops(data, embedded.stack_at, whole, plan))
    inner = data if span.end == len(data) else data[:span.end]
    return _new_report(  # TelemetryReport's fields, in order
        node_id, (group >> _HW_SHIFT) & _HW_MASK, (group >> _SEQ_SHIFT) & _SEQ_MASK, domain_id,
        instructions, bool((individual >> _D_SHIFT) & _D_MASK),
        bool((individual >> _Q_SHIFT) & _Q_MASK), tuple(hops),
        _flow(span.in_type, inner, span.inner_at))


def _read_hops(data: bytes, at: int, words: int, plan: HopPlan) -> list[IntHop]:
    assert plan.record is not None
    stack = memoryview(data)[at:at + words * 4]
    splits, pick = plan.splits, plan.pick
    return [_new_hop(*pick(record + (None, *[(record[i] >> shift) & mask
                                             for i, shift, mask in splits])))
            for record in plan.record.iter_unpack(stack)]


_ETHER_BYTES = 14
_IPV4_BYTES = 20
_L4_HEADER_BYTES = {_PROTO_UDP: 8, _PROTO_TCP: 20}


def _flow(in_type: int, data: bytes, offset: int) -> FlowKey | None:
    if in_type == REPORT_INNER_ETHERNET:
        if len(data) - offset < _ETHER_BYTES or data[offset + 12:offset + 14] != b"\x08\x00":
            return flow_of_inner_bytes(in_type, data[offset:])
        ip_at = offset + _ETHER_BYTES
    elif in_type == REPORT_INNER_IPV4:
        ip_at = offset
    else:
        return None  # the inner packet is opaque bytes
    flow = _ipv4_flow(data, ip_at)
    return flow if flow is not None else flow_of_inner_bytes(in_type, data[offset:])


def _ipv4_flow(data: bytes, at: int) -> FlowKey | None:
    """The 5-tuple of the plain case, or None to let scapy decide."""
    if len(data) - at < _IPV4_BYTES:
        return None
    ihl = data[at] & 0x0F
    total_length, frag_word = struct.unpack_from(">H2xH", data, at + 2)
    proto = data[at + 9]
    if ihl != 5 or frag_word & 0x1FFF or proto not in _L4_HEADER_BYTES:
        return None
    l4_at = at + _IPV4_BYTES
    l4_end = len(data)
    if total_length >= _IPV4_BYTES:  # scapy cuts the payload at the IP total length
        l4_end = min(l4_end, at + total_length)
    if l4_end - l4_at < _L4_HEADER_BYTES[proto]:
        return None
    if proto == _PROTO_TCP and data[l4_at + 12] >> 4 != 5:
        return None  # TCP options: scapy's option parser decides
    sport, dport = struct.unpack_from(">HH", data, l4_at)
    return FlowKey(socket.inet_ntoa(data[at + 12:at + 16]), socket.inet_ntoa(data[at + 16:at + 20]),
                   proto, sport, dport)


__all__ = ["GROUP", "INDIVIDUAL", "INT_REPORT", "decode_report_fast", "decode_reports_fast"]
