"""The sender's congestion window under trims with credit (``recover``): cut once per
RTT like any cut, then slow start back to what it cut, so it brakes a sender while its
packets are trimmed and not once they arrive whole again."""
from __future__ import annotations

import pytest

from endpoints.congestion import TRIM_DECREASE, CongestionWindow

PKT = 1200


def test_a_recovering_cut_slow_starts_back_to_the_window_it_cut():
    cwnd = CongestionWindow(mss=PKT, initial_packets=16)
    assert cwnd.on_congestion(1.0, 0.1, TRIM_DECREASE, in_flight_bytes=16 * PKT, recover=True)
    assert cwnd.cwnd == 8 * PKT
    cwnd.on_acked(8 * PKT)                      # slow start: a packet per packet acked
    assert cwnd.cwnd == 16 * PKT
    cwnd.on_acked(16 * PKT)                     # back where it was cut: additive now
    assert cwnd.cwnd == pytest.approx(17 * PKT)


def test_a_plain_cut_grows_back_a_packet_per_window():
    cwnd = CongestionWindow(mss=PKT, initial_packets=16)
    assert cwnd.on_congestion(1.0, 0.1, TRIM_DECREASE, in_flight_bytes=16 * PKT)
    cwnd.on_acked(8 * PKT)
    assert cwnd.cwnd == pytest.approx(9 * PKT)


def test_trims_that_go_on_halve_a_recovering_window_every_rtt_down_to_a_packet():
    cwnd = CongestionWindow(mss=PKT, initial_packets=16)
    cuts = [cwnd.on_congestion(1.0 + i * 0.06, 0.1, TRIM_DECREASE, recover=True)
            for i in range(12)]
    assert cuts == [True, False] * 6            # once per RTT, whatever the NACK count
    assert cwnd.cwnd == PKT                    # 16 -> 8 -> 4 -> 2 -> 1 -> 1
    # The pace follows the window: one packet per RTT at the floor.
    assert cwnd.pace_gap(PKT, 0.1) == pytest.approx(0.1)
