"""Partitions across borders on a launched two-domain fabric, programmed from the policy
(issue 15, item 4). Root.

topologies/two_domains.toml with both inter-domain links mapping tenant-a to VID 700
and not allowing untagged frames (written to the test's folder), and one policy per
domain (topologies/two_domains.partitions-{west,east}.policy.toml): tenant-a is h1 and
h3, tenant-b h2 and h4, with different in-domain tags in each domain.
Each domain's controller programs its borders' mapping (border_tag_in / border_tag_out)
from those. tenant-a crosses whole; tenant-b, which no link maps, is dropped and counted
at the west border; and frames forged onto the inter-domain link (random VIDs, both
domains' in-domain tags, untagged) reach tenant-a's host only on VID 700, and every
other one is counted as unmapped at the east border."""
from __future__ import annotations

import os
import random
import socket
from pathlib import Path
from typing import Iterator

import grpc
import pytest
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Dot1Q, Ether

from control.controller.partition_borders import BORDER_TAG_IN, UNMAPPED_IN, UNMAPPED_OUT
from control.federation.failover import PROBE_PORT
from control.launch import FabricNetwork, interface_name, run_transfer, start_controllers
from control.p4rt.entities import P4Names, load_p4info
from control.peering.border_load import read_counter
from control.topology import router_mac
from lab.packet_socket import packet_socket
from lab.process import ManagedProcess
from lab.readiness import wait_until

pytestmark = pytest.mark.netns
ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_domains.toml"
POLICIES = {d: ROOT / f"topologies/two_domains.partitions-{d}.policy.toml" for d in ("west", "east")}
P4INFO = ROOT / "build/fabric.p4info.txtpb"
LINK_VID = 700
MAPPING = f"allow_untagged = false\n\n[interdomain_links.partitions]\ntenant-a = {LINK_VID}\n"
TRANSFER_BYTES = 32 * 1024
TENANT_B = 2                 # tenant-b's id (the federation's)
SEED = int(os.environ.get("FED_PARTITION_FUZZ_SEED", "1515"))
FORGED = 400
# VIDs worth forging besides random ones: both domains' in-domain tags of both tenants.
LOCAL_TAGS = (3001, 3002, 3105, 3106)


@pytest.fixture(scope="module")
def fabric(tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[FabricNetwork, dict[str, ManagedProcess], Path]]:
    if not P4INFO.exists():
        pytest.fail("build/fabric.* missing: run `make build` first", pytrace=False)
    work = tmp_path_factory.mktemp("partitions")
    text = TOPOLOGY.read_text()
    lines = text.splitlines(keepends=True)
    rates = [i for i, line in enumerate(lines) if line.startswith("rate = ")]
    assert len(rates) == 2, "two_domains.toml's inter-domain links changed"
    for i in reversed(rates):
        lines.insert(i + 1, MAPPING)
    mapped = work / "two_domains_partitions.toml"
    mapped.write_text("".join(lines))
    with FabricNetwork(mapped, tag=f"ln{os.getpid()}-pt") as net:
        yield net, start_controllers(net, POLICIES), work


def counter(net: FabricNetwork, switch: str, name: str, index: int) -> int:
    sw = net.topology.switch(switch)
    names = P4Names(load_p4info(str(P4INFO)))
    return net.in_switch_namespace(
        lambda: read_counter(sw.grpc, sw.device_id, names, name, index))[0]


