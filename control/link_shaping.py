"""A link's packet rate, enforced by Linux on the veth that carries it (tc tbf).

Topologies give link rates in packets per second. simple_switch_grpc has no way to set
an egress rate (no start-up option, and no Thrift server for simple_switch_CLI's
set_queue_rate), so the launcher shapes the link itself, the same way whatever switch
runs: a token bucket on the sending interface in which every frame costs the same
``mpu`` bytes (the largest frame the link carries), so bytes per second divided by
``mpu`` is exactly packets per second whatever the frame sizes.

What it is not: the queue builds in the interface's qdisc, after the switch, so the
switch's own queue depth (enq_qdepth/deq_qdepth, which ECN, trimming and INT report)
stays near zero. Trimming still works there: the controller gives each shaped port a
meter of the link's rate (trimming.p4's data_rate). Modelling in-switch congestion
needs the switch's queue rate (p4sim's control channel; BMv2's simple_switch over
Thrift, not simple_switch_grpc).
"""
from __future__ import annotations

import subprocess

ETHERNET_OVERHEAD = 18      # header 14 + one VLAN tag 4
QUEUE_FRAMES = 64           # qdisc backlog, in frames of the largest size
BURST_FRAMES = 2            # frames the bucket lets through back to back


class ShapingError(RuntimeError):
    """tc refused a shaping command."""


def tbf_arguments(pps: float, mtu: int) -> list[str]:
    """`tc qdisc replace ... root` arguments for ``pps`` frames per second on a link of
    ``mtu`` bytes."""
    if pps <= 0:
        raise ValueError(f"link rate must be > 0 packets/s, got {pps}")
    frame = mtu + ETHERNET_OVERHEAD
    bits_per_second = max(1, round(pps * frame * 8))
    return ["tbf", "rate", f"{bits_per_second}bit", "burst", str(BURST_FRAMES * frame),
            "mpu", str(frame), "limit", str(QUEUE_FRAMES * frame)]


def shape(namespace: str, interface: str, pps: float, mtu: int) -> None:
    """Limit what ``interface`` (in ``namespace``) sends to ``pps`` packets/s."""
    argv = ["tc", "-n", namespace, "qdisc", "replace", "dev", interface, "root",
            *tbf_arguments(pps, mtu)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ShapingError(f"shaping {interface} in namespace {namespace} to {pps:g} packets/s: "
                           f"{' '.join(argv)}: {done.stderr.strip()}")
