"""Two domains' peering (control/controller/domain_peering.py) in one process: real
peering servers on loopback, real controllers that are not started (no switch: their
desired state is computed, never sent), a stepped clock for expiry."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from control import fabricctl
from control.controller.domain_peering import DomainPeering
from control.controller.fabric import FabricController
from control.federation.domain_view import domain_view
from control.policy import load_policy
from control.routing import Route
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_domains.toml"
POLICY = ROOT / "topologies/two_domains.policy.toml"
JSON = ROOT / "build/fabric.json"
P4INFO = ROOT / "build/fabric.p4info.txtpb"
TTL_S = 10.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def pair() -> Iterator[tuple[DomainPeering, DomainPeering, Clock]]:
    if not JSON.exists():
        pytest.fail(f"{JSON} is missing: run `make build` first")
    topo = load_topology(str(TOPOLOGY))
    clock = Clock()
    made = {}
    for domain in ("west", "east"):
        policy = load_policy(str(POLICY), domain_view(topo, domain))  # as fabricctl reads it
        controller = FabricController(topo, policy, str(P4INFO), str(JSON), domain=domain)
        made[domain] = DomainPeering(controller, topo, policy, domain, ttl_s=TTL_S, clock=clock,
                                     apply_timeout=0.0)
    west, east = made["west"], made["east"]
    west.server.start()
    east.server.start()
    west.peer_urls = {"east": east.url}
    east.peer_urls = {"west": west.url}
    try:
        yield west, east, clock
    finally:
        west.server.close()
        east.server.close()


def leaf_ports(controller: FabricController, host: str) -> list[int]:
    routes: list[Route] = [r for r in controller.routes if r.switch == "w-leaf1" and r.host.name == host]
    return [hop.port for hop in routes[0].next_hops]


def test_summaries_pushed_both_ways_pick_the_lower_latency_border(pair):
    west, east, _ = pair
    assert west.preference() == {"h3": (), "h4": ()}  # nothing heard yet: nothing chosen
    assert west.push() == {"east": None} and east.push() == {"west": None}
    assert west.preference() == {"h3": ("w-bd1:2", "w-bd2:2"), "h4": ("w-bd1:2", "w-bd2:2")}
    assert east.preference()["h1"] == ("e-bd1:2", "e-bd2:2")
    assert leaf_ports(west.controller, "h3") == [3, 4]
    event = west.step()
    assert event is not None and event.changed
    assert leaf_ports(west.controller, "h3") == [3]  # over w-bd1 only
    assert west.step() is None  # no change, no reprogramming


def test_capacity_policy_ranks_by_available_rate(pair):
    west, east, _ = pair
    east.push()
    west.by = "capacity"
    assert west.preference()["h3"] == ("w-bd1:2", "w-bd2:2")  # 100 Mbit/s before 50


def test_a_border_down_at_one_side_is_skipped_by_both(pair):
    west, east, _ = pair
    west.push()
    east.push()
    west.step()
    west.controller.port_down("w-bd1", 2, timeout=0.0)  # what the link watch does
    assert west.preference()["h3"] == ("w-bd2:2",)
    assert leaf_ports(west.controller, "h3") == [4]  # at once, before any peer hears
    west.push()
    summary = east.table.state("west").summary
    assert summary is not None
    assert {b.link.local: b.health.up for b in summary.borders} == {"w-bd1:2": False, "w-bd2:2": True}
    assert east.preference()["h1"] == ("e-bd2:2",)  # the peer reports its end down


def test_an_expired_peer_summary_withdraws_the_choice(pair):
    west, east, clock = pair
    east.push()
    west.step()
    assert leaf_ports(west.controller, "h3") == [3]
    clock.now += TTL_S + 1
    assert west.preference() == {"h3": (), "h4": ()}
    west.step()
    assert leaf_ports(west.controller, "h3") == [3, 4]  # plain shortest paths again


def test_published_summary_names_no_switch_address(pair):
    west, _, _ = pair
    west.publish()
    text = west.server.summary_json()
    assert text is not None
    doc = json.loads(text)
    assert doc["domain"] == {"id": 1, "name": "west"}
    assert [p["prefixes"] for p in doc["partitions"]] == [["10.1.1.1/32", "10.1.1.2/32"]]
    assert {b["switch"] for b in doc["borders"]} == {"w-bd1", "w-bd2"}
    assert "127.0.0.1:95" not in text and "grpc" not in text


def test_fabricctl_refuses_peering_without_a_domain(capsys):
    status = fabricctl.main(["run", "--topology", str(ROOT / "topologies/two_leaves.toml"),
                             "--policy", str(ROOT / "topologies/two_leaves.policy.toml"),
                             "--p4info", str(P4INFO), "--json", str(JSON), "--peering-port", "0"])
    assert status == 2
    assert "--peering-port needs --domain" in capsys.readouterr().err
