"""Loss detection and the RTT estimator under a deep queue, on a simulated clock (no
sockets, no sleeping): the sender's rules (``SendWindow``, ``RttEstimator``,
``ReorderAllowance``) driven the way ``endpoints.sender`` drives them, through a FIFO
bottleneck that never drops a packet. Every retransmission there is spurious.

Issue 12: with 64-frame buffers on 50-60 packets/s links a queue holds about a second,
far more than any RTO learnt while it filled; the sender timed out packets that were
only queued (srtt 0.2-0.8 s, RTO backed off to its 2 s ceiling) and, once a resent
packet's first copy was acked, took every packet sent before the resend for lost.
"""
from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field

import pytest

from endpoints.protocol import ReorderBuffer, RttEstimator, SendWindow, Transmission
from endpoints.reordering import ReorderAllowance
from endpoints.rx_flow import MAX_ACK_DELAY, ReceiverFlow
from wire_formats.uec_datagram import Flow


@dataclass
class Outcome:
    delivered: list[int]
    timeouts: int = 0
    losses: int = 0
    duplicates: int = 0
    rtt: RttEstimator = field(default_factory=RttEstimator)


def run_fifo(packets: int, *, window: int, service: float, paths: tuple[float, ...] = (0.0,),
             ack_every: int = 1, back: float = 0.005, seed: int = 1,
             grow: tuple[int, int] | None = None) -> Outcome:
    """``packets`` sent with at most ``window`` in flight through a FIFO queue that
    serves one packet per ``service`` seconds and loses none. Each packet then takes
    one of ``paths`` (extra one-way delays, picked at random: spraying); the receiver
    acks every ``ack_every`` arrivals (and the last), cumulative plus SACK, and the
    ACK takes ``back`` seconds to return. ``grow``: (acked packets, new window): the
    window jumps once that many are acked (a burst of credit), and the queue with it."""
    rng = random.Random(seed)
    win, rtt, reorder = SendWindow(packets), RttEstimator(), ReorderAllowance()
    buffer, out = ReorderBuffer(), Outcome([], rtt=rtt)
    events: list[tuple[float, int, str, int]] = []     # (time, seq, kind, index)
    seq, queue_free, unacked, now, late_seen = 0, 0.0, 0, 0.0, 0

    def push(when: float, kind: str, index: int) -> None:
        nonlocal seq
        heapq.heappush(events, (when, seq, kind, index))
        seq += 1

    while not win.done:
        assert now < 600, "the transfer stalled"
        if win.expire(now, rtt.rto):
            out.timeouts += 1
            rtt.back_off()
        if grow is not None and win.acked_packets >= grow[0]:
            window = grow[1]
        while win.in_flight_packets < window and (tx := win.peek(now)) is not None:
            win.on_sent(tx, now)
            queue_free = max(queue_free, now) + service
            push(queue_free + rng.choice(paths), "data", tx.index)
        wake = [events[0][0]] if events else []
        if (start := win.timer_start()) is not None:
            wake.append(start + rtt.rto)
        now = max(now, min(wake))
        while events and events[0][0] <= now:
            _when, _seq, kind, index = heapq.heappop(events)
            if kind == "data":
                if buffer.offer(index, b"") != "new":
                    out.duplicates += 1
                start_index = buffer.next_expected
                buffer.pop_in_order()
                out.delivered += range(start_index, buffer.next_expected)
                unacked += 1
                if unacked >= ack_every or buffer.next_expected == packets:
                    unacked = 0
                    push(now + back, "ack", buffer.next_expected)
            else:
                held = [i for i in range(index, index + 64) if buffer.has(i)]
                for sample in win.on_ack(index, held, now):
                    rtt.sample(sample)
                    reorder.on_sample(sample)
                for sample in win.take_late_samples():
                    reorder.on_sample(sample)
                if win.overtaken_acked:
                    reorder.on_reordered()
                if win.late_arrivals > late_seen:
                    reorder.on_late_arrival(win.late_arrivals - late_seen)
                    late_seen = win.late_arrivals
                # Judged as each ACK arrives, as the sender does.
                reorder_window = reorder.window(rtt)
                win.revoke_losses(reorder_window)
                out.losses += len(win.detect_overtaken(now, reorder_window))
    return out


# ---------------------------------------------------------------- the timer
def test_a_queue_deeper_than_any_rto_learnt_is_no_timeout():
    """40 packets in flight through a 50 packets/s bottleneck: the queue grows to
    0.8 s in the first window, while the first samples say 25 ms."""
    out = run_fifo(400, window=40, service=0.02)
    assert out.delivered == list(range(400))
    assert (out.timeouts, out.losses, out.duplicates) == (0, 0, 0)
    assert out.rtt.srtt is not None and out.rtt.srtt > 0.7      # the queue, measured


def test_a_queue_that_jumps_by_a_second_is_no_timeout():
    """A steady 10 packets in flight (0.2 s of queue), then a burst of credit puts 60
    in flight: the next packets wait 1.2 s, six times the RTO learnt so far."""
    out = run_fifo(400, window=10, service=0.02, grow=(100, 60))
    assert out.delivered == list(range(400))
    assert (out.timeouts, out.losses, out.duplicates) == (0, 0, 0)


def test_coalesced_acks_of_a_deep_queue_are_no_timeout_either():
    out = run_fifo(400, window=40, service=0.02, ack_every=16)
    assert (out.timeouts, out.losses, out.duplicates) == (0, 0, 0)


