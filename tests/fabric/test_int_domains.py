"""INT across domains on a line of in-process fabric.p4 switches, each behind a real
P4Runtime server and programmed with the controller's own items
(control/controller/int_domains.py for the domains and borders, int_report_spread for
the sinks).

    host 1 -> A1 -> A2 =border=> B1 -> B2 -> host 2

A1 (domain A) starts INT on host 1's packets; A2 is domain A's sink on its border port
and starts domain B's INT there; B1 is a transit of B, B2 its sink towards host 2. Each
sink reports out of its port 4 to its own domain's collector. Each collector must see
its own domain's hops only, under its domain's ID, and host 2 every byte host 1 sent.
"""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether

from control.collector.scapy_decode import decode_report_scapy
from control.controller.int_domains import DomainBorder, border_ports, domain_items
from control.controller.int_report_mode import REPORT_MODE_TABLE, report_mode_action
from control.controller.int_report_spread import spread_items
from control.controller.state import STAGE_BASE, STAGE_GROUP, STAGE_ROUTE, STAGE_TABLE, \
    Item, index_items, item, plan
from control.p4rt.entities import P4Names
from tests.fabric.test_report_conformance import Expect, SpecChecker
from tests.fabric.test_weights_like_bmv2 import FabricSwitch
from wire_formats.layers import DSCP_INT, INT_ALL_SUPPORTED, REPORT_UDP_PORT, UDP_PORT_UEC, \
    IntMD, IntShim, UecRequest, decode_int, split_int_stack

DOMAIN_A, DOMAIN_B = 0x0A0A, 0x0B0B
HOP_BUDGET_A, HOP_BUDGET_B = 4, 5
IN_PORT, OUT_PORT, REPORT_PORT = 1, 2, 4
REPORT_SESSION = 100
HW_ID = 3
HOST1_MAC, HOST2_MAC = "00:00:00:00:00:01", "00:00:00:00:00:02"


@dataclass(frozen=True)
class Node:
    """One switch of the line: its name, node ID, domain and INT roles."""

    name: str
    node_id: int
    domain: int
    source: bool = False                  # starts INT on packets from IN_PORT
    sink: bool = False                    # OUT_PORT is a sink (of its domain)
    border: DomainBorder | None = None    # OUT_PORT leads into another domain


def mac_of(node_id: int) -> str:
    return "00:aa:00:00:00:" + f"{node_id & 0xFF:02x}"


def node_items(names: P4Names, node: Node, next_mac: str) -> list[Item]:
    """Everything ``node`` holds: INT node, domain and borders, its route to host 2
    out of OUT_PORT, its INT source and sink roles."""
    items = [
        item(STAGE_BASE, modify_only=True, table_entry=names.default_entry(
            "FabricEgress.int_egress.int_node", "FabricEgress.int_egress.set_int_node",
            {"node_id": node.node_id, "int_dscp": DSCP_INT})),
        item(STAGE_BASE, action_profile_member=names.member(
            "FabricIngress.routing.multipath_selector", 1, "FabricIngress.routing.forward",
            {"port": OUT_PORT, "src_mac": mac_of(node.node_id), "dst_mac": next_mac,
             "member_index": OUT_PORT})),
        item(STAGE_GROUP, action_profile_group=names.group(
            "FabricIngress.routing.multipath_selector", 1, {1: 1})),
        item(STAGE_TABLE, table_entry=names.table_entry(
            "FabricIngress.routing.next_hops", {"group_id": 1}, group_id=1)),
        item(STAGE_ROUTE, table_entry=names.table_entry(
            "FabricIngress.routing.routes", {"partition": 0, "ipv4_dst": "10.0.2.0/24"},
            "FabricIngress.routing.set_group", {"group": 1})),
    ]
    items += domain_items(names, node.domain, [node.border] if node.border else [])
    if node.source:
        items.append(item(STAGE_TABLE, table_entry=names.table_entry(
            "FabricEgress.int_egress.int_source.int_watchlist",
            {"ingress_port": f"{IN_PORT}&&&0x1ff"}, "FabricEgress.int_egress.int_source.start_int",
            {"instructions": INT_ALL_SUPPORTED, "hop_budget": HOP_BUDGET_A,
             "domain_id": node.domain}, priority=10)))
    sinks = border_ports([node.border] if node.border else [])
    if node.sink and OUT_PORT not in sinks:
        sinks.append(OUT_PORT)
    if sinks:
        items += spread_items(names, [(REPORT_PORT, "00:00:00:00:c0:11")], REPORT_SESSION, sinks)
        items += [
            item(STAGE_BASE, modify_only=True, table_entry=names.default_entry(
                "FabricEgress.int_egress.int_report.report_encap",
                "FabricEgress.int_egress.int_report.set_report_encap",
                {"src_mac": mac_of(node.node_id), "dst_mac": "00:00:00:00:c0:11",
                 "src_ip": "192.168.0.1", "collector_ip": "192.168.0.2", "src_port": 40000,
                 "collector_port": REPORT_UDP_PORT, "hw_id": HW_ID, "inner_bytes": 64})),
            item(STAGE_BASE, modify_only=True, table_entry=names.default_entry(
                REPORT_MODE_TABLE, *report_mode_action("every_packet"))),
        ]
    return items


