"""The fast decoder: the same reports and errors as the scapy decoder, about twenty
times faster.

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
from typing import TYPE_CHECKING, Callable, Mapping, TypeVar

from control.collector.layout import HeaderLayout
from control.collector.report import FlowKey, ReportDecodeError, TelemetryReport
from control.collector.scapy_decode import flow_of_inner_bytes
from control.layers import (INT_METADATA_FIELDS, REPORT_INNER_ETHERNET, REPORT_INNER_IPV4,
                            REPORT_TYPE_INT, REPORT_VERSION, IntHop, IntReport, ReportGroup,
                            ReportIndividual, hop_ml)

GROUP = HeaderLayout.of(ReportGroup)
INDIVIDUAL = HeaderLayout.of(ReportIndividual)
INT_REPORT = HeaderLayout.of(IntReport)
MIN_REPORT_BYTES = GROUP.size + INDIVIDUAL.size + INT_REPORT.size
_BODY_AT = GROUP.size + INDIVIDUAL.size
_STACK_AT = _BODY_AT + INT_REPORT.size

(_VER_SHIFT, _VER_MASK), (_HW_SHIFT, _HW_MASK), (_SEQ_SHIFT, _SEQ_MASK), (_NODE_SHIFT, _NODE_MASK) = (
    GROUP.field(name) for name in ("ver", "hw_id", "seq_no", "node_id"))
((_TYPE_SHIFT, _TYPE_MASK), (_IN_SHIFT, _IN_MASK), (_LEN_SHIFT, _LEN_MASK), (_MD_SHIFT, _MD_MASK),
 (_D_SHIFT, _D_MASK), (_Q_SHIFT, _Q_MASK)) = (
    INDIVIDUAL.field(name) for name in ("rep_type", "in_type", "report_length", "md_length", "d", "q"))
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
_HOP_PLANS: Mapping[int, HopPlan] = MappingProxyType({
    sum(chosen): _hop_plan(sum(chosen))
    for size in range(len(_METADATA_BITS) + 1)
    for chosen in itertools.combinations(_METADATA_BITS, size)})


def decode_report_fast(data: bytes) -> TelemetryReport:
    """Decode one UDP payload; raises ReportDecodeError on any malformation."""
    if len(data) < MIN_REPORT_BYTES:
        raise ReportDecodeError(f"truncated: {len(data)} bytes, a report needs at least "
                                f"{MIN_REPORT_BYTES}")
    group = int.from_bytes(data[:GROUP.size], "big")
    version = (group >> _VER_SHIFT) & _VER_MASK
    if version != REPORT_VERSION:
        raise ReportDecodeError(f"report group version {version}, expected {REPORT_VERSION}")
    individual = int.from_bytes(data[GROUP.size:_BODY_AT], "big")
    rep_type = (individual >> _TYPE_SHIFT) & _TYPE_MASK
    if rep_type != REPORT_TYPE_INT:
        raise ReportDecodeError(f"RepType {rep_type} is not INT (1)")
    declared = (((individual >> _LEN_SHIFT) & _LEN_MASK) + 1) * 4
    available = len(data) - GROUP.size
    if declared > available + 3:  # the length rounds the inner packet up to whole words
        raise ReportDecodeError(f"report length says {declared} bytes but only {available} arrived")
    md_words = (individual >> _MD_SHIFT) & _MD_MASK
    inner_at = _STACK_AT + md_words * 4
    if inner_at - GROUP.size > available:
        raise ReportDecodeError(f"metadata length {md_words * 4} bytes exceeds the report")
    body = int.from_bytes(data[_BODY_AT:_STACK_AT], "big")
    instructions = (body >> _BITS_SHIFT) & _BITS_MASK
    return _new_report(  # TelemetryReport's fields, in order
        (group >> _NODE_SHIFT) & _NODE_MASK, (group >> _HW_SHIFT) & _HW_MASK,
        (group >> _SEQ_SHIFT) & _SEQ_MASK, (body >> _DOMAIN_SHIFT) & _DOMAIN_MASK,
        instructions, bool((individual >> _D_SHIFT) & _D_MASK),
        bool((individual >> _Q_SHIFT) & _Q_MASK), _hops(data, md_words, instructions),
        _flow((individual >> _IN_SHIFT) & _IN_MASK, data, inner_at))


def _hops(data: bytes, words: int, instructions: int) -> tuple[IntHop, ...]:
    plan = _HOP_PLANS[instructions & _METADATA_MASK]
    if plan.record is None:
        return ()
    if words % plan.words:
        raise ReportDecodeError(f"INT stack of {words} words is not a whole number of "
                                f"{plan.words}-word hops for instruction bitmap {instructions:#06x}")
    stack = memoryview(data)[_STACK_AT:_STACK_AT + words * 4]
    splits, pick = plan.splits, plan.pick
    return tuple([_new_hop(*pick(record + (None, *[(record[i] >> shift) & mask
                                                 for i, shift, mask in splits])))
                  for record in plan.record.iter_unpack(stack)])


_ETHERTYPE_IPV4 = 0x0800
_ETHER_BYTES = 14
_IPV4_BYTES = 20
_PROTO_TCP, _PROTO_UDP = 6, 17
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


__all__ = ["GROUP", "INDIVIDUAL", "INT_REPORT", "MIN_REPORT_BYTES", "decode_report_fast"]
