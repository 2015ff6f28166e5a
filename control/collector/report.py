"""What a decoded Telemetry Report v2.0 INT report is, whichever decoder produced it."""
from __future__ import annotations

from dataclasses import dataclass

from wire_formats.layers import DSCP_INT, IntHop

DEFAULT_INT_DSCPS = frozenset({DSCP_INT})
"""DSCPs that mark an inner packet as carrying INT-MD (the fabric's default)."""


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
    # INT instruction bitmap of the embedded stack (RepMdBits when nothing is embedded)
    instructions: int
    dropped: bool
    congested: bool
    # newest (the sink) first, as on the wire: the reporting node's own metadata from
    # the main contents when RepMdBits has any, then the embedded INT-MD stack
    hops: tuple[IntHop, ...]
    flow: FlowKey | None  # from the inner packet, when it is IPv4 TCP/UDP

    @property
    def path(self) -> tuple[int | None, ...]:
        """Node IDs from the source towards the sink."""
        return tuple(h.node_id for h in reversed(self.hops))


def describe(report: TelemetryReport) -> str:
    """A human-readable, multi-line rendering for the CLI and the demo."""
    lines = [f"report from node {report.node_id} seq {report.seq_no} flow {report.flow} "
             f"path {' -> '.join(str(n) for n in report.path)}"]
    for depth, hop in enumerate(reversed(report.hops)):
        fields = ", ".join(f"{k}={v}" for k, v in vars(hop).items() if v is not None)
        lines.append(f"  hop {depth}: {fields}")
    return "\n".join(lines)


__all__ = ["DEFAULT_INT_DSCPS", "FlowKey", "ReportDecodeError", "TelemetryReport", "describe"]
