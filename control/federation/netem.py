"""The tc commands that make a border link look far away: netem delay, then a tbf rate.

An inter-domain link has a one-way latency and a rate (control/topology.py reads them as
whole microseconds and bits per second). Both are applied by Linux on each sending
interface of the link's veth pair, whatever switch runs:

    tc qdisc replace dev IF root handle 1: netem delay <latency>us limit <packets>
    tc qdisc replace dev IF parent 1:1 handle 10: tbf rate <rate>bit burst <B> limit <L>

netem holds each frame for the latency, then hands it to its child tbf, which lets
frames out at the rate. netem's queue must hold a whole bandwidth-delay product or it
drops frames that a long, fast link would carry: its limit is that product counted in
minimum-size (64-byte) frames, and never below tc's default of 1000. tbf's bucket holds
4 ms of the rate (so it reaches the rate with a 250 Hz kernel timer) and at least two
largest frames; its queue holds QUEUE_FRAMES largest frames, as the pps shaper's does
(control/link_shaping.py).

These are pure builders (tested without root) plus one runner, shape_border(). A kernel
built without CONFIG_NET_SCH_NETEM refuses the first command ("Specified qdisc kind is
unknown"): the launcher must check for netem before relying on it.
"""
from __future__ import annotations

import math
import shlex
import subprocess

from control.link_shaping import BURST_FRAMES, ETHERNET_OVERHEAD, QUEUE_FRAMES, ShapingError

NETEM_HANDLE = "1:"
TBF_PARENT = "1:1"
TBF_HANDLE = "10:"
MIN_FRAME = 64               # bytes: the smallest Ethernet frame, for netem's queue
NETEM_DEFAULT_LIMIT = 1000   # packets: tc's own default
BUCKET_SECONDS = 0.004       # tbf bucket: one tick of a 250 Hz timer at the rate


def netem_arguments(latency_us: int, rate_bps: int) -> list[str]:
    """`netem` arguments for a one-way ``latency_us``, queue sized for ``rate_bps``."""
    _check(latency_us, rate_bps)
    in_flight = math.ceil(rate_bps * latency_us / 1e6 / 8 / MIN_FRAME)
    return ["netem", "delay", f"{latency_us}us", "limit", str(max(NETEM_DEFAULT_LIMIT, in_flight))]


def tbf_rate_arguments(rate_bps: int, mtu: int) -> list[str]:
    """`tbf` arguments for ``rate_bps`` bits per second on a link of ``mtu`` bytes."""
    if rate_bps <= 0:
        raise ValueError(f"rate must be > 0 bit/s, got {rate_bps}")
    frame = mtu + ETHERNET_OVERHEAD
    burst = max(BURST_FRAMES * frame, math.ceil(rate_bps / 8 * BUCKET_SECONDS))
    return ["tbf", "rate", f"{rate_bps}bit", "burst", str(burst), "limit", str(QUEUE_FRAMES * frame)]


def border_link_commands(interface: str, latency_us: int, rate_bps: int, mtu: int,
                         namespace: str | None = None) -> list[list[str]]:
    """The two tc command lines (argv lists) that give what ``interface`` sends the
    border link's latency and rate; ``namespace`` adds `-n NAMESPACE`."""
    tc = ["tc", *(("-n", namespace) if namespace else ()), "qdisc", "replace", "dev", interface]
    return [[*tc, "root", "handle", NETEM_HANDLE, *netem_arguments(latency_us, rate_bps)],
            [*tc, "parent", TBF_PARENT, "handle", TBF_HANDLE, *tbf_rate_arguments(rate_bps, mtu)]]


def border_link_script(interface: str, latency_us: int, rate_bps: int, mtu: int) -> list[str]:
    """The same commands as shell lines (for a container's post-start exec list)."""
    return [shlex.join(argv) for argv in border_link_commands(interface, latency_us, rate_bps, mtu)]


def shape_border(namespace: str, interface: str, latency_us: int, rate_bps: int, mtu: int) -> None:
    """Apply border_link_commands() on ``interface`` in ``namespace``; ShapingError
    with tc's own words if the kernel or tc refuses one."""
    for argv in border_link_commands(interface, latency_us, rate_bps, mtu, namespace):
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise ShapingError(f"border link on {interface} in namespace {namespace}: "
                               f"{shlex.join(argv)}: {done.stderr.strip()}")


def _check(latency_us: int, rate_bps: int) -> None:
    if latency_us <= 0:
        raise ValueError(f"latency must be > 0 us, got {latency_us}")
    if rate_bps <= 0:
        raise ValueError(f"rate must be > 0 bit/s, got {rate_bps}")