@dataclass
class Line:
    """The switches of ``nodes`` wired OUT_PORT to the next one's IN_PORT."""

    build: tuple[Path, Path]
    nodes: list[Node]
    switches: list[FabricSwitch] = field(default_factory=list)
    delivered: list[bytes] = field(default_factory=list)
    reports: dict[str, list[bytes]] = field(default_factory=dict)
    stray: list[tuple[str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        for node in self.nodes:
            self.switches.append(FabricSwitch(self.build))
            self.reports[node.name] = []
        for i, (node, fs) in enumerate(zip(self.nodes, self.switches)):
            last = i == len(self.nodes) - 1
            next_mac = HOST2_MAC if last else mac_of(self.nodes[i + 1].node_id)
            for batch in plan({}, index_items(node_items(fs.names, node, next_mac))):
                fs.conn.write(batch)
            fs.switch.add_output_listener(self._listener(i))

    def _listener(self, i: int):
        name = self.nodes[i].name
        nxt = self.switches[i + 1].switch if i + 1 < len(self.switches) else None

        def on_frame(port: int, data: bytes) -> None:
            if port == OUT_PORT and nxt is not None:
                nxt.inject(IN_PORT, data)
                return
            with self._lock:
                if port == OUT_PORT:
                    self.delivered.append(data)
                elif port == REPORT_PORT:
                    self.reports[name].append(data)
                else:
                    self.stray.append((name, port))
        return on_frame

    def send(self, packets: list[bytes]) -> None:
        """Injects ``packets`` at host 1 and waits until host 2 has them all and every
        switch is idle."""
        for data in packets:
            self.switches[0].switch.inject(IN_PORT, data)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with self._lock:
                done = len(self.delivered) >= len(packets)
            if done and all(fs.switch.wait_idle(5) for fs in self.switches):
                return
            time.sleep(0.01)  # polling the condition, with a deadline
        raise AssertionError(f"{len(self.delivered)} of {len(packets)} packets delivered in 60 s")

    def close(self) -> None:
        for fs in self.switches:
            fs.close()


A1 = Node("A1", 0xA1, DOMAIN_A, source=True)
A2_BORDER = Node("A2", 0xA2, DOMAIN_A,
                 border=DomainBorder(OUT_PORT, DOMAIN_B, HOP_BUDGET_B, INT_ALL_SUPPORTED))
B1 = Node("B1", 0xB1, DOMAIN_B)
B2 = Node("B2", 0xB2, DOMAIN_B, sink=True)


@pytest.fixture
def line(build, request):
    chain = Line(build, request.param)
    yield chain
    chain.close()


def host_packets(seed: int, count: int) -> list[bytes]:
    """UDP (UEC) and TCP packets from host 1 to host 2, payloads of every length mod 4."""
    rng = random.Random(seed)
    packets = []
    for i in range(count):
        payload = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 90)))
        if i % 2:
            l4 = TCP(sport=1000 + i, dport=80, flags="PA") / payload
        else:
            l4 = UDP(sport=49152 + i, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=i) / payload
        packets.append(bytes(Ether(src=HOST1_MAC, dst=mac_of(A1.node_id))
                             / IP(src="10.0.1.1", dst="10.0.2.1", tos=0x0A << 2) / l4))
    return packets


def _as_host_2_gets_it(sent: bytes, hops: int) -> bytes:
    """``sent`` from its IPv4 header on, as after ``hops`` routers (TTL, checksum)."""
    ip = IP(Ether(sent)[IP].build())
    ip.ttl -= hops
    del ip.chksum
    return bytes(ip)


