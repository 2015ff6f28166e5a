"""The endpoints' socket: raw IPv4/UDP, so that each packet's UDP source port (the
entropy value), DSCP and lengths are ours to set and a trimmed packet is seen exactly
as the fabric left it.

A raw socket gets a copy of every UDP datagram, but the kernel's UDP layer still
answers a datagram to an unbound port with ICMP port-unreachable. So an ordinary UDP
socket holds the port (SO_REUSEPORT, so a sender and a receiver may share a
namespace) and is never read: its tiny buffer just overflows.
"""
from __future__ import annotations

import select
import socket
import time

from wire_formats.uec_datagram import Received, UecWire

RAW_RECEIVE_BUFFER = 8 << 20


class RawUdpSocket:
    """Sends whole IPv4 datagrams and receives the UEC packets addressed to ``bind_ip``
    and the wire's port, read by ``wire``. A context manager."""

    def __init__(self, bind_ip: str, wire: UecWire) -> None:
        self.bind_ip = bind_ip
        self.wire = wire
        port = wire.port
        self._raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
        self._holder = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self._raw.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
            self._raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RAW_RECEIVE_BUFFER)
            self._raw.bind((bind_ip, 0))
            self._raw.setblocking(False)
            self._holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            self._holder.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
            self._holder.bind((bind_ip, port))
        except OSError as exc:
            self.close()
            raise OSError(exc.errno, f"cannot open raw UDP endpoint on {bind_ip}:{port}: "
                          f"{exc.strerror} (raw sockets need root or CAP_NET_RAW, and "
                          f"the address must be local)") from None

    def __enter__(self) -> "RawUdpSocket":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._raw.close()
        self._holder.close()

    def send(self, datagram: bytes, dst: str) -> None:
        """Sends one datagram; a full socket buffer is waited out, not dropped."""
        while True:
            try:
                self._raw.sendto(datagram, (dst, 0))
                return
            except BlockingIOError:
                select.select([], [self._raw], [], 0.1)

    def receive(self, timeout: float) -> list[Received]:
        """The UEC packets to our address and port that arrive within ``timeout``
        (returns as soon as at least one has; all that are queued are taken)."""
        packets: list[Received] = []
        deadline = time.monotonic() + max(timeout, 0.0)
        while not packets:
            remaining = deadline - time.monotonic()
            ready, _w, _x = select.select([self._raw], [], [], max(remaining, 0.0))
            if not ready:
                return packets
            packets.extend(self._drain())
            if remaining <= 0:
                break
        return packets

    def _drain(self) -> list[Received]:
        packets: list[Received] = []
        while True:
            try:
                datagram = self._raw.recv(65535)
            except BlockingIOError:
                return packets
            packet = self.wire.parse(datagram)
            if packet is not None and packet.dst == self.bind_ip:
                packets.append(packet)
