"""The controller against real in-process p4sim switches (P4Runtime over loopback):
programs two leaves so a packet crosses the fabric, repairs groups on a port failure,
and restores a restarted switch."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from control import fabricctl
from control.collector.decode import decode_report
from control.controller import FabricController
from control.controller.program import SELECTOR, member_id, member_port
from wire_formats.layers import UDP_PORT_UEC, UecRequest
from control.p4rt.client import SwitchConnection
from control.p4rt.entities import INSERT, P4Names, load_p4info, update
from control.policy import load_policy
from control.topology import load_topology, router_mac
from p4sim.p4runtime.server import P4RuntimeServer
from p4sim.switch.switch import Switch

ROOT = Path(__file__).resolve().parents[2]
JSON = ROOT / "build/fabric.json"
P4INFO = ROOT / "build/fabric.p4info.txtpb"


@pytest.fixture(autouse=True)
def _pipeline_is_built() -> None:
    """A missing build is a failure with the fix in its message, not a silent skip."""
    if not JSON.exists():
        pytest.fail(f"{JSON} is missing: run `make build` first")


TWO_LEAVES = ROOT / "topologies/two_leaves.toml"


def two_leaves_on(p1: int, p2: int) -> str:
    """topologies/two_leaves.toml with leaf1's and leaf2's P4Runtime on ports ``p1`` and
    ``p2``: here the switches run in this process, outside any namespace."""
    text = TWO_LEAVES.read_text()
    for address, port in (("127.0.0.1:9559", p1), ("127.0.0.1:9560", p2)):
        assert text.count(f'"{address}"') == 1, f"{TWO_LEAVES} no longer uses {address}"
        text = text.replace(f'"{address}"', f'"127.0.0.1:{port}"')
    return text
POLICY = """
[spraying]
default = "round_robin"
[int]
report_mode = "every_packet"
[[int.watchlist]]
dst = "10.0.2.1/32"
[ecn]
threshold = 20
"""


class Node:
    """One in-process switch with its P4Runtime server, restartable at the same port."""

    def __init__(self, device_id: int, port: int = 0):
        self.device_id = device_id
        self.switch = Switch(device_id=device_id, ports=None)
        self.switch.start()
        self.server = P4RuntimeServer(self.switch, f"127.0.0.1:{port}", device_id=device_id)
        self.server.start()
        self.port = self.server.port

    def stop(self) -> None:
        self.server.stop(grace=None)
        self.switch.stop()


class Fabric:
    """Two leaves wired back to back by output listeners: leaf ports 2 and 3 are the
    links; what leaves a host port (1) or the collector port (4) is recorded."""

    def __init__(self, tmp_path: Path):
        self.nodes = {"leaf1": Node(0), "leaf2": Node(1)}
        self.delivered: list[tuple[str, int, bytes]] = []
        for name in self.nodes:
            self._wire(name)
        topo_path = tmp_path / "topo.toml"
        topo_path.write_text(two_leaves_on(self.nodes["leaf1"].port, self.nodes["leaf2"].port))
        policy_path = tmp_path / "policy.toml"
        policy_path.write_text(POLICY)
        self.topo = load_topology(str(topo_path))
        self.policy = load_policy(str(policy_path), self.topo)

    def _wire(self, name: str) -> None:
        other = "leaf2" if name == "leaf1" else "leaf1"

        def on_output(port: int, frame: bytes) -> None:
            if port in (2, 3):
                self.nodes[other].switch.inject(port, frame)
            else:
                self.delivered.append((name, port, frame))
        self.nodes[name].switch.add_output_listener(on_output)

    def restart(self, name: str) -> None:
        old = self.nodes[name]
        old.stop()
        self.nodes[name] = Node(old.device_id, old.port)
        self._wire(name)

    def out_of(self, switch: str, port: int) -> list[bytes]:
        return [frame for sw, p, frame in list(self.delivered) if (sw, p) == (switch, port)]

    def wait_out(self, switch: str, port: int, count: int, timeout: float = 5.0) -> list[bytes]:
        """Frames that left (switch, port), once there are ``count`` (or the deadline)."""
        deadline = time.monotonic() + timeout
        while len(self.out_of(switch, port)) < count and time.monotonic() < deadline:
            for node in self.nodes.values():
                node.switch.wait_idle(0.1)
        return self.out_of(switch, port)

    def stop(self) -> None:
        for node in self.nodes.values():
            node.stop()


@pytest.fixture
def fabric(tmp_path):
    fab = Fabric(tmp_path)
    controller = FabricController(fab.topo, fab.policy, str(P4INFO), str(JSON), health_interval=0.1)
    try:
        controller.start()
        assert controller.wait_ready(30), "the controller did not program both switches"
        yield fab, controller
    finally:
        controller.stop()
        fab.stop()


def uec_packet(sport: int) -> bytes:
    pkt = (Ether(src="00:00:0a:00:01:01", dst=router_mac(_leaf1_switch()))
           / IP(src="10.0.1.1", dst="10.0.2.1") / UDP(sport=sport, dport=UDP_PORT_UEC, chksum=0)
           / UecRequest(psn=7) / (b"x" * 32))
    return bytes(pkt)


def _leaf1_switch():
    from control.topology import Switch as TopoSwitch
    return TopoSwitch("leaf1", 0, "127.0.0.1:1", "leaf", 1)


def group_members(fab: Fabric, switch: str, group_id: int) -> dict[int, int]:
    """member id -> weight of a group, read back from the switch itself."""
    names = P4Names(load_p4info(str(P4INFO)))
    # Read needs no arbitration: this reader never competes with the controller.
    conn = SwitchConnection(f"127.0.0.1:{fab.nodes[switch].port}", device_id=fab.nodes[switch].device_id)
    try:
        group = names.group(SELECTOR, group_id, {})
        read = conn.read([update(INSERT, action_profile_group=group).entity])
    finally:
        conn.close()
    return {m.member_id: m.weight for e in read for m in e.action_profile_group.members}


def port_weights(fab: Fabric, switch: str, group_id: int) -> dict[int, int]:
    """port -> weight of a group read back from the switch (a weight is repeated
    members of weight 1)."""
    members = group_members(fab, switch, group_id)
    assert set(members.values()) == {1}, members
    weights: dict[int, int] = {}
    for member in members:
        weights[member_port(member)] = weights.get(member_port(member), 0) + 1
    return weights


def test_packet_crosses_both_leaves_to_the_host(fabric):
    fab, controller = fabric
    for sport in (50000, 50001, 50002, 50003):
        fab.nodes["leaf1"].switch.inject(1, uec_packet(sport))
    to_host = fab.wait_out("leaf2", 1, 4)
    assert len(to_host) == 4
    frame = Ether(to_host[0])
    assert frame.dst == "00:00:0a:00:02:01" and frame.src == router_mac(controller.topo.switch("leaf2"))
    assert frame[IP].ttl == 62  # two routed hops
    # INT (source leaf1, sink leaf2): leaf2's report clones cross back over a link and
    # leaf1 routes them to the collector port.
    reports = fab.wait_out("leaf1", 4, 4)
    assert len(reports) == 4
    outer = Ether(reports[0])
    assert outer[IP].dst == "192.168.100.2" and outer.dst == "00:00:00:00:c0:11"
    report = decode_report(bytes(outer[UDP].payload))
    assert report.node_id == 2 and report.path == (1, 2)


def test_port_down_removes_the_member_and_port_up_restores_it(fabric):
    fab, controller = fabric
    gid = controller.plan.group_id("h2")
    both = {member_id(gid, 2), member_id(gid, 3)}
    assert set(group_members(fab, "leaf1", gid)) == both
    event = controller.port_down("leaf1", 2)
    assert event is not None and event.complete and event.seconds < 5
    assert set(group_members(fab, "leaf1", gid)) == {member_id(gid, 3)}
    back_gid = controller.plan.group_id("h1")
    assert set(group_members(fab, "leaf2", back_gid)) == {member_id(back_gid, 3)}  # the far end too
    fab.nodes["leaf1"].switch.inject(1, uec_packet(50000))
    assert len(fab.wait_out("leaf2", 1, 1)) == 1
    assert controller.port_up("leaf1", 2).complete
    assert set(group_members(fab, "leaf1", gid)) == both
    assert [e.up for e in controller.repairs] == [False, True]


def test_restarted_switch_gets_everything_back(fabric):
    fab, controller = fabric
    before = controller.agents["leaf2"].installed()
    fab.restart("leaf2")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not controller.restores:
        time.sleep(0.05)  # polling the condition, with a deadline
    assert controller.restores and controller.restores[0][0] == "leaf2"
    assert controller.agents["leaf2"].installed().keys() == before.keys()
    gid = controller.plan.group_id("h1")
    assert set(group_members(fab, "leaf2", gid)) == {member_id(gid, 2), member_id(gid, 3)}
    fab.nodes["leaf1"].switch.inject(1, uec_packet(50005))
    assert len(fab.wait_out("leaf2", 1, 1)) == 1


def test_fabricctl_run_once_then_show(tmp_path, capsys):
    fab = Fabric(tmp_path)
    topo, policy = str(tmp_path / "topo.toml"), str(tmp_path / "policy.toml")
    common = ["--topology", topo, "--policy", policy, "--p4info", str(P4INFO)]
    try:
        assert fabricctl.main(["run", *common, "--json", str(JSON), "--once", "--ready-timeout", "30"]) == 0
        assert capsys.readouterr().out.splitlines() == ["fabricctl ready"]
        assert fabricctl.main(["show", "groups", *common]) == 0
        groups = capsys.readouterr().out
        assert "leaf1   2      h2           round_robin  port 2 w1, port 3 w1" in groups
        fab.nodes["leaf1"].switch.inject(1, uec_packet(50000))
        assert len(fab.wait_out("leaf2", 1, 1)) == 1
        assert fabricctl.main(["show", "counters", *common]) == 0
        rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
        by_port = {(r[0], int(r[1])): r for r in rows}
        # columns: switch, port, rx "N (B B)", tx "N (B B)", ...
        assert by_port[("leaf1", 1)][2] == "1" and by_port[("leaf2", 1)][5] == "1"  # rx in, tx out
    finally:
        fab.stop()


def test_fabricctl_refuses_a_bad_policy_before_touching_switches(tmp_path, capsys):
    topo = tmp_path / "topo.toml"
    topo.write_text(two_leaves_on(1, 2))  # nothing listens there: must not matter
    policy = tmp_path / "bad.toml"
    policy.write_text('[spraying]\ndefault = "sideways"\n')
    assert fabricctl.main(["run", "--topology", str(topo), "--policy", str(policy), "--once"]) == 2
    err = capsys.readouterr().err
    assert f"{policy}: spraying.default: 'sideways' is not one of" in err


def test_fabricctl_refuses_a_wait_ratio_that_would_always_move(tmp_path, capsys):
    topo = tmp_path / "topo.toml"
    topo.write_text(two_leaves_on(1, 2))  # nothing listens there: must not matter
    policy = tmp_path / "ok.toml"
    policy.write_text('[spraying]\ndefault = "entropy"\n')
    assert fabricctl.main(["run", "--topology", str(topo), "--policy", str(policy), "--once",
                           "--wait-ratio", "1"]) == 2
    assert "--wait-ratio must be above 1 (got 1)" in capsys.readouterr().err


def test_adaptive_step_shifts_weight_off_a_congested_uplink(fabric):
    from control.controller.weights import PortSample

    fab, controller = fabric
    gid = controller.plan.group_id("h2")
    slow = {(1, 2): PortSample(16.0, 300_000.0), (1, 3): PortSample(2.0, 100_000.0)}
    assert controller.adapt(slow, now=0.0)    # waits 3x apart: one unit off port 2
    assert controller.wait_ready(10)
    assert port_weights(fab, "leaf1", gid) == {2: 3, 3: 5}
    assert not controller.adapt(slow, now=5.0)  # the same evidence: no second move
    quiet = {(1, 2): PortSample(0.0, 0.0), (1, 3): PortSample(0.0, 0.0)}
    assert not controller.adapt(quiet, now=6.0)  # no queue: quiet since 6 s
    assert controller.adapt(quiet, now=6.0 + controller.weight_policy.hold_s)
    assert controller.wait_ready(10)
    assert port_weights(fab, "leaf1", gid) == {2: 4, 3: 4}


def test_a_new_controller_adopts_switches_that_kept_their_state(fabric):
    fab, first = fabric
    first.stop()  # the switches keep pipeline and entries
    second = FabricController(fab.topo, fab.policy, str(P4INFO), str(JSON), election_id=2)
    try:
        second.start()
        assert second.wait_ready(30)
        assert all(not agent.write_errors for agent in second.agents.values())
        assert not second.restores  # same pipeline cookie: nothing pushed again
        assert second.agents["leaf1"].installed().keys() == first.agents["leaf1"].installed().keys()
        fab.nodes["leaf1"].switch.inject(1, uec_packet(50001))
        assert len(fab.wait_out("leaf2", 1, 1)) == 1
    finally:
        second.stop()


def test_every_entity_of_the_shipped_policy_is_accepted(tmp_path):
    fab = Fabric(tmp_path)  # same shape and names as topologies/two_leaves.toml
    policy = load_policy(str(ROOT / "topologies/two_leaves.policy.toml"), fab.topo)
    controller = FabricController(fab.topo, policy, str(P4INFO), str(JSON))
    try:
        controller.start()
        assert controller.wait_ready(30)
        for name, agent in controller.agents.items():
            assert agent.write_errors == [], name
            kinds = {key[0] for key in agent.installed()}
            assert {"member", "group", "table", "clone", "meter"} <= kinds, name
    finally:
        controller.stop()
        fab.stop()


def test_adaptive_loop_reads_the_store_and_reweights(fabric, tmp_path):
    from control.collector.report import TelemetryReport
    from control.collector.store import Store
    from wire_formats.layers import IntHop

    fab, controller = fabric
    db = tmp_path / "reports.sqlite"
    store = Store(str(db))
    for _ in range(3):  # leaf1's uplink port 3 is deep and waits 1.2 s, port 2 is empty
        for port, depth, wait in ((2, 0, 100), (3, 60, 1_200_000)):
            store.add(TelemetryReport(2, 1, 0, 1, 0, False, False,
                                      (IntHop(node_id=2, egress_port=1, queue_occupancy=0),
                                       IntHop(node_id=1, egress_port=port, hop_latency=wait,
                                              queue_occupancy=depth)), None))
    store.close()
    controller.start_adaptive(str(db), interval=0.05)
    gid = controller.plan.group_id("h2")
    want = {2: 6, 3: 2}              # waits far apart: two units at once, then no new evidence
    deadline = time.monotonic() + 10
    while controller.weights.get(("leaf1", "h2", 3)) != 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the condition, with a deadline
    assert controller.wait_ready(10)
    assert port_weights(fab, "leaf1", gid) == want
