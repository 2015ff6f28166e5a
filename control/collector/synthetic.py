"""Telemetry reports built with the project's layers, as the fabric's sinks send them
(Telemetry Report v2.0, InType IPv4, the INT-MD packet embedded): for tests, the decode
benchmark and trying the collector without a fabric."""
from __future__ import annotations

from typing import Sequence

from scapy.layers.inet import IP, UDP

from wire_formats.layers import (DSCP_INT, REPORT_INNER_IPV4, INT_BIT_HOP_LATENCY, INT_BIT_L1_PORTS, INT_BIT_NODE_ID,
                            INT_BIT_QUEUE, UDP_PORT_UEC, IntHop, IntMD, IntReport, IntShim,
                            ReportGroup, ReportIndividual, UecRequest, int_hop_words)

BASIC_INSTRUCTIONS = INT_BIT_NODE_ID | INT_BIT_L1_PORTS | INT_BIT_HOP_LATENCY | INT_BIT_QUEUE


def build_inner(hops: Sequence[IntHop], instructions: int = BASIC_INSTRUCTIONS,
                src: str = "10.0.1.1", dst: str = "10.0.2.1", sport: int = 1000,
                psn: int = 0, domain_id: int = 1, int_dscp: int = DSCP_INT) -> bytes:
    """An IPv4 UEC request carrying INT-MD with ``hops`` (newest first), as a sink
    sees it."""
    words = [w for hop in hops for w in int_hop_words(instructions, hop)]
    return bytes(IP(src=src, dst=dst, tos=int_dscp << 2)
                 / UDP(sport=sport, dport=UDP_PORT_UEC) / IntShim(dscp=0)
                 / IntMD(remaining_hop_cnt=8 - len(hops), instruction_mask=instructions,
                         domain_id=domain_id, stack=words)
                 / UecRequest(psn=psn) / (b"x" * 8))


def build_report(hops: Sequence[IntHop], seq: int = 0, instructions: int = BASIC_INSTRUCTIONS,
                 src: str = "10.0.1.1", dst: str = "10.0.2.1", sport: int = 1000,
                 psn: int = 0, inner_bytes: int | None = None, domain_id: int = 1,
                 hw_id: int = 0) -> bytes:
    """One report datagram payload; ``hops`` newest (the sink) first, as on the wire.
    The inner packet is cut to ``inner_bytes`` if given, and to whole words, so that
    Report Length states exactly what is present."""
    inner = build_inner(hops, instructions, src, dst, sport, psn, domain_id)
    if inner_bytes is not None:
        inner = inner[:inner_bytes]
    inner = inner[:len(inner) - len(inner) % 4]
    sink = hops[0].node_id if hops and hops[0].node_id is not None else 0
    return bytes(ReportGroup(node_id=sink, hw_id=hw_id, seq_no=seq % (1 << 22))
                 / ReportIndividual(in_type=REPORT_INNER_IPV4, f=1)
                 / IntReport(domain_id=domain_id) / inner)


__all__ = ["BASIC_INSTRUCTIONS", "build_inner", "build_report"]
