"""The border partition mapping from the topology's inter-domain links and each domain's
policy, without root: the links' ``partitions`` and ``allow_untagged`` fields and their
refusals, each border switch's links, the border-table entries a domain's controller
derives, and a launch refusing a link that names a partition the policy lacks."""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from control.controller.partition_borders import (BORDER_TAG_IN, BORDER_TAG_OUT, BorderLink,
                                                  PartitionBorderError, border_port_numbers,
                                                  mapped, switch_border_items, switch_links)
from control.errors import ConfigError
from control.federation.domain_view import domain_view
from control.launch import plan_launch
from control.p4rt.entities import P4Names, load_p4info
from control.policy import load_policy
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_domains.toml"
POLICIES = {d: ROOT / f"topologies/two_domains.partitions-{d}.policy.toml" for d in ("west", "east")}
P4INFO = ROOT / "build/fabric.p4info.txtpb"


def mapped_topology(tmp_path: Path, **fields: object) -> Path:
    doc = tomllib.loads(TOPOLOGY.read_text())
    for link in doc["interdomain_links"]:
        link.update({"allow_untagged": False, "partitions": {"tenant-a": 700}, **fields})
    path = tmp_path / "mapped.json"
    path.write_text(json.dumps(doc))
    return path


def names() -> P4Names:
    if not P4INFO.exists():
        pytest.fail("build/fabric.* missing: run `make build` first", pytrace=False)
    return P4Names(load_p4info(str(P4INFO)))


def test_links_carry_their_partition_vids_and_each_border_sees_its_own(tmp_path):
    topo = load_topology(str(mapped_topology(tmp_path)))
    assert [idl.partitions for idl in topo.interdomain_links] == [(("tenant-a", 700),)] * 2
    assert switch_links(topo, "w-bd1") == [BorderLink("east", 2, {"tenant-a": 700}, False)]
    assert switch_links(topo, "e-bd2") == [BorderLink("west", 2, {"tenant-a": 700}, False)]
    assert switch_links(topo, "w-leaf1") == []
    plain = load_topology(str(TOPOLOGY))  # no mapping: shared traffic crosses untagged
    assert all(idl.partitions == () and idl.allow_untagged for idl in plain.interdomain_links)


@pytest.mark.parametrize("fields, field, words", [
    ({"partitions": {"tenant-a": 0}}, "interdomain_links[0].partitions.tenant-a", "1..4094"),
    ({"partitions": {"tenant-a": 4095}}, "interdomain_links[0].partitions.tenant-a", "1..4094"),
    ({"partitions": {"tenant-a": "700"}}, "interdomain_links[0].partitions.tenant-a", "integer"),
    ({"partitions": {"tenant-a": 700, "tenant-b": 700}}, "interdomain_links[0].partitions.tenant-b",
     "already partition 'tenant-a'"),
    ({"partitions": [700]}, "interdomain_links[0].partitions", "table"),
    ({"allow_untagged": "no"}, "interdomain_links[0].allow_untagged", "true or false"),
])
def test_a_bad_link_mapping_is_refused_with_its_field(tmp_path, fields, field, words):
    with pytest.raises(ConfigError) as info:
        load_topology(str(mapped_topology(tmp_path, **fields)))
    assert any(f == field and words in reason for f, reason in info.value.problems), \
        info.value.problems


