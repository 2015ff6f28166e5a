"""lab.namespace with real namespaces, veth pairs and processes (root)."""
from __future__ import annotations

import itertools
import os
import socket
import subprocess
import sys

import pytest

from lab.errors import NetnsError
from lab.namespace import NETNS_DIR, Netns, set_link, veth_pair
from lab.packet_socket import packet_socket, receive

pytestmark = pytest.mark.netns
_names = itertools.count()


def unique(tag: str) -> str:
    return f"lab{os.getpid()}-{tag}{next(_names)}"


def exists(name: str) -> bool:
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
    return (NETNS_DIR / name).exists() or any(line.split()[0] == name for line in listed.splitlines() if line)


def interfaces(ns: Netns) -> dict[str, int]:
    """Interface name -> MTU inside the namespace (asked with ip, and the names checked
    against what a thread that joined the namespace sees)."""
    done = subprocess.run(ns.command("ip", "-o", "link", "show"), capture_output=True, text=True, check=True)
    found = {}
    for line in done.stdout.splitlines():
        name = line.split(":")[1].strip().split("@")[0]
        found[name] = int(line.split(" mtu ")[1].split()[0])
    assert set(ns.run_inside(lambda: [n for _i, n in socket.if_nameindex()])) == set(found)
    return found


def test_veth_pairs_and_mtu() -> None:
    with Netns(unique("v"), [1, 2]) as ns:
        assert interfaces(ns) == {"lo": 65536, "s1": 9500, "h1": 9500, "s2": 9500, "h2": 9500}
    with Netns(unique("p"), [3], switch_prefix="swp", mtu=None) as ns:
        assert interfaces(ns) == {"lo": 65536, "swp3": 1500, "h3": 1500}


def test_namespace_is_deleted_even_when_the_body_raises() -> None:
    name = unique("raise")
    with pytest.raises(ZeroDivisionError):
        with Netns(name, [1]):
            assert exists(name)
            1 / 0
    assert not exists(name)


def test_a_failed_setup_leaves_nothing_behind() -> None:
    name = unique("bad")
    with pytest.raises(NetnsError, match="ip -n .* link add s1 type veth peer name"):
        with Netns(name, [1], switch_prefix="s", host_prefix="s"):  # both ends called s1
            pass
    assert not exists(name)


def test_processes_inside_are_stopped_on_close() -> None:
    with Netns(unique("proc"), []) as ns:
        managed = ns.start("sleeper", [sys.executable, "-c", "print('up'); import time; time.sleep(600)"])
        managed.wait_for_line("up", 30)
        bare = ns.spawn([sys.executable, "-c", "import time; time.sleep(600)"])
        assert managed.running() and bare.poll() is None
    assert not managed.running() and bare.poll() is not None


def test_frames_cross_a_veth_between_namespaces_and_code_runs_inside() -> None:
    with Netns(unique("a"), []) as a, Netns(unique("b"), []) as b:
        veth_pair("eth0", "eth0", namespace=a.name, peer_namespace=b.name)
        for ns in (a, b):
            set_link("eth0", namespace=ns.name, mtu=1500)
        tx = a.run_inside(lambda: packet_socket("eth0"))
        rx = b.run_inside(lambda: packet_socket("eth0"))
        try:
            frame = b"\xff" * 6 + b"\x02" + b"\x00" * 5 + b"\x88\xb5" + b"lab harness".ljust(46, b".")
            tx.send(frame)
            assert frame in receive(rx, 10, 5)
        finally:
            tx.close()
            rx.close()


def test_p4sim_switch_inside_forwards_tcp_from_here() -> None:
    with Netns(unique("sw"), [1]) as ns:
        switch = ns.start_switch(["-i", "1@s1", "--no-p4", "--", "--grpc-server-addr",
                                  "127.0.0.1:50051", "--cpu-port", "255"])
        assert "grpc 127.0.0.1:50051" in switch.ready_line
        assert ns.accepts_tcp(50051, 1.0)
        forward = ns.forward_tcp(50051)
        host, port = forward.address.split(":")
        socket.create_connection((host, int(port)), 5).close()
        status, stderr = switch.terminate()
        assert status == 0, stderr
