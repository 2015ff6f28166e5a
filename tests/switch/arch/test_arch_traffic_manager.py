"""Traffic manager and egress queue behaviour, on a synthetic clock (no threads)."""

import pytest

from p4sim.switch.queues import EgressQueue, rate_to_gap_ns
from p4sim.switch.traffic_manager import TrafficManager, TrafficManagerError

MS = 1_000_000  # ns


def drain(tm, now_ns):
    return [(port, prio, item) for port, prio, item, _depth in tm.pop_ready(now_ns)]


def test_rate_to_gap():
    assert rate_to_gap_ns(1000) == MS
    assert rate_to_gap_ns(0) == 0
    assert rate_to_gap_ns(None) == 0


def test_queue_departures_spaced_by_rate():
    queue = EgressQueue(capacity=10, rate_pps=1000, now_ns=0)
    for i in range(3):
        assert queue.push(i, now_ns=5 * MS)
    departures = [when for when, _item in queue.items]
    assert departures == [5 * MS, 6 * MS, 7 * MS]


def test_tail_drop_at_capacity():
    tm = TrafficManager(depth=3)
    accepted = [tm.enqueue(1, 0, i, 0) for i in range(5)]
    assert accepted == [True, True, True, False, False]
    assert tm.port_depth(1) == 3


def test_unlimited_rate_drains_everything_in_order():
    tm = TrafficManager()
    for i in range(5):
        tm.enqueue(2, 0, i, 0)
    assert [item for _p, _q, item in drain(tm, 0)] == [0, 1, 2, 3, 4]
    assert tm.total == 0
    assert tm.next_departure_ns() is None


def test_rate_limited_queue_releases_one_per_interval():
    tm = TrafficManager(rate_pps=1000)
    for i in range(4):
        tm.enqueue(3, 0, i, 0)
    assert [item for *_x, item in drain(tm, 0)] == [0]
    assert tm.next_departure_ns() == MS
    assert [item for *_x, item in drain(tm, MS - 1)] == []
    assert [item for *_x, item in drain(tm, 2 * MS)] == [1, 2]
    assert [item for *_x, item in drain(tm, 10 * MS)] == [3]


def test_depths_reported_after_pop():
    tm = TrafficManager()
    for i in range(3):
        tm.enqueue(1, 0, i, 0)
    depths = [depth for *_x, depth in tm.pop_ready(0)]
    assert depths == [2, 1, 0]


def test_higher_priority_served_first_when_both_due():
    tm = TrafficManager(priority_queues=4)
    tm.enqueue(1, 0, "low-a", 0)
    tm.enqueue(1, 0, "low-b", 0)
    tm.enqueue(1, 3, "high", 0)
    tm.enqueue(1, 1, "mid", 0)
    assert [item for *_x, item in drain(tm, 0)] == ["high", "mid", "low-a", "low-b"]


def test_high_priority_arrival_overtakes_backlog():
    tm = TrafficManager(priority_queues=2, rate_pps=1000)
    for i in range(5):
        tm.enqueue(1, 0, f"low{i}", 0)
    assert [item for *_x, item in drain(tm, 0)] == ["low0"]
    tm.enqueue(1, 1, "high", MS // 2)
    assert [item for *_x, item in drain(tm, MS // 2)] == []      # port slot not yet due
    assert [item for *_x, item in drain(tm, MS)] == ["high"]
    assert [item for *_x, item in drain(tm, 2 * MS)] == ["low1"]


def test_port_shaper_serves_strict_priority():
    tm = TrafficManager(priority_queues=2, rate_pps=1000)
    for i in range(3):
        tm.enqueue(1, 0, f"low{i}", 0)
    for i in range(3):
        tm.enqueue(1, 1, f"high{i}", 10)
    sent = []
    for slot in range(6):
        sent += [item for *_x, item in drain(tm, slot * MS + 10)]
    assert sent == ["high0", "high1", "high2", "low0", "low1", "low2"]


def test_per_queue_rate_limits_only_that_queue():
    tm = TrafficManager(priority_queues=2)
    tm.set_rate(1000, port=1, priority=0)
    for i in range(3):
        tm.enqueue(1, 0, f"low{i}", 0)
        tm.enqueue(1, 1, f"high{i}", 0)
    assert [item for *_x, item in drain(tm, 0)] == ["high0", "high1", "high2", "low0"]
    assert tm.next_departure_ns() == MS


def test_port_rate_clears_queue_rates_of_that_port():
    tm = TrafficManager(priority_queues=2)
    tm.set_rate(10, port=1, priority=1)
    tm.set_rate(500, port=1)
    assert tm.queue_config(1, 1) == (64, 500)
    tm.set_rate(20, port=1, priority=1)
    assert tm.queue_config(1, 1) == (64, 20)
    assert tm.queue_config(1, 0) == (64, 500)


def test_ports_are_independent():
    tm = TrafficManager(depth=1)
    assert tm.enqueue(1, 0, "a", 0)
    assert tm.enqueue(2, 0, "b", 0)
    assert not tm.enqueue(1, 0, "c", 0)
    assert sorted(item for *_x, item in drain(tm, 0)) == ["a", "b"]


def test_per_port_and_per_priority_configuration():
    tm = TrafficManager(priority_queues=2, depth=64)
    tm.set_depth(2, port=5)
    tm.set_depth(7, port=5, priority=1)
    tm.set_rate(100, port=6, priority=0)
    assert tm.queue_config(5, 0) == (2, None)
    assert tm.queue_config(5, 1) == (7, None)
    assert tm.queue_config(6, 0) == (64, 100)
    assert tm.queue_config(9, 1) == (64, None)
    assert [tm.enqueue(5, 0, i, 0) for i in range(3)] == [True, True, False]


def test_configuration_applies_to_existing_queues():
    tm = TrafficManager(depth=64)
    tm.enqueue(4, 0, "x", 0)
    tm.set_depth(1)
    assert not tm.enqueue(4, 0, "y", 0)
    tm.set_rate(10)
    assert tm.queue_config(4) == (1, 10)


def test_bad_configuration_is_refused():
    tm = TrafficManager(priority_queues=2)
    with pytest.raises(TrafficManagerError, match="priority 2 out of range"):
        tm.set_depth(3, port=1, priority=2)
    with pytest.raises(TrafficManagerError, match="non-negative"):
        tm.set_depth(-1)
    with pytest.raises(TrafficManagerError, match="packets/s"):
        tm.set_rate(-5, port=1)
    with pytest.raises(TrafficManagerError, match="needs a port"):
        tm.set_rate(5, priority=1)
    with pytest.raises(TrafficManagerError, match="1..8"):
        TrafficManager(priority_queues=9)


def test_priority_acceptance():
    tm = TrafficManager(priority_queues=3)
    assert tm.accepts_priority(2)
    assert not tm.accepts_priority(3)


def test_clear_drops_everything():
    tm = TrafficManager(rate_pps=1)
    for i in range(3):
        tm.enqueue(1, 0, i, 0)
    assert tm.clear() == 3
    assert tm.total == 0
    assert drain(tm, 10**12) == []


def test_depart_now_only_for_an_idle_unshaped_slot():
    tm = TrafficManager(rate_pps=1000)
    assert tm.depart_now(1, 0, 0)
    assert not tm.depart_now(1, 0, MS // 2)       # the port's next slot is at 1 ms
    assert tm.depart_now(1, 0, MS)
    tm.enqueue(1, 0, "x", MS)                     # something waits: no skipping it
    assert not tm.depart_now(1, 0, 5 * MS)
    tm.set_depth(0, port=2)
    assert not tm.depart_now(2, 0, 0)

