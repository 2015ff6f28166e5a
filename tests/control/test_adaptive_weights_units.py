"""The adaptive loop's parts: the latest-report reader over a real Store, and the wait
balancer's moves, dead band and holds on a clock the test gives."""
from __future__ import annotations

from control.collector.aggregates import LATENCY_UNAVAILABLE, OCCUPANCY_UNAVAILABLE
from control.collector.report import TelemetryReport
from control.collector.store import Store
from control.controller.balance import WaitBalancer
from control.controller.weights import LatestOccupancy, PortSample, WeightPolicy
from wire_formats.layers import IntHop

POLICY = WeightPolicy(low=4, ratio=2.0, gap_us=4096, step_s=1.0, smooth_s=1e-9, hold_s=2,
                      max_hold_s=8)


def report(depth: int, latency: int = 0, port: int = 3, queue: int = 0) -> TelemetryReport:
    return TelemetryReport(2, 0, 0, 1, 0, False, False,
                           (IntHop(node_id=2, egress_port=1, hop_latency=0, queue_occupancy=0),
                            IntHop(node_id=1, egress_port=port, hop_latency=latency,
                                   queue_id=queue, queue_occupancy=depth)), None)


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


def test_the_data_queue_wait_is_not_hidden_by_the_feedback_queue(tmp_path):
    store = Store(str(tmp_path / "q.sqlite"))
    reader = LatestOccupancy(store.path)
    store.add(report(12, 300_000, queue=0), received=1.0)
    store.add(report(12, 9_000, queue=7), received=1.1)   # an ACK in its priority queue
    assert reader.read()[(1, 3)] == PortSample(12.0, 300_000.0)
    store.add(report(2, 20_000, queue=0), received=2.0)
    assert reader.read()[(1, 3)] == PortSample(12.0, 20_000.0)


GROUP = ("leaf1", "h3")
PATHS = {3: [(1, 3)], 4: [(1, 4)]}


def waits(slow: float, fast: float, depth: float = 16.0) -> dict:
    return {(1, 3): PortSample(depth, slow), (1, 4): PortSample(depth, fast)}


def weights(balancer: WaitBalancer, samples: dict, now: float) -> dict[int, int]:
    return balancer.step({GROUP: PATHS}, samples, now)[GROUP]


def test_the_longest_wait_gives_one_unit_per_step_on_fresh_evidence():
    balancer = WaitBalancer(POLICY)
    assert weights(balancer, waits(300_000, 100_000), 0.0) == {3: 3, 4: 5}
    assert weights(balancer, waits(310_000, 100_000), 0.5) == {3: 3, 4: 5}  # within step_s
    assert weights(balancer, waits(310_000, 100_000), 1.0) == {3: 2, 4: 6}
    assert weights(balancer, waits(310_000, 100_000), 2.0) == {3: 2, 4: 6}  # nothing new
    assert weights(balancer, waits(320_000, 100_000), 3.0) == {3: 1, 4: 7}
    assert weights(balancer, waits(330_000, 100_000), 4.0) == {3: 1, 4: 7}  # the floor: 1


def test_waits_twice_the_ratio_apart_move_two_units():
    balancer = WaitBalancer(POLICY)
    assert weights(balancer, waits(400_000, 100_000), 0.0) == {3: 2, 4: 6}
    assert weights(balancer, waits(500_000, 100_000), 1.0) == {3: 1, 4: 7}  # one left to give


def test_a_split_the_waits_no_longer_justify_goes_back_on_a_smaller_ratio():
    balancer = WaitBalancer(POLICY)
    assert weights(balancer, waits(300_000, 100_000), 0.0) == {3: 3, 4: 5}
    # port 4, now favoured, waits 1.1x port 3: within even the smaller ratio, kept
    assert weights(balancer, waits(200_000, 220_000), 1.0) == {3: 3, 4: 5}
    # 1.3x: back one unit toward equal (a move away from equal would need 2x)
    assert weights(balancer, waits(200_000, 260_000), 2.0) == {3: 4, 4: 4}
    assert weights(balancer, waits(200_000, 270_000), 3.0) == {3: 4, 4: 4}  # equal: 2x again


def test_waits_within_the_ratio_or_the_gap_change_nothing():
    balancer = WaitBalancer(POLICY)
    assert weights(balancer, waits(190_000, 100_000), 0.0) == {3: 4, 4: 4}   # under 2x
    assert weights(balancer, waits(3_000, 1_000), 1.0) == {3: 4, 4: 4}       # 3x, 2 ms apart
    assert weights(balancer, waits(300_000, 100_000, depth=2), 2.0) == {3: 4, 4: 4}  # no queue


def test_a_quiet_group_steps_back_to_equal_and_a_relapse_doubles_the_hold():
    balancer, now = WaitBalancer(POLICY), 0.0
    for now in (0.0, 1.0, 2.0):
        weights(balancer, waits(300_000 + now, 100_000), now)
    assert weights(balancer, waits(0, 0, depth=0), 3.0) == {3: 1, 4: 7}
    assert weights(balancer, waits(0, 0, depth=0), 4.9) == {3: 1, 4: 7}
    assert weights(balancer, waits(0, 0, depth=0), 5.0) == {3: 2, 4: 6}   # 2 s quiet
    assert weights(balancer, waits(0, 0, depth=0), 6.0) == {3: 2, 4: 6}   # once per hold
    assert weights(balancer, waits(400_000, 100_000), 6.5) == {3: 1, 4: 7}  # relapse: hold 4 s
    assert weights(balancer, waits(0, 0, depth=0), 7.0) == {3: 1, 4: 7}
    assert weights(balancer, waits(0, 0, depth=0), 10.9) == {3: 1, 4: 7}
    assert weights(balancer, waits(0, 0, depth=0), 11.0) == {3: 2, 4: 6}
    for now in (15.0, 19.0, 23.0):
        weights(balancer, waits(0, 0, depth=0), now)
    assert weights(balancer, waits(0, 0, depth=0), 23.0) == {3: 4, 4: 4}
    assert weights(balancer, waits(0, 0, depth=0), 40.0) == {3: 4, 4: 4}  # equal: stays


def test_a_group_whose_members_change_starts_equal_again():
    balancer = WaitBalancer(POLICY)
    assert weights(balancer, waits(300_000, 100_000), 0.0) == {3: 3, 4: 5}
    three = {3: [(1, 3)], 4: [(1, 4)], 5: [(1, 5)]}
    after = balancer.step({GROUP: three}, waits(300_000, 100_000, depth=0), 1.0)[GROUP]
    assert after == {3: 4, 4: 4, 5: 4}
    assert sum(after.values()) == 3 * POLICY.clear_weight


def test_waits_are_smoothed_over_time():
    balancer = WaitBalancer(WeightPolicy(smooth_s=1.0, step_s=0.1))
    assert weights(balancer, waits(100_000, 100_000), 0.0) == {3: 4, 4: 4}
    # one long wait at 0.1 s moves the average of port 3 by 1 - e^-0.1 of the step only
    assert weights(balancer, waits(1_000_000, 100_000), 0.1) == {3: 4, 4: 4}
    assert weights(balancer, waits(1_000_001, 100_000), 1.0) == {3: 2, 4: 6}
