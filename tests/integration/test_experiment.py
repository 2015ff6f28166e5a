"""The leaf-spine experiment end to end (root): a minimal plan, the permutation of long
flows under ECMP and round-robin spraying, on real switches with shaped links; then the
round-robin fabric's per-port pcaps, decoded by the real tshark with
tools/wireshark/p4fabric.lua and checked against the run's own figures.

One run serves every test here (module fixture). Root, `ip netns`, build/fabric.* and
tshark are required: the tests fail, not skip, without them.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from control.experiment import minimal_plan
from control.launch import ROOT
from control.topology import Topology
from experiment_run import ExperimentRun, run_plan
from wire_formats.layers import PDS_ACK, PDS_CONTROL, PDS_NACK

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
LUA = ROOT / "tools/wireshark/p4fabric.lua"
MSS = 1200                      # endpoints.sender's payload bytes per packet
RUD_CC_REQ, ACK_CC = 13, 8      # PDS types the endpoints send with credit on
TRIMMED_DSCP = 0x0B             # control/experiment/fabric.py's trim class: cut to headers
FIELDS = ("frame.number", "ip.src", "ip.dst", "ip.dsfield.dscp", "uec.pds.type", "uec.pds.psn",
          "uec.pds.flags.retrans", "data.len", "int.md.hops", "int.hop.node_id",
          "int.hop.ingress_port", "int.hop.egress_port", "intrep.node_id", "intrep.seq",
          "_ws.malformed", "_ws.lua.error")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> ExperimentRun:
    out = tmp_path_factory.mktemp("experiment")
    return run_plan(minimal_plan(), out, out / "work/leaf_spine.toml")


def test_minimal_experiment_runs_measures_and_reports(run):
    table, outcome, out = run.table, run.outcome, run.out
    assert "FCT p50" in table and "permutation  round_robin" in table, table
    rows = {row.mode: row for row in outcome.rows}
    assert set(rows) == {"ecmp", "round_robin"}, rows
    for row in rows.values():
        assert row.workload == "permutation"
        assert row.error == "" and row.completed == row.flows == 4, row
        assert row.fct_p50_s is not None and row.fct_p99_s is not None
        assert 0 < row.fct_p50_s <= row.fct_p99_s
        assert row.goodput_mbps > 0 and row.load_mean_pps > 0
        assert len(row.link_packets) == 8      # every directed leaf-spine link carries data
    # Round robin alternates every group's members packet by packet: the leaf-spine links
    # carry the same load to within a few packets, whatever the flows' hashes.
    sprayed = rows["round_robin"]
    assert sprayed.imbalance is not None and sprayed.imbalance <= 1.1, sprayed.link_packets
    for leaf in ("leaf1", "leaf2"):   # a leaf's two uplinks: the members of its groups
        up = [n for link, n in sprayed.link_packets.items() if link.startswith(f"{leaf}:")]
        assert len(up) == 2 and abs(up[0] - up[1]) <= max(4, 0.05 * sum(up)), sprayed.link_packets
    # ... which is what the table's per-leaf figure says (the tier figure also counts the
    # INT reports converging on the collector's leaf)
    assert sprayed.leaf_imbalance is not None and sprayed.leaf_imbalance <= 1.05, sprayed

    html = outcome.report.read_text()
    assert outcome.report == out / "report.html"
    images = re.findall(r'<img src="([^"]+)"', html)
    assert {"link-load.png", "fct-cdf.png", "incast.png"} <= set(images), images
    assert any(name.startswith("int-") for name in images), images   # INT from the collector
    for name in images:
        data = (out / name).read_bytes()
        assert data.startswith(PNG_MAGIC), name
        with Image.open(out / name) as image:
            image.verify()
            assert image.size[0] > 100 and image.size[1] > 100
    assert "permutation" in html and "round_robin" in html


# ------------------------------------------------------------------ the pcaps, by tshark
@dataclass
class Frame:
    fields: dict[str, list[str]]

    def ints(self, name: str) -> list[int]:
        return [int(v, 0) for v in self.fields[name]]

    def has(self, name: str) -> bool:
        return bool(self.fields[name])


def tshark_frames(pcap: Path) -> list[Frame]:
    """Every frame of ``pcap`` as tshark with the dissector decodes it (FIELDS only)."""
    tshark = shutil.which("tshark")
    assert tshark, "tshark is not installed (Debian: apt-get install --no-install-recommends tshark)"
    argv = [tshark, "-X", f"lua_script:{LUA}", "-r", str(pcap), "-T", "fields",
            "-E", "occurrence=a", "-E", "aggregator=,", "-E", "separator=/t"]
    for name in FIELDS:
        argv += ["-e", name]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and "Lua" not in done.stderr, done.stderr
    frames = []
    for line in done.stdout.splitlines():
        values = line.split("\t")
        assert len(values) == len(FIELDS), line
        frames.append(Frame({name: [v for v in value.split(",") if v]
                             for name, value in zip(FIELDS, values)}))
    return frames


@pytest.fixture(scope="module")
def decoded(run) -> dict[tuple[str, int, str], list[Frame]]:
    """(switch, port, "in"/"out") -> its capture's frames."""
    return {(c.switch, c.port, c.direction): tshark_frames(c.path) for c in run.outcome.captures}


