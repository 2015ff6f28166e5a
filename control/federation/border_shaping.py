"""Shape a launched border link: its rate always, its latency only where netem exists.

control/federation/netem.py builds the tc commands (netem delay with a tbf child for the
rate). Some kernels are built without netem (CONFIG_NET_SCH_NETEM): tc then refuses the
netem qdisc and nothing is applied. Rather than fail the launch, or pretend, the border
gets its rate alone (tbf as the root qdisc, which every kernel here has) and the caller
is told the latency is not emulated, so it can say so in what it prints and reports.
"""
from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass

from control.federation.netem import TBF_HANDLE, border_link_commands, tbf_rate_arguments
from control.link_shaping import ShapingError


@dataclass(frozen=True)
class BorderShaping:
    """What one sending interface of a border link got."""

    interface: str
    rate_bps: int
    latency_us: int       # what the topology asks for, one way
    latency_emulated: bool
    reason: str = ""      # why not, in tc's own words


def shape_border_link(namespace: str, interface: str, latency_us: int, rate_bps: int,
                      mtu: int) -> BorderShaping:
    """netem + tbf on ``interface``; if tc refuses netem, tbf alone (rate only).
    ShapingError if even the rate cannot be applied."""
    netem, tbf = border_link_commands(interface, latency_us, rate_bps, mtu, namespace)
    done = _tc(netem)
    if done.returncode == 0:
        _check(_tc(tbf), tbf, namespace)
        return BorderShaping(interface, rate_bps, latency_us, True)
    rate_only = ["tc", "-n", namespace, "qdisc", "replace", "dev", interface, "root",
                 "handle", TBF_HANDLE, *tbf_rate_arguments(rate_bps, mtu)]
    _check(_tc(rate_only), rate_only, namespace)
    return BorderShaping(interface, rate_bps, latency_us, False,
                         f"{shlex.join(netem)}: {done.stderr.strip() or 'refused'}")


def _tc(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, check=False)


def _check(done: subprocess.CompletedProcess[str], argv: list[str], namespace: str) -> None:
    if done.returncode != 0:
        raise ShapingError(f"border link in namespace {namespace}: {shlex.join(argv)}: "
                           f"{done.stderr.strip()}")


__all__ = ["BorderShaping", "shape_border_link"]
