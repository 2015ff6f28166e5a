"""Network namespaces, veth pairs, and running code inside a namespace (root).

A `Netns` holds one veth pair per port N, ``<switch_prefix>N`` (switch side) and
``<host_prefix>N`` (host side), runs programs inside with ``ip netns exec``, and
reaches into the namespace through sockets opened from a short-lived thread that
joined it with setns(2): network namespaces are per thread, so the calling process
itself never moves (unless it asks to, with `enter_namespace`). Everything it
started is stopped and the namespace deleted on exit, also when the body raises.
"""
from __future__ import annotations

import ctypes
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from lab.errors import NetnsError
from lab.packet_socket import packet_socket
from lab.process import ManagedProcess
from lab.readiness import tcp_accepts
from lab.switch import SwitchProcess
from lab.tcp_forward import TcpForward

T = TypeVar("T")
CLONE_NEWNET = 0x40000000
NETNS_DIR = Path("/var/run/netns")
DEFAULT_MTU = 9500


def ip(*args: str) -> None:
    """Run ``ip ARGS``; NetnsError with its message if it fails."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise NetnsError(f"ip {' '.join(args)}: {done.stderr.strip()}")


def can_run() -> bool:
    """Root with a working `ip netns`."""
    if os.geteuid() != 0:
        return False
    return subprocess.run(["ip", "netns", "list"], capture_output=True).returncode == 0


def veth_pair(a: str, b: str, *, namespace: str, peer_namespace: str | None = None) -> None:
    """A veth pair: ``a`` in ``namespace``, ``b`` in ``peer_namespace`` (default the
    same); both ends down until set_link."""
    peer = ["netns", peer_namespace] if peer_namespace and peer_namespace != namespace else []
    ip("-n", namespace, "link", "add", a, "type", "veth", "peer", "name", b, *peer)


def set_link(name: str, *, namespace: str, mtu: int | None = None, up: bool = True) -> None:
    """Set interface ``name``'s MTU (if given) and bring it up (or down)."""
    ip("-n", namespace, "link", "set", name, *(("mtu", str(mtu)) if mtu else ()),
       "up" if up else "down")


