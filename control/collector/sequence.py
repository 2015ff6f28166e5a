"""Report loss from sequence numbers: Telemetry Report v2.0 numbers the reports from
each (node ID, hw_id) to one destination consecutively (22 bits, wrapping), so a gap
is that many reports lost on the way."""
from __future__ import annotations

SEQ_MODULO = 1 << 22
_FORWARD = SEQ_MODULO // 2  # a larger jump is a restart or reordering, not loss


class SequenceTracker:
    """Last sequence number per sender; not thread-safe (the receiver thread owns it)."""

    def __init__(self) -> None:
        self._last: dict[tuple[int, int], int] = {}

    def note(self, node_id: int, hw_id: int, seq_no: int) -> int:
        """Reports lost just before this one (0 for the first, a repeat, a restart)."""
        key = (node_id, hw_id)
        last = self._last.get(key)
        self._last[key] = seq_no
        if last is None:
            return 0
        gap = (seq_no - last - 1) % SEQ_MODULO
        return gap if gap < _FORWARD else 0


__all__ = ["SEQ_MODULO", "SequenceTracker"]
