"""Checksum offload off on a host's interface, so what it sends is complete on the wire.

A veth with transmit checksum offload on hands the peer a frame whose TCP/UDP checksum
is left for hardware to fill in (CHECKSUM_PARTIAL); a software switch reading the peer
with a packet socket forwards it as read, and the receiving host drops it as a checksum
error. Turning it off (what `ethtool -K IF tx off` does, and Mininet does for its P4
switches) makes the kernel checksum in software, and also turns off segmentation
offload, which depends on it, so no frame exceeds the MTU. Receive offload off makes
the host verify every checksum the switch emits instead of trusting the veth.

This uses the ethtool ioctl (SIOCETHTOOL) directly, so the ethtool program is not
needed. It acts in the calling thread's network namespace.
"""
from __future__ import annotations

import ctypes
import fcntl
import socket
import struct

SIOCETHTOOL = 0x8946
ETHTOOL_GRXCSUM = 0x14
ETHTOOL_SRXCSUM = 0x15
ETHTOOL_GTXCSUM = 0x16
ETHTOOL_STXCSUM = 0x17
IFNAMSIZ = 16


class OffloadError(OSError):
    """The kernel refused an ethtool request."""


def _ethtool_value(interface: str, command: int, value: int = 0) -> int:
    """One `struct ethtool_value` request (cmd, data) on ``interface``; the data after."""
    request = ctypes.create_string_buffer(struct.pack("=II", command, value), 8)
    name = interface.encode()
    if len(name) >= IFNAMSIZ:
        raise OffloadError(f"interface name {interface!r} is too long")
    ifreq = struct.pack(f"{IFNAMSIZ}sP", name, ctypes.addressof(request))
    ifreq += bytes(40 - len(ifreq))  # sizeof(struct ifreq)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            fcntl.ioctl(sock, SIOCETHTOOL, ifreq)
        except OSError as exc:
            raise OffloadError(exc.errno, f"ethtool request {command:#x} on {interface}: "
                                          f"{exc.strerror}") from None
    return int(struct.unpack("=II", request.raw[:8])[1])


def checksum_offload(interface: str) -> tuple[bool, bool]:
    """(transmit, receive) checksum offload of ``interface``: on or off."""
    return (bool(_ethtool_value(interface, ETHTOOL_GTXCSUM)),
            bool(_ethtool_value(interface, ETHTOOL_GRXCSUM)))


def disable_checksum_offload(interface: str) -> None:
    """Transmit and receive checksum offload off (`ethtool -K IF tx off rx off`)."""
    _ethtool_value(interface, ETHTOOL_STXCSUM, 0)
    _ethtool_value(interface, ETHTOOL_SRXCSUM, 0)
    if checksum_offload(interface) != (False, False):
        raise OffloadError(f"{interface}: checksum offload is still on after turning it off")
