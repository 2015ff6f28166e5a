"""A Mininet host fit for a P4 software switch: checksum offload off.

A veth with TX checksum offload hands the peer frames whose TCP/UDP checksum is left
for the NIC to fill in; a software switch forwards them unfilled, so the receiver
drops them. Hosts attached to a P4 switch therefore turn offload off, as the P4
switches' own Mininet hosts do (control/offload.py, through the ethtool ioctl, so the
ethtool program is not needed). IPv6 is off too, so no router solicitations or
neighbour discovery reach the switch unasked.
"""
from __future__ import annotations

from typing import Any, Callable, TypeVar

from mininet.node import Host  # type: ignore[import-untyped, import-not-found, unused-ignore]

from control.offload import checksum_offload, disable_checksum_offload
from lab.namespace import run_in_namespace

T = TypeVar("T")


def in_process_namespace(pid: int, fn: Callable[[], T]) -> T:
    """fn() in the network namespace of process `pid` (a Mininet host's shell)."""
    return run_in_namespace(f"/proc/{pid}/ns/net", fn)


class P4Host(Host):  # type: ignore[misc]
    """A host whose interfaces compute and check their own checksums."""

    def config(self, **params: Any) -> Any:
        result = super().config(**params)
        for intf in self.intfList():
            if intf.name != "lo":
                in_process_namespace(self.pid, lambda: disable_checksum_offload(intf.name))
        for key in ("all", "default", "lo"):
            self.cmd(f"sysctl -q -w net.ipv6.conf.{key}.disable_ipv6=1")
        return result

    def checksum_offload(self, interface: str) -> tuple[bool, bool]:
        """(transmit, receive) checksum offload of one of this host's interfaces."""
        return in_process_namespace(self.pid, lambda: checksum_offload(interface))
