"""Border partition mapping, fuzzed on an in-process fabric.p4 switch behind a real
P4Runtime server: seeded random partitions (IDs and names), random border mappings on
two border ports (random VIDs, some partitions unmapped, untagged allowed or not), a
host port and an intra-domain fabric port beside them, and >= 2,000 random frames (any
port, any VID or none, toward a host-side port of the partition or out of either border).
A model of the mapping says, frame by frame, where each must leave (port, VID) or that it
is dropped; the switch must agree on every frame, so not one frame lands in a partition
it was not mapped to, and the border drop counters must count every drop.
PARTITION_BORDER_FUZZ_SEED=N reruns one seed."""
from __future__ import annotations

import os
import random
from dataclasses import dataclass

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Dot1Q, Ether

from control.controller.partition_borders import UNMAPPED_IN, UNMAPPED_OUT, BorderLink, border_items
from control.controller.state import STAGE_TABLE, Item, item
from control.policy import Partition
from tests.fabric.conftest import build  # noqa: F401  (the session's compiled fabric)
from tests.fabric.test_partition_borders import ROUTER_MAC, Chain, counter_packets, \
    fabric_port_items, program, route_items
from tests.fabric.test_weights_like_bmv2 import FabricSwitch

SEED = int(os.environ.get("PARTITION_BORDER_FUZZ_SEED", "1515"))
FRAMES = 2400
BATCH = 200
BORDERS = (1, 2)
HOST, FABRIC = 3, 4
HOST_PARTITION_INDEX = 1           # the host port's partition: the second one
OUT_BASE = 20                      # partition i's host-side port: OUT_BASE + i (0: partition 0)
DESTS = ("10.0.2.1", "10.0.3.1", "10.0.4.1")   # host side, out of border 1, out of border 2
MARK = b"BFZ"


@dataclass(frozen=True)
class Setup:
    partitions: tuple[Partition, ...]
    links: tuple[BorderLink, ...]

    def by_name(self) -> dict[str, int]:
        return {p.name: p.id for p in self.partitions}


def random_setup(rng: random.Random) -> Setup:
    ids = rng.sample(range(1, 256), 4)
    parts = tuple(Partition(pid, f"t{pid}-{rng.randrange(1000)}", (),
                            tag=rng.choice((0, rng.randrange(1, 4095)))) for pid in ids)
    # Fabric tags must differ from one another to be a valid policy.
    while len({p.fabric_tag for p in parts}) < len(parts):
        parts = tuple(Partition(p.id, p.name, (), tag=rng.randrange(1, 4095)) for p in parts)
    links = []
    for port in BORDERS:
        mapped = [p.name for p in parts if rng.random() < 0.7]
        vids = rng.sample(range(1, 4095), len(mapped))
        links.append(BorderLink(f"d{port}", port, dict(zip(mapped, vids)), rng.random() < 0.5))
    return Setup(parts, tuple(links))


def expected(setup: Setup, port: int, vid: int | None, dst: str) -> tuple[int, int | None] | str:
    """(egress port, VID or None) the frame must leave with, or "in"/"out": dropped at
    the border on ingress or on egress."""
    ids = setup.by_name()
    links = {link.port: link for link in setup.links}
    tag = vid
    if port in links:
        link = links[port]
        if vid is None:
            if not link.allow_untagged:
                return "in"
            partition = 0
        else:
            named = [name for name, v in link.tags.items() if v == vid]
            if not named:
                return "in"
            partition, tag = ids[named[0]], None
    elif port == HOST:
        partition = setup.partitions[HOST_PARTITION_INDEX].id
    else:  # FABRIC: classified by the domain's own tags; anything else is partition 0
        owners = [p.id for p in setup.partitions if p.fabric_tag == vid]
        partition, tag = (owners[0], None) if owners else (0, vid)
    where = DESTS.index(dst)
    if where == 0:
        index = [0] + [p.id for p in setup.partitions]
        return OUT_BASE + index.index(partition), tag
    link = links[BORDERS[where - 1]]
    if partition == 0:
        return (link.port, None) if link.allow_untagged else "out"
    names = {v: k for k, v in ids.items()}
    if names[partition] not in link.tags:
        return "out"
    return link.port, link.tags[names[partition]]