def _node(topology: Topology, switch: str) -> int:
    return topology.switch(switch).node_id


def _peer(topology: Topology, switch: str, port: int) -> tuple[str, int]:
    for link in topology.links:
        if (link.a_switch, link.a_port) == (switch, port):
            return link.b_switch, link.b_port
        if (link.b_switch, link.b_port) == (switch, port):
            return link.a_switch, link.a_port
    raise AssertionError(f"{switch}:{port} is not a link port")


def _data(frame: Frame) -> bool:
    """A whole UEC data packet: not trimmed to its headers, not a report crossing the
    fabric to the collector with one inside."""
    return (frame.ints("uec.pds.type") == [RUD_CC_REQ] and not frame.has("intrep.seq")
            and frame.ints("ip.dsfield.dscp") != [TRIMMED_DSCP])


def test_every_used_port_is_captured_and_linked(run, decoded):
    captures = run.outcome.captures
    assert run.plan.capture is not None
    expected = {(sw.name, port, d) for sw in run.topology.switches
                for port in run.topology.all_ports(sw.name) for d in ("in", "out")}
    assert {(c.switch, c.port, c.direction) for c in captures} == expected
    for c in captures:
        assert c.path.parent == run.out / "pcaps" / c.switch
        assert c.path.name == f"{c.switch}-{c.port}_{c.direction}.pcap"   # as BMv2 names them
        assert not c.cut and len(decoded[(c.switch, c.port, c.direction)]) == c.packets, c
        collector_in = run.topology.collector is not None and (
            c.switch, c.port, c.direction) == (run.topology.collector.switch,
                                               run.topology.collector.port, "in")
        if not collector_in:    # the collector only listens
            assert c.packets > 0, c
        for frame in decoded[(c.switch, c.port, c.direction)]:
            assert not frame.has("_ws.lua.error"), (c.path, frame)
            # Reports carry the sink's first inner_bytes only: Wireshark calls those short.
            assert not frame.has("_ws.malformed") or frame.has("intrep.seq"), (c.path, frame)
    html = run.outcome.report.read_text()
    for c in captures:
        assert f'href="pcaps/{c.switch}/{c.path.name}"' in html, c.path
    assert f"lua_script:{LUA}" in html and "plugins" in html
    assert f"{len(captures)} files" in html


def test_pcaps_match_the_runs_link_counters(run, decoded):
    """The captured fabric ran one step: what each switch sent on a leaf-spine link is
    what its port counter (the row's link load) says, and the far end got no more."""
    row = next(r for r in run.outcome.rows if r.mode == run.plan.capture.label)
    assert len(row.link_packets) == 8
    for label, packets in row.link_packets.items():
        switch, rest = label.split(":")         # metrics.link_label: "leaf1:3->spine1"
        port = int(rest.split("->")[0])
        assert len(decoded[(switch, port, "out")]) == packets, label
        assert len(decoded[(*_peer(run.topology, switch, port), "in")]) <= packets, label


