"""Frames for p4/spec_features.p4 and a way to send them into the switch under test
through its veths."""
from __future__ import annotations

import struct

from lab.packet_socket import receive

HOST_MAC = bytes.fromhex("02000000000a")


def ethernet(dst: bytes, ether_type: int, payload: bytes = b"", src: bytes = HOST_MAC) -> bytes:
    frame = dst + src + struct.pack("!H", ether_type) + payload
    return frame + b"\x00" * (60 - len(frame)) if len(frame) < 60 else frame


def ipv4(dst: bytes, src: bytes = bytes([10, 0, 0, 9]), protocol: int = 6, ttl: int = 64,
         diffserv: int = 0, mac_dst: bytes = bytes.fromhex("020000000001")) -> bytes:
    header = struct.pack("!BBHHHBBH4s4s", 0x45, diffserv, 40, 1, 0, ttl, protocol, 0, src, dst)
    return ethernet(mac_dst, 0x0800, header + b"\x00" * 20)


class Wire:
    """Raw sockets on the host ends of the switch's data ports."""

    def __init__(self, switch) -> None:
        self.sockets = switch.netns.host_sockets()

    def send(self, port: int, frame: bytes) -> None:
        self.sockets[port].send(frame)

    def receive(self, port: int, count: int = 1, timeout: float = 10.0) -> list[bytes]:
        """Up to `count` frames the switch sent out of `port` within `timeout`."""
        return receive(self.sockets[port], count, timeout)

    def close(self) -> None:
        for sock in self.sockets.values():
            sock.close()
