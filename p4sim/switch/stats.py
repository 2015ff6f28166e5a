"""Counters of the switch architecture, written by the dataplane thread only."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class SwitchStats:
    """Drops by cause, pipeline errors and per-port traffic.

    Plain integer increments from one thread; readers on other threads may see values
    a packet or two stale, which is fine for monitoring and for tests that first
    `wait_idle()`.
    """

    rx: Counter = field(default_factory=Counter)        # port -> frames into ingress
    tx: Counter = field(default_factory=Counter)        # port -> frames sent out
    tail_drops: Counter = field(default_factory=Counter)  # port -> queue-full drops
    priority_drops: int = 0      # standard_metadata.priority beyond the priority queues
    ingress_drops: int = 0       # egress_spec == drop port at the end of ingress
    egress_drops: int = 0        # mark_to_drop in egress
    no_program_drops: int = 0    # packets that arrived while no program was loaded
    pipeline_errors: int = 0     # faults inside a pipeline (failed assert, bad index...)
    internal_errors: int = 0     # exceptions that escaped the pipeline: bugs of ours
    resubmits: int = 0
    recirculations: int = 0
    clones: int = 0
    replicas: int = 0
    digests: int = 0
    packet_ins: int = 0

    def as_dict(self) -> dict:
        """JSON-friendly snapshot (port keys become strings)."""
        out: dict = {}
        for name, value in list(vars(self).items()):
            if isinstance(value, Counter):
                snapshot = dict(value)   # one C-level copy: safe while the dataplane counts
                out[name] = {str(k): v for k, v in sorted(snapshot.items())}
            else:
                out[name] = value
        out["total_tail_drops"] = sum(out["tail_drops"].values())
        return out
