"""Ordinary TCP and UDP between hosts on different leaves of a launched, programmed
fabric: the kernel's own stacks in the host namespaces, real veths, the real switch.

Both failed when host veths kept transmit checksum offload on (the switch forwarded
frames whose checksum was never filled in) and when the hosts' MTU exceeded what the
switch reads (TCP stalled on its first full-sized segments)."""
from __future__ import annotations

import hashlib
import json
import os
import random
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from control.launch import HOST_MTU, FabricNetwork, start_controller
from control.offload import checksum_offload

pytestmark = pytest.mark.netns
ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_leaves.toml"
POLICY = ROOT / "topologies/two_leaves.policy.toml"
SEED = 1307
TCP_BYTES = 4 << 20
TCP_PORT = 5001
UDP_PORT = 5002        # not the UEC port: plain UDP, no INT
UDP_COUNT = 300
UDP_WINDOW = 4          # datagrams in flight: paced by the echoes, not by sleeping
IP_UDP_HEADERS = 28


@pytest.fixture(scope="module")
def fabric():
    with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-tu") as net:
        start_controller(net, POLICY)
        yield net


def _udp_stats(net: FabricNetwork, host: str) -> dict[str, int]:
    """The host namespace's Udp counters from /proc (per thread: the namespace's own)."""
    def read() -> dict[str, int]:
        lines = [line.split() for line in Path("/proc/thread-self/net/snmp").read_text().splitlines()
                 if line.startswith("Udp:")]
        return dict(zip(lines[0][1:], map(int, lines[1][1:])))
    return net.in_endpoint_namespace(host, read)


def test_host_interfaces_checksum_in_software_and_fit_the_switch(fabric):
    for host in ("h1", "h2", "collector"):
        assert fabric.in_endpoint_namespace(host, lambda: checksum_offload("eth0")) == (False, False)
        done = subprocess.run(["ip", "-j", "-n", fabric.namespace_of(host), "link", "show", "eth0"],
                              capture_output=True, text=True, check=True)
        assert json.loads(done.stdout)[0]["mtu"] == HOST_MTU


def test_tcp_transfer_across_leaves_delivers_every_byte(fabric):
    data = random.Random(SEED).randbytes(TCP_BYTES)
    h1, h2 = fabric.endpoints["h1"], fabric.endpoints["h2"]

    def listen() -> socket.socket:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind((h2.ip, TCP_PORT))
        server.listen(1)
        server.settimeout(60)
        return server
    server = fabric.in_endpoint_namespace("h2", listen)
    received = hashlib.sha256()
    counted = [0]
    failure: list[BaseException] = []

    def serve() -> None:
        try:
            connection, _ = server.accept()
            with connection:
                connection.settimeout(60)
                while chunk := connection.recv(1 << 16):
                    received.update(chunk)
                    counted[0] += len(chunk)
        except BaseException as exc:  # reported by the test thread below
            failure.append(exc)
    reader = threading.Thread(target=serve)
    reader.start()
    client = fabric.in_endpoint_namespace("h1", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
    started = time.monotonic()
    try:
        client.settimeout(60)
        client.connect((h2.ip, TCP_PORT))
        client.sendall(data)
        client.shutdown(socket.SHUT_WR)
        reader.join(120)
    finally:
        client.close()
        server.close()
    elapsed = time.monotonic() - started
    assert not reader.is_alive(), "receiver still reading after 120 s"
    assert not failure, f"receiver failed: {failure[0]!r}"
    print(f"TCP {h1.ip} -> {h2.ip}: {counted[0]} bytes in {elapsed:.2f} s "
          f"({counted[0] * 8 / elapsed / 1e6:.1f} Mbit/s)")
    assert counted[0] == TCP_BYTES
    assert received.hexdigest() == hashlib.sha256(data).hexdigest()


def test_udp_datagrams_with_checksums_all_arrive_and_verify(fabric):
    """h1 sends numbered datagrams of every size up to the MTU (the kernel checksums
    each, in software); h2's kernel verifies every checksum (receive offload is off
    too) and echoes what it got, and h1 compares. A wrong checksum is a drop, counted
    in h2's Udp InCsumErrors."""
    rng = random.Random(SEED)
    sizes = [rng.randrange(4, HOST_MTU - IP_UDP_HEADERS + 1) for _ in range(UDP_COUNT - 2)]
    sizes += [4, HOST_MTU - IP_UDP_HEADERS]   # numbered: 4 bytes of sequence number at least
    h1, h2 = fabric.endpoints["h1"], fabric.endpoints["h2"]
    before = _udp_stats(fabric, "h2")

    def bound(ip: str) -> socket.socket:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((ip, UDP_PORT))
        sock.settimeout(10)
        return sock
    echo = fabric.in_endpoint_namespace("h2", lambda: bound(h2.ip))
    sender = fabric.in_endpoint_namespace("h1", lambda: bound(h1.ip))
    stop = threading.Event()

    def echo_back() -> None:
        while not stop.is_set():
            try:
                payload, address = echo.recvfrom(1 << 16)
            except (socket.timeout, OSError):
                continue
            echo.sendto(payload, address)
    echoer = threading.Thread(target=echo_back)
    echoer.start()
    expected = {i: i.to_bytes(4, "big") + rng.randbytes(size - 4) for i, size in enumerate(sizes)}
    back: dict[bytes, int] = {payload: i for i, payload in expected.items()}
    echoed: set[int] = set()
    try:
        pending = list(expected)
        in_flight = 0
        while pending or in_flight:
            while pending and in_flight < UDP_WINDOW:
                sender.sendto(expected[pending.pop(0)], (h2.ip, UDP_PORT))
                in_flight += 1
            try:
                payload = sender.recv(1 << 16)
            except socket.timeout:
                break  # something was lost: the count below says how much
            in_flight -= 1
            assert payload in back, f"echo of {len(payload)} bytes matches nothing sent"
            echoed.add(back[payload])
    finally:
        stop.set()
        echoer.join(30)
        echo.close()
        sender.close()
    after = _udp_stats(fabric, "h2")
    missing = sorted(set(expected) - echoed)
    print(f"UDP: {len(echoed)}/{len(expected)} datagrams echoed; h2 InCsumErrors "
          f"{after['InCsumErrors'] - before['InCsumErrors']}")
    assert after["InCsumErrors"] == before["InCsumErrors"], "the switch emitted bad checksums"
    assert not missing, f"{len(missing)} datagrams lost, e.g. #{missing[0]} ({sizes[missing[0]]} bytes)"
    assert after["InDatagrams"] - before["InDatagrams"] >= len(expected)
