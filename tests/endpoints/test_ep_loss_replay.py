"""Issue 12's flake, replayed: ACK sequences recorded from ``endpoints.sender`` on two
paths 5 ms apart that lose nothing (``traces/``), fed to the sender's loss rules
(``SendWindow``, ``RttEstimator``, ``ReorderAllowance``) the way ``Sender`` feeds them:
each ACK decoded as ``Sender._on_ack`` decodes it, then judged at once; due
retransmissions leave with the next burst of new data. Every loss declared here is
spurious.

The old rule (in flight longer than an age from the smoothed and slowest recent RTTs,
judged on the wall clock) declared 22 packets lost at one instant in the stall trace
and 12 in a flow's first 20 ms in the start trace (replayed through it, it still does).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from endpoints.protocol import RttEstimator, SendWindow, Transmission
from endpoints.reordering import RECENT_SAMPLES, ReorderAllowance
from endpoints.rx_flow import ReceiverFlow
from wire_formats.uec_datagram import Flow

TRACES = Path(__file__).parent / "traces"


@dataclass
class Replay:
    window: SendWindow
    rtt: RttEstimator
    reorder: ReorderAllowance
    losses: int = 0
    timeouts: int = 0
    acks: int = 0
    largest_burst: int = 0

    def judge_by_age(self, now: float) -> None:
        """The old rule: by age against the smoothed and slowest RTTs, on the wall
        clock (the sender also woke at the oldest overtaken packet's deadline)."""
        lost = self.window.detect_losses(now, self.reorder.loss_age(self.rtt))
        self.losses += len(lost)
        self.largest_burst = max(self.largest_burst, len(lost))


def replay(name: str, *, by_age: bool = False) -> Replay:
    run = Replay(SendWindow(100_000), RttEstimator(), ReorderAllowance())
    win, late_seen = run.window, 0
    for line in (TRACES / name).read_text().splitlines():
        if line.startswith("#"):
            continue
        kind, *fields = line.split()
        now = float(fields[0])
        while by_age and (oldest := win.oldest_overtaken_send_time()) is not None and \
                (due := oldest + run.reorder.loss_age(run.rtt) + 1e-9) < now:
            before = run.losses
            run.judge_by_age(due)
            if run.losses == before:
                break
        if by_age:
            run.judge_by_age(now)
        if win.expire(now, run.rtt.rto):
            run.timeouts += 1
            run.rtt.back_off()
        if kind == "S":
            while (tx := win.peek(now)) is not None and tx.retransmit:
                win.on_sent(tx, now)
            first, count = int(fields[1]), int(fields[2])
            for index in range(first, first + count):
                assert win.peek(now) == Transmission(index, False)
                win.on_sent(Transmission(index, False), now)
            continue
        cumulative, ack_offset, sack_offset = (int(f) for f in fields[1:4])
        bitmap, retrans = int(fields[4], 16), bool(int(fields[5]))
        base = cumulative - 1 + sack_offset
        sacked = [base + i for i in range(64) if bitmap >> i & 1]
        original = None
        if ack_offset:
            sacked.append(cumulative - 1 + ack_offset)
            original = None if retrans else cumulative - 1 + ack_offset
        for sample in win.on_ack(cumulative, sacked, now, original,
                                 retransmission_seen=retrans):
            run.rtt.sample(sample)
            run.reorder.on_sample(sample)
        if win.late_arrivals > late_seen:
            run.reorder.on_late_arrival(win.late_arrivals - late_seen)
            late_seen = win.late_arrivals
        run.acks += 1
        if by_age:
            run.judge_by_age(now)
            continue
        for sample in win.take_late_samples():
            run.reorder.on_sample(sample)
        if win.overtaken_acked:
            run.reorder.on_reordered()
        reorder_window = run.reorder.window(run.rtt)
        win.revoke_losses(reorder_window)
        lost = win.detect_overtaken(now, reorder_window)
        run.losses += len(lost)
        run.largest_burst = max(run.largest_burst, len(lost))
    return run


def test_a_stall_that_delays_every_packet_is_no_loss():
    """No ACK for 31 ms, then they all come: the packets the first ACK after the stall
    leaves out were sent within the reordering window of the newest one it acks."""
    run = replay("stall_two_paths.txt")
    assert run.acks > 80
    assert (run.losses, run.timeouts) == (0, 0)
    # It was judging: the window had been learnt (the slow path's 5 ms, with room).
    assert 0.005 < run.reorder.window(run.rtt) < 0.05
    assert run.window.in_flight_packets < 40       # the trace's tail is still out


def test_the_start_of_a_flow_is_no_loss():
    """The first ACKs carry the fast path's round trips only: until an overtaken
    packet's own round trip is measured (or a full set of samples) it does not
    judge."""
    run = replay("start_two_paths.txt")
    assert (run.losses, run.timeouts) == (0, 0)
    assert run.rtt.max_sample > 0.005               # the slow path's, measured


@pytest.mark.parametrize("name, declared", [("stall_two_paths.txt", 22),
                                            ("start_two_paths.txt", 12)])
def test_judged_by_age_on_the_wall_clock_the_same_acks_are_a_burst_of_losses(name, declared):
    """The traces do reproduce the flake: the old rule, replayed, declares what it
    declared live (22 packets during the stall; 12 in the first 20 ms)."""
    run = replay(name, by_age=True)
    assert run.losses >= declared
    assert run.largest_burst >= 3


# ---------------------------------------------------------------- the rules alone
def _learnt(rtt_s: float = 0.001) -> tuple[RttEstimator, ReorderAllowance]:
    rtt, reorder = RttEstimator(), ReorderAllowance()
    for _ in range(RECENT_SAMPLES):
        rtt.sample(rtt_s)
        reorder.on_sample(rtt_s)
    return rtt, reorder


def test_a_real_loss_is_found_at_the_first_ack_beyond_the_window():
    rtt, reorder = _learnt()
    width = reorder.window(rtt)
    assert 0.001 <= width < 0.01
    win = SendWindow(100)
    for step in range(40):                         # one packet every 0.5 ms
        win.on_sent(win.peek(), step * 0.0005)
    # Packet 0 never arrives; the others do, each acked 1 ms after it left.
    found, acked_at = [], None
    for index in range(1, 40):
        now = index * 0.0005 + 0.001
        win.on_ack(0, [index], now)
        if lost := win.detect_overtaken(now, width):
            found, acked_at = lost, index
            break
    assert found == [0]
    assert acked_at is not None and (acked_at - 1) * 0.0005 < width <= acked_at * 0.0005


def test_the_allowance_judges_once_an_overtaken_packet_was_measured():
    rtt, reorder = RttEstimator(), ReorderAllowance()
    win = SendWindow(3)
    for index in range(3):
        win.on_sent(win.peek(), index * 0.001)
    for sample in win.on_ack(0, [1], 0.002):       # 1 overtook 0
        rtt.sample(sample)
        reorder.on_sample(sample)
    assert win.overtaken_acked == 0
    assert reorder.window(rtt) == rtt.rto          # a fast round trip only: no judging
    for sample in win.on_ack(2, [], 0.007):        # 0 arrives, 7 ms after it left
        rtt.sample(sample)
        reorder.on_sample(sample)
    assert win.overtaken_acked == 1
    reorder.on_reordered()
    assert 0.007 < reorder.window(rtt) < rtt.rto   # the slow path's, with room


def test_nothing_is_judged_while_no_ack_comes():
    rtt, reorder = _learnt()
    win = SendWindow(10)
    for _ in range(10):
        win.on_sent(win.peek(), 0.0)
    win.on_ack(0, [1], 0.001)
    # However late it gets, without a newer delivered packet 0 is not overtaken by
    # more than a burst sent at the same instant.
    assert win.detect_overtaken(10.0, reorder.window(rtt)) == []


def test_a_late_first_copy_teaches_the_slow_path_and_takes_back_what_waits():
    rtt, reorder = _learnt()
    width = reorder.window(rtt)
    win = SendWindow(20)
    for index in range(20):
        win.on_sent(win.peek(), index * 0.001)
    win.on_ack(0, list(range(2, 20)), 0.021)       # 0 and 1 still out, 19 acked
    assert win.detect_overtaken(0.021, width) == [0, 1]
    win.on_sent(win.peek(0.021), 0.021)            # 0 resent; 1's resend waits
    # An ACK without the retransmission flag: no resend had arrived, so 0 came as
    # its first copy, 26 ms after it left.
    win.on_ack(1, [], 0.026, retransmission_seen=False)
    assert win.late_arrivals == 1
    assert win.take_late_samples() == [pytest.approx(0.026)]
    reorder.on_sample(0.026)
    reorder.on_late_arrival()
    wider = reorder.window(rtt)
    assert wider > 0.019                           # 1 is within the window now
    assert win.revoke_losses(wider) == [1]
    assert win.peek(0.03) is None                  # nothing waits to be resent
    assert 1 in win.in_flight and win.in_flight[1] == (0.001, False)


def test_an_ack_with_the_flag_set_is_not_taken_for_the_first_copy():
    win = SendWindow(4)
    for _ in range(4):
        win.on_sent(win.peek(), 0.0)
    for sample in win.on_ack(0, [1, 2, 3], 0.001):
        assert sample == pytest.approx(0.001)
    assert win.detect_overtaken(0.010, 0.0) == [0]
    win.on_sent(win.peek(0.010), 0.010)
    win.on_ack(4, [], 0.013, retransmission_seen=True)     # the resend, 3 ms on
    assert win.late_arrivals == 0 and win.take_late_samples() == []


def test_the_receiver_flags_an_ack_after_any_retransmission_since_the_last():
    flow = ReceiverFlow(("10.0.0.1", 2), Flow("10.0.0.2", "10.0.0.1", 1, 2), 0, 50000, 64,
                        None, random.Random(1))
    flow.accept(1, b"x", 0.0)
    flow.note_trigger(1, retransmission=False, kept=True)
    assert flow.ack_fields()["retrans"] == 0
    flow.accept(0, b"x", 0.001)                    # a resend fills the hole...
    flow.note_trigger(0, retransmission=True, kept=True)
    flow.accept(2, b"x", 0.002)                    # ...and a first copy follows it
    flow.note_trigger(2, retransmission=False, kept=True)
    assert flow.ack_fields()["retrans"] == 1
    flow.acked()
    flow.accept(3, b"x", 0.003)
    flow.note_trigger(3, retransmission=False, kept=True)
    assert flow.ack_fields()["retrans"] == 0
