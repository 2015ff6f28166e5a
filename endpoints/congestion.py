"""The sender's own rate control: a congestion window (AIMD) that shrinks on trims and
ECN echoes, and the pacing that spreads it over an RTT.

Credits pace a sender from the receiver's side; this window is the sender's half of
"reduce the rate on congestion", and the only brake when it runs without credit. A
NACK for a trimmed packet or an ACK echoing CE cuts the window at most once per RTT,
so one congested burst costs one cut, not one per packet.

With credit a trim still cuts the window (``recover``): the receiver frees the credit
of a trimmed packet as it arrives, and the trimmed header and its NACK travel in the
switches' priority queue, so an unbraked sender resent into the same full queue once
per short header round trip. On a port shaped in packets/s a header takes a whole
data packet's slot, and headers and NACKs at the port's rate left its data queue no
slot at all: every data packet was trimmed (a livelock seen with every leaf uplink
drained in the switch). A cut made that way is undone by slow start once packets are
delivered again, so the receiver's window, not this one, sets the pace afterwards.
"""
from __future__ import annotations

TRIM_DECREASE = 0.5
"""Window factor on a trim: a full queue somewhere on the path."""
ECN_DECREASE = 0.8
"""Window factor on an ECN echo: a queue building up."""


class CongestionWindow:
    """Bytes the sender may have in flight: slow start until the first congestion
    signal, then one packet more per window acknowledged."""

    def __init__(self, mss: int, initial_packets: int = 16, max_bytes: int | None = None) -> None:
        if mss < 1 or initial_packets < 1:
            raise ValueError(f"bad congestion window: mss={mss}, initial={initial_packets}")
        self.mss = mss
        self.min_bytes = float(mss)
        self.max_bytes = float(max_bytes if max_bytes is not None else 4096 * mss)
        self.cwnd = min(float(initial_packets * mss), self.max_bytes)
        self.ssthresh = float("inf")
        self.decreases = 0
        self._hold_until = float("-inf")

    def allows(self, in_flight_bytes: int, size: int) -> bool:
        """Whether ``size`` more bytes may leave (always one packet if none is out)."""
        return in_flight_bytes == 0 or in_flight_bytes + size <= self.cwnd

    def pace_gap(self, size: int, rtt: float) -> float:
        """Seconds to leave after sending ``size`` bytes, so that a window is spread
        over an RTT. Without credit this is what keeps a sender from refilling its
        window at once each time a NACK frees a slot: trimmed headers come back much
        faster than the queue drains, and an unpaced window would feed the full queue
        at that pace, to be trimmed again."""
        return size * rtt / self.cwnd

    def on_acked(self, acked_bytes: int) -> None:
        if acked_bytes <= 0:
            return
        if self.cwnd < self.ssthresh:
            self.cwnd += acked_bytes
        else:
            self.cwnd += self.mss * acked_bytes / self.cwnd
        self.cwnd = min(self.cwnd, self.max_bytes)

    def on_congestion(self, now: float, rtt: float, factor: float,
                      in_flight_bytes: int | None = None, recover: bool = False) -> bool:
        """Cuts the window by ``factor`` unless it was cut less than ``rtt`` ago;
        True if it was cut. The cut applies to what was in flight when that is less
        than the window (a window the sender never filled says nothing of the path).
        ``recover``: slow start takes the window back to what it cut (another brake,
        the receiver's credit, holds the pace), instead of one packet per RTT."""
        if now < self._hold_until:
            return False
        base = self.cwnd if in_flight_bytes is None else min(self.cwnd, in_flight_bytes)
        self.cwnd = max(base * factor, self.min_bytes)
        self.ssthresh = max(base, self.cwnd) if recover else self.cwnd
        self._hold_until = now + rtt
        self.decreases += 1
        return True
