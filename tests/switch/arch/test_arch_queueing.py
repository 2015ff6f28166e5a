"""Traffic manager seen from the pipeline: queueing metadata, tail drops, priorities.

stack_and_queues.json (real p4c output) forwards port 1 -> 2 and, in egress, pushes a
hop record with deq_qdepth and deq_timedelta onto probe packets.  Packets are injected
before start() so that the whole burst enters the queue before the first departure.
"""

from p4sim.switch.switch import Switch

from sa_helpers import (PROBE, Collector, configure_probe_tables, hop_of, plain,
                        priority_program, probe_switch)


def test_queue_at_known_rate_shows_depth_and_delay():
    sw = probe_switch()
    sw.set_queue_rate(1000, port=2)
    out = Collector(sw)
    count = 10
    for _ in range(count):
        sw.inject(1, PROBE)
    with sw:
        assert sw.wait_idle(5)
    frames = out.take()[2]
    assert len(frames) == count
    hops = [hop_of(f) for f in frames]
    assert all(h[0] == 7 and h[1] == 2 for h in hops)
    # The first probe finds an idle queue; the other nine wait their turn at 1 ms each.
    depths = [h[2] for h in hops]
    assert depths == [0, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    latencies = [h[3] for h in hops]
    # A packet never leaves before its slot; scheduling noise (other processes on a
    # shared machine) can only make it later.
    for i in range(count):
        assert 1000 * i - 500 <= latencies[i] <= 1000 * i + 50_000, latencies


def test_unlimited_queue_adds_no_delay():
    sw = probe_switch()
    out = Collector(sw)
    for _ in range(5):
        sw.inject(1, PROBE)
    with sw:
        assert sw.wait_idle(5)
    hops = [hop_of(f) for f in out.take()[2]]
    assert [h[2] for h in hops] == [0] * 5
    assert all(h[3] < 1000 for h in hops)


def test_tail_drops_beyond_queue_depth():
    sw = probe_switch(queue_depth=3, queue_rate=100)
    out = Collector(sw)
    for _ in range(10):
        sw.inject(1, PROBE)
    with sw:
        assert sw.wait_idle(5)
    assert len(out.take()[2]) == 4       # one leaves at once, three wait, six dropped
    assert sw.stats.tail_drops[2] == 6
    assert sw.stats.as_dict()["total_tail_drops"] == 6


def test_queue_depth_change_at_run_time():
    sw = probe_switch(queue_rate=100)
    sw.set_queue_depth(1, port=2)
    out = Collector(sw)
    for _ in range(5):
        sw.inject(1, PROBE)
    with sw:
        assert sw.wait_idle(5)
    assert len(out.take()[2]) == 2
    assert sw.stats.tail_drops[2] == 3


def run_priority_burst(sw: Switch, frames: list[bytes]) -> list[bytes]:
    out = Collector(sw)
    for data in frames:
        sw.inject(1, data)
    with sw:
        assert sw.wait_idle(10)
    return out.take().get(2, [])


def test_higher_priority_drains_first_under_congestion():
    sw = Switch(priority_queues=2)
    sw.load_program(priority_program())
    configure_probe_tables(sw)
    sw.set_queue_rate(100, port=2)          # port 2 shaped to 10 ms slots
    lows = [plain(0, i) for i in range(6)]
    highs = [plain(1, 100 + i) for i in range(3)]
    sent = run_priority_burst(sw, lows + highs)
    # The port sends one packet per 10 ms slot, always from the highest-priority
    # non-empty queue: the first low packet left before the highs arrived.
    assert sent == [lows[0]] + highs + lows[1:]


def test_low_priority_queue_limited_alone():
    sw = Switch(priority_queues=2)
    sw.load_program(priority_program())
    configure_probe_tables(sw)
    sw.set_queue_rate(100, port=2, priority=0)   # only the low-priority queue is slow
    lows = [plain(0, i) for i in range(4)]
    highs = [plain(1, 100 + i) for i in range(4)]
    sent = run_priority_burst(sw, lows + highs)
    assert sent == [lows[0]] + highs + lows[1:]


def test_priority_beyond_queues_is_dropped():
    sw = Switch(priority_queues=2)
    sw.load_program(priority_program())
    configure_probe_tables(sw)
    sent = run_priority_burst(sw, [plain(5, 1), plain(1, 2)])
    assert sent == [plain(1, 2)]
    assert sw.stats.priority_drops == 1


def test_queue_delay_right_after_the_32_bit_clock_wraps():
    sw = probe_switch()
    # White-box: pretend the switch has run for just under 2**32 µs (71.6 minutes), so
    # the 32-bit enq_timestamp wraps while the probes wait in the queue.
    sw._clock_origin_ns -= (2**32 - 2_000) * 1000
    sw.set_queue_rate(1000, port=2)
    out = Collector(sw)
    for _ in range(5):
        sw.inject(1, PROBE)
    with sw:
        assert sw.wait_idle(5)
    latencies = [hop_of(f)[3] for f in out.take()[2]]
    for i, latency in enumerate(latencies):
        assert 1000 * i - 500 <= latency <= 1000 * i + 50_000, latencies
