"""Traffic manager seen from the pipeline: queueing metadata, tail drops, priorities.

stack_and_queues.json (real p4c output) forwards port 1 -> 2 and, in egress, pushes a
hop record with deq_qdepth and deq_timedelta onto probe packets.  The switches run on a
StepClock: the whole burst enters the queue at one instant (on the wall clock a loaded
machine can preempt the dataplane between two ingresses for longer than a slot), and
time moves only when the test moves it.
"""

from p4sim.switch.switch import Switch

from sa_helpers import (PROBE, Collector, StepClock, configure_probe_tables, hop_of,
                        plain, priority_program, probe_switch, use_clock, wait_ingressed)


def run_slots(sw: Switch, clock: StepClock, out: Collector, count: int,
              gap_ns: int) -> list[bytes]:
    """Once ``count`` probes are in: the first has left (idle queue), none other
    before time moves; then one more per slot of ``gap_ns``."""
    wait_ingressed(sw, clock, 1, count)
    assert out.count(2) == 1, "only the first probe may leave before its slot"
    for sent in range(2, count + 1):
        clock.advance(gap_ns)
        assert out.wait_count(2, sent) == sent
    assert sw.wait_idle(5)
    return out.take()[2]


def test_queue_at_known_rate_shows_depth_and_delay():
    clock = StepClock()
    sw = probe_switch(clock)
    sw.set_queue_rate(1000, port=2)
    out = Collector(sw)
    count = 10
    for _ in range(count):
        sw.inject(1, PROBE)
    with sw:
        frames = run_slots(sw, clock, out, count, 1_000_000)
    assert len(frames) == count
    hops = [hop_of(f) for f in frames]
    assert all(h[0] == 7 and h[1] == 2 for h in hops)
    # The first probe finds an idle queue; the other nine wait their turn at 1 ms each.
    depths = [h[2] for h in hops]
    assert depths == [0, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    latencies = [h[3] for h in hops]
    assert latencies == [1000 * i for i in range(count)]


def test_unlimited_queue_adds_no_delay():
    clock = StepClock()
    sw = probe_switch(clock)
    out = Collector(sw)
    for _ in range(5):
        sw.inject(1, PROBE)
    with sw:
        assert sw.wait_idle(5)     # no queue waits: time never has to move
    hops = [hop_of(f) for f in out.take()[2]]
    assert [h[2] for h in hops] == [0] * 5
    assert [h[3] for h in hops] == [0] * 5


def test_tail_drops_beyond_queue_depth():
    clock = StepClock()
    sw = probe_switch(clock, queue_depth=3, queue_rate=100)
    out = Collector(sw)
    for _ in range(10):
        sw.inject(1, PROBE)
    with sw:
        wait_ingressed(sw, clock, 1, 10)
        clock.advance(1_000_000_000)
        assert sw.wait_idle(5)
    assert len(out.take()[2]) == 4       # one leaves at once, three wait, six dropped
    assert sw.stats.tail_drops[2] == 6
    assert sw.stats.as_dict()["total_tail_drops"] == 6


def test_queue_depth_change_at_run_time():
    clock = StepClock()
    sw = probe_switch(clock, queue_rate=100)
    sw.set_queue_depth(1, port=2)
    out = Collector(sw)
    for _ in range(5):
        sw.inject(1, PROBE)
    with sw:
        wait_ingressed(sw, clock, 1, 5)
        clock.advance(1_000_000_000)
        assert sw.wait_idle(5)
    assert len(out.take()[2]) == 2
    assert sw.stats.tail_drops[2] == 3


def priority_switch(clock: StepClock | None = None) -> Switch:
    sw = Switch(priority_queues=2)
    if clock is not None:
        use_clock(sw, clock)
    sw.load_program(priority_program())
    configure_probe_tables(sw)
    return sw


def run_priority_burst(sw: Switch, frames: list[bytes],
                       clock: StepClock | None = None) -> list[bytes]:
    """Frames out of port 2; with ``clock``, all of them are in before time moves on
    (one long step, then until idle)."""
    out = Collector(sw)
    for data in frames:
        sw.inject(1, data)
    with sw:
        if clock is not None:
            wait_ingressed(sw, clock, 1, len(frames))
            clock.advance(1_000_000_000)
        assert sw.wait_idle(10)
    return out.take().get(2, [])


def test_higher_priority_drains_first_under_congestion():
    clock = StepClock()
    sw = priority_switch(clock)
    sw.set_queue_rate(100, port=2)          # port 2 shaped to 10 ms slots
    lows = [plain(0, i) for i in range(6)]
    highs = [plain(1, 100 + i) for i in range(3)]
    sent = run_priority_burst(sw, lows + highs, clock)
    # The port sends one packet per 10 ms slot, always from the highest-priority
    # non-empty queue: the first low packet left before the highs arrived.
    assert sent == [lows[0]] + highs + lows[1:]


def test_low_priority_queue_limited_alone():
    clock = StepClock()
    sw = priority_switch(clock)
    sw.set_queue_rate(100, port=2, priority=0)   # only the low-priority queue is slow
    lows = [plain(0, i) for i in range(4)]
    highs = [plain(1, 100 + i) for i in range(4)]
    sent = run_priority_burst(sw, lows + highs, clock)
    assert sent == [lows[0]] + highs + lows[1:]


def test_priority_beyond_queues_is_dropped():
    sw = priority_switch()
    sent = run_priority_burst(sw, [plain(5, 1), plain(1, 2)])
    assert sent == [plain(1, 2)]
    assert sw.stats.priority_drops == 1


def test_queue_delay_right_after_the_32_bit_clock_wraps():
    # The switch has run for just under 2**32 µs (71.6 minutes), so the 32-bit
    # enq_timestamp wraps while the probes wait in the queue (at the third slot).
    clock = StepClock(start_ns=(2**32 - 2_000) * 1000)
    sw = probe_switch(clock)
    sw.set_queue_rate(1000, port=2)
    out = Collector(sw)
    for _ in range(5):
        sw.inject(1, PROBE)
    with sw:
        frames = run_slots(sw, clock, out, 5, 1_000_000)
    latencies = [hop_of(f)[3] for f in frames]
    assert latencies == [0, 1000, 2000, 3000, 4000]
