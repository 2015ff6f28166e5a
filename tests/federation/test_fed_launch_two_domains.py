"""topologies/two_domains.toml launched whole: two domains, two borders, one controller
and one collector per domain, real switch processes (root).

One fabric for the module: a UEC transfer h4 (east) -> h2 (west) and one h1 (west) -> h3
(east) each cross a border whole; each domain's collector holds only its own domain's hops, reported with its domain's ID
(INT sunk and re-sourced at the borders); and the west controller's role is refused on
an east switch by a real P4Runtime Write."""
from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path
from typing import Iterator

import grpc
import pytest
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from control.federation.failover import read_counters
from control.launch import (FabricNetwork, collector_databases, interface_name, run_transfer,
                            start_collector, start_controllers)
from control.p4rt.entities import P4Names, load_p4info
from lab.readiness import wait_until

pytestmark = pytest.mark.netns
ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_domains.toml"
POLICY = ROOT / "topologies/two_domains.policy.toml"
P4INFO = ROOT / "build/fabric.p4info.txtpb"
TRANSFER_BYTES = 48 * 1024
REPORT_DOMAIN = re.compile(r"TelemetryReport\(.*?domain_id=(\d+)")


class Fabric:
    """The launched fabric and what the test module reads of it."""

    def __init__(self, net: FabricNetwork, dbs: dict[str, Path], work: Path) -> None:
        self.net, self.dbs, self.work = net, dbs, work
        self.collectors = {name: start_collector(net, db, collector=name, extra=("-v",))
                           for name, db in dbs.items()}
        self.controllers = start_controllers(net, POLICY)


@pytest.fixture(scope="module")
def fabric(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fabric]:
    if not P4INFO.exists():
        pytest.fail("build/fabric.* missing: run `make build` first", pytrace=False)
    work = tmp_path_factory.mktemp("two-domains")
    with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-fd") as net:
        yield Fabric(net, collector_databases(net, work / "reports.sqlite"), work)


def hop_nodes(db: Path) -> set[int]:
    with sqlite3.connect(db) as conn:
        return {n for (n,) in conn.execute("SELECT DISTINCT node_id FROM hops")}


def test_launch_binds_each_switch_to_its_domain_and_says_what_it_cannot_emulate(fabric):
    net = fabric.net
    for switch in net.topology.switches:
        command = net.switch_command(switch)
        role = command[command.index("--p4rt-allowed-roles") + 1]
        assert role == net.topology.domain_of(switch.name).controller.role
    assert set(fabric.controllers) == {"west", "east"}
    # Four sending ends, two border links; each has its rate, and latency only with netem.
    assert len(net.border_shaping) == 4
    assert {s.rate_bps for s in net.border_shaping} == {100_000_000, 50_000_000}
    if not all(s.latency_emulated for s in net.border_shaping):
        assert any("latency NOT emulated" in note for note in net.notes), net.notes


def test_transfer_east_to_west_delivers_every_byte(fabric):
    net = fabric.net
    before = border_tx(net, "e-bd1", "e-bd2")
    transfer = run_transfer(net, "h4", "h2", TRANSFER_BYTES, fabric.work / "h4-h2")
    assert transfer.delivered_bytes == TRANSFER_BYTES, transfer.receiver
    assert transfer.sender["sha256"] == transfer.delivered_sha256  # every byte, in order
    assert transfer.receiver["sha256"] == transfer.delivered_sha256
    after = border_tx(net, "e-bd1", "e-bd2")
    sent = sum(after.values()) - sum(before.values())
    assert sent >= TRANSFER_BYTES // 1500, (before, after)  # it left east over a border


def border_tx(net: FabricNetwork, *switches: str) -> dict[str, int]:
    """Packets sent so far on each border switch's inter-domain port (port 2)."""
    names = [interface_name(switch, 2) for switch in switches]
    counters = net.in_switch_namespace(read_counters)
    return {name: counters[name][1] for name in names}


def test_transfer_west_to_east_delivers_every_byte_and_each_collector_sees_its_own_domain(fabric):
    net = fabric.net
    transfer = run_transfer(net, "h1", "h3", TRANSFER_BYTES, fabric.work / "h1-h3")
    assert transfer.delivered_bytes == TRANSFER_BYTES, transfer.receiver
    assert transfer.sender["sha256"] == transfer.delivered_sha256  # every byte, in order
    assert transfer.receiver["sha256"] == transfer.delivered_sha256
    topo = net.topology
    for domain in topo.domains:
        assert domain.collector is not None
        db = fabric.dbs[domain.collector.name]
        wait_until(lambda: bool(hop_nodes(db)), f"reports stored by {domain.collector.name}", 30)
    for domain in topo.domains:
        assert domain.collector is not None
        own = {topo.switch(name).node_id for name in domain.switches}
        seen = hop_nodes(fabric.dbs[domain.collector.name])
        print(f"{domain.name}: hops of nodes {sorted(seen)}")
        assert seen and seen <= own, (domain.name, seen, own)
        leaf = next(name for name in domain.switches if topo.hosts_on(name))
        assert topo.switch(leaf).node_id in seen  # the domain's own source or sink leaf
        collector = fabric.collectors[domain.collector.name]
        collector.stop()
        domains = {int(d) for d in REPORT_DOMAIN.findall(collector.output)}
        assert domains == {domain.id}, (domain.name, domains)


def test_west_controller_write_to_an_east_switch_is_refused(fabric):
    net = fabric.net
    east = net.topology.switch("e-leaf1")
    west_role = net.topology.domain("west").controller.role
    names = P4Names(load_p4info(str(P4INFO)))
    entry = names.table_entry("FabricIngress.routing.routes",
                              {"partition": 0, "ipv4_dst": "10.9.9.9/32"},
                              "FabricIngress.routing.set_group", {"group": 1})
    request = p4runtime_pb2.WriteRequest(
        device_id=east.device_id, role=west_role, election_id=p4runtime_pb2.Uint128(low=99),
        updates=[p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT,
                                      entity=p4runtime_pb2.Entity(table_entry=entry))])

    def write() -> tuple[grpc.StatusCode, str]:
        with grpc.insecure_channel(east.grpc) as channel:
            try:
                p4runtime_pb2_grpc.P4RuntimeStub(channel).Write(request, timeout=30)
            except grpc.RpcError as err:
                return err.code(), err.details() or ""
        return grpc.StatusCode.OK, ""

    code, details = net.in_switch_namespace(write)
    assert code == grpc.StatusCode.PERMISSION_DENIED, (code, details)
    assert "west" in details and "east" in details, details  # refused for its role
