"""Telemetry Report v2.0 bytes to a plain record, with the project's scapy layers.

Everything the fabric's sink sends is decoded here; anything that does not decode
raises ReportDecodeError with the reason, so the receiver can count and log it
without ever stopping.
"""
from __future__ import annotations

from dataclasses import dataclass

from scapy.layers.inet import IP, TCP, UDP

from control.layers import (REPORT_TYPE_INT, REPORT_VERSION, IntHop, IntReport, ReportGroup,
                            ReportIndividual, split_int_stack)

GROUP_BYTES = 8
INDIVIDUAL_BYTES = 4
INT_REPORT_FIXED_BYTES = 8


class ReportDecodeError(ValueError):
    """A datagram that is not a well-formed Telemetry Report v2.0 INT report."""


@dataclass(frozen=True)
class FlowKey:
    src: str
    dst: str
    proto: int
    sport: int
    dport: int

    def __str__(self) -> str:
        return f"{self.src}:{self.sport}->{self.dst}:{self.dport}/{self.proto}"


@dataclass(frozen=True)
class TelemetryReport:
    node_id: int  # the sink that sent it
    hw_id: int
    seq_no: int
    domain_id: int
    instructions: int  # RepMdBits: which metadata each hop carries
    dropped: bool
    congested: bool
    hops: tuple[IntHop, ...]  # newest (the sink) first, as on the wire
    flow: FlowKey | None  # from the inner packet, when it is IPv4 TCP/UDP

    @property
    def path(self) -> tuple[int | None, ...]:
        """Node IDs from the source towards the sink."""
        return tuple(h.node_id for h in reversed(self.hops))


def decode_report(data: bytes) -> TelemetryReport:
    """Decode one UDP payload; raises ReportDecodeError on any malformation."""
    if len(data) < GROUP_BYTES + INDIVIDUAL_BYTES + INT_REPORT_FIXED_BYTES:
        raise ReportDecodeError(f"truncated: {len(data)} bytes, a report needs at least "
                                f"{GROUP_BYTES + INDIVIDUAL_BYTES + INT_REPORT_FIXED_BYTES}")
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
        hops=tuple(hops), flow=_flow_of(body.payload))


def _flow_of(inner) -> FlowKey | None:
    ip = inner.getlayer(IP) if inner is not None else None
    if ip is None:
        return None
    l4 = ip.getlayer(UDP) or ip.getlayer(TCP)
    sport, dport = (l4.sport, l4.dport) if l4 is not None else (0, 0)
    return FlowKey(ip.src, ip.dst, ip.proto, sport, dport)


def describe(report: TelemetryReport) -> str:
    """A human-readable, multi-line rendering for the CLI and the demo."""
    lines = [f"report from node {report.node_id} seq {report.seq_no} flow {report.flow} "
             f"path {' -> '.join(str(n) for n in report.path)}"]
    for depth, hop in enumerate(reversed(report.hops)):
        fields = ", ".join(f"{k}={v}" for k, v in vars(hop).items() if v is not None)
        lines.append(f"  hop {depth}: {fields}")
    return "\n".join(lines)


__all__ = ["FlowKey", "ReportDecodeError", "TelemetryReport", "decode_report", "describe"]
