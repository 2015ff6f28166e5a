"""The summary of a domain of two_domains.toml, built from the topology, the policy and
measured figures."""
from __future__ import annotations

from pathlib import Path

import pytest

from control.collector.report import TelemetryReport
from control.collector.store import Store
from control.peering.build import (build_summary, domain_prefixes, load_from_counter,
                                   local_borders, peer_domains, policy_partitions)
from control.peering.int_latency import border_latency
from control.peering.summary import Health, PathLatency, from_json, to_json
from control.policy import Partition, Policy
from control.topology import load_topology
from wire_formats.layers import IntHop

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store_path(tmp_path):
    path = str(tmp_path / "east.sqlite")
    store = Store(path)
    for i in range(4):  # e-leaf1 (4) -> e-bd1 (5): sums 60, 70, 80, 90
        hops = (IntHop(node_id=5, hop_latency=50), IntHop(node_id=4, hop_latency=10 * (i + 1)))
        store.add(TelemetryReport(5, 0, i, 2, 0, False, False, hops, None), received=1.0)
    store.close()
    return path


@pytest.fixture
def topo():
    return load_topology(str(ROOT / "topologies/two_domains.toml"))


POLICY = Policy(partitions=(Partition(1, "tenant-a", (("e-leaf1", 2),)),))


def test_prefixes_are_the_domains_hosts_per_partition(topo):
    prefixes = domain_prefixes(topo, POLICY, "east")
    assert [(p.id, p.name, p.prefixes) for p in prefixes] == \
        [(0, "shared", ("10.2.1.1/32",)), (1, "tenant-a", ("10.2.1.2/32",))]
    west = domain_prefixes(topo, Policy(), "west")
    assert [(p.id, p.prefixes) for p in west] == [(0, ("10.1.1.1/32", "10.1.1.2/32"))]


def test_build_summary_of_east(topo, store_path):
    summary = build_summary(
        topo, POLICY, "east", serial=3, now=500.0,
        latency={"e-bd1": border_latency(store_path, 5), "e-bd2": PathLatency(40, 60)},
        health={"e-bd1:2": Health(True, 499.0), "e-bd2:2": Health(False, 400.0)},
        load_bps={"e-bd1:2": load_from_counter(0, 1_250_000, 1.0)})
    assert (summary.domain, summary.domain_id, summary.serial) == ("east", 2, 3)
    assert [(b.switch, b.link.local, b.link.remote, b.link.peer_domain) for b in summary.borders] == \
        [("e-bd1", "e-bd1:2", "w-bd1:2", "west"), ("e-bd2", "e-bd2:2", "w-bd2:2", "west")]
    assert summary.borders[0].latency == PathLatency(70, 90, 4, "int")
    assert summary.borders[0].capacity.available_bps == 100_000_000 - 10_000_000
    assert summary.borders[1].capacity.available_bps == 50_000_000  # no load measured: idle
    known = policy_partitions(POLICY)
    assert from_json(to_json(summary, known), known) == summary


def test_build_summary_names_every_missing_figure(topo):
    with pytest.raises(ValueError) as caught:
        build_summary(topo, Policy(), "west", serial=1, now=1.0, latency={"w-bd1": PathLatency(1, 1)},
                      health={"w-bd2:2": Health(True, 1.0)})
    assert str(caught.value) == ("summary of domain 'west': no health of border link 'w-bd1:2', "
                                 "no latency of border switch 'w-bd2'")


def test_peers_and_local_borders_come_from_the_topology(topo):
    assert peer_domains(topo, "west") == {"east": 2}
    local = local_borders(topo, "west", {"w-bd1:2": True}, {"w-bd2": 30.0}, {"w-bd1:2": 7})
    assert [(b.local, b.remote, b.peer_domain, b.up, b.latency_us, b.link_latency_us, b.available_bps)
            for b in local] == [("w-bd1:2", "e-bd1:2", "east", True, 0.0, 5000.0, 7),
                                ("w-bd2:2", "e-bd2:2", "east", False, 30.0, 8000.0, None)]


@pytest.mark.parametrize("args,words", [((5, 4, 1.0), "went back"), ((0, 1, 0.0), "must be > 0")])
def test_load_from_counter_refuses_nonsense(args, words):
    with pytest.raises(ValueError, match=words):
        load_from_counter(*args)
