"""The receiver's shared credit budget and the sender's congestion window and
reordering allowance, without sockets."""
from __future__ import annotations

import pytest

from endpoints.congestion import ECN_DECREASE, TRIM_DECREASE, CongestionWindow
from endpoints.credit_budget import CreditBudget
from endpoints.protocol import RttEstimator
from endpoints.reordering import ReorderAllowance

PKT = 1000


def budget(**kw) -> CreditBudget:
    args = {"rate": 1e12, "chunk": 4 * PKT, "window": 16 * PKT, "packet": PKT}
    args.update(kw)
    return CreditBudget(**args)


def drain(credit: CreditBudget, start: float) -> list[tuple[str, int]]:
    """Every grant due from ``start`` on, a second apart (the token bucket refills)."""
    grants, when = [], start
    while batch := credit.take_grants(when):
        grants += batch
        when += 1.0
    return grants


def test_grants_stop_at_the_shared_window_until_data_arrives():
    credit = budget()
    credit.add("a")
    credit.report_pending("a", 100 * PKT)
    assert sum(amount for _k, amount in drain(credit, 0.0)) == 16 * PKT
    assert credit.take_grants(10.0) == [] and credit.next_due(10.0) is None
    for _ in range(4):                                     # one grant unit arrives
        credit.on_arrival("a", PKT)
    assert credit.take_grants(11.0) == [("a", 4 * PKT)]


def test_what_the_sender_holds_or_has_in_flight_is_not_granted_twice():
    credit = budget()
    credit.add("a")
    credit.report_pending("a", 6 * PKT)
    assert drain(credit, 0.0) == [("a", 4 * PKT), ("a", 2 * PKT)]
    credit.on_arrival("a", PKT)
    credit.report_pending("a", 5 * PKT)      # 5 left, 5 granted and not arrived
    assert credit.take_grants(10.0) == [] and credit.demand("a") == 0


def test_several_flows_share_one_window_round_robin():
    credit = budget()
    for key in "abc":
        credit.add(key)
        credit.report_pending(key, 1000 * PKT)
    shares = dict.fromkeys("abc", 0)
    for step in range(300):
        for key, amount in credit.take_grants(step * 1.0):
            shares[key] += amount
        key = "abc"[step % 3]                            # arrivals in turn
        for _ in range(2):
            credit.on_arrival(key, PKT)
    assert credit.outstanding <= 16 * PKT
    total = sum(shares.values())
    assert all(abs(share / total - 1 / 3) < 0.05 for share in shares.values()), shares


def test_trims_halve_the_window_once_per_window_of_arrivals_and_clean_ones_grow_it():
    credit = budget()
    credit.add("a")
    for _ in range(16):
        credit.on_arrival("a", PKT)                      # clean: +1 packet
    assert credit.window == 16 * PKT                     # capped at the maximum
    for _ in range(16):
        credit.on_arrival("a", PKT, trimmed=True)
    assert credit.window == 16 * PKT * TRIM_DECREASE and credit.decreases == 1
    for _ in range(8):
        credit.on_arrival("a", PKT, ce=True)
    assert credit.window == 16 * PKT * TRIM_DECREASE * ECN_DECREASE
    for _ in range(100):
        credit.on_arrival("a", PKT, trimmed=True)
    assert credit.window == 2 * PKT                      # the floor: two packets
    for _ in range(2):
        credit.on_arrival("a", PKT)
    assert credit.window == 3 * PKT                      # a window of clean arrivals
    for _ in range(3):
        credit.on_arrival("a", PKT)
    assert credit.window == 4 * PKT


def test_a_credit_request_forgets_what_that_flow_lost_and_a_closed_flow_frees_its_share():
    credit = budget()
    for key in "ab":
        credit.add(key)
        credit.report_pending(key, 100 * PKT)
    drain(credit, 0.0)
    assert credit.outstanding == 16 * PKT
    credit.request("a", 3 * PKT)
    # Only a's count restarts: b's grants are still in its sender's hands or on the way.
    assert credit.demand("a") == 3 * PKT and credit.outstanding == 8 * PKT
    # a gets what it lacks; b what is left of the window in quarter-window units (no
    # 1-packet tail): a request frees at most the requester's share, never a window.
    assert drain(credit, 10.0) == [("a", 3 * PKT), ("b", 4 * PKT)]
    assert credit.outstanding == 15 * PKT
    credit.remove("b")
    assert credit.outstanding == 3 * PKT                    # only a's grant is left


