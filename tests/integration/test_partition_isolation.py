"""Partition isolation, fuzzed across a whole launched fabric (leaf_spine: 2 leaves,
2 spines): partition A = h1 (leaf1) + h3 (leaf2), B = h2 (leaf1) + h4 (leaf2), each with a
queue class, so A's packets cross the spines with A's partition tag. A's hosts send
seeded random frames (any destination MAC, IP, VLAN tag, forged partition tags included,
protocol, ports, TTL, DSCP); not one may reach B's hosts, while A-to-A probes, sent
between batches, must all arrive (which also paces the fuzzer by what the fabric
delivers, not by sleeping). Root and network namespaces are required: without them the
test fails. PARTITION_FUZZ_SEED=N reruns one seed."""
from __future__ import annotations

import json
import os
import random
import select
import socket
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.l2 import ARP, Dot1Q, Ether
from scapy.packet import Packet, Raw, raw

from control.launch import FabricNetwork, start_controller
from control.policy import PARTITION_TAG_BASE
from control.topology import router_mac
from p4sim.switch.packet_io import (AUX_SPACE, ETH_P_ALL, PACKET_AUXDATA, PACKET_OUTGOING, SOL_PACKET,
                                    restore_vlan_tag)

ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/leaf_spine.toml"
POLICY = ROOT / "topologies/leaf_spine.policy.toml"
BUILD = (ROOT / "build/fabric.json", ROOT / "build/fabric.p4info.txtpb")
SEED = int(os.environ.get("PARTITION_FUZZ_SEED", "1313"))
A_HOSTS, B_HOSTS = ("h1", "h3"), ("h2", "h4")
A_ID, B_ID = 1, 2
QUEUES = {A_ID: 1, B_ID: 2}
FRAMES_PER_HOST = 2500
BATCH = 100               # fuzz frames between two probes
PROBE_TIMEOUT_S = 30.0    # one probe's deadline
TOTAL_TIMEOUT_S = 400.0   # the fuzzing stops sending after this
BARRIER_SPORTS = 16       # final probes on distinct 5-tuples: every spine path flushed
MARK = b"PFZ"             # fuzz frames start their payload with MARK + seed + index
PROBE = b"PRB"


@dataclass
class Capture:
    """What one host's eth0 received (its own transmissions left out)."""

    sock: socket.socket
    frames: list[bytes] = field(default_factory=list)

    def read(self, timeout: float) -> bytes | None:
        ready, _w, _x = select.select([self.sock], [], [], max(0.0, timeout))
        if not ready:
            return None
        data, ancillary, _flags, address = self.sock.recvmsg(65535, AUX_SPACE)
        if address[2] == PACKET_OUTGOING:
            return b""
        frame = restore_vlan_tag(data, ancillary)
        self.frames.append(frame)
        return frame

    def wait_for(self, needle: bytes, timeout: float) -> bool:
        """Whether a frame containing ``needle`` arrives within ``timeout``."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            frame = self.read(left)
            if frame and needle in frame:
                return True
        return False

    def drain(self) -> None:
        while self.read(0) is not None:
            pass


def _raw_socket() -> socket.socket:
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.bind(("eth0", ETH_P_ALL))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    sock.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)   # to see VLAN tags
    return sock


def _policy(tmp_path: Path) -> Path:
    """leaf_spine's policy, each partition with its queue class."""
    document = tomllib.loads(POLICY.read_text())
    names = {part["id"]: part for part in document["partitions"]}
    assert set(names) == {A_ID, B_ID} and names[A_ID]["members"] == list(A_HOSTS) \
        and names[B_ID]["members"] == list(B_HOSTS), "leaf_spine.policy.toml's partitions changed"
    for pid, part in names.items():
        part["queue"] = QUEUES[pid]
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(document))
    return path


class Fuzzer:
    """Seeded random frames from one of A's hosts."""

    def __init__(self, rng: random.Random, net: FabricNetwork) -> None:
        self.rng = rng
        topo = net.topology
        self.hosts = {h.name: h for h in topo.hosts}
        self.gateway = {h.name: router_mac(topo.switch(h.switch)) for h in topo.hosts}
        self.tags = [PARTITION_TAG_BASE + A_ID, PARTITION_TAG_BASE + B_ID]

    def frame(self, src: str, index: int) -> Packet:
        rng, host = self.rng, self.hosts[src]
        macs = [self.gateway[src], "ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:01",
                *(self.hosts[b].mac for b in B_HOSTS), self._random_mac()]
        eth = Ether(src=host.mac if rng.random() < 0.8 else self._random_mac(),
                    dst=self.gateway[src] if rng.random() < 0.6 else rng.choice(macs))
        vlan = rng.random()
        if vlan < 0.35:   # forged partition tags, priority tags, any VID
            eth = eth / Dot1Q(vlan=rng.choice([*self.tags, 0, rng.randrange(1, 4095)]),
                              prio=rng.randrange(8))
        marker = MARK + f"{SEED}:{src}:{index}:".encode()
        if rng.random() < 0.08:
            return eth / ARP(op=rng.choice([1, 2]), psrc=host.ip, pdst=self._dst_ip())
        if rng.random() < 0.04:
            eth.lastlayer().type = rng.choice([0x86DD, 0x88A8, 0x8100, rng.randrange(0x600, 0x10000)])
            return eth / Raw(marker + rng.randbytes(rng.randrange(0, 64)))
        ip = IP(src=host.ip if rng.random() < 0.8 else self._dst_ip(), dst=self._dst_ip(),
                ttl=rng.choice([64, 64, 2, 1, 0, rng.randrange(256)]),
                tos=rng.randrange(256), id=rng.randrange(65536))
        kind = rng.random()
        if kind < 0.45:
            l4: Packet = UDP(sport=rng.randrange(65536),
                             dport=rng.choice([4793, 4791, 53, rng.randrange(65536)]))
        elif kind < 0.75:
            l4 = TCP(sport=rng.randrange(65536), dport=rng.randrange(65536),
                     flags=rng.randrange(256), seq=rng.randrange(2**32))
        elif kind < 0.85:
            l4 = ICMP(type=rng.choice([0, 8, 3, 11]))
        else:
            ip.proto = rng.choice([0, 2, 47, 50, 89, 132, rng.randrange(256)])
            l4 = Raw(b"")
        return eth / ip / l4 / Raw(marker + rng.randbytes(rng.randrange(0, 200)))

    def _dst_ip(self) -> str:
        rng = self.rng
        choices = [*(self.hosts[h].ip for h in (*A_HOSTS, *B_HOSTS)), "255.255.255.255",
                   "224.0.0.1", "10.255.255.254",
                   f"10.0.{rng.randrange(256)}.{rng.randrange(256)}",
                   ".".join(str(rng.randrange(256)) for _ in range(4))]
        return rng.choice(choices)

    def _random_mac(self) -> str:
        return ":".join(f"{b:02x}" for b in [self.rng.randrange(256) & 0xFE, *self.rng.randbytes(5)])


