"""How many of the endpoints' data packets a shaped link carries per second.

A link's ``rate_pps`` counts full-size frames (control/link_shaping.py); the endpoints'
data frames are smaller (1,200 bytes of payload, a 16-byte RUD_CC request header, and
on fabric links an INT-MD stack that grows by one hop per switch). Whatever turns a
link's rate into data packets (the benchmark's fabric capacity, the controller's trim
meter that stands in for the link's queue) must use the size of the frame on that link,
or it would count a link faster or slower than tc makes it.
"""
from __future__ import annotations

from control.link_shaping import frames_per_second
from wire_formats.layers import INT_ALL_SUPPORTED, INT_MD_HEADER_WORDS, UecRequestCC, hop_ml

ETHERNET_HEADER = 14
IPV4_UDP = 20 + 8
INT_SHIM = 4
MSS = 1200                   # endpoints.sender's default payload
FABRIC_HOPS = 2              # INT hops a data frame carries on a spine -> leaf link


def data_frame_bytes(mss: int = MSS, int_hops: int = FABRIC_HOPS,
                     instructions: int = INT_ALL_SUPPORTED) -> int:
    """Bytes (as tc counts them) of a data frame with ``mss`` bytes of payload after
    ``int_hops`` switches pushed their INT metadata (0: no INT-MD header at all)."""
    if mss < 0 or int_hops < 0:
        raise ValueError(f"payload and hops must be >= 0, got {mss}, {int_hops}")
    stack = 0 if int_hops == 0 else (INT_SHIM + 4 * INT_MD_HEADER_WORDS
                                     + 4 * hop_ml(instructions) * int_hops)
    return ETHERNET_HEADER + IPV4_UDP + len(UecRequestCC()) + stack + mss


def data_packets_per_second(rate_pps: float, mss: int = MSS, int_hops: int = FABRIC_HOPS,
                            instructions: int = INT_ALL_SUPPORTED) -> float:
    """Full-size data packets per second on a link of ``rate_pps`` full-size frames/s.
    The default is the largest data frame a leaf-spine fabric carries (two hops of
    every INT field), so the figure never credits a link with more than it carries."""
    return frames_per_second(rate_pps, data_frame_bytes(mss, int_hops, instructions))