def bound_udp(ip: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((ip, PROBE_PORT))
    sock.setblocking(False)
    return sock


def drain(sock: socket.socket) -> list[bytes]:
    got = []
    while True:
        try:
            got.append(sock.recv(65535))
        except BlockingIOError:
            return got


def border_entries(net: FabricNetwork, switch: str) -> int:
    """How many border_tag_in entries ``switch`` holds (one P4Runtime Read)."""
    sw = net.topology.switch(switch)
    names = P4Names(load_p4info(str(P4INFO)))
    request = p4runtime_pb2.ReadRequest(device_id=sw.device_id, entities=[p4runtime_pb2.Entity(
        table_entry=p4runtime_pb2.TableEntry(table_id=names.id("tables", BORDER_TAG_IN)))])

    def read() -> int:
        with grpc.insecure_channel(sw.grpc) as channel:
            return sum(len(r.entities) for r in
                       p4runtime_pb2_grpc.P4RuntimeStub(channel).Read(request, timeout=10))
    return int(net.in_switch_namespace(read))


def test_each_controller_programs_its_borders_mapping(fabric):
    net, _, _ = fabric
    for switch in ("w-bd1", "w-bd2", "e-bd1", "e-bd2"):
        # One partition (tenant-a) mapped on the switch's one border port.
        wait_until(lambda: border_entries(net, switch) == 1,
                   f"{switch} holding its border_tag_in entry (the controller's plan, "
                   "control/controller/program.py, calls switch_border_items)", 30)


def test_tenant_a_crosses_the_border_whole(fabric):
    net, _, work = fabric
    for src, dst in (("h1", "h3"), ("h3", "h1")):
        transfer = run_transfer(net, src, dst, TRANSFER_BYTES, work / f"{src}-{dst}")
        assert transfer.delivered_bytes == TRANSFER_BYTES, transfer.receiver
        assert transfer.sender["sha256"] == transfer.delivered_sha256  # every byte, in order


def test_tenant_b_is_dropped_and_counted_at_the_west_border(fabric):
    net, _, _ = fabric
    borders = ("w-bd1", "w-bd2")
    before = sum(counter(net, b, UNMAPPED_OUT, TENANT_B) for b in borders)
    sink = net.in_endpoint_namespace("h4", lambda: bound_udp(net.endpoints["h4"].ip))
    with sink:
        def send() -> None:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.bind((net.endpoints["h2"].ip, 0))
                for i in range(20):
                    sock.sendto(b"tenant-b %d" % i, (net.endpoints["h4"].ip, PROBE_PORT))
        net.in_endpoint_namespace("h2", send)
        wait_until(lambda: sum(counter(net, b, UNMAPPED_OUT, TENANT_B)
                               for b in borders) - before >= 20,
                   "20 tenant-b packets dropped at the west borders", 30)
        assert drain(sink) == []  # dropped: none can still be on its way


def forged_frames(net: FabricNetwork, rng: random.Random) -> tuple[list[bytes], set[bytes], int]:
    """Frames as if sent by w-bd1 onto its inter-domain link: (frames, the markers that
    must reach h3, how many the east border must count as unmapped)."""
    topo = net.topology
    src_mac, dst_mac = router_mac(topo.switch("w-bd1")), router_mac(topo.switch("e-bd1"))
    frames, expected, unmapped = [], set(), 0
    for i in range(FORGED):
        vid = rng.choice((None, LINK_VID, LINK_VID, rng.choice(LOCAL_TAGS),
                          rng.randrange(1, 4095)))
        dst = rng.choice(("h3", "h4"))
        marker = b"forged %d vid %s to %s" % (i, str(vid).encode(), dst.encode())
        eth = Ether(src=src_mac, dst=dst_mac)
        if vid is not None:
            eth = eth / Dot1Q(vlan=vid)
        frames.append(bytes(eth / IP(src=net.endpoints["h1"].ip, dst=net.endpoints[dst].ip)
                            / UDP(sport=40000 + i, dport=PROBE_PORT) / marker))
        if vid == LINK_VID and dst == "h3":
            expected.add(marker)   # tenant-a, to tenant-a's host
        elif vid != LINK_VID:
            unmapped += 1          # VID 700 to h4: tenant-a has no route there
    return frames, expected, unmapped


def test_forged_tags_on_the_border_link_never_leak_into_a_partition(fabric):
    net, _, _ = fabric
    rng = random.Random(SEED)
    frames, expected, unmapped = forged_frames(net, rng)
    before = counter(net, "e-bd1", UNMAPPED_IN, 2)
    sinks = {h: net.in_endpoint_namespace(h, lambda h=h: bound_udp(net.endpoints[h].ip))
             for h in ("h3", "h4")}
    got: dict[str, list[bytes]] = {h: [] for h in sinks}
    try:
        def inject() -> None:
            with packet_socket(interface_name("w-bd1", 2), auxdata=False) as sock:
                for data in frames:
                    sock.send(data)
        net.in_switch_namespace(inject)

        def arrived() -> bool:
            for host, sock in sinks.items():
                got[host] += drain(sock)
            return set(got["h3"]) >= expected and \
                counter(net, "e-bd1", UNMAPPED_IN, 2) - before >= unmapped
        wait_until(arrived, f"{len(expected)} tenant-a frames at h3 and {unmapped} unmapped "
                            "counted at e-bd1", 60)
        for host, sock in sinks.items():
            got[host] += drain(sock)
    finally:
        for sock in sinks.values():
            sock.close()
    print(f"forged {FORGED} frames (seed {SEED}): {len(expected)} tenant-a frames delivered, "
          f"{unmapped} unmapped dropped, {len(got['h4'])} at h4")
    assert set(got["h3"]) == expected, sorted(set(got["h3"]) ^ expected)[:5]
    assert got["h4"] == []
    assert counter(net, "e-bd1", UNMAPPED_IN, 2) - before == unmapped