def _probe(net: FabricNetwork, src: str, dst: str, sport: int, label: str) -> bytes:
    d = {h.name: h for h in net.topology.hosts}
    frame = (Ether(src=d[src].mac, dst=router_mac(net.topology.switch(d[src].switch)))
             / IP(src=d[src].ip, dst=d[dst].ip) / UDP(sport=sport, dport=9)
             / Raw(PROBE + label.encode()))
    return raw(frame)


def test_partition_a_never_reaches_partition_b(tmp_path):
    for path in BUILD:
        assert path.exists(), f"{path} missing: run `make build`"
    rng = random.Random(SEED)
    started = time.monotonic()
    with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-pi") as net:
        command = net.switch_command(net.topology.switches[0])
        queues = int(command[command.index("--priority-queues") + 1])
        assert queues > max(QUEUES.values()), f"switches started with {queues} priority queues"
        start_controller(net, _policy(tmp_path))
        senders = {h: net.in_endpoint_namespace(h, _raw_socket) for h in A_HOSTS}
        captures = {h: Capture(net.in_endpoint_namespace(h, _raw_socket)) for h in (*A_HOSTS, *B_HOSTS)}
        peer = {"h1": "h3", "h3": "h1"}
        fuzzer = Fuzzer(rng, net)
        sent, probes, missing = 0, 0, []
        fuzz_started = time.monotonic()
        try:
            for start in range(0, FRAMES_PER_HOST, BATCH):
                if time.monotonic() - fuzz_started > TOTAL_TIMEOUT_S:
                    break
                for src in A_HOSTS:
                    for index in range(start, start + BATCH):
                        senders[src].send(raw(fuzzer.frame(src, index)))
                        sent += 1
                    label = f"{SEED}:{src}:{start}"
                    senders[src].send(_probe(net, src, peer[src], 40000 + start // BATCH, label))
                    probes += 1
                    if not captures[peer[src]].wait_for(PROBE + label.encode(), PROBE_TIMEOUT_S):
                        missing.append(label)
            # Barrier: probes on many 5-tuples (both spines) in both directions; once
            # they are in, every fuzz frame sent before them has been forwarded or dropped.
            for src in A_HOSTS:
                for sport in range(BARRIER_SPORTS):
                    label = f"{SEED}:{src}:end{sport}"
                    senders[src].send(_probe(net, src, peer[src], 50000 + sport, label))
                    probes += 1
                    if not captures[peer[src]].wait_for(PROBE + label.encode(), PROBE_TIMEOUT_S):
                        missing.append(label)
            for capture in captures.values():
                capture.drain()
        finally:
            for sock in [*senders.values(), *(c.sock for c in captures.values())]:
                sock.close()
        seconds = time.monotonic() - fuzz_started
    leaked = {h: captures[h].frames for h in B_HOSTS}
    leaks = sum(len(frames) for frames in leaked.values())
    a_received = sum(1 for h in A_HOSTS for f in captures[h].frames if MARK in f)
    print(f"partition fuzz seed {SEED}: {sent} random frames from {', '.join(A_HOSTS)} in "
          f"{seconds:.1f} s ({time.monotonic() - started:.1f} s with launch), "
          f"leaked to {', '.join(B_HOSTS)}: {leaks}, fuzz frames delivered inside A: {a_received}, "
          f"probes {probes - len(missing)}/{probes}")
    detail = "; ".join(f"{h}: {Ether(f).summary()}" for h, frames in leaked.items() for f in frames[:5])
    assert leaks == 0, f"seed {SEED} (PARTITION_FUZZ_SEED={SEED} reruns it): {leaks} frames " \
                       f"reached partition B: {detail}"
    assert not missing, f"seed {SEED}: A-to-A probes lost: {missing}"
    assert sent == 2 * FRAMES_PER_HOST, f"seed {SEED}: only {sent} frames sent in {TOTAL_TIMEOUT_S} s"
