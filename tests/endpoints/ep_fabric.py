"""A forwarder that models a fabric in time, for the endpoint tests: each data frame
toward the receiver gets a release time from a policy (a rate-limited egress queue
that trims or tail-drops and marks ECN, or two paths of unequal delay), and one
thread sends frames in release order. Frames back to the senders pass at once.

The queue's depth is known at enqueue time (the frames whose release lies ahead), so
trimming and marking decide as a switch does: on the depth the arriving packet finds.
"""
from __future__ import annotations

import heapq
import random
import select
import socket
import sys
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Protocol

from wire_formats.layers import ECN_CE, UDP_PORT_UEC
from lab.packet_socket import PACKET_OUTGOING

from ep_net import trim_frame, uec_data_entropy


def set_ce(frame: bytes) -> bytes:
    """The frame with ECN CE in its IPv4 header (checksum fixed), if ECN-capable."""
    tos = frame[15]
    if tos & 0b11 == 0:
        return frame
    header = bytearray(frame[14:34])
    header[1] = tos | ECN_CE
    header[10:12] = b"\0\0"
    total = sum(int.from_bytes(header[i:i + 2], "big") for i in range(0, 20, 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    header[10:12] = (~total & 0xFFFF).to_bytes(2, "big")
    return frame[:14] + bytes(header) + frame[34:]


def source_ip(frame: bytes) -> str:
    return socket.inet_ntoa(frame[26:30])


class Policy(Protocol):
    def schedule(self, frame: bytes, now: float) -> list[tuple[float, bytes]]:
        """(release time, frame) for each frame to emit; none to drop it."""
        ...


@dataclass
class Bottleneck:
    """An egress queue toward the receiver that sends ``rate_pps`` data frames a
    second. A data frame that finds ``trim_at`` frames queued is trimmed to its
    headers and sent ahead (the priority queue); without trimming (``trim_at`` None)
    it is dropped once ``capacity`` are queued. ``ecn_at``: depth from which frames
    are marked CE. Records per sender what left the queue whole, and when."""

    rate_pps: float
    trim_at: int | None = 8
    capacity: int = 64
    ecn_at: int | None = None
    trimmed: int = 0
    dropped: int = 0
    marked: int = 0
    data_frames: int = 0
    max_depth: int = 0
    departures: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    _queued: deque = field(default_factory=deque)
    _last_release: float = 0.0

    def schedule(self, frame: bytes, now: float) -> list[tuple[float, bytes]]:
        if uec_data_entropy(frame) is None:
            return [(now, frame)]
        self.data_frames += 1
        while self._queued and self._queued[0] <= now:
            self._queued.popleft()
        depth = len(self._queued)
        self.max_depth = max(self.max_depth, depth)
        if self.trim_at is not None and depth >= self.trim_at:
            self.trimmed += 1
            return [(now, trim_frame(frame))]
        if self.trim_at is None and depth >= self.capacity:
            self.dropped += 1
            return []
        if self.ecn_at is not None and depth >= self.ecn_at:
            marked = set_ce(frame)
            self.marked += marked is not frame
            frame = marked
        release = max(now, self._last_release) + 1.0 / self.rate_pps
        self._last_release = release
        self._queued.append(release)
        self.departures[source_ip(frame)].append(release)
        return [(release, frame)]

    def shares_while_all_busy(self) -> dict[str, float]:
        """Each sender's share of the frames that left while every sender had some
        queued (from the last one's first departure to the first one's last)."""
        start = max(times[0] for times in self.departures.values())
        end = min(times[-1] for times in self.departures.values())
        counts = {src: sum(1 for t in times if start <= t <= end)
                  for src, times in self.departures.items()}
        total = sum(counts.values())
        return {src: count / total for src, count in counts.items()} if total else {}


@dataclass
class TwoPaths:
    """Spraying over two paths of unequal delay and no loss: each data frame takes
    the slow path (``delay`` seconds longer) with probability ``slow_share``."""

    delay: float
    slow_share: float = 0.5
    seed: int = 1
    data_frames: int = 0
    slow: int = 0
    _rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def schedule(self, frame: bytes, now: float) -> list[tuple[float, bytes]]:
        if uec_data_entropy(frame) is None:
            return [(now, frame)]
        self.data_frames += 1
        if self._rng.random() < self.slow_share:
            self.slow += 1
            return [(now + self.delay, frame)]
        return [(now, frame)]


class TimedForwarder:
    """Bridges the middle namespace's two interfaces: frames from the senders go out
    toward the receiver at the times ``policy`` gives; frames back pass at once.
    Counts the frames each way (``data_out``: UEC data toward the receiver,
    ``control_back``: UEC frames toward the senders)."""

    def __init__(self, toward_receiver: socket.socket, toward_sender: socket.socket,
                 policy: Policy) -> None:
        self._to_receiver = toward_receiver
        self._to_sender = toward_sender
        self.policy = policy
        self._heap: list[tuple[float, int, bytes]] = []
        self._sequence = 0
        self._wake = threading.Condition()
        self._stop = threading.Event()
        self.data_out = 0
        self.control_back = 0
        self._threads = [threading.Thread(target=self._forward, daemon=True),
                         threading.Thread(target=self._release, daemon=True),
                         threading.Thread(target=self._back, daemon=True)]

    def __enter__(self) -> "TimedForwarder":
        # Three threads share the GIL: at the default 5 ms switch interval a busy one
        # would hold a due frame back by several ms, reordering the "fabric" itself.
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(0.0005)
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setswitchinterval(self._switch_interval)
        self._stop.set()
        with self._wake:
            self._wake.notify_all()
        for thread in self._threads:
            thread.join(5)
        self._to_receiver.close()
        self._to_sender.close()

    def _frames(self, source: socket.socket):
        while not self._stop.is_set():
            ready, _w, _x = select.select([source], [], [], 0.05)
            if not ready:
                continue
            frame, address = source.recvfrom(65535)
            if address[2] != PACKET_OUTGOING:
                yield frame

    def _forward(self) -> None:
        for frame in self._frames(self._to_sender):
            with self._wake:
                for release, out in self.policy.schedule(frame, time.monotonic()):
                    heapq.heappush(self._heap, (release, self._sequence, out))
                    self._sequence += 1
                self._wake.notify()

    def _release(self) -> None:
        while not self._stop.is_set():
            with self._wake:
                if not self._heap:
                    self._wake.wait(0.05)
                    continue
                wait = self._heap[0][0] - time.monotonic()
                if wait > 0:
                    self._wake.wait(wait)   # until it is due, or an earlier one comes
                    continue
                _release, _seq, frame = heapq.heappop(self._heap)
            if uec_data_entropy(frame) is not None:
                self.data_out += 1
            self._to_receiver.send(frame)

    def _back(self) -> None:
        for frame in self._frames(self._to_receiver):
            udp = 14 + (frame[14] & 0x0F) * 4 if len(frame) > 14 else 0
            if len(frame) > udp + 8 and frame[23] == 17 and \
                    int.from_bytes(frame[udp + 2:udp + 4], "big") == UDP_PORT_UEC:
                self.control_back += 1
            self._to_sender.send(frame)
