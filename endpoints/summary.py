"""The figures one side of a transfer reports, printed and written as JSON."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class TransferSummary:
    """``retransmissions``: packets sent again (sender) or arriving marked as
    retransmitted (receiver); ``nacks``: NACKs received (sender) or sent (receiver);
    ``timeouts``: retransmission timeouts; ``losses``: packets presumed lost because
    later ones were acknowledged (sender); ``late_arrivals``: of those, the ones that
    had arrived after all (reordering, not loss); ``duplicates``: data packets that
    arrived again (receiver: the spurious retransmissions); ``trimmed_duplicates``:
    trimmed copies of packets already held (not NACKed: nothing is missing);
    ``control_packets``: ACK/NACK/CREDIT packets sent (receiver) or received (sender);
    ``ack_requests``: data packets that arrived asking for an ACK at once (receiver);
    ``entropy_values``: distinct UDP source ports the sender used; ``credits_marked``:
    CREDITs a switch reduced (marked flag); ``fct_s``: first packet to last byte
    acknowledged (sender) or delivered (receiver); ``sha256``: of the bytes sent or
    delivered (a receiver of several flows: empty, see ``flows``); ``peer``/``pdcid``:
    the other side's address and PDC id (receiver) or one's own PDC id (sender);
    ``flows``: a receiver's per-flow summaries; ``credit_window``: the receiver's
    shared credit window at the end, bytes; ``window_decreases``: times the credit
    (receiver) or congestion (sender) window was cut for trims or ECN."""

    role: str
    bytes: int
    goodput_bps: float
    retransmissions: int
    nacks: int
    fct_s: float
    sha256: str
    complete: bool
    packets: int = 0
    timeouts: int = 0
    losses: int = 0
    late_arrivals: int = 0
    trimmed: int = 0
    ecn_marked: int = 0
    duplicates: int = 0
    trimmed_duplicates: int = 0
    control_packets: int = 0
    ack_requests: int = 0
    credits: int = 0
    credit_bytes: int = 0
    credit_requests: int = 0
    credits_marked: int = 0
    entropy_values: int = 0
    srtt_s: float = 0.0
    max_rtt_s: float = 0.0
    peer: str = ""
    pdcid: int = 0
    credit_window: int = 0
    window_decreases: int = 0
    flows: list[dict[str, Any]] = field(default_factory=list)
    acks_by_cause: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    def write(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n")


def goodput(bytes_count: int, seconds: float) -> float:
    """Bits per second; 0 for an empty or instantaneous transfer."""
    return bytes_count * 8 / seconds if seconds > 0 and bytes_count else 0.0