def test_each_stalled_sender_clears_its_own_lost_credit():
    credit = budget()
    for key in "ab":
        credit.add(key)
        credit.report_pending(key, 100 * PKT)
    drain(credit, 0.0)                         # a and b each hold 8 packets' grants
    for key in "ab":                           # every one of them was lost
        credit.request(key, 50 * PKT)
    assert credit.outstanding == 0
    assert sum(amount for _k, amount in drain(credit, 10.0)) == 16 * PKT


def test_a_sender_with_nothing_left_to_send_holds_no_credit():
    credit = budget(window=5 * PKT)
    for key in "ab":
        credit.add(key)
        credit.report_pending(key, 2 * PKT)
    drain(credit, 0.0)                    # stale demand: both got what they asked for
    credit.report_pending("a", 0)         # a sent everything (on its initial window)
    credit.report_pending("b", 0)
    credit.add("c")
    credit.report_pending("c", 50 * PKT)
    # The whole window is c's (but for the last packet: no grant below two packets).
    assert drain(credit, 10.0) == [("c", 4 * PKT)]


def test_the_rate_ceiling_paces_grants():
    credit = budget(rate=10 * PKT, window=1000 * PKT)
    credit.add("a")
    credit.report_pending("a", 1000 * PKT)
    granted = sum(a for t in range(101) for _k, a in credit.take_grants(t * 0.01))
    # 1 s at 10 packets/s, plus the bucket's initial burst of two chunks.
    assert 10 * PKT <= granted <= 10 * PKT + 8 * PKT
    with pytest.raises(ValueError, match="must hold one chunk"):
        budget(window=PKT)


def test_congestion_window_slow_starts_then_is_cut_once_per_rtt():
    cwnd = CongestionWindow(mss=PKT, initial_packets=4)
    assert cwnd.allows(0, 10 * PKT) and not cwnd.allows(4 * PKT, PKT)
    cwnd.on_acked(4 * PKT)
    assert cwnd.cwnd == 8 * PKT
    assert cwnd.on_congestion(1.0, 0.1, TRIM_DECREASE)
    assert not cwnd.on_congestion(1.05, 0.1, TRIM_DECREASE)   # same RTT: one cut
    assert cwnd.cwnd == 4 * PKT
    cwnd.on_acked(4 * PKT)
    assert cwnd.cwnd == pytest.approx(5 * PKT)                # additive now
    for _ in range(20):
        cwnd.on_congestion(2.0 + _, 0.1, TRIM_DECREASE)
    assert cwnd.cwnd == PKT


def test_reordering_allowance_widens_when_a_presumed_loss_arrives():
    rtt = RttEstimator()
    allowance = ReorderAllowance()
    assert allowance.loss_age(rtt) == rtt.rto                 # no sample yet
    for sample in (0.001, 0.006) * 10:                        # two paths, 1 and 6 ms
        rtt.sample(sample)
    base = allowance.loss_age(rtt)
    assert base > 0.006
    allowance.on_late_arrival()
    assert allowance.loss_age(rtt) > base and allowance.widened == 1


def test_a_cut_applies_to_what_was_in_flight_when_the_window_was_not_full():
    cwnd = CongestionWindow(mss=PKT, initial_packets=16)
    assert cwnd.on_congestion(1.0, 0.1, TRIM_DECREASE, in_flight_bytes=4 * PKT)
    assert cwnd.cwnd == 2 * PKT
    assert cwnd.on_congestion(2.0, 0.1, TRIM_DECREASE, in_flight_bytes=10 * PKT)
    assert cwnd.cwnd == PKT                          # the window, not the flight
