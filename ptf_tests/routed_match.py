"""What a routed packet looks like leaving a multipath group, whichever member took it."""
from __future__ import annotations

from ptf.mask import Mask
from scapy.layers.inet import IP
from scapy.layers.l2 import Ether

from fabric_config import ROUTER_MAC


def routed_on_any_member(pkt: Ether) -> Mask:
    """``pkt`` as the router sends it on: our source MAC, TTL one less, checksum
    recomputed; the destination MAC is the member's next hop, so it is not compared."""
    out = pkt.copy()
    out[Ether].src = ROUTER_MAC
    out[IP].ttl -= 1
    del out[IP].chksum
    mask = Mask(Ether(bytes(out)))
    mask.set_do_not_care_packet(Ether, "dst")
    return mask
