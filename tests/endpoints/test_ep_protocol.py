"""The endpoints' reliability and credit logic, without sockets."""
from __future__ import annotations

import random

import pytest

from endpoints.protocol import (
    CreditBalance,
    ReorderBuffer,
    RttEstimator,
    SendWindow,
    Transmission,
    index_of,
    psn_of,
    sack_bitmap,
    sacked_indexes,
)


# ---------------------------------------------------------------- PSN arithmetic
def test_psn_wraps_modulo_2_32_and_index_is_signed():
    initial = 0xFFFF_FFFE
    assert psn_of(initial, 0) == 0xFFFF_FFFE
    assert psn_of(initial, 3) == 1
    assert index_of(initial, 1) == 3
    assert index_of(initial, 0xFFFF_FFFD) == -1   # the "nothing acked yet" PSN


# ---------------------------------------------------------------- SACK bitmap
def test_sack_bitmap_sets_one_bit_per_received_index_least_significant_first():
    assert sack_bitmap(10, [11, 13, 73]) == (1 << 1) | (1 << 3) | (1 << 63)
    assert sack_bitmap(10, [9, 74]) == 0          # before the base or past 64 bits


def test_sack_bitmap_round_trips():
    rng = random.Random(3)
    received = set(rng.sample(range(100, 164), 20))
    assert set(sacked_indexes(100, sack_bitmap(100, received))) == received


# ---------------------------------------------------------------- reorder buffer
def test_reorder_buffer_delivers_in_order_whatever_the_arrival_order():
    payloads = [bytes([i]) * 3 for i in range(50)]
    order = list(range(50))
    random.Random(5).shuffle(order)
    buffer = ReorderBuffer()
    delivered: list[bytes] = []
    for index in order:
        assert buffer.offer(index, payloads[index]) == "new"
        delivered += buffer.pop_in_order()
    assert delivered == payloads
    assert buffer.next_expected == 50 and buffer.out_of_order == 0


def test_reorder_buffer_holds_a_gap_and_sacks_what_is_behind_it():
    buffer = ReorderBuffer()
    for index in (0, 2, 3, 5):
        buffer.offer(index, b"x")
    assert buffer.pop_in_order() == [b"x"]
    assert buffer.next_expected == 1
    assert buffer.out_of_order == 3
    assert sacked_indexes(1, buffer.sack()) == [2, 3, 5]
    assert buffer.offer(2, b"y") == "duplicate"
    assert buffer.offer(0, b"y") == "duplicate"


def test_sack_bitmap_can_start_past_the_gap():
    buffer = ReorderBuffer()
    for index in (1, 100, 130):
        buffer.offer(index, b"x")
    # From the gap, 130 is out of reach; a bitmap based at 130 - 63 reports it.
    assert sacked_indexes(0, buffer.sack()) == [1]
    assert sacked_indexes(67, buffer.sack(67)) == [100, 130]


def test_reorder_buffer_refuses_packets_beyond_its_capacity():
    buffer = ReorderBuffer(capacity=8)
    assert buffer.offer(8, b"late") == "beyond"
    assert buffer.offer(7, b"ok") == "new"
    with pytest.raises(ValueError, match="capacity"):
        ReorderBuffer(capacity=0)


# ---------------------------------------------------------------- send window
def send_all(window: SendWindow, now: float = 0.0) -> list[Transmission]:
    sent = []
    while (tx := window.peek()) is not None:
        window.on_sent(tx, now)
        sent.append(tx)
    return sent


def test_a_packet_trimmed_again_waits_longer_each_time():
    window = SendWindow(4)
    send_all(window, now=0.0)
    assert window.on_nack(2, now=1.0, holdoff=0.1)          # first trim: due at once
    assert window.peek(1.0) == Transmission(2, True)
    window.on_sent(Transmission(2, True), 1.0)
    assert window.on_nack(2, now=1.2, holdoff=0.1)          # second: one RTT later
    assert window.peek(1.25) is None and window.next_resend_due() == pytest.approx(1.3)
    assert window.peek(1.3) == Transmission(2, True)
    window.on_sent(Transmission(2, True), 1.3)
    assert window.on_nack(2, now=1.4, holdoff=0.1)          # third: three RTTs later
    assert window.peek(1.69) is None and window.peek(1.71) == Transmission(2, True)


