"""The reference decoder: a full scapy dissection with the project's layers.

Slow (a few thousand reports a second) but obviously right; the fast decoder is checked
against it field by field, and falls back to its inner-packet rules for unusual inner
packets.
"""
from __future__ import annotations

from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Packet, Raw

from control.collector.report import FlowKey, ReportDecodeError, TelemetryReport
from control.layers import (REPORT_INNER_ETHERNET, REPORT_INNER_IPV4, REPORT_TYPE_INT,
                            REPORT_VERSION, IntReport, ReportGroup, ReportIndividual,
                            split_int_stack)

GROUP_BYTES = len(ReportGroup())
INDIVIDUAL_BYTES = len(ReportIndividual(report_length=0, md_length=0))
INT_REPORT_FIXED_BYTES = len(IntReport())
MIN_REPORT_BYTES = GROUP_BYTES + INDIVIDUAL_BYTES + INT_REPORT_FIXED_BYTES


def decode_report_scapy(data: bytes) -> TelemetryReport:
    """Decode one UDP payload; raises ReportDecodeError on any malformation."""
    if len(data) < MIN_REPORT_BYTES:
        raise ReportDecodeError(f"truncated: {len(data)} bytes, a report needs at least "
                                f"{MIN_REPORT_BYTES}")
    group = ReportGroup(data)
    if group.ver != REPORT_VERSION:
        raise ReportDecodeError(f"report group version {group.ver}, expected {REPORT_VERSION}")
    individual = group.getlayer(ReportIndividual)
    if individual is None:
        raise ReportDecodeError("no individual report header")
    if individual.rep_type != REPORT_TYPE_INT:
        raise ReportDecodeError(f"RepType {individual.rep_type} is not INT (1)")
    declared = (individual.report_length + 1) * 4
    available = len(data) - GROUP_BYTES
    if declared > available + 3:  # the length rounds the inner packet up to whole words
        raise ReportDecodeError(f"report length says {declared} bytes but only {available} arrived")
    md_bytes = individual.md_length * 4
    if INDIVIDUAL_BYTES + INT_REPORT_FIXED_BYTES + md_bytes > available:
        raise ReportDecodeError(f"metadata length {md_bytes} bytes exceeds the report")
    body = individual.getlayer(IntReport)
    if body is None:
        raise ReportDecodeError("no INT report contents")
    try:
        hops = split_int_stack(list(body.metadata), body.rep_md_bits)
    except ValueError as exc:
        raise ReportDecodeError(str(exc)) from None
    return TelemetryReport(
        node_id=group.node_id, hw_id=group.hw_id, seq_no=group.seq_no,
        domain_id=body.domain_id, instructions=body.rep_md_bits,
        dropped=bool(individual.d), congested=bool(individual.q),
        hops=tuple(hops), flow=flow_of(body.payload))


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
           "decode_report_scapy", "flow_of", "flow_of_inner_bytes"]
