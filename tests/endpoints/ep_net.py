"""Namespaces for the endpoint tests (root): two hosts joined by a veth, or by two veths
through a middle namespace where a Python forwarder plays a tiny "fabric" that may trim
or reorder packets. Namespaces are named ``ep-<pid>-<tag>`` and always deleted.
"""
from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from wire_formats.layers import (CTL_CREDIT, CTL_CREDIT_REQUEST, DSCP_TRIMMED, PDS_DATA_TYPES,
                            UDP_PORT_UEC, UecControl, UecRequestCC)
from lab.namespace import Netns, ip, set_link, veth_pair
from lab.packet_socket import PACKET_OUTGOING, packet_socket

if TYPE_CHECKING:
    from ep_fabric import Policy, TimedForwarder

REPO = Path(__file__).resolve().parents[2]
SENDER_IP = "10.77.0.1"
RECEIVER_IP = "10.77.0.2"


def uec_data_entropy(frame: bytes) -> int | None:
    """The UDP source port (entropy value) of an Ethernet/IPv4/UDP frame to the UEC
    port whose PDS type is a data request; None for any other frame."""
    if len(frame) < 14 + 20 + 8 + 1 or frame[12:14] != b"\x08\x00" or frame[23] != 17:
        return None
    ihl = (frame[14] & 0x0F) * 4
    udp = 14 + ihl
    if int.from_bytes(frame[udp + 2:udp + 4], "big") != UDP_PORT_UEC or \
            (frame[udp + 8] >> 3) not in PDS_DATA_TYPES:
        return None
    return int.from_bytes(frame[udp:udp + 2], "big")


def trim_frame(frame: bytes, length: int = 64) -> bytes:
    """What a trimming switch does: cut to ``length`` bytes, fix the IPv4/UDP lengths
    and checksum, zero the UDP checksum, mark the trimmed DSCP (ECN kept)."""
    packet = Ether(frame[:length])
    ip_layer = packet[IP]
    ip_layer.tos = (DSCP_TRIMMED << 2) | (ip_layer.tos & 0b11)
    ip_layer.len = length - 14
    ip_layer.chksum = None
    packet[UDP].len = length - 14 - ip_layer.ihl * 4
    packet[UDP].chksum = 0
    return bytes(packet)


Mangler = Callable[[bytes], list[bytes]]
"""Turns one forwarded frame into the frames to emit now (possibly none, or several)."""


@dataclass
class TrimEvery:
    """Trims every ``nth`` UEC data frame (to 64 bytes, as a switch would)."""

    nth: int
    seen: int = 0
    trimmed: int = 0
    entropy_values: set[int] = field(default_factory=set)

    def __call__(self, frame: bytes) -> list[bytes]:
        entropy = uec_data_entropy(frame)
        if entropy is None:
            return [frame]
        self.entropy_values.add(entropy)
        self.seen += 1
        if self.seen % self.nth:
            return [frame]
        self.trimmed += 1
        return [trim_frame(frame)]


@dataclass
class DropEvery:
    """Drops every ``nth`` UEC data frame, retransmissions included (silent loss)."""

    nth: int
    seen: int = 0
    dropped: int = 0

    def __call__(self, frame: bytes) -> list[bytes]:
        if uec_data_entropy(frame) is None:
            return [frame]
        self.seen += 1
        if self.seen % self.nth:
            return [frame]
        self.dropped += 1
        return []


@dataclass
class Reorder:
    """Holds every ``nth`` UEC data frame (up to the ``hold_until``-th) back until
    ``delay`` more have passed, so it arrives after packets sent later (as sprayed
    packets on unequal paths do)."""

    nth: int
    delay: int
    hold_until: int
    seen: int = 0
    reordered: int = 0
    entropy_values: set[int] = field(default_factory=set)
    _held: list[list] = field(default_factory=list)

    def __call__(self, frame: bytes) -> list[bytes]:
        entropy = uec_data_entropy(frame)
        if entropy is None:
            return [frame]
        self.entropy_values.add(entropy)
        self.seen += 1
        out: list[bytes] = []
        if self.seen % self.nth == 0 and self.seen <= self.hold_until:
            self._held.append([self.delay, frame])
        else:
            out.append(frame)
        for held in self._held:
            held[0] -= 1
        out += [frame for countdown, frame in self._held if countdown < 0]
        self.reordered += sum(1 for countdown, _f in self._held if countdown < 0)
        self._held = [held for held in self._held if held[0] >= 0]
        return out

    def flush(self) -> list[bytes]:
        frames = [frame for _c, frame in self._held]
        self._held = []
        return frames


