"""Available capacity from the border ports' counters, on a launched two-domain fabric
(root): a loaded border reports less capacity, and capacity-mode choice moves off it.

topologies/two_domains.toml with both border links at 100 Mbit/s (written to the test's
own folder), so idle, the borders tie on capacity and the lower latency (w-bd1) wins.
East chooses by latency (its traffic stays on e-bd1 whatever it measures); west by
capacity. A UDP load h4 -> h2 then crosses e-bd1: east's controller reads e-bd1:2's
port_tx counter, its summary reports e-bd1's load and less available capacity, and
west, which takes the smaller of the peer's and its own available rate, routes h3
over w-bd2. Without the load, back over w-bd1."""
from __future__ import annotations

import json
import os
import socket
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from control.federation.failover import PROBE_PORT, Probe
from control.launch import FabricNetwork, peering_urls, start_controllers
from lab.process import ManagedProcess
from lab.readiness import wait_until

pytestmark = pytest.mark.netns
ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_domains.toml"
POLICY = ROOT / "topologies/two_domains.policy.toml"
P4INFO = ROOT / "build/fabric.p4info.txtpb"
RATE_BPS = 100_000_000
LOAD_INTERVAL_S, LOAD_BYTES = 0.002, 1200  # at most ~4.8 Mbit/s from one Python thread
FIRST, SECOND = "fabricctl border h3 via w-bd1:2 programmed", "fabricctl border h3 via w-bd2:2"


@pytest.fixture(scope="module")
def fabric(tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[FabricNetwork, dict[str, ManagedProcess]]]:
    if not P4INFO.exists():
        pytest.fail("build/fabric.* missing: run `make build` first", pytrace=False)
    work = tmp_path_factory.mktemp("capacity")
    text = TOPOLOGY.read_text()
    assert text.count('rate = "50mbit"') == 1, "two_domains.toml's second border link changed"
    equal = work / "two_domains_equal.toml"
    equal.write_text(text.replace('rate = "50mbit"', 'rate = "100mbit"'))
    with FabricNetwork(equal, tag=f"ln{os.getpid()}-cap") as net:
        controllers = start_controllers(net, POLICY,
                                        domain_extra={"west": ("--border-by", "capacity")})
        yield net, controllers


def bound_udp(ip: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((ip, port))
    return sock


def east_borders(net: FabricNetwork) -> dict[str, dict[str, Any]]:
    """East's borders as west holds them (east's summary): local end -> capacity_bps."""
    url = peering_urls(net)["west"]

    def held() -> dict:
        with urllib.request.urlopen(f"{url}/v1/peers", timeout=10) as answer:
            return json.loads(answer.read())
    (east,) = net.in_switch_namespace(held)["peers"]
    summary = east["summary"] or {"borders": []}
    return {b["link"]["local"]: b["capacity_bps"] for b in summary["borders"]}


def test_loaded_border_reports_less_capacity_and_capacity_choice_takes_the_other(fabric):
    net, controllers = fabric
    west = controllers["west"]
    west.wait_for_line(FIRST, 60)  # idle: a tie on capacity, w-bd1 by latency
    idle = east_borders(net)
    assert {c["rate"] for c in idle.values()} == {RATE_BPS}, idle
    # A socket bound on h2 takes the load (and drops it once full): no ICMP answers
    # that west would send back over w-bd1 and count against its own end.
    sink = net.in_endpoint_namespace("h2", lambda: bound_udp(net.endpoints["h2"].ip, PROBE_PORT))
    with sink, Probe(net, "h4", "h2", LOAD_INTERVAL_S, size=LOAD_BYTES) as load:
        wait_until(lambda: east_borders(net)["e-bd1:2"]["load"] > 0,
                   "east's summary reporting a load on e-bd1", 60)
        wait_until(lambda: SECOND in west.output, "west routing h3 over w-bd2 under load", 60)
        loaded = east_borders(net)
        assert load.sent > 0
    print(f"east's borders idle {idle}, under load {loaded}")
    one, two = loaded["e-bd1:2"], loaded["e-bd2:2"]
    assert one["load"] > 0 and one["available"] == RATE_BPS - one["load"], one
    assert one["available"] < two["available"], (one, two)
    # Without the load, e-bd1's capacity comes back and so does the choice.
    wait_until(lambda: west.output.rpartition(SECOND)[2].count(FIRST) >= 1,
               "west routing h3 over w-bd1 again without the load", 60)
