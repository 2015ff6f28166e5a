"""Domains in the topology file: two_domains.toml as read, files without domains as
one domain, and every mistake refused up front, all at once, with file, field, reason."""
from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path

import pytest

from control.errors import ConfigError
from control.topology import DEFAULT_DOMAIN, DomainController, Link, load_topology

ROOT = Path(__file__).resolve().parents[2]
TWO_DOMAINS = ROOT / "topologies/two_domains.toml"
SINGLE = ["two_leaves", "leaf_spine", "four_leaves", "line"]


def _base() -> dict:
    return tomllib.loads(TWO_DOMAINS.read_text())


def _problems(tmp_path: Path, doc: dict) -> list[tuple[str, str]]:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ConfigError) as info:
        load_topology(str(path))
    assert info.value.path == str(path)
    assert all(line.startswith(f"{path}: ") for line in info.value.render().splitlines())
    return info.value.problems


def _has(problems: list[tuple[str, str]], field: str, words: str) -> bool:
    return any(f == field and words in reason for f, reason in problems)


def test_two_domains_reads_as_declared():
    topo = load_topology(str(TWO_DOMAINS))
    west, east = topo.domains
    assert (west.name, west.id, east.name, east.id) == ("west", 1, "east", 2)
    assert west.switches == ("w-leaf1", "w-bd1", "w-bd2") and west.hosts == ("h1", "h2")
    assert east.borders == ("e-bd1", "e-bd2")
    assert west.controller == DomainController("ctl-west", 1, "west")
    assert west.collector is not None and west.collector.name == "col-west"
    assert (west.peers, east.peers) == (("east",), ("west",))  # the linked domains, by default
    first, second = topo.interdomain_links
    assert (first.latency_us, first.rate_bps) == (5000, 100_000_000)
    assert (second.latency_us, second.rate_bps) == (8000, 50_000_000)
    # The border links are links too: wired by the launcher, crossed by routing.
    assert Link("w-bd1", 2, "e-bd1", 2) in topo.links and len(topo.links) == 6
    assert topo.domain_of("e-bd2").name == "east" and topo.domain("west") is west
    assert [c.name for c in topo.collectors()] == ["col-west", "col-east"]
    assert 5 in topo.all_ports("e-leaf1")  # the domain collector's port is a used port


@pytest.mark.parametrize("name", SINGLE)
def test_a_file_without_domains_is_one_domain_holding_everything(name):
    topo = load_topology(str(ROOT / f"topologies/{name}.toml"))
    assert topo.domains == () and topo.interdomain_links == ()
    (domain,) = topo.effective_domains()
    assert domain.name == DEFAULT_DOMAIN
    assert domain.switches == tuple(s.name for s in topo.switches)
    assert domain.hosts == tuple(h.name for h in topo.hosts)
    assert domain.collector == topo.collector and domain.borders == ()
    assert domain.controller.role == ""  # the default role: what fabricctl uses today
    assert topo.collectors() == ([topo.collector] if topo.collector else [])


def test_member_order_in_a_domain_does_not_matter(tmp_path):
    doc = _base()
    doc["domains"][0]["switches"].reverse()
    doc["domains"][0]["borders"].reverse()
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    assert load_topology(str(path)) == load_topology(str(TWO_DOMAINS))


def test_every_domain_mistake_is_reported_at_once(tmp_path):
    doc = _base()
    west, east = doc["domains"]
    west["switches"].append("e-leaf1")           # a switch in two domains (east lists it too)
    east["hosts"].append("h1")                   # west's host, on west's switch
    west["hosts"].remove("h1")
    east["id"] = 1                               # duplicate domain id
    west["peers"] = ["east", "north"]            # an unknown domain
    east["borders"] = ["e-bd1"]                  # e-bd2 no longer a border...
    doc["interdomain_links"][0]["latency"] = "0ms"      # not positive
    doc["interdomain_links"].append({"a": "w-leaf1:9", "b": "w-bd1:9", "latency": "1ms",
                                     "rate": "1gbit"})  # within one domain, not borders
    doc["interdomain_links"].append({"a": "w-bd1:8", "b": "e-bd1:8", "latency": "1ms",
                                     "rate": "50"})     # no unit
    problems = _problems(tmp_path, doc)
    assert _has(problems, "domains[1].switches[0]", "'e-leaf1' is already in domain west (domains[0])")
    assert _has(problems, "domains[1].hosts[2]", "'h1' is attached to 'w-leaf1' of domain west, not to "
                                                 "a switch of east")
    assert _has(problems, "domains[1].id", "duplicate 1")
    assert _has(problems, "domains[0].peers[1]", "no domain named 'north'")
    assert _has(problems, "interdomain_links[1].b", "'e-bd2' is not a border switch of domain east")
    assert _has(problems, "interdomain_links[0].latency", "more than zero")
    assert _has(problems, "interdomain_links[3].rate", "not a rate with a unit")
    assert _has(problems, "interdomain_links[2]", "both ends are in domain west")
    assert _has(problems, "interdomain_links[2].a", "'w-leaf1' is not a border switch")
    # The doubly listed switch is judged once: not again at its hosts, links and collector.
    assert not any("e-leaf1" in reason for field, reason in problems if field != "domains[1].switches[0]")
    assert len(problems) == 9, problems


