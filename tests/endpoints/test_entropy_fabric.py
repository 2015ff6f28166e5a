"""The compiled fabric (p4src/fabric.p4 in an in-process p4sim switch behind its
P4Runtime server) picks, in entropy mode, the member test_entropy.py's ``member``
says it does, packet by packet, so the splits computed there are the fabric's own:
several flows' EV walks over groups of 2 and 4 members."""
from __future__ import annotations

import random
import threading

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from endpoints.entropy import EntropyWalk
from tests.fabric.conftest import build  # noqa: F401  (the session's compiled fabric)
from tests.fabric.test_weights_like_bmv2 import ROUTER_MAC, FabricSwitch
from wire_formats.layers import UDP_PORT_UEC, UecRequest

from test_entropy import member

PACKETS_PER_FLOW = 64
FLOW_SEEDS = (21, 22, 23)


@pytest.fixture
def fabric(build):  # noqa: F811
    switch = FabricSwitch(build)
    yield switch
    switch.close()


def spray(fabric: FabricSwitch, evs: list[int]) -> dict[int, int]:
    """The egress port of one UEC packet per EV, by EV (read back from each frame that
    left: the fabric rewrites MACs and TTL, never the UDP source port)."""
    out: list[tuple[int, bytes]] = []
    lock = threading.Lock()

    def collect(port: int, data: bytes) -> None:
        with lock:
            out.append((port, data))
    fabric.switch.add_output_listener(collect)
    for psn, ev in enumerate(evs):
        fabric.switch.inject(1, bytes(
            Ether(src="00:00:00:00:00:01", dst=ROUTER_MAC)
            / IP(src="10.0.1.1", dst="10.0.9.1")
            / UDP(sport=ev, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=psn) / ("u" * 20)))
    assert fabric.switch.wait_idle(60), "switch did not go idle"
    with lock:
        return {Ether(data)[UDP].sport: port for port, data in out}


@pytest.mark.parametrize("members", [2, 4])
def test_the_fabric_sprays_walks_as_the_model_predicts(fabric, members):
    ports = list(range(2, 2 + members))        # members created in port order: slot i
    fabric.route_to_group({port: port for port in ports}, dict.fromkeys(ports, 1))
    fabric.insert(table_entry=fabric.names.table_entry(
        "FabricIngress.routing.multipath_modes", {"group_id": 1},
        "FabricIngress.routing.use_entropy"))
    evs: list[int] = []
    for seed in FLOW_SEEDS:
        walk = EntropyWalk(random.Random(seed))
        evs += [walk.next() for _ in range(PACKETS_PER_FLOW)]
    seen = spray(fabric, evs)
    assert seen == {ev: ports[member(ev, members)] for ev in evs}
    assert set(seen.values()) == set(ports)       # every member used
