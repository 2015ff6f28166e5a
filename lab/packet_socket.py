"""Raw packet sockets on one interface (what a host on a switch port sees), and
receiving frames from them with their VLAN tags and without our own transmissions."""
from __future__ import annotations

import select
import socket
import time

from p4sim.switch.packet_io import (AUX_SPACE, ETH_P_ALL, PACKET_AUXDATA, PACKET_OUTGOING,
                                    SOL_PACKET, restore_vlan_tag)

__all__ = ["ETH_P_ALL", "PACKET_OUTGOING", "packet_socket", "receive"]


def packet_socket(interface: str, *, rcvbuf: int = 4 << 20, auxdata: bool = True) -> socket.socket:
    """An AF_PACKET socket bound to ``interface`` (in the calling thread's namespace)
    for every protocol; ``auxdata`` asks for the VLAN tags the kernel strips."""
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    try:
        sock.bind((interface, ETH_P_ALL))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if auxdata:
            sock.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
    except OSError:
        sock.close()
        raise
    return sock


def receive(sock: socket.socket, count: int, timeout: float) -> list[bytes]:
    """Up to ``count`` frames arriving on ``sock`` within ``timeout`` (its own
    transmissions ignored), with their VLAN tags (for sockets opened with auxdata)."""
    frames: list[bytes] = []
    deadline = time.monotonic() + timeout
    while len(frames) < count:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        ready, _w, _x = select.select([sock], [], [], remaining)
        if not ready:
            break
        data, ancillary, _flags, address = sock.recvmsg(65535, AUX_SPACE)
        if address[2] != PACKET_OUTGOING:
            frames.append(restore_vlan_tag(data, ancillary))
    return frames