@dataclass
class ReduceCredits:
    """Plays a congested switch's credit marking on the way back: every CREDIT is
    shifted right by ``shift`` and marked; counts what reaches the sender."""

    shift: int
    credits: int = 0
    credit_bytes: int = 0

    def __call__(self, frame: bytes) -> list[bytes]:
        packet = Ether(frame)
        control = packet.getlayer(UecControl)
        if control is None or control.ctl_type != CTL_CREDIT:
            return [frame]
        control.credit >>= self.shift
        control.marked = 1
        self.credits += 1
        self.credit_bytes += control.credit
        return [bytes(packet)]


@dataclass
class DropCreditsUntilAsked:
    """From CREDIT number ``first`` on, drops every CREDIT (a switch's credit meter
    turning red) until the sender sends a CREDIT_REQUEST: ``back`` sits on the way to
    the sender, ``forward`` on the way to the receiver."""

    first: int
    seen: int = 0
    dropped: int = 0
    requests: int = 0

    def forward(self, frame: bytes) -> list[bytes]:
        if uec_data_entropy(frame) is None:
            control = Ether(frame).getlayer(UecControl)
            if control is not None and control.ctl_type == CTL_CREDIT_REQUEST:
                self.requests += 1
        return [frame]

    def back(self, frame: bytes) -> list[bytes]:
        control = Ether(frame).getlayer(UecControl)
        if control is None or control.ctl_type != CTL_CREDIT:
            return [frame]
        self.seen += 1
        if self.seen >= self.first and not self.requests:
            self.dropped += 1
            return []
        return [frame]


@dataclass
class ControlEntropy:
    """Records the UDP source port (entropy value) of every UEC frame passing (put on
    the way back: the receiver's ACKs, NACKs and credits)."""

    frames: int = 0
    entropy_values: set[int] = field(default_factory=set)

    def __call__(self, frame: bytes) -> list[bytes]:
        if len(frame) >= 14 + 20 + 8 and frame[12:14] == b"\x08\x00" and frame[23] == 17:
            udp = 14 + (frame[14] & 0x0F) * 4
            if int.from_bytes(frame[udp + 2:udp + 4], "big") == UDP_PORT_UEC:
                self.frames += 1
                self.entropy_values.add(int.from_bytes(frame[udp:udp + 2], "big"))
        return [frame]


@dataclass
class CountData:
    """Counts the UEC data payload bytes that pass (PDS header excluded)."""

    payload_bytes: int = 0

    def __call__(self, frame: bytes) -> list[bytes]:
        if uec_data_entropy(frame) is not None:
            self.payload_bytes += len(bytes(Ether(frame)[UecRequestCC].payload))
        return [frame]


def _pass(frame: bytes) -> list[bytes]:
    return [frame]


class Forwarder:
    """Bridges two interfaces of the middle namespace; frames from the sender's side
    go through ``mangle``, frames back through ``mangle_back``."""

    def __init__(self, toward_receiver: socket.socket, toward_sender: socket.socket,
                 mangle: Mangler, mangle_back: Mangler = _pass) -> None:
        self._to_receiver = toward_receiver
        self._to_sender = toward_sender
        self._mangle = mangle
        self._stop = threading.Event()
        self.forwarded = 0
        self._threads = [
            threading.Thread(target=self._pump, args=(toward_sender, toward_receiver, mangle),
                             daemon=True),
            threading.Thread(target=self._pump, args=(toward_receiver, toward_sender,
                                                      mangle_back), daemon=True),
        ]

    def __enter__(self) -> "Forwarder":
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(5)
        self._to_receiver.close()
        self._to_sender.close()

    def _pump(self, source: socket.socket, sink: socket.socket, mangle: Mangler) -> None:
        while not self._stop.is_set():
            ready, _w, _x = select.select([source], [], [], 0.05)
            if not ready:
                continue
            frame, address = source.recvfrom(65535)
            if address[2] == PACKET_OUTGOING:
                continue
            for out in mangle(frame):
                sink.send(out)
                self.forwarded += 1


