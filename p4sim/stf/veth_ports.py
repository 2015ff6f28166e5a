"""The packet side of an STF run on a real switch process: one veth pair per STF port in
a private namespace, a reader per port, and "idle" judged by a quiet period.

A switch process gives no "idle" signal, so waiting means: no packet went in or came
out for QUIET_PERIOD_S, within a deadline. Shared by the BMv2 targets (Thrift and
P4Runtime), which differ only in how they configure the switch.
"""
from __future__ import annotations

import os
import socket
import threading
import time
from typing import Protocol

from lab.namespace import Netns
from lab.packet_socket import receive
from p4sim.stf.target import TargetCommandError

QUIET_PERIOD_S = 0.5
IDLE_DEADLINE_S = 30.0
READ_POLL_S = 0.1  # how soon a reader sees close()


class VethPorts:
    """Namespace ``<prefix><pid>`` with veth ``sN`` (switch) / ``hN`` (host) per port.

    Construct, start the switch inside (``command``), then ``open()`` the host sides.
    """

    def __init__(self, prefix: str, ports: list[int], quiet_period_s: float = QUIET_PERIOD_S) -> None:
        self.namespace = Netns(f"{prefix}{os.getpid()}", ports)
        self.quiet_period_s = quiet_period_s
        self._outputs: list[tuple[int, bytes]] = []
        self._lock = threading.Lock()
        self._last_activity = time.monotonic()
        self._stop = threading.Event()
        self._sockets: dict[int, socket.socket] = {}
        self._readers: list[threading.Thread] = []
        self.namespace.__enter__()

    @property
    def ports(self) -> list[int]:
        return self.namespace.ports

    def interface_args(self) -> list[str]:
        """``-i N@sN`` for every port, as simple_switch(_grpc) takes them."""
        return [arg for port in self.ports for arg in ("-i", f"{port}@s{port}")]

    def command(self, *args: str) -> list[str]:
        return self.namespace.command(*args)

    def open(self) -> None:
        """Open the host side of every port and start capturing what comes out."""
        self._sockets = self.namespace.host_sockets()
        for port, sock in self._sockets.items():
            reader = threading.Thread(target=self._read_port, args=(port, sock), daemon=True,
                                      name=f"stf-port-{port}")
            reader.start()
            self._readers.append(reader)

    def _read_port(self, port: int, sock: socket.socket) -> None:
        while not self._stop.is_set():
            try:
                frames = receive(sock, 1, READ_POLL_S)
            except OSError:
                return
            for data in frames:
                self.record(port, data)

    def record(self, port: int, data: bytes) -> None:
        """Note a packet that left the switch (also used for P4Runtime packet-ins)."""
        with self._lock:
            self._outputs.append((port, data))
            self._last_activity = time.monotonic()

    def send(self, port: int, data: bytes) -> None:
        if port not in self._sockets:
            raise TargetCommandError(f"port {port} has no interface (ports: {self.ports})")
        self._sockets[port].send(data)
        with self._lock:
            self._last_activity = time.monotonic()

    def wait_quiet(self, deadline_s: float = IDLE_DEADLINE_S) -> None:
        """Return once nothing went in or out for the quiet period."""
        deadline = time.monotonic() + deadline_s
        while True:
            with self._lock:
                quiet_for = time.monotonic() - self._last_activity
            if quiet_for >= self.quiet_period_s:
                return
            if time.monotonic() >= deadline:
                raise TargetCommandError(f"the switch kept sending packets for {deadline_s:.0f} s")
            time.sleep(self.quiet_period_s - quiet_for)  # re-check the quiet condition then

    def outputs(self) -> list[tuple[int, bytes]]:
        with self._lock:
            return list(self._outputs)

    def close(self) -> None:
        """Stop the readers and delete the namespace (with its veths)."""
        self._stop.set()
        for reader in self._readers:
            reader.join(timeout=2)
        for sock in self._sockets.values():
            sock.close()
        self.namespace.close()


class PacketPorts(Protocol):
    """What VethPacketIO needs of its ports: veths (VethPorts) or pcap files (PcapPorts)."""

    def send(self, port: int, data: bytes) -> None: ...

    def wait_quiet(self, deadline_s: float = IDLE_DEADLINE_S) -> None: ...

    def outputs(self) -> list[tuple[int, bytes]]: ...


class VethPacketIO:
    """The packet half of an STF target whose ports are veths or pcap files
    (``self._ports``): the P4Runtime and the Thrift BMv2 targets send, wait and collect
    the same way."""

    _ports: PacketPorts | None

    def send(self, port: int, data: bytes) -> None:
        assert self._ports is not None
        self._ports.send(port, data)

    def wait_idle(self) -> None:
        assert self._ports is not None
        self._ports.wait_quiet()

    def outputs(self) -> list[tuple[int, bytes]]:
        return self._ports.outputs() if self._ports is not None else []