@pytest.mark.parametrize("mutate, field, words", [
    (lambda d: d["domains"][1]["switches"].remove("e-bd2"), "switches[5]", "in no domain"),
    (lambda d: d["domains"][1]["hosts"].remove("h4"), "hosts[3]", "in no domain"),
    (lambda d: d["domains"][0]["switches"].append("nope"), "domains[0].switches[3]", "no switch named 'nope'"),
    (lambda d: d["domains"][0]["switches"].append("w-bd1"), "domains[0].switches[3]", "listed twice"),
    (lambda d: d["domains"][0]["hosts"].append("h9"), "domains[0].hosts[2]", "no host named 'h9'"),
    (lambda d: d["domains"][0]["borders"].append("e-bd1"), "domains[0].borders[2]",
     "not one of this domain's switches"),
    (lambda d: d["domains"][1].update(name="west"), "domains[1].name", "duplicate 'west'"),
    (lambda d: d["domains"][1]["controller"].update(role="west"), "domains[1].controller.role",
     "duplicate 'west'"),
    (lambda d: d["domains"][1]["controller"].update(name="ctl-west"), "domains[1].controller.name",
     "duplicate"),
    (lambda d: d["domains"][0]["controller"].update(election_id=0), "domains[0].controller.election_id",
     "out of range"),
    (lambda d: d["domains"][0]["controller"].update(role="a b"), "domains[0].controller.role",
     "not a valid role name"),
    (lambda d: d["domains"][0].pop("controller"), "domains[0].controller", "missing"),
    (lambda d: d["domains"][0].update(id=70000), "domains[0].id", "out of range"),
    (lambda d: d["domains"][0].update(colour="red"), "domains[0].colour", "unknown field"),
    (lambda d: d["domains"][0].update(switches=[]), "domains[0].switches", "at least one switch"),
    (lambda d: d["domains"][0].update(peers=["west"]), "domains[0].peers[0]", "itself"),
    (lambda d: d["domains"][0].update(peers=[]), "domains[0].peers", "peering is mutual"),
    (lambda d: d["domains"][0].update(hosts="h1"), "domains[0].hosts", "array of names"),
    (lambda d: d["domains"][0]["collector"].update(switch="e-leaf1"), "domains[0].collector.switch",
     "in domain east, not west"),
    (lambda d: d["domains"][0]["collector"].update(port=1), "domains[0].collector", "already used"),
    (lambda d: d["domains"][1]["collector"].update(ip="192.168.101.2"), "domains[1].collector",
     "clashes with domains[0].collector"),
    (lambda d: d.update(collector=d["domains"][0].pop("collector")), "collector",
     "each domain names its own collector"),
    (lambda d: d["links"].append({"a": "w-leaf1:7", "b": "e-leaf1:7"}), "links[4]",
     "goes in [[interdomain_links]]"),
    (lambda d: d["interdomain_links"][0].update(a="w-bd1:1"), "interdomain_links[0].a", "already used"),
    (lambda d: d["interdomain_links"][0].update(b="zz:1"), "interdomain_links[0].b", "no switch named 'zz'"),
    (lambda d: d["interdomain_links"][0].pop("latency"), "interdomain_links[0].latency", "missing"),
    (lambda d: d["interdomain_links"][0].update(latency=5), "interdomain_links[0].latency", "in quotes"),
    (lambda d: d["interdomain_links"][0].update(rate_pps=10), "interdomain_links[0].rate_pps",
     "unknown field"),
    (lambda d: d["interdomain_links"].pop(), "domains[0].borders[1]", "ends no [[interdomain_links]]"),
    (lambda d: d.pop("domains"), "interdomain_links", "needs [[domains]]"),
])
def test_each_mistake_is_refused_with_its_field_and_reason(tmp_path, mutate, field, words):
    doc = copy.deepcopy(_base())
    mutate(doc)
    problems = _problems(tmp_path, doc)
    assert _has(problems, field, words), problems
