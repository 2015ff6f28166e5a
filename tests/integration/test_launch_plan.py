"""What the launcher would run, checked without root: switch command lines and names."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from control.errors import ConfigError
from control.launch import FabricNetwork, LaunchError, interface_name
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
    with pytest.raises(ConfigError, match=r"long.toml: switches\[1\].name: interface name "
                                          r"'leaf-number-two-1' is longer than 15"):
        FabricNetwork(topology)


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


# -- refusals: every input checked before anything exists ----------------------------
POLICY = ROOT / "topologies/two_leaves.policy.toml"
BAD_INPUTS = {  # name: (topology text change, policy text change, expected message part)
    "grpc-not-a-port": (("127.0.0.1:9560", "127.0.0.1:notaport"), None,
                        "switches[1].grpc: '127.0.0.1:notaport' must be HOST:PORT"),
    "host-on-cpu-port": (('switch = "leaf2"\nport = 1', 'switch = "leaf2"\nport = 255'), None,
                         "hosts[1]: port 255 of leaf2 is already used by switches[1].cpu_port"),
    "missing-field": (('role = "leaf"\nnode_id = 2\n', 'node_id = 2\n'), None,
                      "switches[1].role: missing (required)"),
    "bad-policy": (None, ('default = "entropy"', 'default = "sideways"'),
                   "spraying.default: 'sideways' is not one of ecmp, entropy, round_robin"),
    "int-dscp-not-parsed": (None, ("hop_budget = 4", "hop_budget = 4\ndscp = 0x18"),
                            "int.dscp: INT DSCP 0x18 is not parsed as INT"),
}


def _inputs(tmp_path: Path, case: str) -> tuple[Path, Path]:
    topology_change, policy_change, _ = BAD_INPUTS[case]
    paths = []
    for source, change in ((TOPOLOGY, topology_change), (POLICY, policy_change)):
        text = source.read_text()
        if change is not None:
            assert change[0] in text
            text = text.replace(change[0], change[1], 1)
        path = tmp_path / source.name
        path.write_text(text)
        paths.append(path)
    return paths[0], paths[1]


def _run(argv: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, **(env or {})}, check=False)


def _netns_with(prefix: str) -> list[str]:
    names = Path("/var/run/netns")
    return sorted(p.name for p in names.iterdir() if p.name.startswith(prefix)) if names.is_dir() else []


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_launch_and_fabricctl_refuse_bad_input_with_the_same_clean_message(tmp_path, case):
    topology, policy = _inputs(tmp_path, case)
    launch = _run(["-m", "control.launch", str(topology), "--policy", str(policy), "--tag", "lnx-bad"])
    fabricctl = _run(["-m", "control.fabricctl", "run", "--once", "--topology", str(topology),
                      "--policy", str(policy)])
    expected = BAD_INPUTS[case][2]
    for done in (launch, fabricctl):
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr, done.stderr
        assert expected in done.stderr
    if os.geteuid() == 0:
        assert launch.stderr.strip() == fabricctl.stderr.strip()
    else:  # the launch also says it needs root, after the same lines
        assert launch.stderr.startswith(fabricctl.stderr.strip())
    source = policy if BAD_INPUTS[case][1] else topology
    assert launch.stderr.startswith(f"{source}: ")


def _marker_switch(tmp_path: Path) -> tuple[Path, Path]:
    """A switch program that leaves a file behind if anyone ever starts it."""
    marker = tmp_path / "switch-was-started"
    script = tmp_path / "marker-switch"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexec sleep 600\n")
    script.chmod(0o755)
    return script, marker


@pytest.mark.netns
@pytest.mark.parametrize("case", sorted(BAD_INPUTS) + ["no-switch-binary", "namespace-exists"])
def test_a_refused_launch_creates_no_namespace_and_starts_no_process(tmp_path, case):
    """As root, where a launch could create everything: on refusal nothing was."""
    tag = f"lnr{os.getpid()}"
    script, marker = _marker_switch(tmp_path)
    if case in BAD_INPUTS:
        topology, policy = _inputs(tmp_path, case)
    else:
        topology, policy = TOPOLOGY, POLICY
    if case == "no-switch-binary":
        script = tmp_path / "no-such-switch"
    existing = []
    if case == "namespace-exists":
        existing = [f"{tag}-h2"]
        subprocess.run(["ip", "netns", "add", existing[0]], check=True)
    try:
        before = _netns_with(tag)
        done = _run(["-m", "control.launch", str(topology), "--policy", str(policy), "--tag", tag],
                    env={"SWITCH": str(script)})
        after = _netns_with(tag)
    finally:
        for name in existing:
            subprocess.run(["ip", "netns", "delete", name], check=False)
    print(done.stderr)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert before == after == existing, f"namespaces appeared: {sorted(set(after) - set(before))}"
    assert not marker.exists(), "the switch was started"
    if case == "no-switch-binary":
        assert done.stderr.strip() == f"launch: SWITCH: '{script}' is not an executable program " \
                                      "(run `make install`, or set SWITCH / TARGET)"
    if case == "namespace-exists":
        assert f"launch: --tag: namespace '{tag}-h2' already exists" in done.stderr


def test_what_only_a_launch_cannot_build_is_refused_at_plan_time(tmp_path):
    text = TOPOLOGY.read_text().replace("127.0.0.1:9560", "10.9.9.9:9560").replace(
        "127.0.0.1:9559", "0.0.0.0:9561")
    path = tmp_path / "remote.toml"
    path.write_text(text)
    load_topology(str(path))  # fine for a controller of switches elsewhere
    with pytest.raises(ConfigError) as info:
        FabricNetwork(path, tag="ok")
    assert info.value.problems == [
        ("switches[1].grpc", "'10.9.9.9' is not an address of the launcher's switch namespace, "
                             "which has only loopback: use 127.0.0.1:PORT")]
    with pytest.raises(ConfigError, match=r"launch: --tag: 'a/b' is not a valid namespace prefix"):
        FabricNetwork(TOPOLOGY, tag="a/b")
    clash = tmp_path / "clash.toml"
    clash.write_text(TOPOLOGY.read_text().replace('name = "h2"', 'name = "sw"'))
    with pytest.raises(ConfigError, match=r"hosts\[1\].name: 'sw' would name the namespace TAG-sw, "
                                          r"which the launcher keeps for the switches"):
        FabricNetwork(clash, tag="ok")


def test_control_channel_ports_avoid_the_grpc_ports(tmp_path):
    path = tmp_path / "thrift.toml"
    path.write_text(TOPOLOGY.read_text().replace("127.0.0.1:9559", "127.0.0.1:9090"))
    network = FabricNetwork(path, tag="ln-plan-ports", switch_binary="/opt/sw")
    try:
        thrift = [int(_pairs(network.switch_command(s), "--thrift-port")[0]) for s in network.topology.switches]
        assert thrift == [9091, 9092]
    finally:
        network.close()
