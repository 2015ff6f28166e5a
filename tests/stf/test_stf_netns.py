"""The private namespace used for real BMv2: veth pairs exist, the test-side sockets
work, and the namespace is gone afterwards. Needs root and iproute2."""
from __future__ import annotations

import os
import select
import socket
import subprocess

import pytest

from lab.namespace import Netns
from lab.packet_socket import PACKET_OUTGOING

pytestmark = pytest.mark.netns


def namespaces() -> str:
    return subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout


def test_frame_sent_on_test_side_arrives_on_switch_side() -> None:
    name = f"st-t{os.getpid()}"
    with Netns(name, [1, 2]) as namespace:
        assert name in namespaces()
        test_side = namespace.host_sockets()
        switch_side = namespace.run_inside(lambda: _raw("s1"))
        try:
            frame = bytes.fromhex("020000000001020000000002" "88b5") + b"stf-netns-check"
            test_side[1].send(frame)
            received = _receive_matching(switch_side, frame)
            assert received == frame
        finally:
            switch_side.close()
            for sock in test_side.values():
                sock.close()
    assert name not in namespaces()


def _raw(interface: str) -> socket.socket:
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    sock.bind((interface, 0))
    return sock


def _receive_matching(sock: socket.socket, frame: bytes) -> bytes | None:
    """The first incoming frame equal to ``frame`` within 5 s (others are skipped)."""
    for _ in range(50):
        ready, _, _ = select.select([sock], [], [], 0.1)
        if not ready:
            continue
        data, address = sock.recvfrom(65535)
        if address[2] != PACKET_OUTGOING and data == frame:
            return data
    return None
