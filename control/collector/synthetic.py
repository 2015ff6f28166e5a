"""Telemetry reports built with the project's layers, as a sink would send them: for
tests, the decode benchmark and trying the collector without a fabric."""
from __future__ import annotations

from typing import Sequence

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from control.layers import (INT_BIT_HOP_LATENCY, INT_BIT_L1_PORTS, INT_BIT_NODE_ID,
                            INT_BIT_QUEUE, UDP_PORT_UEC, IntHop, IntReport, ReportGroup,
                            ReportIndividual, UecRequest, int_hop_words)

BASIC_INSTRUCTIONS = INT_BIT_NODE_ID | INT_BIT_L1_PORTS | INT_BIT_HOP_LATENCY | INT_BIT_QUEUE


def build_report(hops: Sequence[IntHop], seq: int = 0, instructions: int = BASIC_INSTRUCTIONS,
                 src: str = "10.0.1.1", dst: str = "10.0.2.1", sport: int = 1000,
                 psn: int = 0, inner_bytes: int | None = None) -> bytes:
    """One report datagram payload; ``hops`` newest (the sink) first, as on the wire.
    The inner packet is a UEC request, cut to ``inner_bytes`` if given."""
    words = [w for hop in hops for w in int_hop_words(instructions, hop)]
    inner = bytes(Ether() / IP(src=src, dst=dst) / UDP(sport=sport, dport=UDP_PORT_UEC)
                  / UecRequest(psn=psn) / (b"x" * 8))
    if inner_bytes is not None:
        inner = inner[:inner_bytes]
    sink = hops[0].node_id if hops and hops[0].node_id is not None else 0
    return bytes(ReportGroup(node_id=sink, seq_no=seq % (1 << 22)) / ReportIndividual()
                 / IntReport(rep_md_bits=instructions, metadata=words) / inner)


__all__ = ["BASIC_INSTRUCTIONS", "build_report"]