def test_uec_headers_decoded_and_every_packet_of_every_flow_captured(run, decoded):
    step = next(s for s in run.plan.steps if s.setting == run.plan.capture)
    row = next(r for r in run.outcome.rows if r.mode == step.label)
    assert row.completed == row.flows
    ip_of = {h.name: h.ip for h in run.topology.hosts}
    per_flow = -(-step.bytes_per_flow // MSS)
    retransmitted = 0
    for src, dst in step.workload.flows:
        src_host, dst_host = run.topology.host(src), run.topology.host(dst)
        sent = [f for f in decoded[(src_host.switch, src_host.port, "in")]
                if f.fields["ip.dst"] == [ip_of[dst]] and _data(f)]
        delivered = [f for f in decoded[(dst_host.switch, dst_host.port, "out")]
                     if f.fields["ip.src"] == [ip_of[src]] and _data(f)]   # whole copies
        acks = [f for f in decoded[(dst_host.switch, dst_host.port, "in")]
                if f.fields["ip.dst"] == [ip_of[src]] and f.ints("uec.pds.type") == [ACK_CC]]
        # The flow completed, so each of its PSNs crossed the source leaf and the sink.
        for frames in (sent, delivered):
            payload = {f.ints("uec.pds.psn")[0]: f.ints("data.len")[0] for f in frames}
            assert len(payload) == per_flow and sum(payload.values()) == step.bytes_per_flow
            assert max(payload) - min(payload) == per_flow - 1      # consecutive PSNs
            assert all(not f.has("int.md.hops") for f in frames)    # INT only inside the fabric
        assert acks, (src, dst)
        retransmitted += sum(f.ints("uec.pds.flags.retrans") == [1] for f in sent)
    assert retransmitted <= row.retransmissions


def test_int_stacks_grow_hop_by_hop_along_the_path(run, decoded):
    topology = run.topology
    leaf_of_ip = {h.ip: h.switch for h in topology.hosts}
    spines = [s.name for s in topology.switches if s.role == "spine"]
    checked = 0
    for spine in spines:
        for port in sorted(topology.fabric_ports(spine)):
            leaf, leaf_port = _peer(topology, spine, port)
            for frame in decoded[(spine, port, "in")]:       # from that leaf: one hop, its own
                if _data(frame):
                    assert leaf_of_ip[frame.fields["ip.src"][0]] == leaf, frame
                    assert frame.ints("int.md.hops") == [1], frame
                    assert frame.ints("int.hop.node_id") == [_node(topology, leaf)], frame
                    assert frame.ints("int.hop.egress_port") == [leaf_port], frame
                    checked += 1
            for frame in decoded[(spine, port, "out")]:      # toward that leaf: spine, source
                if _data(frame):
                    source = leaf_of_ip[frame.fields["ip.src"][0]]
                    assert frame.ints("int.md.hops") == [2], frame
                    assert frame.ints("int.hop.node_id") == [_node(topology, spine),
                                                             _node(topology, source)], frame
                    assert frame.ints("int.hop.egress_port")[0] == port, frame
                    checked += 1
    assert checked > 0


def test_telemetry_reports_carry_the_whole_path(run, decoded):
    """Each report at the collector: the sink leaf's, with the inner packet's INT stack as
    long as its path (leaf, spine, leaf: 3; within a leaf: 1), newest first; round robin
    shows both spines."""
    topology = run.topology
    collector = topology.collector
    assert collector is not None
    leaf_of_ip = {h.ip: h.switch for h in topology.hosts}
    spine_nodes = {s.node_id for s in topology.switches if s.role == "spine"}
    reports = [f for f in decoded[(collector.switch, collector.port, "out")] if f.has("intrep.seq")]
    assert reports
    seen_spines = set()
    sinks = set()
    for frame in reports:
        inner_src, inner_dst = frame.fields["ip.src"][-1], frame.fields["ip.dst"][-1]
        src_leaf, dst_leaf = leaf_of_ip[inner_src], leaf_of_ip[inner_dst]
        hops = frame.ints("int.hop.node_id")
        assert frame.ints("intrep.node_id") == [_node(topology, dst_leaf)] == hops[:1], frame
        if src_leaf == dst_leaf:
            assert frame.ints("int.md.hops") == [1] and len(hops) == 1, frame
            continue
        assert frame.ints("int.md.hops") == [3] and len(hops) == 3, frame
        assert hops[2] == _node(topology, src_leaf) and hops[1] in spine_nodes, frame
        assert frame.ints("int.hop.egress_port")[0] == topology.host(
            next(h.name for h in topology.hosts if h.ip == inner_dst)).port
        # data, ACK_CC, the plain ACK that confirms a close, or (when a queue trimmed)
        # the receiver's NACK or credit
        assert frame.ints("uec.pds.type") in (
            [RUD_CC_REQ], [ACK_CC], [PDS_ACK], [PDS_NACK], [PDS_CONTROL]), frame
        seen_spines.add(hops[1])
        sinks.add(dst_leaf)
    assert seen_spines == spine_nodes       # the row's links all carried data
    assert sinks == {"leaf1", "leaf2"}      # reports of both sinks reach leaf1's collector
    for sink in sinks:                      # each sink numbers its reports one by one
        seqs = [f.ints("intrep.seq")[0] for f in reports
                if f.ints("intrep.node_id") == [_node(topology, sink)]]
        assert len(set(seqs)) == len(seqs) and max(seqs) < len(seqs) + 8, (sink, seqs)