def random_frame(rng: random.Random, setup: Setup, index: int) -> tuple[int, int | None, str, bytes]:
    port = rng.choice((*BORDERS, HOST, FABRIC))
    pool = [v for link in setup.links for v in link.tags.values()] + \
        [p.fabric_tag for p in setup.partitions]
    vid = rng.choice((None, rng.choice(pool), rng.choice(pool), rng.randrange(1, 4095)))
    dst = rng.choice(DESTS)
    eth = Ether(src="00:00:00:00:00:09", dst=ROUTER_MAC)
    if vid is not None:
        eth = eth / Dot1Q(vlan=vid, prio=rng.randrange(8))
    data = bytes(eth / IP(src="10.0.1.1", dst=dst, tos=rng.randrange(256) & 0xFC)
                 / UDP(sport=rng.randrange(1, 65536), dport=rng.randrange(1, 65536))
                 / (MARK + index.to_bytes(4, "big") + bytes(rng.randrange(40))))
    return port, vid, dst, data


def test_no_frame_leaks_across_border_mappings(build):  # noqa: F811
    rng = random.Random(SEED)
    setup = random_setup(rng)
    fs = FabricSwitch(build)
    try:
        every = [0] + [p.id for p in setup.partitions]
        items = route_items(fs.names, {pid: ("10.0.2.0/24", OUT_BASE + i) for i, pid in enumerate(every)})
        # Members and groups 400 + partition / 700 + partition: out of border 1 / 2.
        items += route_items(fs.names, {pid: ("10.0.3.0/24", BORDERS[0]) for pid in every}, base=400)
        items += route_items(fs.names, {pid: ("10.0.4.0/24", BORDERS[1]) for pid in every}, base=700)
        items += fabric_port_items(fs.names, FABRIC, setup.partitions)
        items += [_host_port(fs, setup.partitions[HOST_PARTITION_INDEX].id)]
        items += border_items(fs.names, setup.partitions, setup.links)
        program(fs, items)
        chain = Chain([fs], {})
        want: dict[int, tuple[int, int | None] | str] = {}
        for start in range(0, FRAMES, BATCH):
            for index in range(start, start + BATCH):
                port, vid, dst, data = random_frame(rng, setup, index)
                want[index] = expected(setup, port, vid, dst)
                fs.switch.inject(port, data)
            chain.settle()
        got: dict[int, tuple[int, int | None]] = {}
        for _sw, port, data in chain.collected():
            pkt = Ether(data)
            payload = bytes(pkt[UDP].payload)
            assert payload.startswith(MARK)
            index = int.from_bytes(payload[3:7], "big")
            assert index not in got, f"frame {index} left twice"
            got[index] = (port, pkt[Dot1Q].vlan if pkt.haslayer(Dot1Q) else None)
        leaks = [(i, want[i], got[i]) for i in got if got[i] != want[i]]
        assert leaks == [], f"seed {SEED}: {len(leaks)} frames left where not mapped: {leaks[:5]}"
        lost = [i for i, w in want.items() if not isinstance(w, str) and i not in got]
        assert lost == [], f"seed {SEED}: {len(lost)} mapped frames lost: {lost[:5]}"
        drops_in = sum(1 for w in want.values() if w == "in")
        drops_out = sum(1 for w in want.values() if w == "out")
        assert sum(counter_packets(fs, UNMAPPED_IN, p) for p in BORDERS) == drops_in
        assert sum(counter_packets(fs, UNMAPPED_OUT, pid) for pid in every) == drops_out
        # The seed exercised every outcome.
        assert drops_in > 100 and drops_out > 50 and len(got) > 500, (drops_in, drops_out, len(got))
    finally:
        fs.close()


def _host_port(fs: FabricSwitch, pid: int) -> Item:
    return item(STAGE_TABLE, table_entry=fs.names.table_entry(
        "FabricIngress.partition.partitions", {"ingress_port": HOST},
        "FabricIngress.partition.set_partition", {"id": pid}, priority=10))
