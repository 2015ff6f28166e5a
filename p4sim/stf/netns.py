"""A private network namespace with one veth pair per switch port, for real BMv2.

The switch side of port P is ``swP`` and the test side ``tP``, both inside the
namespace. Test-side sockets are opened from a thread that joins the namespace with
setns(2) (network namespaces are per thread), so the runner itself stays outside.
"""
from __future__ import annotations

import ctypes
import os
import socket
import subprocess
import threading
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")
_CLONE_NEWNET = 0x40000000
_ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


class NamespaceError(Exception):
    """A namespace or link could not be set up."""


def _ip(*args: str) -> None:
    result = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise NamespaceError(f"'ip {' '.join(args)}' failed: {result.stderr.strip()}")


class VethNamespace:
    """Creates the namespace on enter and deletes it (with its links) on exit."""

    def __init__(self, name: str, ports: list[int]):
        self.name = name
        self.ports = sorted(set(ports))

    def __enter__(self) -> "VethNamespace":
        _ip("netns", "add", self.name)
        try:
            self._sysctl("net.ipv6.conf.all.disable_ipv6=1")
            self._sysctl("net.ipv6.conf.default.disable_ipv6=1")
            _ip("-n", self.name, "link", "set", "lo", "up")
            for port in self.ports:
                _ip("-n", self.name, "link", "add", f"sw{port}", "type", "veth", "peer", "name", f"t{port}")
                for side in (f"sw{port}", f"t{port}"):
                    _ip("-n", self.name, "link", "set", side, "mtu", "9500", "up")
        except NamespaceError:
            self.delete()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.delete()

    def delete(self) -> None:
        subprocess.run(["ip", "netns", "delete", self.name], capture_output=True, check=False)

    def _sysctl(self, setting: str) -> None:
        subprocess.run(["ip", "netns", "exec", self.name, "sysctl", "-q", "-w", setting],
                       capture_output=True, check=False)

    def command(self, *args: str) -> list[str]:
        """A command line that runs ``args`` inside the namespace."""
        return ["ip", "netns", "exec", self.name, *args]

    def open_sockets(self) -> dict[int, socket.socket]:
        """Raw sockets on the test side of every port, created inside the namespace."""
        return self.in_namespace(lambda: {p: _raw_socket(f"t{p}") for p in self.ports})

    def connect_tcp(self, port: int, timeout: float) -> bool:
        """Whether 127.0.0.1:port accepts connections inside the namespace."""
        def attempt() -> bool:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.settimeout(timeout)
                return sock.connect_ex(("127.0.0.1", port)) == 0
        return self.in_namespace(attempt)

    def in_namespace(self, function: Callable[[], _T]) -> _T:
        """Run ``function`` on a thread that has joined the namespace."""
        result: dict[str, _T] = {}
        failure: list[Exception] = []

        def body() -> None:
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                with open(f"/var/run/netns/{self.name}", "rb") as handle:
                    if libc.setns(handle.fileno(), _CLONE_NEWNET) != 0:
                        raise NamespaceError(f"setns: {os.strerror(ctypes.get_errno())}")
                result["value"] = function()
            except (OSError, NamespaceError) as exc:
                failure.append(exc)

        thread = threading.Thread(target=body, name=f"netns-{self.name}")
        thread.start()
        thread.join()
        if failure:
            raise NamespaceError(str(failure[0]))
        return result["value"]


def _raw_socket(interface: str) -> socket.socket:
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(_ETH_P_ALL))
    sock.bind((interface, 0))
    return sock
