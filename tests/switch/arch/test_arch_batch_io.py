"""Batched packet I/O (sendmmsg / recvmmsg) on a veth pair, against the frame-by-frame
path it replaces: same frames, same order, same counters, VLAN tags put back.

Needs root; each test builds and deletes its own namespace `pp-<pid>-<tag>`.
"""

import os
import select
import socket
import struct

import pytest

from lab.namespace import Netns, ip
from lab.packet_socket import receive
from p4sim.switch.packet_io import SOCKET_BUFFER, RawPort

pytestmark = pytest.mark.netns


def numbered_frame(index: int, size: int = 64) -> bytes:
    """An untagged frame whose payload starts with its index."""
    header = bytes.fromhex("000000000001" "000000000002" "88b5")
    return header + struct.pack("!I", index) + bytes(size - 18)


def tagged_frame(index: int, tci: int) -> bytes:
    header = bytes.fromhex("000000000001" "000000000002" "8100")
    return header + struct.pack("!HHI", tci, 0x88B5, index) + bytes(42)


def open_port(ns: Netns, batched: bool) -> RawPort:
    raw = ns.run_inside(lambda: RawPort.open(1, "s1"))
    if not batched:
        raw.batch = raw.receiver = None
    return raw


def receive_all(raw: RawPort, count: int) -> list[bytes]:
    """Frames from raw.receive_batch until `count` came or the socket stays empty."""
    frames: list[bytes] = []
    while len(frames) < count:
        if not select.select([raw.sock], [], [], 5)[0]:
            break
        frames += raw.receive_batch()
    return frames


@pytest.mark.parametrize("batched", [True, False], ids=["mmsg", "frame_by_frame"])
def test_send_many_keeps_order_and_counts(batched):
    with Netns(f"pp-{os.getpid()}-tx{int(batched)}", [1]) as ns:
        raw = open_port(ns, batched)
        host = ns.host_socket(1)
        try:
            if batched:
                assert raw.batch is not None, "sendmmsg should exist on Linux"
            frames = [numbered_frame(i) for i in range(150)]
            frames[70] = numbered_frame(70, 9000)        # a jumbo frame in the middle
            raw.send_many(frames)
            got = receive(host, len(frames) + 1, 3)
            assert got == frames
            assert raw.counters.tx == len(frames) and raw.counters.tx_errors == 0
        finally:
            raw.close()
            host.close()


@pytest.mark.parametrize("batched", [True, False], ids=["mmsg", "frame_by_frame"])
def test_receive_batch_restores_tags_and_reads_frames_whole(batched):
    with Netns(f"pp-{os.getpid()}-rx{int(batched)}", [1]) as ns:
        raw = open_port(ns, batched)
        host = ns.host_socket(1)
        try:
            if batched:
                assert raw.receiver is not None, "recvmmsg should exist on Linux"
            assert raw.capacity == 9500 + 18      # the veth's MTU, Ethernet header, a tag
            # root may exceed net.core.rmem_max: the buffer is what was asked (doubled)
            assert raw.sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) == 2 * SOCKET_BUFFER
            sent = []
            for i in range(100):
                if i % 10 == 3:
                    sent.append(tagged_frame(i, 0x6000 | i))     # PCP 3, VLAN i
                elif i == 50:
                    sent.append(tagged_frame(i, 0))              # priority tag, VLAN 0
                elif i == 77:
                    sent.append(numbered_frame(i, 9500 + 14))    # as long as the MTU allows
                else:
                    sent.append(numbered_frame(i))
            for frame in sent:
                host.send(frame)
            got = receive_all(raw, len(sent))
            assert got == sent                    # nothing cut short, as on BMv2
            assert raw.counters.rx == len(sent)
            assert raw.counters.rx_oversized == 0
            assert raw.receive_batch() == []          # nothing left, no error
            assert raw.counters.rx_errors == 0
        finally:
            raw.close()
            host.close()


@pytest.mark.parametrize("batched", [True, False], ids=["mmsg", "frame_by_frame"])
def test_frame_beyond_the_buffers_is_dropped_then_fits(batched):
    """The MTU raised after the port opened: the first longer frame is dropped and
    counted (BMv2 drops a capture shorter than its frame), the buffers grow, and the
    next such frame arrives whole; frames around it are unaffected."""
    with Netns(f"pp-{os.getpid()}-big{int(batched)}", [1]) as ns:
        raw = open_port(ns, batched)
        host = ns.host_socket(1)
        try:
            for end in ("s1", "h1"):
                ip("-n", ns.name, "link", "set", end, "mtu", "16000")
            big = numbered_frame(2, 16000 + 14)
            sent = [numbered_frame(1), big, numbered_frame(3)]
            for frame in sent:
                host.send(frame)
            got = receive_all(raw, 2)
            assert got == [sent[0], sent[2]]
            assert raw.counters.rx_oversized == 1
            assert raw.capacity >= len(big)
            host.send(big)
            assert receive_all(raw, 1) == [big]
            assert raw.counters.rx == 3 and raw.counters.rx_errors == 0
        finally:
            raw.close()
            host.close()
