"""What the launcher would run, checked without root: switch command lines and names."""
from __future__ import annotations

from pathlib import Path

import pytest

from control.launch import FabricNetwork, LaunchError, interface_name
from control.link_shaping import tbf_arguments
from control.topology import load_topology
from p4sim.reference import reference_dir

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


def _help_flags(help_text: str) -> tuple[set[str], set[str]]:
    """(general, target-specific) long and short flags a --help lists."""
    general, target = set(), set()
    section = general
    for line in help_text.splitlines():
        if line.startswith("Target specific options"):
            section = target
        words = line.split()
        for word in words[:3]:
            if word.startswith("-") and word not in ("-", "--"):
                section.add(word.strip("[]").split("=")[0])
    return general, target


def test_simple_switch_grpc_gets_only_flags_its_help_lists():
    help_text = (reference_dir() / "toolchain" / "simple_switch_grpc.help.txt").read_text()
    general, target = _help_flags(help_text)
    assert {"--no-p4", "--device-id", "-i", "--thrift-port"} <= general
    assert {"--grpc-server-addr", "--cpu-port", "--priority-queues"} <= target
    network = FabricNetwork(TOPOLOGY, tag="ln-plan-bmv2", switch_binary="/usr/bin/simple_switch_grpc")
    try:
        for switch in network.topology.switches:
            argv = network.switch_command(switch)
            split = argv.index("--")
            used_general = {a for a in argv[1:split] if a.startswith("-")}
            used_target = {a for a in argv[split + 1:] if a.startswith("-")}
            # Listed in --help, and no --thrift-port: built without Thrift (BMv2's default
            # for simple_switch_grpc) the switch refuses it.
            assert used_general <= general - {"--thrift-port"}, used_general
            assert used_target <= target, used_target
        with pytest.raises(LaunchError, match="serves P4Runtime only"):
            network.set_queue_rate("leaf1", 2, 300)
        with pytest.raises(LaunchError, match="no Thrift port"):
            network.thrift_port("leaf1")
    finally:
        network.close()


def test_link_rate_is_a_token_bucket_of_equal_cost_frames():
    args = tbf_arguments(10000, 9500)
    values = dict(zip(args[1::2], args[2::2]))
    frame = 9500 + 18
    assert args[0] == "tbf" and values["mpu"] == str(frame)
    assert values["rate"] == f"{10000 * frame * 8}bit"   # bytes/s / mpu = packets/s
    with pytest.raises(ValueError, match="> 0 packets/s"):
        tbf_arguments(0, 9500)
