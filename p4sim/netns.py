"""Private network namespaces with veth pairs (root): the one helper every veth test,
benchmark, the STF BMv2 target, the demo and the fabric launcher use.

A `Netns` holds veth pairs `sN` (switch side) / `hN` (host side) for each port N,
runs a switch inside with `ip netns exec`, and reaches into the namespace through
sockets opened from a short-lived thread that joined it with setns(2): network
namespaces are per thread, so the calling process itself never moves (unless it asks
to, with `enter_namespace`).  Everything is deleted on exit, also on failure.
"""

from __future__ import annotations

import ctypes
import io
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any, Callable, TypeVar

from p4sim.switch.packet_io import (AUX_SPACE, ETH_P_ALL, PACKET_AUXDATA, PACKET_OUTGOING,
                                    SOL_PACKET, restore_vlan_tag)

T = TypeVar("T")
CLONE_NEWNET = 0x40000000


class NetnsError(RuntimeError):
    """A namespace, link or switch process could not be set up."""


def ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise NetnsError(f"ip {' '.join(args)}: {done.stderr.strip()}")


def can_run() -> bool:
    """Root with a working `ip netns`."""
    if os.geteuid() != 0:
        return False
    return subprocess.run(["ip", "netns", "list"], capture_output=True).returncode == 0


class Netns:
    """A namespace with `ports` veth pairs; a context manager that always cleans up."""

    def __init__(self, name: str, ports: list[int]) -> None:
        self.name = name
        self.ports = list(ports)
        self._processes: list[subprocess.Popen] = []
        self._forwards: list[TcpForward] = []

    def __enter__(self) -> "Netns":
        ip("netns", "add", self.name)
        try:
            for key in ("all", "default"):
                self.sysctl(f"net.ipv6.conf.{key}.disable_ipv6=1")
            ip("-n", self.name, "link", "set", "lo", "up")
            for port in self.ports:
                ip("-n", self.name, "link", "add", f"s{port}", "type", "veth",
                   "peer", "name", f"h{port}")
                for end in (f"s{port}", f"h{port}"):
                    ip("-n", self.name, "link", "set", end, "mtu", "9500", "up")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for forward in self._forwards:
            forward.close()
        for process in self._processes:
            if process.poll() is None:
                process.kill()
                process.wait(10)
        subprocess.run(["ip", "netns", "delete", self.name], capture_output=True, check=False)

    def sysctl(self, setting: str) -> None:
        subprocess.run(["ip", "netns", "exec", self.name, "sysctl", "-q", "-w", setting],
                       capture_output=True, check=False)

    # -- running code inside -----------------------------------------------------------
    def run_inside(self, fn: Callable[[], T]) -> T:
        """fn() on a thread that joined the namespace; its sockets stay in there."""
        return run_in_namespace(f"/var/run/netns/{self.name}", fn)

    def host_socket(self, port: int) -> socket.socket:
        """Raw socket on the host end hN of port N (what a host on that port sees)."""
        def make() -> socket.socket:
            sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
            sock.bind((f"h{port}", ETH_P_ALL))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
            sock.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)    # to see VLAN tags
            return sock
        return self.run_inside(make)

    def host_sockets(self) -> dict[int, socket.socket]:
        """host_socket for every port."""
        return {port: self.host_socket(port) for port in self.ports}

    def tcp_connect(self, port: int) -> socket.socket:
        return self.run_inside(lambda: socket.create_connection(("127.0.0.1", port), 5))

    def accepts_tcp(self, port: int, timeout: float) -> bool:
        """Whether 127.0.0.1:port accepts connections inside the namespace."""
        def attempt() -> bool:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.settimeout(timeout)
                return sock.connect_ex(("127.0.0.1", port)) == 0
        return self.run_inside(attempt)

    def forward_tcp(self, port: int) -> "TcpForward":
        """A loopback port out here relaying to 127.0.0.1:port in the namespace, for
        clients that open their own sockets (gRPC's); closed with the namespace."""
        forward = TcpForward(lambda: self.tcp_connect(port))
        self._forwards.append(forward)
        return forward

    def command(self, *args: str) -> list[str]:
        """A command line that runs ``args`` inside the namespace."""
        return ["ip", "netns", "exec", self.name, *args]

    # -- the switch process ------------------------------------------------------------
    def start_switch(self, args: list[str], timeout: float = 30.0) -> "SwitchProcess":
        command = self.command(sys.executable, "-m", "p4sim.target.switch_cli", *args)
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self._processes.append(process)
        return SwitchProcess(process, timeout)


