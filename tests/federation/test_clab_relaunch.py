"""The Containerlab export relaunches with our own launcher: leaf_spine.toml exported,
imported back, brought up by control/launch.py, programmed by fabricctl, and one UDP
datagram crosses it from h1 (leaf1) to h3 (leaf2, over a spine)."""
from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from control import fabricctl
from control.launch import FabricNetwork, start_controller
from control.topology import load_topology

pytestmark = pytest.mark.netns
ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/leaf_spine.toml"
POLICY = ROOT / "topologies/leaf_spine.policy.toml"   # h1 and h3 share tenant-a
UDP_PORT = 5003


def test_the_reimported_export_launches_and_carries_a_packet_across(tmp_path):
    lab = tmp_path / "leaf_spine.clab.yml"
    back = tmp_path / "leaf_spine.toml"
    assert fabricctl.main(["export", "--format", "containerlab", str(TOPOLOGY), "-o", str(lab)]) == 0
    assert fabricctl.main(["import", "--format", "containerlab", str(lab), "-o", str(back)]) == 0
    assert load_topology(str(back)) == load_topology(str(TOPOLOGY))
    with FabricNetwork(back, tag=f"fx{os.getpid()}") as net:
        assert net.topology_path == back.resolve()   # the launch reads the imported file
        start_controller(net, POLICY)
        h1, h3 = net.endpoints["h1"], net.endpoints["h3"]

        def bound(address: str) -> socket.socket:
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sock.bind((address, UDP_PORT))
            sock.settimeout(30)
            return sock
        receiver = net.in_endpoint_namespace("h3", lambda: bound(h3.ip))
        sender = net.in_endpoint_namespace("h1", lambda: bound(h1.ip))
        payload = b"across the re-imported fabric"
        try:
            sender.sendto(payload, (h3.ip, UDP_PORT))
            data, source = receiver.recvfrom(2048)
        finally:
            sender.close()
            receiver.close()
        assert (data, source) == (payload, (h1.ip, UDP_PORT))