def test_a_domain_programs_its_borders_from_its_own_policy(tmp_path):
    topo = load_topology(str(mapped_topology(tmp_path)))
    p4 = names()
    tables = {p4.id("tables", t): t for t in (BORDER_TAG_IN, BORDER_TAG_OUT)}
    for domain, policy_path in POLICIES.items():
        policy = load_policy(str(policy_path), topo)
        assert mapped(topo, policy)
        tenant_a = next(p.id for p in policy.partitions if p.name == "tenant-a")
        for border in topo.domain(domain).borders:
            assert border_port_numbers(topo, policy, border) == {2}
            entries = [i.entity.table_entry for i in switch_border_items(p4, topo, policy, border)
                       if i.entity.table_entry.table_id in tables]
            by_table = {t: [e for e in entries if tables[e.table_id] == t] for t in tables.values()}
            # One partition mapped: in, VID 700 -> tenant-a; out, tenant-a -> VID 700; no
            # untagged entry (allow_untagged false) and nothing for tenant-b.
            assert len(by_table[BORDER_TAG_IN]) == 1 and len(by_table[BORDER_TAG_OUT]) == 1
            (inbound,) = by_table[BORDER_TAG_IN]
            assert int.from_bytes(inbound.action.action.params[0].value, "big") == tenant_a
            vids = {int.from_bytes(m.exact.value, "big") for m in inbound.match if m.field_id == 2}
            assert vids == {700}
        assert switch_border_items(p4, topo, policy, "w-leaf1" if domain == "west" else "e-leaf1") == []


def test_without_partitions_anywhere_no_border_tables_are_written():
    topo = load_topology(str(TOPOLOGY))
    policy = load_policy(str(ROOT / "topologies/two_domains.policy.toml"), domain_view(topo, "west"))
    assert not mapped(topo, policy)
    assert switch_border_items(names(), topo, policy, "w-bd1") == []
    assert border_port_numbers(topo, policy, "w-bd1") == set()


def test_a_link_naming_a_partition_the_policy_lacks_is_refused(tmp_path):
    path = mapped_topology(tmp_path, partitions={"tenant-c": 701})
    topo = load_topology(str(path))
    policy = load_policy(str(POLICIES["west"]), topo)
    with pytest.raises(PartitionBorderError, match="'tenant-c': not a partition of the policy"):
        switch_border_items(names(), topo, policy, "w-bd1")
    with pytest.raises(ConfigError) as info:
        plan_launch(path, policy=POLICIES["west"], tag="ln-fdmap")
    assert any(f == "interdomain_links.partitions" and "tenant-c" in reason
               for f, reason in info.value.problems), info.value.problems


def test_each_domain_checked_against_its_own_policy(tmp_path):
    # West's policy is fine; east's names no tenant-c that east's link asks for: the
    # launch names east's file, and a domain left without a policy is named too.
    path = mapped_topology(tmp_path, partitions={"tenant-a": 700})
    lacking = tmp_path / "east.policy.toml"
    lacking.write_text(POLICIES["east"].read_text().replace('"tenant-a"', '"tenant-z"'))
    with pytest.raises(ConfigError) as info:
        plan_launch(path, policy={"west": POLICIES["west"], "east": lacking}, tag="ln-fdmp")
    rendered = info.value.render()
    assert str(lacking) in rendered and str(POLICIES["west"]) not in rendered, rendered
    with pytest.raises(ConfigError, match="no policy for domain east"):
        plan_launch(path, policy={"west": POLICIES["west"]}, tag="ln-fdmp")
    with pytest.raises(ConfigError, match="a policy is given for north"):
        plan_launch(path, policy={**POLICIES, "north": POLICIES["west"]}, tag="ln-fdmp")


def test_domain_policy_flags():
    from control.launch import _policy_argument
    import argparse
    parser = argparse.ArgumentParser()
    both = _policy_argument(parser, str(TOPOLOGY), "p.toml", ["east=e.toml"])
    assert both == {"west": "p.toml", "east": "e.toml"}
    assert _policy_argument(parser, str(TOPOLOGY), None, ["west=w.toml"]) == {"west": "w.toml"}
    assert _policy_argument(parser, str(TOPOLOGY), "p.toml", []) == "p.toml"
    for bad in (["east"], ["=e.toml"], ["east=e", "east=f"]):
        with pytest.raises(SystemExit):
            _policy_argument(parser, str(TOPOLOGY), None, bad)
