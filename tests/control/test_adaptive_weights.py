"""Adaptive spraying with change-triggered INT reports, on a clock the test controls.

A fluid model of two_leaves (h1 -> h2 over leaf1:2 and leaf1:3) produces the reports
the sinks send by default: a flow's first packet on each hop set carries the queues it
met (the sink's own bucket never changes here: the congestion is upstream). They are
built as datagrams (synthetic.py), decoded and written to a real SQLite Store; the
real FabricController decides from it (control/controller/balance.py): reaction time,
moves, the split it settles on, and how long the slow link's queue stayed full.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from control.collector.decode import decode_report
from control.collector.store import Store
from control.collector.synthetic import build_report
from control.controller import FabricController
from control.controller.weights import LatestOccupancy
from wire_formats.layers import IntHop
from control.policy import load_policy
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
JSON = ROOT / "build/fabric.json"
P4INFO = ROOT / "build/fabric.p4info.txtpb"
DT = 0.01            # model step (s)
OFFERED = 1000.0     # h1 -> h2 packets/s, sprayed over leaf1's ports 2 and 3 by weight
SLOW = 300.0         # leaf1:3's rate once congestion starts: below an equal share
TRIM = 16            # the policy's trim threshold: the data queue never holds more
BUFFER = 64          # BMv2's default queue (a policy without trimming)
CONGESTION_AT = 5.0
Decide = Callable[[float], dict[int, int]]  # sim time -> leaf1's weights of h2's group {2: w, 3: w}


@dataclass
class Run:
    changes: list[tuple[float, dict[int, int]]] = field(default_factory=list)
    overloaded_s: float = 0.0   # time leaf1:3's queue was full

    def reaction(self) -> float:
        """Seconds from congestion to the first shift off leaf1:3 (inf: never)."""
        return next((t for t, w in self.changes if w[3] < w[2]), float("inf")) - CONGESTION_AT

    def changes_between(self, start: float, end: float) -> int:
        return sum(1 for t, _ in self.changes if start <= t < end)


def simulate(store: Store, decide: Decide, poll: float, duration: float,
             flow_every: float = 0.1, congestion_ends: float | None = None,
             limit: int = BUFFER) -> Run:
    """Step the model; a new flow every ``flow_every`` s reports once per hop set."""
    run, queue, weights = Run(), 0.0, {2: 4, 3: 4}
    cache: dict[tuple[int, int, int], bytes] = {}
    next_flow, next_poll, t, flow = 0.0, poll, 0.0, 0
    while t < duration:
        slow = CONGESTION_AT <= t and (congestion_ends is None or t < congestion_ends)
        share, rate = OFFERED * weights[3] / (weights[2] + weights[3]), SLOW if slow else 10 * OFFERED
        queue = min(max(queue + (share - rate) * DT, 0.0), limit)
        run.overloaded_s += DT if queue >= limit else 0.0
        if t >= next_flow - 1e-9:
            flow, next_flow = flow + 1, next_flow + flow_every
            for port, depth in ((2, 0), (3, int(queue))):
                wait = int(depth * 1e6 / rate) if port == 3 else 0  # hop latency, us
                if (port, depth, wait) not in cache:
                    hops = (IntHop(node_id=2, ingress_port=port, egress_port=1, hop_latency=0,
                                   queue_id=0, queue_occupancy=0),
                            IntHop(node_id=1, ingress_port=1, egress_port=port, hop_latency=wait,
                                   queue_id=0, queue_occupancy=depth))
                    cache[(port, depth, wait)] = build_report(hops, seq=flow, dst="10.0.2.1")
                store.add(decode_report(cache[(port, depth, wait)]), received=t)
        if t >= next_poll - 1e-9:
            next_poll += poll
            new = decide(t)
            if new != weights:
                run.changes.append((round(t, 3), new))
                weights = new
        t += DT
    return run


@pytest.fixture
def controller() -> FabricController:
    if not JSON.exists():
        pytest.fail(f"{JSON} is missing: run `make build` first")
    topo = load_topology(str(ROOT / "topologies/two_leaves.toml"))
    policy = load_policy(str(ROOT / "topologies/two_leaves.policy.toml"), topo)
    return FabricController(topo, policy, str(P4INFO), str(JSON))  # not started: no switch needed


def new_loop(controller: FabricController, db: str) -> Decide:
    """The controller's own step: each port's latest report, time hysteresis."""
    reader = LatestOccupancy(db)

    def decide(now: float) -> dict[int, int]:
        controller.adapt(reader.read(), now=now)
        return {port: controller.weights.get(("leaf1", "h2", port), 4) for port in (2, 3)}
    return decide


def test_reacts_within_a_second_and_settles_without_flapping(controller, tmp_path, record_property):
    store = Store(str(tmp_path / "r.sqlite"))
    run = simulate(store, new_loop(controller, store.path),
                   poll=controller.weight_policy.poll_s, duration=65.0)
    figures = {"reaction_s": run.reaction(), "changes": len(run.changes),
               "changes_last_30s": run.changes_between(35, 65),
               "overloaded_s": round(run.overloaded_s, 2), "last": run.changes[-1]}
    for name, value in figures.items():
        record_property(name, value)
    print(figures)
    assert run.reaction() <= 0.5           # one flow interval + one poll, not seconds
    assert run.changes_between(35, 65) <= 2  # settled: at most one probe back toward equal and its undoing
    assert run.overloaded_s <= 2.5         # full only until the second move (one step_s later)
    probes = [t for t, w in run.changes if t >= 8 and w == {2: 5, 3: 3}]
    assert all(b - a >= a_gap for (a, b), a_gap in zip(zip(probes, probes[1:]), (4, 8, 16)))  # holds double
    shares = [w[3] / (w[2] + w[3]) for _t, w in run.changes if _t >= CONGESTION_AT]
    assert all(share < 0.5 for share in shares)  # never back to an even split while slow
    assert min(shares) >= 0.125                  # one unit is the least a member keeps


def test_returns_to_equal_weights_once_the_link_recovers(controller, tmp_path):
    store = Store(str(tmp_path / "r.sqlite"))
    run = simulate(store, new_loop(controller, store.path), poll=controller.weight_policy.poll_s,
                   duration=40.0, congestion_ends=8.0)
    assert run.changes[-1][1] == {2: 4, 3: 4}
    assert run.changes[-1][0] <= 8.0 + 2 * controller.weight_policy.hold_s + 1  # two units back, a hold each


def test_sparse_reports_move_once_per_report(controller, tmp_path):
    """Reports every 3 s: a held sample is old news, so each report moves weight off the
    slow member once at most (the steps back in between are the idle group's)."""
    store = Store(str(tmp_path / "s.sqlite"))
    run = simulate(store, new_loop(controller, store.path), poll=controller.weight_policy.poll_s,
                   duration=20.0, flow_every=3.0)
    assert run.changes and run.changes[0][1][3] < run.changes[0][1][2]
    assert run.reaction() <= 3.0 + controller.weight_policy.poll_s
    weights = [(0.0, {2: 4, 3: 4})] + run.changes
    moves_off = [t for (_t0, w0), (t, w) in zip(weights, weights[1:]) if w[3] < w0[3]]
    assert len(moves_off) >= 2
    assert all(later - earlier >= 2.5 for earlier, later in zip(moves_off, moves_off[1:]))


def test_with_trimming_the_capped_queue_still_moves_the_split(controller, tmp_path):
    """The trimmed data queue never exceeds 16 packets: its wait still tells."""
    store = Store(str(tmp_path / "t.sqlite"))
    run = simulate(store, new_loop(controller, store.path), poll=controller.weight_policy.poll_s,
                   duration=15.0, limit=TRIM)
    assert run.reaction() <= 0.5
