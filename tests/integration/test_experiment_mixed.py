"""The experiment's mixed case end to end (root): back-end UEC (h1 <-> h3) beside
front-end real TCP (the kernel's, h2 <-> h4), each in its own partition, on the shaped
leaf_spine fabric, once with partition queues and once with one queue; small flows.

One run serves every test here (module fixture). Root, `ip netns` and build/fabric.*
are required: the tests fail, not skip, without them.
"""
from __future__ import annotations

import contextlib
import re
import sqlite3

import pytest
from PIL import Image

from control.experiment.plan import MIXED, Partitions, mixed_plan
from experiment_run import ExperimentRun, run_plan
from control.policy import load_policy

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
QUEUES, ONE_QUEUE = "entropy, partition queues", "entropy, one queue"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> ExperimentRun:
    out = tmp_path_factory.mktemp("experiment-mixed")
    return run_plan(mixed_plan(), out, out / "work/leaf_spine.toml")


def test_both_queue_variants_run_and_deliver_every_byte(run):
    rows = {row.mode: row for row in run.outcome.rows}
    assert set(rows) == {QUEUES, ONE_QUEUE}, rows
    for row in rows.values():
        assert row.workload == "mixed" and row.error == "", row
        assert row.completed == row.flows == len(MIXED.flows), row
        assert row.tcp_completed == row.tcp_flows == len(MIXED.tcp), row
        assert row.fct_p50_s is not None and row.fct_p99_s is not None
        assert 0 < row.fct_p50_s <= row.fct_p99_s
        assert row.goodput_mbps > 0 and row.tcp_goodput_mbps is not None and row.tcp_goodput_mbps > 0
    step = run.plan.steps[0]
    # Every TCP sender's summary: the receiver answered with all its bytes, same SHA-256.
    senders = sorted((run.out / "work").glob("s*/logs/tcp-sender-*.log"))
    assert len(senders) == 2 * len(MIXED.tcp), senders
    for log in senders:
        summaries = [line for line in log.read_text().splitlines() if line.startswith("{")]
        assert summaries, log
        assert f'"bytes": {step.tcp_bytes_per_flow}, "delivered": {step.tcp_bytes_per_flow}, ' \
               f'"complete": true' in summaries[-1], (log, summaries[-1])


def test_the_policies_put_the_partitions_in_their_queue_classes(run):
    """With partition queues the back end has its own class; with one queue it shares
    the front end's. Neither programs ECN or trimming (plan.Setting says why)."""
    expected = {QUEUES: (Partitions.BACKEND_QUEUE, Partitions.FRONTEND_QUEUE),
                ONE_QUEUE: (Partitions.FRONTEND_QUEUE, Partitions.FRONTEND_QUEUE)}
    for index, setting in enumerate(run.plan.settings()):
        policy = load_policy(str(run.out / f"work/s{index}/policy.toml"), run.topology)
        parts = {p.name: p for p in policy.partitions}
        assert {m for m in parts["backend"].members} == {
            (run.topology.host(h).switch, run.topology.host(h).port) for h in ("h1", "h3")}
        assert {m for m in parts["frontend"].members} == {
            (run.topology.host(h).switch, run.topology.host(h).port) for h in ("h2", "h4")}
        assert (parts["backend"].queue, parts["frontend"].queue) == expected[setting.label]
        assert policy.trim.default is None and policy.ecn.default is None


def test_int_shows_the_back_end_in_its_queue_at_every_hop(run):
    """The sinks' telemetry reports of back-end UEC packets: each hop's queue ID is the
    back end's class on every switch (the spines know the partition from its tag)."""
    expected = {QUEUES: Partitions.BACKEND_QUEUE, ONE_QUEUE: Partitions.FRONTEND_QUEUE}
    for label, db in run.outcome.int_dbs.items():
        with contextlib.closing(sqlite3.connect(db)) as connection:
            hops = connection.execute("SELECT node_id, queue_id FROM hops").fetchall()
        assert hops, label
        assert {node for node, _q in hops} == {s.node_id for s in run.topology.switches}, label
        assert {queue for _node, queue in hops} == {expected[label]}, (label, hops)


def test_table_progress_and_report_show_the_mixed_case(run):
    lines = run.table.splitlines()
    assert "TCP Mb/s" in lines[1] and "mixed:" in lines[0], run.table
    for label in (QUEUES, ONE_QUEUE):
        line = next(line for line in lines if line.startswith(f"mixed        {label} "))
        assert "incomplete" not in line and line.split()[-2] != "-", line
    assert re.search(r"\[2/2 +\d+ s\] mixed, entropy, one queue: 2/2 flows", run.progress), run.progress
    html = run.outcome.report.read_text()
    assert "Mixed case: front-end TCP beside back-end UEC" in html
    for row in run.outcome.rows:
        assert f"<td>{row.mode}</td>" in html and f"<td>{row.tcp_goodput_mbps:.2f}</td>" in html
    assert 'src="mixed.png"' in html
    data = (run.out / "mixed.png").read_bytes()
    assert data.startswith(PNG_MAGIC)
    with Image.open(run.out / "mixed.png") as image:
        image.verify()