class HostPair:
    """Sender host ``a`` and receiver host ``b``; with ``middle`` a namespace ``m``
    between them whose interfaces ``ta``/``tb`` a Forwarder bridges."""

    def __init__(self, tag: str, middle: bool = False) -> None:
        prefix = f"ep-{os.getpid()}-{tag}"
        self.sender_ns = Netns(f"{prefix}-a", [])
        self.receiver_ns = Netns(f"{prefix}-b", [])
        self.middle_ns = Netns(f"{prefix}-m", []) if middle else None

    def __enter__(self) -> "HostPair":
        spaces = [ns for ns in (self.sender_ns, self.receiver_ns, self.middle_ns) if ns]
        entered: list[Netns] = []
        try:
            for ns in spaces:
                ns.__enter__()
                entered.append(ns)
            a, b = self.sender_ns.name, self.receiver_ns.name
            if self.middle_ns is None:
                veth_pair("eth0", "eth0", namespace=a, peer_namespace=b)
            else:
                m = self.middle_ns.name
                veth_pair("eth0", "ta", namespace=a, peer_namespace=m)
                veth_pair("eth0", "tb", namespace=b, peer_namespace=m)
                for end in ("ta", "tb"):
                    set_link(end, namespace=m)
            for ns, address in ((a, SENDER_IP), (b, RECEIVER_IP)):
                ip("-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
                set_link("eth0", namespace=ns)
        except BaseException:
            for ns in entered:
                ns.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        """Every namespace deleted, each killing what it still runs."""
        for ns in (self.sender_ns, self.receiver_ns, self.middle_ns):
            if ns is not None:
                ns.close()

    def forwarder(self, mangle: Mangler, mangle_back: Mangler = _pass) -> Forwarder:
        assert self.middle_ns is not None, "HostPair(middle=True) has the forwarder"

        def open_pair() -> tuple[socket.socket, socket.socket]:
            return _packet_socket("tb"), _packet_socket("ta")
        to_receiver, to_sender = self.middle_ns.run_inside(open_pair)
        return Forwarder(to_receiver, to_sender, mangle, mangle_back)

    def timed_forwarder(self, policy: "Policy") -> "TimedForwarder":
        """A forwarder that releases frames toward the receiver at the policy's times
        (ep_fabric: a bottleneck queue, or two paths of unequal delay)."""
        from ep_fabric import TimedForwarder
        assert self.middle_ns is not None, "HostPair(middle=True) has the forwarder"

        def open_pair() -> tuple[socket.socket, socket.socket]:
            return _packet_socket("tb"), _packet_socket("ta")
        to_receiver, to_sender = self.middle_ns.run_inside(open_pair)
        return TimedForwarder(to_receiver, to_sender, policy)

    def add_sender_address(self, address: str) -> None:
        """One more address on the sender host (one host, several senders)."""
        ip("-n", self.sender_ns.name, "addr", "add", f"{address}/24", "dev", "eth0")

    def start(self, ns: Netns, module: str, *args: str,
              stdin: bool = False) -> subprocess.Popen:
        """``python -m module args`` in ``ns`` (a bare Popen: the tests talk to its
        pipes); killed when the pair closes."""
        return ns.spawn([sys.executable, "-m", module, *args], cwd=REPO, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True,
                        stdin=subprocess.PIPE if stdin else None)


def _packet_socket(interface: str) -> socket.socket:
    return packet_socket(interface, rcvbuf=8 << 20, auxdata=False)


def assert_acks_coalesced(received: dict, *, flows: int = 1, ack_every: int = 8,
                          close_attempts: int = 3) -> None:
    """The receiver's control traffic is coalesced. How many ACKs a timer or a grant
    sends depends on the machine's pace, so no ratio is asserted here (bench/ prints
    it); what holds on any machine is that every ACK_CC has a cause and each cause is
    bounded by what it answers."""
    causes = received["acks_by_cause"]
    # ACK_CCs, NACKs, and one plain ACK per CLOSE attempt (the sender makes at most
    # ``close_attempts`` per flow): nothing else is sent with the ACK carrier.
    closes = received["control_packets"] - sum(causes.values()) - received["nacks"]
    assert flows <= closes <= flows * close_attempts, (causes, received)
    assert causes["count"] <= received["packets"] // ack_every
    assert causes["sender"] <= received["ack_requests"] + received["retransmissions"]
    assert causes["credit"] <= received["credits"]
    # A count or timer ACK answers at least one packet since the ACK before it.
    assert causes["count"] + causes["timer"] <= received["packets"]


def wait_for_line(process: subprocess.Popen, text: str, timeout: float) -> str:
    """The first stdout line starting with ``text``; fails with stderr if the process
    ends or the deadline passes first."""
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _w, _x = select.select([process.stdout], [], [], deadline - time.monotonic())
        if not ready:
            break
        line = process.stdout.readline()
        if not line:
            break
        if line.startswith(text):
            return line
    process.kill()
    _out, err = process.communicate(timeout=10)
    raise AssertionError(f"no {text!r} line within {timeout}s; stderr: {err[-2000:]}")


def finish(process: subprocess.Popen, timeout: float) -> tuple[int, dict, str]:
    """Waits for an endpoint; returns its exit status, summary JSON (last stdout line)
    and stderr."""
    out, err = process.communicate(timeout=timeout)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    summary = json.loads(lines[-1]) if lines else {}
    return process.returncode, summary, err
