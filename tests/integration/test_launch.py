"""The launcher itself: namespaces, interfaces, addresses, switches that answer
P4Runtime, kill/restart, link state, and nothing left behind."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from control.launch import GATEWAY_IP, LINK_MTU, FabricNetwork, LaunchError, interface_name
from control.link_shaping import FULL_FRAME, WIRE_OVERHEAD, rate_bits
from control.topology import load_topology, router_mac

pytestmark = pytest.mark.netns
ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_leaves.toml"
PROBE = ("-m", "control.probe")  # reads P4Runtime state inside the switch namespace


def _ip_json(*args: str) -> list[dict]:
    done = subprocess.run(["ip", "-j", *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout or "[]")


def _namespaces() -> set[str]:
    return {n["name"] for n in _ip_json("netns", "list")}


def _has_pipeline(net: FabricNetwork, switch: str) -> bool:
    sw = net.topology.switch(switch)
    probe = net.switch_exec([sys.executable, *PROBE, "pipeline", sw.grpc, str(sw.device_id)])
    assert probe.wait(30) == 0, probe.output
    return json.loads(probe.output.splitlines()[-1])["pipeline"]


def test_fabric_comes_up_wired_as_the_topology_says_and_leaves_nothing_behind():
    topology = load_topology(str(TOPOLOGY))
    with FabricNetwork(topology, tag=f"ln{os.getpid()}-t1") as net:
        namespaces = set(net.namespaces())
        assert namespaces == {f"ln{os.getpid()}-t1-{n}" for n in ("sw", "h1", "h2", "col")}
        assert namespaces <= _namespaces()
        links = {l["ifname"]: l for l in _ip_json("-n", net.switch_ns, "link", "show")}
        for switch in topology.switches:
            for port in topology.all_ports(switch.name):
                name = interface_name(switch.name, port)
                assert name in links, f"{name} missing"
                assert "UP" in links[name]["flags"]
        # A link's two ends are peers of one veth pair.
        assert links["leaf1-2"]["link"] == "leaf2-2"
        for host in topology.hosts:
            ns = net.namespace_of(host.name)
            (eth0,) = _ip_json("-n", ns, "addr", "show", "dev", "eth0")
            assert eth0["address"] == host.mac
            assert [(a["local"], a["prefixlen"]) for a in eth0["addr_info"] if a["family"] == "inet"] \
                == [(host.ip, 32)]
            (neigh,) = _ip_json("-n", ns, "neigh", "show", GATEWAY_IP)
            assert neigh["lladdr"] == router_mac(topology.switch(host.switch))
            (route,) = _ip_json("-n", ns, "route", "show", "default")
            assert route["gateway"] == GATEWAY_IP and route["dev"] == "eth0"
        (col,) = _ip_json("-n", net.namespace_of("collector"), "addr", "show", "dev", "eth0")
        assert col["address"] == topology.collector.mac
        for switch in topology.switches:
            assert net.switch_process(switch.name).running()
            assert _has_pipeline(net, switch.name) is False  # answers P4Runtime, no program yet
    assert not any(n.startswith(f"ln{os.getpid()}-t1-") for n in _namespaces())


def test_kill_restart_and_link_state():
    with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-t2") as net:
        first_pid = net.switch_process("leaf2").pid
        net.kill_switch("leaf2")
        assert not net.switch_process("leaf2").running()
        net.restart_switch("leaf2")
        assert net.switch_process("leaf2").pid != first_pid
        assert net.switch_process("leaf2").running()
        assert _has_pipeline(net, "leaf2") is False

        net.set_link_down("leaf2", 3)
        links = {l["ifname"]: l for l in _ip_json("-n", net.switch_ns, "link", "show")}
        assert "UP" not in links["leaf1-3"]["flags"] and "UP" not in links["leaf2-3"]["flags"]
        assert "UP" in links["leaf1-2"]["flags"]
        net.set_link_up("leaf1", 3)
        links = {l["ifname"]: l for l in _ip_json("-n", net.switch_ns, "link", "show")}
        assert "UP" in links["leaf1-3"]["flags"] and "UP" in links["leaf2-3"]["flags"]
        with pytest.raises(LaunchError, match="no link at leaf1:1"):
            net.set_link_down("leaf1", 1)
    assert not any(n.startswith(f"ln{os.getpid()}-t2-") for n in _namespaces())


def test_cleanup_also_after_a_failure_inside():
    with pytest.raises(RuntimeError, match="boom"):
        with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-t3") as net:
            sleeper = net.host_exec("h1", ["sleep", "600"])
            raise RuntimeError("boom")
    assert sleeper.popen.poll() is not None
    assert not any(n.startswith(f"ln{os.getpid()}-t3-") for n in _namespaces())


def test_a_switch_that_cannot_start_is_reported_and_cleaned_up(tmp_path):
    with pytest.raises(LaunchError, match="leaf1"):
        with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-t4", switch_binary="/bin/false", ready_timeout=10):
            pass
    assert not any(n.startswith(f"ln{os.getpid()}-t4-") for n in _namespaces())


def test_link_rates_are_shaped_on_the_veths_for_any_switch():
    """A topology link's rate_pps is a tc token bucket on both ends (what works with
    simple_switch_grpc too); measured: N full-size frames take at least N / rate seconds."""
    with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-t5") as net:
        rate = net.link_at("leaf1", 2).rate_pps
        for end in ("leaf1-2", "leaf2-2"):
            qdiscs = _ip_json_tc("-n", net.switch_ns, "qdisc", "show", "dev", end)
            assert [q["kind"] for q in qdiscs if q.get("root")] == ["htb"], qdiscs
            classes = subprocess.run(["tc", "-n", net.switch_ns, "class", "show", "dev", end],
                                     capture_output=True, text=True, check=True).stdout
            assert "class htb 1:1 root rate " in classes and " prio 0 " in classes, classes
            assert rate_bits(rate) == round(rate * (FULL_FRAME + WIRE_OVERHEAD) * 8)
        net.set_link_rate("leaf1", 2, 1000)
        ethertype = 0x88B5  # local experimental: nothing else sends it
        receiver = net.in_switch_namespace(lambda: _raw_socket("leaf2-2", ethertype))
        sender = net.in_switch_namespace(lambda: _raw_socket("leaf1-2", ethertype))
        frame = b"\xff" * 6 + b"\x02" * 6 + ethertype.to_bytes(2, "big") + b"r" * (FULL_FRAME - 14)
        count, arrived = 60, 0       # full-size frames: within the receiver's socket buffer
        receiver.settimeout(10)
        started = time.monotonic()
        for _ in range(count):
            sender.send(frame)
        try:
            while arrived < count:
                receiver.recv(2048)
                arrived += 1
        except socket.timeout:
            pass
        elapsed = time.monotonic() - started
        sender.close()
        receiver.close()
    print(f"{arrived} frames through a 1000 packets/s link in {elapsed:.3f} s")
    assert arrived == count
    burst = (LINK_MTU + 18) // (FULL_FRAME + WIRE_OVERHEAD)  # the bucket holds a largest frame
    assert elapsed >= (count - burst) / 1000 * 0.95            # 5 % clock slack


def _ip_json_tc(*args: str) -> list[dict]:
    done = subprocess.run(["tc", "-j", *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout or "[]")


def _raw_socket(interface: str, ethertype: int) -> socket.socket:
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ethertype))
    sock.bind((interface, ethertype))
    return sock