class Netns:
    """A namespace with a veth pair per port; a context manager that always cleans up.

    ``mtu``: set on both ends of every pair (None: the kernel's default, 1500).
    """

    def __init__(self, name: str, ports: list[int], *, switch_prefix: str = "s",
                 host_prefix: str = "h", mtu: int | None = DEFAULT_MTU) -> None:
        self.name = name
        self.ports = list(ports)
        self.switch_prefix = switch_prefix
        self.host_prefix = host_prefix
        self.mtu = mtu
        self._processes: list[ManagedProcess] = []
        self._popens: list[subprocess.Popen] = []
        self._forwards: list[TcpForward] = []

    @property
    def path(self) -> str:
        return str(NETNS_DIR / self.name)

    def switch_interface(self, port: int) -> str:
        return f"{self.switch_prefix}{port}"

    def host_interface(self, port: int) -> str:
        return f"{self.host_prefix}{port}"

    def __enter__(self) -> "Netns":
        ip("netns", "add", self.name)
        try:
            for key in ("all", "default"):  # no IPv6 autoconfiguration traffic on the ports
                self.sysctl(f"net.ipv6.conf.{key}.disable_ipv6=1")
            set_link("lo", namespace=self.name)
            for port in self.ports:
                veth_pair(self.switch_interface(port), self.host_interface(port), namespace=self.name)
                for end in (self.switch_interface(port), self.host_interface(port)):
                    set_link(end, namespace=self.name, mtu=self.mtu)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop what runs inside (newest first) and delete the namespace."""
        for forward in self._forwards:
            forward.close()
        self._forwards.clear()
        for process in reversed(self._processes):
            process.stop()
        self._processes.clear()
        for popen in reversed(self._popens):
            if popen.poll() is None:
                popen.kill()
                popen.wait(10)
        self._popens.clear()
        subprocess.run(["ip", "netns", "delete", self.name], capture_output=True, check=False)

    def sysctl(self, setting: str) -> None:
        subprocess.run(self.command("sysctl", "-q", "-w", setting), capture_output=True, check=False)

    # -- running programs inside -------------------------------------------------------
    def command(self, *args: str) -> list[str]:
        """A command line that runs ``args`` inside the namespace."""
        return ["ip", "netns", "exec", self.name, *args]

    def start(self, name: str, argv: list[str], log_path: Path | None = None,
              **options: Any) -> ManagedProcess:
        """``argv`` inside the namespace as a ManagedProcess, stopped on close()."""
        process = ManagedProcess(name, self.command(*argv), log_path, **options)
        self._processes.append(process)
        return process

    def spawn(self, argv: list[str], **popen: Any) -> subprocess.Popen:
        """``argv`` inside the namespace as a bare Popen (for callers that talk to its
        pipes themselves); killed on close() if still running."""
        process = subprocess.Popen(self.command(*argv), **popen)
        self._popens.append(process)
        return process

    def start_switch(self, args: list[str], timeout: float = 30.0) -> SwitchProcess:
        """p4sim-switch (this Python's) inside with ``args``, once it printed its ready
        line; stopped on close()."""
        popen = subprocess.Popen(self.command(sys.executable, "-m", "p4sim.target.switch_cli", *args),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            switch = SwitchProcess(popen, timeout)
        except BaseException:
            if popen.poll() is None:
                popen.kill()
            popen.wait(10)
            raise
        self._processes.append(switch)
        return switch

    # -- running code inside -----------------------------------------------------------
    def run_inside(self, fn: Callable[[], T]) -> T:
        """fn() on a thread that joined the namespace; its sockets stay in there."""
        return run_in_namespace(self.path, fn)

    def host_socket(self, port: int) -> socket.socket:
        """Raw socket on the host end of port N (what a host on that port sees)."""
        return self.run_inside(lambda: packet_socket(self.host_interface(port)))

    def host_sockets(self) -> dict[int, socket.socket]:
        """host_socket for every port."""
        return {port: self.host_socket(port) for port in self.ports}

    def tcp_connect(self, port: int) -> socket.socket:
        return self.run_inside(lambda: socket.create_connection(("127.0.0.1", port), 5))

    def accepts_tcp(self, port: int, timeout: float) -> bool:
        """Whether 127.0.0.1:port accepts connections inside the namespace."""
        return self.run_inside(lambda: tcp_accepts("127.0.0.1", port, timeout))

    def forward_tcp(self, port: int) -> TcpForward:
        """A loopback port out here relaying to 127.0.0.1:port in the namespace, for
        clients that open their own sockets (gRPC's); closed with the namespace."""
        forward = TcpForward(lambda: self.tcp_connect(port))
        self._forwards.append(forward)
        return forward


def enter_namespace(name: str) -> None:
    """Move the calling thread into namespace ``name``; threads and processes it starts
    afterwards are born there (gRPC's own threads included)."""
    enter_namespace_file(str(NETNS_DIR / name))


def enter_namespace_file(path: str) -> None:
    """Move the calling thread into the network namespace behind ``path`` (a
    /var/run/netns entry, or /proc/PID/ns/net for namespaces that have no name, as
    Mininet's hosts)."""
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            errno = ctypes.get_errno()
            raise NetnsError(f"setns({path}): {os.strerror(errno)}")
    finally:
        os.close(fd)


def run_in_namespace(path: str, fn: Callable[[], T]) -> T:
    """fn() on a thread that joined the namespace behind ``path``: namespaces are per
    thread, so the caller never moves."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            enter_namespace_file(path)
            result["value"] = fn()
        except BaseException as exc:  # handed to the caller below
            result["error"] = exc
    thread = threading.Thread(target=target, name=f"netns:{path}")
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]
