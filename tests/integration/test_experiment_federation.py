"""The experiment's two-domain demo end to end (root): topologies/two_domains.toml with
a controller and a collector per domain, small UEC transfers west -> east and back,
then the report's "Federation" section, its PNGs and the terminal table.

One run serves every test here (module fixture). Root, `ip netns` and build/fabric.*
are required: the tests fail, not skip, without them.
"""
from __future__ import annotations

import json
import re

import pytest

from control.experiment.federation_report import DOMAIN_HEADER, PATH_HEADER
from control.experiment.plan import (Federation, default_plan, federation_plan, full_plan,
                                     minimal_plan)
from control.launch import ROOT
from control.topology import Topology, load_topology
from experiment_run import ExperimentRun, run_plan

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TOPOLOGY = ROOT / "topologies/two_domains.toml"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> ExperimentRun:
    return run_plan(federation_plan(), tmp_path_factory.mktemp("experiment-federation"), TOPOLOGY)


def own_nodes(topology: Topology, domain: str) -> set[int]:
    return {topology.switch(name).node_id for name in topology.domain(domain).switches}


def test_make_run_plans_end_with_the_demo_and_the_test_plans_do_not():
    assert default_plan().federation == Federation()
    assert full_plan().federation == Federation()
    assert minimal_plan().federation is None
    demo = Federation()
    topology = load_topology(str(TOPOLOGY))
    directions = {(topology.domain_of(topology.host(a).switch).name,
                   topology.domain_of(topology.host(b).switch).name) for a, b in demo.transfers}
    assert directions == {("west", "east"), ("east", "west")}


@pytest.mark.netns
def test_every_transfer_crosses_whole_and_the_progress_line_counts_them(run):
    federation = run.outcome.federation
    assert federation is not None and federation.error == "", federation
    transfers = federation.transfers
    assert len(transfers) == len(federation_plan().federation.transfers)
    assert all(t.complete for t in transfers), transfers
    total = len(transfers)
    for number, t in enumerate(transfers, 1):
        assert re.search(rf"\[{number}/{total} +\d+ s\] federation {t.src} -> {t.dst}: complete",
                         run.progress), run.progress


@pytest.mark.netns
def test_report_has_the_federation_section_and_its_pngs(run):
    report = (run.out / "report.html").read_text()
    assert "<h2 id=\"federation\">Federation</h2>" in report
    images = re.findall(r'<img src="(federation-[^"]+\.png)"', report)
    assert sorted(images) == ["federation-east.png", "federation-paths.png", "federation-west.png"]
    for name in images:
        data = (run.out / name).read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 5000, name
    federation = run.outcome.federation
    assert federation is not None
    if not federation.latency_emulated:  # said plainly, in the report and on the terminal
        assert "border-link latency NOT emulated" in report
        assert "border-link latency NOT emulated" in run.table


@pytest.mark.netns
def test_each_domain_plot_holds_only_its_own_nodes(run):
    for domain in run.topology.domains:
        data = json.loads((run.out / f"federation-{domain.name}.json").read_text())
        assert data["domain"] == domain.name and data["domain_id"] == domain.id
        nodes = {int(n) for n in data["nodes"]}
        own = own_nodes(run.topology, domain.name)
        assert nodes and nodes <= own, (domain.name, nodes, own)
        leaf = next(s for s in domain.switches if run.topology.hosts_on(s))
        assert run.topology.switch(leaf).node_id in nodes
        assert all(series["latency"] for series in data["nodes"].values()), data


@pytest.mark.netns
def test_table_rows_carry_each_domains_id_as_configured_and_as_reported(run):
    lines = run.table.splitlines()
    assert DOMAIN_HEADER in lines and PATH_HEADER in lines
    rows = lines[lines.index(DOMAIN_HEADER) + 1:lines.index(PATH_HEADER)]
    by_name = {row.split()[0]: row.split() for row in rows}
    assert set(by_name) == {d.name for d in run.topology.domains}, rows
    names = {s.node_id: s.name for s in run.topology.switches}
    for domain in run.topology.domains:
        name, configured, reported, seen, reports = by_name[domain.name][:5]
        assert int(configured) == domain.id and reported == str(domain.id), by_name[domain.name]
        assert {names[n] for n in own_nodes(run.topology, domain.name)} >= set(seen.split(","))
        assert int(reports) > 0


@pytest.mark.netns
def test_federated_paths_add_the_domains_summaries_and_the_border_link(run):
    federation = run.outcome.federation
    assert federation is not None
    taken = [p for p in federation.paths if p.taken]
    assert {(p.src_domain, p.dst_domain) for p in taken} == {("west", "east"), ("east", "west")}
    links = {(l.a_switch, l.b_switch): l.latency_us for l in run.topology.interdomain_links}
    for path in taken:
        assert path.src_part is not None and path.dst_part is not None
        ends = (path.src_border, path.dst_border)
        link = links.get(ends, links.get(ends[::-1]))
        assert path.link_us == link
        assert path.total_p50_us == path.src_part.p50_us + link + path.dst_part.p50_us
        assert path.src_part.p50_us > 0 and path.dst_part.p50_us > 0
        assert path.measured_us is not None and path.measured_us > 0
