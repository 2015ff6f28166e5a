"""The reference decoder: a full scapy dissection with the project's layers.

Slow (a few thousand reports a second) but obviously right; the fast decoder is checked
against it field by field, and falls back to its inner-packet rules for unusual inner
packets. Both refuse what conformance.py refuses, with the same reason.
"""
from __future__ import annotations

from typing import Collection

from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Packet, Raw

from control.collector.conformance import IndividualReport, check_datagram
from control.collector.report import DEFAULT_INT_DSCPS, FlowKey, TelemetryReport
from wire_formats.layers import (REPORT_INNER_ETHERNET, REPORT_INNER_IPV4, REPORT_MD_DROP_REASON,
                            REPORT_MD_RESERVED, REPORT_TYPE_INT, IntHop, IntMD, IntReport,
                            ReportGroup, ReportIndividual, decode_int, hop_ml, split_int_stack)

GROUP_BYTES = len(ReportGroup())
INDIVIDUAL_BYTES = len(ReportIndividual(report_length=0, md_length=0))
INT_REPORT_FIXED_BYTES = len(IntReport())
MIN_REPORT_BYTES = GROUP_BYTES + INDIVIDUAL_BYTES


def decode_reports_scapy(data: bytes, int_dscps: Collection[int] = DEFAULT_INT_DSCPS
                         ) -> list[TelemetryReport]:
    """Every individual report of one UDP payload; raises ReportDecodeError on any
    malformation."""
    spans = check_datagram(data, int_dscps)
    group = ReportGroup(data[:GROUP_BYTES])
    return [_decode_individual(data, group, span, int_dscps) for span in spans]


def decode_report_scapy(data: bytes, int_dscps: Collection[int] = DEFAULT_INT_DSCPS
                        ) -> TelemetryReport:
    """The first individual report of one UDP payload (all of it is checked)."""
    return decode_reports_scapy(data, int_dscps)[0]


def _decode_individual(data: bytes, group: Packet, span: IndividualReport,
                       int_dscps: Collection[int]) -> TelemetryReport:
    individual = ReportIndividual(data[span.at:span.end])
    hops: list[IntHop] = []
    domain_id = instructions = 0
    inner: Packet | None = individual.payload
    if span.rep_type == REPORT_TYPE_INT:
        body = individual.getlayer(IntReport)
        assert body is not None  # RepType 1 dissects as INT main contents
        instructions, domain_id = body.rep_md_bits, body.domain_id
        own_bits = body.rep_md_bits & ~REPORT_MD_RESERVED & ~REPORT_MD_DROP_REASON
        if hop_ml(own_bits):
            own = split_int_stack(list(body.metadata)[:hop_ml(own_bits)], own_bits)[0]
            hops.append(IntHop(**{**vars(own), "node_id": group.node_id}))
        inner = body.payload
    if isinstance(inner, Raw) or not inner:
        inner = None
    if span.embedded is not None and inner is not None:
        # Dissected up to the last whole stack word present, as the stack ends there.
        upto = span.embedded.stack_at + 4 * span.embedded.words
        md = decode_int(type(inner)(data[span.inner_at:upto]), int_dscps).getlayer(IntMD)
        per_hop = hop_ml(span.embedded.instructions)
        if md is not None and per_hop == span.embedded.hop_ml and per_hop:
            words = list(md.stack)[:span.embedded.words]
            hops += split_int_stack(words[:len(words) - len(words) % per_hop], md.instruction_mask)
        instructions = span.embedded.instructions
    return TelemetryReport(
        node_id=group.node_id, hw_id=group.hw_id, seq_no=group.seq_no, domain_id=domain_id,
        instructions=instructions, dropped=bool(individual.d), congested=bool(individual.q),
        hops=tuple(hops), flow=flow_of(inner))


def flow_of(inner: Packet | None) -> FlowKey | None:
    """The 5-tuple of a dissected inner packet, when it holds IPv4."""
    ip = inner.getlayer(IP) if inner is not None else None
    if ip is None:
        return None
    l4 = ip.getlayer(UDP) or ip.getlayer(TCP)
    sport, dport = (l4.sport, l4.dport) if l4 is not None else (0, 0)
    return FlowKey(ip.src, ip.dst, ip.proto, sport, dport)


def flow_of_inner_bytes(in_type: int, data: bytes) -> FlowKey | None:
    """As the full dissection would see the inner packet: dissected by the class its
    InType selects, or raw bytes when that dissection fails."""
    if not data:
        return None
    layer = {REPORT_INNER_ETHERNET: Ether, REPORT_INNER_IPV4: IP}.get(in_type, Raw)
    try:
        inner = layer(data)
    except Exception:  # noqa: BLE001 - scapy turns any dissection error into Raw; so do we
        return None
    return flow_of(inner)


__all__ = ["GROUP_BYTES", "INDIVIDUAL_BYTES", "INT_REPORT_FIXED_BYTES", "MIN_REPORT_BYTES",
           "decode_report_scapy", "decode_reports_scapy", "flow_of", "flow_of_inner_bytes"]