def test_a_presumed_loss_that_arrives_after_all_counts_as_late():
    window = SendWindow(4)
    for index, when in zip(range(4), (0.0, 0.01, 0.02, 0.03)):
        window.on_sent(window.peek(), when)
    window.on_ack(0, [1, 2, 3], now=0.05)
    assert window.detect_losses(now=0.2, age=0.1) == [0]
    window.on_ack(4, [], now=0.21, original=0)   # its first copy arrived: only late
    assert window.late_arrivals == 1 and window.done
    assert window.peek(1.0) is None               # and it is not resent


def test_nack_retransmits_exactly_the_trimmed_packet():
    window = SendWindow(10)
    assert [tx.index for tx in send_all(window)] == list(range(10))
    # Everything but 4 and 7 is acknowledged (cumulative 4, SACK 5, 6, 8, 9).
    window.on_ack(4, [5, 6, 8, 9], now=0.01)
    assert window.on_nack(4) is True
    assert window.on_nack(4) is False              # a duplicate NACK queues nothing
    assert window.on_nack(5) is False              # already acked
    assert send_all(window) == [Transmission(4, True)]
    window.on_ack(5, [5, 6, 8, 9], now=0.02)
    assert window.cumulative == 7 and not window.done


def test_timeout_resends_only_the_oldest_unacknowledged_packet():
    window = SendWindow(6)
    send_all(window, now=0.0)
    window.on_ack(2, [3, 5], now=0.05)
    assert window.expire(now=0.1, rto=0.2) == []   # not late yet
    assert window.expire(now=0.3, rto=0.2) == [2]
    assert send_all(window, now=0.3) == [Transmission(2, True)]
    window.on_ack(6, [], now=0.31)
    assert window.done


def test_packets_overtaken_by_acked_ones_are_lost_after_the_reordering_allowance():
    window = SendWindow(6)
    for index, when in zip(range(6), (0.0, 0.0, 0.01, 0.02, 0.03, 0.04)):
        window.on_sent(window.peek(), when)
    window.on_ack(1, [3], now=0.05)                 # 1 and 2 were overtaken by 3
    assert window.detect_losses(now=0.05, age=0.1) == []     # may still be reordered
    assert window.detect_losses(now=0.11, age=0.1) == [1, 2]
    # 4 and 5 were sent after the newest acked packet: nothing says they are lost.
    assert sorted(window.in_flight) == [4, 5]
    assert [tx.index for tx in send_all(window, now=0.11)] == [1, 2]


def test_ack_gives_rtt_samples_only_for_packets_sent_once():
    window = SendWindow(3)
    send_all(window, now=1.0)
    assert window.expire(now=2.0, rto=0.5) == [0]
    window.on_sent(window.peek(), 2.0)          # index 0 resent
    # Karn: the resent packet gives no sample, the two sent once do.
    assert window.on_ack(3, [], now=2.5) == [1.5, 1.5]


def test_new_data_stays_within_the_window_past_the_oldest_unacked_packet():
    window = SendWindow(100, max_window=5)
    assert [tx.index for tx in send_all(window)] == [0, 1, 2, 3, 4]
    window.on_ack(0, [1, 2, 3, 4], now=0.0)      # 0 missing: still blocked
    assert window.peek() is None
    window.on_ack(5, [], now=0.0)
    assert window.peek() == Transmission(5, False)


def test_pending_packets_counts_queued_retransmissions_and_new_data():
    window = SendWindow(10)
    for _ in range(4):
        window.on_sent(window.peek(), 0.0)
    window.on_nack(1)
    assert window.pending_packets == 1 + 6


# ---------------------------------------------------------------- credit
def test_credit_balance_only_spends_what_was_granted_and_caps_at_the_need():
    credit = CreditBalance(initial=2400)
    assert credit.try_consume(1200) and credit.try_consume(1200)
    assert not credit.try_consume(1)
    credit.grant(10_000, limit=3000)
    assert credit.available == 3000 and credit.received == 10_000


def test_rto_follows_rtt_and_backs_off():
    rtt = RttEstimator(initial_rto=1.0, min_rto=0.01, max_rto=5.0)
    for _ in range(20):
        rtt.sample(0.1)
    assert 0.1 <= rtt.rto < 0.2
    before = rtt.rto
    rtt.back_off()
    assert rtt.rto == pytest.approx(2 * before)
    rtt.sample(0.1)
    assert rtt.rto < 2 * before
