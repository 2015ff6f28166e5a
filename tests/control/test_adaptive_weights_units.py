"""The adaptive loop's parts: the latest-report reader over a real Store, and the
tracker's level and time hysteresis on a clock the test gives."""
from __future__ import annotations

from control.collector.aggregates import LATENCY_UNAVAILABLE, OCCUPANCY_UNAVAILABLE
from control.collector.report import TelemetryReport
from control.collector.store import Store
from control.controller.weights import (CongestionTracker, LatestOccupancy, PortSample,
                                        WeightPolicy)
from wire_formats.layers import IntHop

POLICY = WeightPolicy(high=8, low=4, latency_high=8192, latency_low=4096, hold_s=2, max_hold_s=8)


def report(depth: int, latency: int = 0, port: int = 3) -> TelemetryReport:
    return TelemetryReport(2, 0, 0, 1, 0, False, False,
                           (IntHop(node_id=2, egress_port=1, hop_latency=0, queue_occupancy=0),
                            IntHop(node_id=1, egress_port=port, hop_latency=latency,
                                   queue_occupancy=depth)), None)


def test_the_newest_report_is_the_state_not_a_mean(tmp_path):
    store = Store(str(tmp_path / "r.sqlite"))
    reader = LatestOccupancy(store.path)
    assert reader.read() == {}  # empty store
    for depth in (0, 0, 0, 30):
        store.add(report(depth), received=1.0)
    assert reader.read()[(1, 3)] == PortSample(30.0, 0.0)  # the worst since the last read
    store.add(report(2, 100), received=2.0)
    assert reader.read()[(1, 3)] == PortSample(2.0, 100.0)  # newer: replaces, no averaging
    assert reader.read()[(1, 3)] == PortSample(2.0, 100.0)  # nothing new: held
    store.add(report(OCCUPANCY_UNAVAILABLE, LATENCY_UNAVAILABLE), received=3.0)
    assert reader.read()[(1, 3)] == PortSample(2.0, 100.0)  # unavailable words carry nothing
    assert reader.read()[(2, 1)] == PortSample(0.0, 0.0)


def test_a_store_not_yet_created_reads_as_nothing(tmp_path):
    assert LatestOccupancy(str(tmp_path / "missing.sqlite")).read() == {}


def test_congestion_is_taken_at_once_and_cleared_after_the_hold():
    tracker, key = CongestionTracker(POLICY), (1, 3)
    assert tracker.step({key: 9.0}, now=0.0) == {key: True}
    assert tracker.step({key: 5.0}, now=0.1) == {key: True}   # between: kept
    assert tracker.step({key: 1.0}, now=0.2) == {key: True}   # below since 0.2
    assert tracker.step({key: 6.0}, now=1.0) == {key: True}   # back between: timer reset
    assert tracker.step({key: 1.0}, now=1.5) == {key: True}
    assert tracker.step({key: 1.0}, now=3.4) == {key: True}   # 1.9 s below
    assert tracker.step({key: 1.0}, now=3.5) == {key: False}  # 2 s below: clear


def test_a_long_wait_is_congestion_even_with_a_short_queue():
    tracker, key = CongestionTracker(POLICY), (1, 3)
    assert tracker.step({key: PortSample(3.0, 9000.0)}, now=0.0) == {key: True}
    assert tracker.step({key: PortSample(1.0, 5000.0)}, now=0.1) == {key: True}
    assert tracker.step({key: PortSample(1.0, 5000.0)}, now=5.0) == {key: True}  # latency between
    assert tracker.step({key: PortSample(1.0, 100.0)}, now=5.1) == {key: True}
    assert tracker.step({key: PortSample(1.0, 100.0)}, now=7.1) == {key: False}


def test_the_hold_doubles_on_each_quick_relapse_up_to_the_cap_and_then_resets():
    tracker, key = CongestionTracker(POLICY), (1, 3)
    tick, holds = 0, []  # quarters of a second: exact in binary, so the sums are
    for _ in range(4):  # congest, drain, clear once the hold allows, congest again at once
        tracker.step({key: 20.0}, now=tick / 4)
        start = tick
        while tracker.step({key: 0.0}, now=tick / 4)[key]:
            tick += 1
        holds.append((tick - start) / 4)
        tick += 1
    assert holds == [2.0, 4.0, 8.0, 8.0]
    now = tick / 4
    tracker.step({key: 20.0}, now=now + 100.0)  # a relapse long after: back to the base hold
    assert tracker.step({key: 0.0}, now=now + 100.1)[key]
    assert not tracker.step({key: 0.0}, now=now + 102.1)[key]


def test_latency_is_ignored_unless_the_policy_asks_for_it():
    tracker, key = CongestionTracker(WeightPolicy(hold_s=1)), (1, 3)
    assert tracker.step({key: PortSample(3.0, 500_000.0)}, now=0.0) == {key: False}
    assert tracker.step({key: PortSample(9.0, None)}, now=0.1) == {key: True}
    assert tracker.step({key: PortSample(None, 100.0)}, now=0.2) == {key: True}  # no queue word:
    assert tracker.step({key: PortSample(None, 100.0)}, now=5.0) == {key: True}  # no evidence
