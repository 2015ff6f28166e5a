"""The Internet checksum (RFC 1071) for every packet the fabric's Python side builds or
checks. It is the switch's own ``csum16`` so that our packets and the switch's
verify/update_checksum agree by construction, not by two implementations kept equal.
"""
from __future__ import annotations

from p4sim.switch.hashes import csum16


def internet_checksum(data: bytes) -> int:
    """Ones' complement of the ones' complement sum of ``data`` (an odd length is padded
    with a zero byte); 0 over a header whose checksum field is right."""
    return csum16(data + b"\x00" if len(data) % 2 else data)
