"""A link's rate, enforced by Linux on the veth that carries it (tc htb), with a
strict-priority band for the UEC transport's control packets.

Topologies give a link's rate as ``rate_pps``: full-size frames per second, a full-size
frame being a 1500-byte IP packet in an Ethernet frame (FULL_FRAME bytes as tc counts
them, plus WIRE_OVERHEAD on the wire: FCS, preamble, inter-frame gap). The link is a
bit-rate link of ``rate_pps`` full-size frames' worth of bits per second, and every frame
costs its own bytes on it, as on a real Ethernet (never less than the minimum frame).
So a data packet of the endpoints (1,200 bytes of payload plus headers and an INT
stack: 1,310-1,346 bytes) takes 0.87-0.89 of a full-size slot, and an ACK or credit
(126-162 bytes) a tenth of one; frames_per_second() gives any frame size's rate.

Two bands share the link, as a switch port with a priority queue for feedback does
(NDP, UEC's trimmed headers and control packets): UDP to the UEC port (4793) in IP
packets shorter than CONTROL_IP_BYTES (ACK, ACK_CC, NACK, CREDIT, CREDIT_REQUEST,
CLOSE and trimmed headers: no data payload, 44-220 bytes with a 4-hop INT stack) go
first; everything else (data, INT reports, other traffic) waits for them. Length, not
the PDS type, tells them apart because an INT-MD shim between UDP and PDS moves the
type byte by a variable length and the source's INT DSCP hides the data DSCP; so
a flow's last data packet, if shorter than that, goes first as well. Each band queues
QUEUE_FRAMES largest frames' bytes (as the border links' tbf, control/federation/netem.py):
~440 data packets, deep enough that senders with no brake at all (credit and trimming
off) lose little; with credit, the receivers' windows keep the queue short.

htb does both (the kernel may lack the prio qdisc): the link class carries the rate;
the control class has the whole rate of its own (it is never held for the data) and
priority 0; the data class borrows whatever the link has left, at priority 1, so
together they never exceed the link's rate.

What it is not: the queue builds in the interface's qdisc, after the switch, so the
switch's own queue depth (enq_qdepth/deq_qdepth, which ECN, trimming and INT report)
stays near zero. Trimming still works there: the controller gives each shaped port a
meter of the link's rate (trimming.p4's data_rate). Modelling in-switch congestion
needs the switch's queue rate (p4sim's control channel; BMv2's simple_switch over
Thrift, not simple_switch_grpc).
"""
from __future__ import annotations

import subprocess

ETHERNET_OVERHEAD = 18      # header 14 + one VLAN tag 4 (a frame's bytes around its IP packet)
FULL_FRAME = 1514           # bytes tc counts for a 1500-byte IP packet: Ethernet header 14
WIRE_OVERHEAD = 24          # bytes a frame also takes on the wire: FCS 4, preamble 8, gap 12
MIN_WIRE_FRAME = 84         # the minimum Ethernet frame (64 bytes) with preamble and gap
QUEUE_FRAMES = 64           # each band's backlog, in largest frames' bytes
BURST_FRAMES = 2            # full-size frames the bucket lets through back to back
UEC_PORT = 4793             # wire_formats.layers.UDP_PORT_UEC
CONTROL_IP_BYTES = 512      # UEC IP packets shorter than this go in the control band

ROOT_HANDLE = "1:"
LINK_CLASS = "1:1"
CONTROL_CLASS = "1:10"
DATA_CLASS = "1:20"
FILTER_HANDLE = "800::800"  # u32's first rule: `replace` finds it again


class ShapingError(RuntimeError):
    """tc refused a shaping command."""


def wire_bytes(frame: int) -> int:
    """What a frame of ``frame`` bytes (as tc counts them: no FCS) takes on the wire."""
    return max(MIN_WIRE_FRAME, frame + WIRE_OVERHEAD)


def rate_bits(pps: float) -> int:
    """The bit rate of a link of ``pps`` full-size frames per second."""
    if pps <= 0:
        raise ValueError(f"link rate must be > 0 packets/s, got {pps}")
    return max(1, round(pps * wire_bytes(FULL_FRAME) * 8))


def frames_per_second(pps: float, frame: int) -> float:
    """Frames of ``frame`` bytes per second a link of ``pps`` full-size frames/s carries."""
    return rate_bits(pps) / 8 / wire_bytes(frame)


def shaping_commands(interface: str, pps: float, mtu: int,
                     namespace: str | None = None) -> list[list[str]]:
    """The tc command lines (argv lists) that shape what ``interface`` sends to ``pps``
    full-size frames/s on a link of ``mtu`` bytes, on an interface with no htb yet
    (htb refuses to replace itself: shape() deletes the root qdisc first)."""
    rate = f"{rate_bits(pps)}bit"
    frame = mtu + ETHERNET_OVERHEAD
    burst = str(max(BURST_FRAMES * FULL_FRAME, frame))    # at least the largest frame
    cost = ["overhead", str(WIRE_OVERHEAD), "mpu", str(MIN_WIRE_FRAME)]
    limit = str(QUEUE_FRAMES * frame)
    tc = ["tc", *(("-n", namespace) if namespace else ())]
    dev = ["dev", interface]

    def htb_class(classid: str, parent: str, own_rate: str, *extra: str) -> list[str]:
        return [*tc, "class", "replace", *dev, "parent", parent, "classid", classid, "htb",
                "rate", own_rate, "ceil", rate, "burst", burst, "cburst", burst,
                "quantum", str(frame), *cost, *extra]
    return [
        [*tc, "qdisc", "replace", *dev, "root", "handle", ROOT_HANDLE, "htb",
         "default", DATA_CLASS.split(":")[1]],
        htb_class(LINK_CLASS, ROOT_HANDLE, rate),
        htb_class(CONTROL_CLASS, LINK_CLASS, rate, "prio", "0"),
        htb_class(DATA_CLASS, LINK_CLASS, "8bit", "prio", "1"),   # borrows all it sends
        [*tc, "qdisc", "replace", *dev, "parent", CONTROL_CLASS, "handle", "10:",
         "bfifo", "limit", limit],
        [*tc, "qdisc", "replace", *dev, "parent", DATA_CLASS, "handle", "20:",
         "bfifo", "limit", limit],
        [*tc, "filter", "replace", *dev, "parent", ROOT_HANDLE, "protocol", "ip", "prio", "1",
         "handle", FILTER_HANDLE, "u32", "match", "ip", "protocol", "17", "0xff",
         "match", "ip", "dport", str(UEC_PORT), "0xffff",
         "match", "u16", "0", f"{0xFFFF & ~(CONTROL_IP_BYTES - 1):#06x}", "at", "2",
         "flowid", CONTROL_CLASS],
    ]


def shape(namespace: str, interface: str, pps: float, mtu: int) -> None:
    """Limit what ``interface`` (in ``namespace``) sends to ``pps`` full-size frames/s,
    replacing whatever shaped it before (and dropping what it held)."""
    subprocess.run(["tc", "-n", namespace, "qdisc", "del", "dev", interface, "root"],
                   capture_output=True, check=False)      # fails when there is none: fine
    for argv in shaping_commands(interface, pps, mtu, namespace):
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise ShapingError(f"shaping {interface} in namespace {namespace} to {pps:g} "
                               f"packets/s: {' '.join(argv)}: {done.stderr.strip()}")