def _node_ids(report: bytes) -> tuple[int, list[int]]:
    """(Domain Specific ID, node IDs of the hops, newest first) as a collector reads
    them from one report."""
    decoded = decode_report_scapy(report[42:], [DSCP_INT])
    return decoded.domain_id, [hop.node_id for hop in decoded.hops]


@pytest.mark.parametrize("line", [[A1, A2_BORDER, B1, B2]], indirect=True, ids=["A-A|B-B"])
def test_each_collector_sees_only_its_domains_hops(line):
    packets = host_packets(seed=1502, count=12)
    line.send(packets)
    # Every byte delivered: host 2 gets what host 1 sent, four routers on, INT gone.
    assert sorted(Ether(d)[IP].build() for d in line.delivered) == \
        sorted(_as_host_2_gets_it(p, 4) for p in packets)
    assert line.stray == []
    a_reports, b_reports = line.reports["A2"], line.reports["B2"]
    assert line.reports["A1"] == [] and line.reports["B1"] == []
    assert len(a_reports) == len(b_reports) == len(packets)
    for report in a_reports:
        assert _node_ids(report) == (DOMAIN_A, [A2_BORDER.node_id, A1.node_id])
    for report in b_reports:
        assert _node_ids(report) == (DOMAIN_B, [B2.node_id, B1.node_id])
    # Both domains' reports conform to Telemetry Report v2.0, hop budgets accounted for.
    for reports, node, domain, budget in ((a_reports, A2_BORDER, DOMAIN_A, HOP_BUDGET_A),
                                          (b_reports, B2, DOMAIN_B, HOP_BUDGET_B)):
        checker = SpecChecker(Expect(node.node_id, HW_ID, REPORT_UDP_PORT, domain, budget))
        for report in reports:
            assert checker.check(report) == []


A2_SOURCE_BORDER = Node("A2", 0xA2, DOMAIN_A, source=True, border=A2_BORDER.border)


@pytest.mark.parametrize("line", [[A2_SOURCE_BORDER, B1]], indirect=True, ids=["A|B"])
def test_border_packet_carries_the_next_domain_only(line):
    """What crosses the border link, seen after B1 (A2 is source and border): B's
    header with B1's hop alone, A's stack gone, the original DSCP kept in the shim, the
    TCP checksum right over the new headers; A's collector got A2's hop."""
    packets = host_packets(seed=7, count=4)
    line.send(packets)
    assert len(line.delivered) == len(packets)
    for data in line.delivered:
        pkt = decode_int(Ether(data), [DSCP_INT])
        md, shim = pkt[IntMD], pkt[IntShim]
        assert (md.domain_id, md.remaining_hop_cnt, md.e) == (DOMAIN_B, HOP_BUDGET_B - 1, 0)
        assert shim.dscp == 0x0A
        assert [h.node_id for h in split_int_stack(md.stack, md.instruction_mask)] == [B1.node_id]
        if pkt.haslayer(TCP):  # the checksum covers the new INT headers
            again = pkt.copy()
            del again[TCP].chksum
            assert Ether(bytes(again))[TCP].chksum == pkt[TCP].chksum
    assert [_node_ids(r) for r in line.reports["A2"]] == [(DOMAIN_A, [0xA2])] * len(packets)


NO_BORDER = Node("A2", 0xA2, DOMAIN_A)


@pytest.mark.parametrize("line", [[A1, NO_BORDER, B1, B2]], indirect=True, ids=["A-A-B-B"])
def test_another_domains_int_crosses_untouched(line):
    """Without a border, domain A's INT runs into B: B's switches add no hop, change
    nothing in it and report nothing; host 2 gets A's two hops."""
    packets = host_packets(seed=9, count=6)
    line.send(packets)
    assert all(reports == [] for reports in line.reports.values())
    assert len(line.delivered) == len(packets)
    for data in line.delivered:
        md = decode_int(Ether(data), [DSCP_INT])[IntMD]
        assert md.domain_id == DOMAIN_A
        assert (md.remaining_hop_cnt, md.e, md.m) == (HOP_BUDGET_A - 2, 0, 0)
        assert [h.node_id for h in split_int_stack(md.stack, md.instruction_mask)] == \
            [NO_BORDER.node_id, A1.node_id]
