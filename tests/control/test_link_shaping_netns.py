"""The link model as the kernel applies it, on a veth in a namespace: full-size frames
leave at rate_pps, small frames cost their own bytes (not a full-size slot), and UEC
control packets overtake the data queued before them while other traffic does not."""
from __future__ import annotations

import os
import socket
import struct
import time
from contextlib import contextmanager
from typing import Iterator

import pytest

from control.link_shaping import FULL_FRAME, WIRE_OVERHEAD, shape
from lab.namespace import Netns
from lab.packet_socket import packet_socket, receive

pytestmark = pytest.mark.netns

MTU = 9216
BURST_FRAMES = (MTU + 18) // (FULL_FRAME + WIRE_OVERHEAD)   # the bucket holds a largest frame


def udp_frame(ip_length: int, dport: int, tag: int) -> bytes:
    """An IPv4/UDP frame whose IP packet is ``ip_length`` bytes, payload led by ``tag``."""
    payload = tag.to_bytes(2, "big") + b"p" * (ip_length - 30)
    udp = struct.pack("!HHHH", 40000, dport, 8 + len(payload), 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, ip_length, 0, 0x4000, 64, 17, 0,
                     socket.inet_aton("10.0.1.1"), socket.inet_aton("10.0.3.1"))
    return b"\x02" * 6 + b"\x04" * 6 + b"\x08\x00" + ip + udp + payload


def tag_of(frame: bytes) -> int:
    return int.from_bytes(frame[42:44], "big")


@contextmanager
def shaped_link(tag: str, pps: float) -> Iterator[Netns]:
    """A namespace whose s1 -> h1 veth is shaped to ``pps`` full-size frames/s."""
    with Netns(f"ls{os.getpid()}-{tag}", [1]) as ns:
        shape(ns.name, "s1", pps, MTU)
        yield ns


def send_and_collect(ns: Netns, frames: list[bytes], timeout: float) -> tuple[list[bytes], float]:
    """Send ``frames`` into the shaped end, return what the other end got and how long
    the last one took."""
    receiver = ns.host_socket(1)
    sender = ns.run_inside(lambda: packet_socket("s1", auxdata=False))
    try:
        started = time.monotonic()
        for frame in frames:
            sender.send(frame)
        got = receive(receiver, len(frames), timeout)
        return got, time.monotonic() - started
    finally:
        sender.close()
        receiver.close()


def test_full_size_frames_leave_at_rate_pps():
    with shaped_link("full", 200) as ns:
        count = 100
        got, elapsed = send_and_collect(ns, [udp_frame(1500, 53, i) for i in range(count)], 20)
    assert len(got) == count and all(len(f) == FULL_FRAME for f in got)
    assert elapsed >= (count - BURST_FRAMES) / 200 * 0.95           # 5 % clock slack


def test_small_frames_cost_their_bytes_not_a_full_size_slot():
    """150 minimum frames at 50 full-size frames/s: a slot each would take 3 s; their
    bytes are 8 full-size frames' worth, within the bucket's burst."""
    with shaped_link("small", 50) as ns:
        count = 150
        got, elapsed = send_and_collect(ns, [udp_frame(46, 53, i) for i in range(count)], 20)
    assert len(got) == count
    assert elapsed < count / 50 / 2, elapsed


def test_uec_control_packets_overtake_queued_data_and_nothing_else_does():
    """40 data packets (1,300 bytes to UDP 4793) queue on a 20 frames/s link (~1.9 s);
    then 5 control-sized UEC packets, a short DNS packet and a 600-byte UEC packet. The
    control packets come out among the first data packets; the other two after every
    data packet (the data band is first-in first-out)."""
    data = [udp_frame(1300, 4793, i) for i in range(40)]
    control = [udp_frame(150, 4793, 100 + i) for i in range(5)]
    others = [udp_frame(60, 53, 200), udp_frame(600, 4793, 201)]
    with shaped_link("prio", 20) as ns:
        got, _elapsed = send_and_collect(ns, data + control + others, 30)
    order = [tag_of(f) for f in got]
    assert sorted(order) == sorted(tag_of(f) for f in data + control + others)
    last_control = max(order.index(tag_of(f)) for f in control)
    assert last_control < BURST_FRAMES + 10, order            # not behind 40 data packets
    assert order[-2:] == [200, 201], order
    assert [t for t in order if t < 40] == list(range(40))
