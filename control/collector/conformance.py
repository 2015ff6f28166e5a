"""Is a datagram a Telemetry Report v2.0 the collector may trust? Checked before any
decoding, byte by byte, by both decoders, so that they refuse the same reports for the
same reason.

A report that breaks the specification is refused with a ``MalformedReport`` whose
``reason`` names the class of fault (see ``REASONS``), so the receiver can count each
class: a sender that, say, overstates Report Length shows up as one growing counter.
What the specification says receivers ignore (reserved bits of the individual report
header, MD Length of an Inner Only report) is ignored here too.

The embedded INT-MD packet (the stacked metadata of INT-MD reports travels in the
truncated inner packet) is found by the DSCP the fabric marks INT with, as switches do.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Collection

from control.collector.report import ReportDecodeError
from wire_formats.layers import ETHERTYPE_IPV4 as _ETHERTYPE_IPV4
from wire_formats.layers import ETHERTYPE_VLAN as _ETHERTYPE_VLAN
from wire_formats.layers import REPORT_INT_MAIN_BYTES as INT_MAIN_BYTES
from wire_formats.layers import (INT_MD_HEADER_WORDS, INT_TYPE_MD, INT_VERSION, IP_PROTO_TCP,
                            IP_PROTO_UDP, REPORT_INNER_DS_EXTENSION, REPORT_INNER_ETHERNET,
                            REPORT_INNER_IPV4, REPORT_INNER_IPV6, REPORT_INNER_NONE,
                            REPORT_INNER_TLV, REPORT_MD_DROP_REASON, REPORT_MD_RESERVED,
                            REPORT_TYPE_INNER_ONLY, REPORT_TYPE_INT, REPORT_VERSION, hop_ml)

GROUP_BYTES = 8
INDIVIDUAL_BYTES = 4

REASONS = {
    "truncated": "shorter than a group header and one individual report header",
    "version": "group header version is not 2",
    "rep_type": "RepType reserved, or IOAM (no main contents format in v2.0)",
    "in_type": "InType reserved (6-15)",
    "report_length": "Report Length disagrees with the bytes present",
    "rep_md_bits": "RepMdBits sets reserved bits (0, 9-14)",
    "md_length": "MD Length disagrees with RepMdBits/DSMdBits or exceeds the report",
    "ds_md_bits": "DSMdBits set with the default Domain Specific ID 0",
    "inner": "inner contents too short for, or not of, their InType",
    "int_stack": "embedded INT-MD header or stack inconsistent",
}

_KNOWN_IN_TYPES = (REPORT_INNER_NONE, REPORT_INNER_TLV, REPORT_INNER_DS_EXTENSION,
                   REPORT_INNER_ETHERNET, REPORT_INNER_IPV4, REPORT_INNER_IPV6)
# Words per hop by the bitmap's bits 0-8 (the only ones with metadata), looked up
# rather than summed: the check runs on every report.
_HOP_ML = tuple(hop_ml(top << 7) for top in range(512))
_L4_BYTES = {IP_PROTO_UDP: 8, IP_PROTO_TCP: 20}
_SHIM_BYTES, _MD_BYTES = 4, 12


class MalformedReport(ReportDecodeError):
    """A datagram refused as a Telemetry Report v2.0; ``reason`` is a key of REASONS."""

    def __init__(self, reason: str, detail: str) -> None:
        assert reason in REASONS, reason
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


@dataclass(frozen=True)
class EmbeddedInt:
    """The INT-MD header found in an inner packet, and its stack words present."""

    instructions: int
    hop_ml: int
    stack_at: int  # offset of the first stack word in the datagram
    words: int  # stack words present (a truncated inner packet may cut the stack)


@dataclass(frozen=True)
class IndividualReport:
    """Where one individual report lies in its datagram, checked."""

    at: int  # offset of its header
    end: int
    rep_type: int
    in_type: int
    md_words: int
    inner_at: int  # offset of the inner contents
    embedded: EmbeddedInt | None


def check_datagram(data: bytes, int_dscps: Collection[int]) -> list[IndividualReport]:
    """Every individual report of ``data`` (a UDP payload), or MalformedReport."""
    if len(data) < GROUP_BYTES + INDIVIDUAL_BYTES:
        raise MalformedReport("truncated", f"{len(data)} bytes, a report needs at least "
                              f"{GROUP_BYTES + INDIVIDUAL_BYTES}")
    version = data[0] >> 4
    if version != REPORT_VERSION:
        raise MalformedReport("version", f"report group version {version}, expected {REPORT_VERSION}")
    reports: list[IndividualReport] = []
    at = GROUP_BYTES
    while at < len(data):
        report = _check_individual(data, at, len(reports), int_dscps)
        reports.append(report)
        at = report.end
    return reports


def _check_individual(data: bytes, at: int, index: int,
                      int_dscps: Collection[int]) -> IndividualReport:
    where = f"individual report {index} at byte {at}"
    if len(data) - at < INDIVIDUAL_BYTES:
        raise MalformedReport("report_length", f"{len(data) - at} trailing bytes at byte {at}, "
                              f"less than an individual report header")
    rep_type, in_type = data[at] >> 4, data[at] & 0x0F
    report_words, md_words = data[at + 1], data[at + 2]
    end = at + INDIVIDUAL_BYTES + 4 * report_words
    if rep_type not in (REPORT_TYPE_INNER_ONLY, REPORT_TYPE_INT):
        raise MalformedReport("rep_type", f"{where}: RepType {rep_type} "
                              f"({'IOAM' if rep_type == 2 else 'reserved'})")
    if in_type not in _KNOWN_IN_TYPES:
        raise MalformedReport("in_type", f"{where}: InType {in_type} is reserved")
    if end > len(data):
        raise MalformedReport("report_length", f"{where}: Report Length {report_words} words "
                              f"says {end - at} bytes, {len(data) - at} present")
    inner_at = at + INDIVIDUAL_BYTES
    if rep_type == REPORT_TYPE_INT:
        inner_at = _check_int_main(data, at, end, md_words, where)
    else:
        md_words = 0  # "ignored upon reception" for Inner Only
    _check_inner(data, in_type, inner_at, end, where)
    embedded = _embedded_int(data, in_type, inner_at, end, int_dscps, where)
    return IndividualReport(at, end, rep_type, in_type, md_words, inner_at, embedded)


def _check_int_main(data: bytes, at: int, end: int, md_words: int, where: str) -> int:
    main = at + INDIVIDUAL_BYTES
    if end - main < INT_MAIN_BYTES:
        raise MalformedReport("report_length", f"{where}: Report Length {(end - main) // 4} words "
                              f"cannot hold the INT main contents (2 words)")
    rep_md_bits, domain_id, ds_md_bits, _status = struct.unpack_from(">HHHH", data, main)
    if rep_md_bits & REPORT_MD_RESERVED:
        raise MalformedReport("rep_md_bits", f"{where}: RepMdBits {rep_md_bits:#06x} sets reserved "
                              f"bits {rep_md_bits & REPORT_MD_RESERVED:#06x}")
    if domain_id == 0 and ds_md_bits:
        raise MalformedReport("ds_md_bits", f"{where}: DSMdBits {ds_md_bits:#06x} with Domain "
                              f"Specific ID 0, whose DSMdBits are all reserved")
    baseline = _HOP_ML[(rep_md_bits & ~REPORT_MD_RESERVED) >> 7] + (rep_md_bits & REPORT_MD_DROP_REASON)
    ds_least = bin(ds_md_bits).count("1")
    if (md_words != baseline) if not ds_md_bits else (md_words < baseline + ds_least):
        expected = f"{baseline}" if not ds_md_bits else f"at least {baseline + ds_least}"
        raise MalformedReport("md_length", f"{where}: MD Length {md_words} words, RepMdBits "
                              f"{rep_md_bits:#06x} and DSMdBits {ds_md_bits:#06x} give {expected}")
    inner_at = main + INT_MAIN_BYTES + 4 * md_words
    if inner_at > end:
        raise MalformedReport("md_length", f"{where}: MD Length {md_words} words runs past "
                              f"Report Length {(end - main) // 4}")
    return inner_at


def _check_inner(data: bytes, in_type: int, at: int, end: int, where: str) -> None:
    size = end - at
    if in_type == REPORT_INNER_NONE and size:
        raise MalformedReport("inner", f"{where}: InType None with {size} inner bytes")
    if in_type == REPORT_INNER_ETHERNET and size < 14:
        raise MalformedReport("inner", f"{where}: an Ethernet inner packet of {size} bytes")
    if in_type == REPORT_INNER_IPV4 and (size < 20 or data[at] >> 4 != 4):
        raise MalformedReport("inner", f"{where}: not an IPv4 inner packet ({size} bytes)")
    if in_type == REPORT_INNER_IPV6 and (size < 40 or data[at] >> 4 != 6):
        raise MalformedReport("inner", f"{where}: not an IPv6 inner packet ({size} bytes)")


def _embedded_int(data: bytes, in_type: int, at: int, end: int, int_dscps: Collection[int],
                  where: str) -> EmbeddedInt | None:
    """The INT-MD header of an inner IPv4 TCP/UDP packet marked with an INT DSCP."""
    if in_type == REPORT_INNER_ETHERNET:
        ether_type = int.from_bytes(data[at + 12:at + 14], "big")
        at += 14
        if ether_type == _ETHERTYPE_VLAN and end - at >= 4:
            ether_type = int.from_bytes(data[at + 2:at + 4], "big")
            at += 4
        if ether_type != _ETHERTYPE_IPV4:
            return None
    elif in_type != REPORT_INNER_IPV4:
        return None
    if end - at < 20 or data[at] != 0x45 or (data[at + 1] >> 2) not in int_dscps:
        return None
    if int.from_bytes(data[at + 6:at + 8], "big") & 0x1FFF or data[at + 9] not in _L4_BYTES:
        return None
    l4_at = at + 20
    proto = data[at + 9]
    if proto == 6 and end - l4_at >= 13 and data[l4_at + 12] >> 4 != 5:
        return None  # INT follows only an option-less TCP header
    shim_at = l4_at + _L4_BYTES[proto]
    if end - shim_at < _SHIM_BYTES or data[shim_at] >> 4 != INT_TYPE_MD:
        return None  # cut before the shim, or the DSCP means something else here
    shim_words = data[shim_at + 1]
    if shim_words < INT_MD_HEADER_WORDS:
        raise MalformedReport("int_stack", f"{where}: INT shim length {shim_words} words, less "
                              f"than the INT-MD header's {INT_MD_HEADER_WORDS}")
    md_at = shim_at + _SHIM_BYTES
    if end - md_at < _MD_BYTES:
        return None  # the truncated packet ends inside the INT-MD header
    ver, per_hop = data[md_at] >> 4, data[md_at + 2] & 0x1F
    instructions = int.from_bytes(data[md_at + 4:md_at + 6], "big")
    if ver != INT_VERSION:
        raise MalformedReport("int_stack", f"{where}: INT-MD version {ver}, expected {INT_VERSION}")
    if per_hop != _HOP_ML[instructions >> 7]:
        raise MalformedReport("int_stack", f"{where}: Hop ML {per_hop} words, instruction bitmap "
                              f"{instructions:#06x} gives {hop_ml(instructions)}")
    declared = shim_words - INT_MD_HEADER_WORDS
    if per_hop and declared % per_hop:
        raise MalformedReport("int_stack", f"{where}: INT stack of {declared} words is not a "
                              f"whole number of {per_hop}-word hops")
    stack_at = md_at + _MD_BYTES
    present = min(declared, (end - stack_at) // 4)
    return EmbeddedInt(instructions, per_hop, stack_at, present)


__all__ = ["EmbeddedInt", "GROUP_BYTES", "INDIVIDUAL_BYTES", "INT_MAIN_BYTES", "IndividualReport",
           "MalformedReport", "REASONS", "check_datagram"]
