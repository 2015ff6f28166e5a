"""What the launcher would run, checked without root: switch command lines and names."""
from __future__ import annotations

from pathlib import Path

import pytest

from control.launch import FabricNetwork, LaunchError, interface_name
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_leaves.toml"


@pytest.fixture
def net():
    network = FabricNetwork(TOPOLOGY, tag="ln-plan", switch_binary="/opt/sw")  # not entered
    yield network
    network.close()


def _pairs(argv: list[str], flag: str) -> list[str]:
    return [argv[i + 1] for i, arg in enumerate(argv) if arg == flag]


def test_switch_command_binds_every_port_and_listens_on_the_topology_address(net):
    for switch in net.topology.switches:
        argv = net.switch_command(switch)
        assert argv[0] == "/opt/sw" and "--no-p4" in argv
        ports = sorted(net.topology.all_ports(switch.name))
        assert _pairs(argv, "-i") == [f"{p}@{switch.name}-{p}" for p in ports]
        target = argv[argv.index("--") + 1:]
        assert _pairs(target, "--grpc-server-addr") == [switch.grpc]
        assert _pairs(target, "--cpu-port") == [str(switch.cpu_port)]
        assert _pairs(argv, "--device-id") == [str(switch.device_id)]
    thrift = {_pairs(net.switch_command(s), "--thrift-port")[0] for s in net.topology.switches}
    assert len(thrift) == len(net.topology.switches)  # one namespace: each its own port


def test_leaf1_has_the_hosts_links_and_collector_ports(net):
    assert sorted(net.topology.all_ports("leaf1")) == [1, 2, 3, 4]
    assert net.collector is not None and (net.collector.switch, net.collector.port) == ("leaf1", 4)
    assert net.namespace_of("h1") == "ln-plan-h1"
    assert net.namespace_of("collector") == "ln-plan-col"
    with pytest.raises(LaunchError, match="no host named 'h9'"):
        net.namespace_of("h9")


def test_link_lookup_by_either_end(net):
    assert net.link_at("leaf2", 3) == net.link_at("leaf1", 3)
    with pytest.raises(LaunchError, match="no link at leaf1:1"):
        net.link_at("leaf1", 1)


def test_interface_names_that_do_not_fit_are_refused(tmp_path):
    with pytest.raises(LaunchError, match="longer than 15"):
        interface_name("a-very-long-switch", 1)
    text = TOPOLOGY.read_text().replace("leaf2", "leaf-number-two")
    topology = tmp_path / "long.toml"
    topology.write_text(text)
    with pytest.raises(LaunchError, match="leaf-number-two"):
        FabricNetwork(load_topology(str(topology)))