def test_sprayed_paths_of_unequal_delay_are_no_loss():
    """Two paths 0.3 s apart behind the queue: packets overtake each other all the
    time, and none is lost."""
    out = run_fifo(400, window=40, service=0.02, paths=(0.0, 0.3), ack_every=4)
    assert out.delivered == list(range(400))
    assert out.duplicates <= 2          # the allowance widens after the first surprise
    assert out.timeouts == 0


def test_the_timer_restarts_on_every_ack_of_new_data():
    window = SendWindow(10)
    for _ in range(10):
        window.on_sent(window.peek(), 0.0)
    for step in range(1, 5):                     # one packet acked every 0.2 s
        window.on_ack(step, [], now=0.2 * step)
        assert window.expire(now=0.2 * step + 0.19, rto=0.3) == []
    assert window.timer_start() == pytest.approx(0.8)
    assert window.expire(now=1.09, rto=0.3) == []
    assert window.expire(now=1.1, rto=0.3) == [4]   # silent for an RTO: the oldest


def test_after_a_timeout_the_next_one_waits_a_whole_rto():
    window = SendWindow(3)
    for _ in range(3):
        window.on_sent(window.peek(), 0.0)
    assert window.expire(now=1.0, rto=1.0) == [0]
    assert window.expire(now=1.5, rto=1.0) == []     # 1 was sent at 0, but the timer
    assert window.expire(now=2.0, rto=1.0) == [1]    # restarted at the timeout


def test_without_anything_in_flight_there_is_no_timer():
    window = SendWindow(2)
    assert window.timer_start() is None and window.expire(now=100.0, rto=0.1) == []


# ---------------------------------------------------------------- RACK and resends
def test_the_ack_of_a_guessed_resend_does_not_make_earlier_packets_look_lost():
    window = SendWindow(6)
    window.on_sent(window.peek(), 0.0)                         # 0
    for _ in range(4):
        window.on_sent(window.peek(), 0.5)                     # 1-4
    assert window.expire(now=1.0, rto=1.0) == [0]
    window.on_sent(window.peek(1.0), 1.0)                      # 0 again, on a guess
    window.on_ack(1, [], now=1.1)        # 0 acked: its first copy or its resend?
    # 1-4 left after 0's first copy, before its resend: nothing overtook them.
    assert window.detect_losses(now=5.0, age=0.5) == []
    assert window.oldest_overtaken_send_time() is None


def test_the_ack_of_a_nacked_resend_still_reveals_losses():
    window = SendWindow(4)
    for _ in range(4):
        window.on_sent(window.peek(), 0.0)
    assert window.on_nack(0, now=0.1)                          # trimmed: cut for sure
    assert window.peek(0.1) == Transmission(0, True)
    window.on_sent(Transmission(0, True), 0.1)
    window.on_ack(1, [], now=0.3)                              # the resend arrived
    assert window.detect_losses(now=0.6, age=0.2) == [1, 2, 3]   # sent before it


def test_a_guessed_resend_still_gives_no_rtt_sample():
    window = SendWindow(2)
    window.on_sent(window.peek(), 0.0)
    window.on_sent(window.peek(), 0.0)
    assert window.expire(now=1.0, rto=1.0) == [0]
    window.on_sent(window.peek(1.0), 1.0)
    assert window.on_ack(2, [], now=1.2) == [1.2]              # only packet 1's


# ---------------------------------------------------------------- the estimator
def test_rto_never_falls_below_the_receivers_longest_ack_delay():
    rtt = RttEstimator()
    for _ in range(50):
        rtt.sample(0.001)
    assert rtt.rto > MAX_ACK_DELAY


def test_a_sample_ends_the_back_off():
    rtt = RttEstimator(min_rto=0.01)
    for _ in range(20):
        rtt.sample(0.5)
    steady = rtt.rto
    for _ in range(3):
        rtt.back_off()
    assert rtt.rto == pytest.approx(min(8 * steady, rtt.max_rto))
    rtt.sample(0.5)
    assert rtt.rto == pytest.approx(steady, rel=0.2)


# ---------------------------------------------------------------- reverse traffic
def _receiver_flow() -> ReceiverFlow:
    flow = Flow(src="10.0.0.2", dst="10.0.0.1", own_pdcid=1, peer_pdcid=2)
    return ReceiverFlow(("10.0.0.1", 2), flow, 0, 50000, 64, None, random.Random(1))


def test_a_steady_slow_flow_is_acked_by_the_count_not_the_timer():
    """60 packets/s, ACK every 16: the timer must not fire between arrivals."""
    flow, gap, acks = _receiver_flow(), 1 / 60, 0
    for n in range(160):
        now = n * gap
        if flow.ack_wanted(now):
            flow.acked()
            acks += 1
        flow.accept(n, b"x", now)
        flow.schedule_ack(now, urgent=None, ack_every=16, delay=0.005)
    assert flow.acks_by_cause["timer"] <= 1      # the first, before the pace is known
    assert acks <= 160 // 16 + 1


def test_a_flow_whose_packets_stop_is_acked_within_the_longest_delay():
    flow, gap = _receiver_flow(), 1 / 60
    for n in range(5):
        flow.accept(n, b"x", n * gap)
        flow.schedule_ack(n * gap, urgent=None, ack_every=16, delay=0.005)
    assert flow.ack_due is not None and flow.ack_due <= 4 * gap + MAX_ACK_DELAY