class SwitchProcess:
    """A running p4sim-switch; construction returns once it printed its ready line."""

    def __init__(self, process: subprocess.Popen, timeout: float) -> None:
        self.process = process
        self._stderr = bytearray()
        # Drain stderr all along: a full pipe would block the switch's logging.
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()
        self.ready_line = self._wait_ready(timeout)

    def _read_stderr(self) -> None:
        stream = self.process.stderr
        assert isinstance(stream, io.BufferedReader)  # Popen(stderr=PIPE), default buffering
        for chunk in iter(lambda: stream.read1(65536), b""):
            self._stderr += chunk

    @property
    def stderr(self) -> str:
        return self._stderr.decode(errors="replace")

    def _wait_ready(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        stdout = self.process.stdout
        assert stdout is not None
        while time.monotonic() < deadline:
            ready, _w, _x = select.select([stdout], [], [], deadline - time.monotonic())
            if not ready:
                break
            line = stdout.readline().decode()
            if not line:
                break
            if line.startswith("p4sim-switch ready"):
                return line.strip()
        self.process.kill()
        self.process.wait(10)
        self._stderr_reader.join(10)
        raise NetnsError(f"p4sim-switch not ready within {timeout}s: {self.stderr[-2000:]}")

    def terminate(self, timeout: float = 15.0) -> tuple[int, str]:
        """SIGTERM, then wait; returns (exit status, stderr)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
            raise NetnsError(f"p4sim-switch ignored SIGTERM for {timeout}s") from None
        self._stderr_reader.join(10)
        return self.process.returncode, self.stderr


class TcpForward:
    """Listens on 127.0.0.1 (an ephemeral port) and relays each accepted connection,
    both ways, to a fresh one made by ``connect``."""

    def __init__(self, connect: Callable[[], socket.socket]) -> None:
        self._connect = connect
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.address = "127.0.0.1:%d" % self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, name="tcp-forward", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _addr = self._listener.accept()
            except OSError:              # closed
                return
            try:
                server = self._connect()
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._closed:
                    client.close()
                    server.close()
                    return
                self._sockets += [client, server]
            for src, dst in ((client, server), (server, client)):
                threading.Thread(target=_pump, args=(src, dst), name="tcp-forward-pump",
                                 daemon=True).start()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            sockets, self._sockets = self._sockets, []
        self._listener.close()
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass                     # already disconnected
            sock.close()


def _pump(src: socket.socket, dst: socket.socket) -> None:
    """Copy src to dst until src ends; then end dst's sending side."""
    try:
        while True:
            data = src.recv(1 << 16)
            if not data:
                break
            dst.sendall(data)
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass                             # either side closed: nothing left to relay


def receive(sock: socket.socket, count: int, timeout: float) -> list[bytes]:
    """Up to `count` frames arriving on `sock` (its own transmissions ignored), with
    their VLAN tags (for sockets from host_socket)."""
    frames: list[bytes] = []
    deadline = time.monotonic() + timeout
    while len(frames) < count:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        ready, _w, _x = select.select([sock], [], [], remaining)
        if not ready:
            break
        data, ancillary, _flags, address = sock.recvmsg(65535, AUX_SPACE)
        if address[2] != PACKET_OUTGOING:
            frames.append(restore_vlan_tag(data, ancillary))
    return frames


def enter_namespace(name: str) -> None:
    """Move the calling thread into namespace ``name``; threads and processes it starts
    afterwards are born there (gRPC's own threads included)."""
    enter_namespace_file(f"/var/run/netns/{name}")


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
