"""Latency and rate text, and the tc netem + tbf commands built from them (pure)."""
from __future__ import annotations

import pytest

from control.federation.netem import (NETEM_DEFAULT_LIMIT, border_link_commands, border_link_script,
                                      netem_arguments, tbf_rate_arguments)
from control.federation.units import format_latency, format_rate, parse_latency, parse_rate
from control.link_shaping import ETHERNET_OVERHEAD, QUEUE_FRAMES


@pytest.mark.parametrize("text, us", [("5ms", 5000), ("250us", 250), ("1s", 1_000_000),
                                      ("0.5ms", 500), ("1.25MS", 1250), (" 7ms ", 7000)])
def test_latency_text_becomes_whole_microseconds(text, us):
    assert parse_latency(text) == us


@pytest.mark.parametrize("text, bps", [("100mbit", 10**8), ("1gbit", 10**9), ("64kbit", 64_000),
                                       ("2.5gbit", 2_500_000_000), ("9600bit", 9600), ("1tbit", 10**12)])
def test_rate_text_becomes_whole_bits_per_second(text, bps):
    assert parse_rate(text) == bps


@pytest.mark.parametrize("value, reason", [
    (5, "in quotes"), (5.0, "in quotes"), ("5", "not a duration with a unit"),
    ("5 sec", "not a duration"), ("-5ms", "not a duration"), ("0ms", "more than zero"),
    ("0.0001ms", "whole number of us"), ("11s", "more than 10 s"), ("1e3ms", "not a duration"),
    (True, "in quotes"), ("", "not a duration")])
def test_bad_latencies_are_refused_saying_why(value, reason):
    with pytest.raises(ValueError, match=reason):
        parse_latency(value)


@pytest.mark.parametrize("value, reason", [
    (100, "in quotes"), ("100", "not a rate with a unit"), ("100mbps", "not a rate"),
    ("100MB", "not a rate"), ("0gbit", "more than zero"), ("0.5bit", "whole number of bit"),
    ("2tbit", "more than 1tbit"), ("-1mbit", "not a rate")])
def test_bad_rates_are_refused_saying_why(value, reason):
    with pytest.raises(ValueError, match=reason):
        parse_rate(value)


@pytest.mark.parametrize("us", [1, 250, 1000, 1500, 5000, 1_000_000, 2_500_000])
def test_latency_formats_back_to_itself(us):
    assert parse_latency(format_latency(us)) == us
    assert format_latency(5000) == "5ms" and format_latency(1500) == "1500us"


@pytest.mark.parametrize("bps", [1, 9600, 64_000, 10**8, 2_500_000_000, 10**12])
def test_rate_formats_back_to_itself(bps):
    assert parse_rate(format_rate(bps)) == bps
    assert format_rate(10**8) == "100mbit" and format_rate(2_500_000_000) == "2500mbit"


def test_border_link_is_netem_at_the_root_and_tbf_below_it():
    first, second = border_link_commands("w-bd1-2", 5000, 100_000_000, 9216, namespace="ns1")
    assert first == ["tc", "-n", "ns1", "qdisc", "replace", "dev", "w-bd1-2", "root", "handle", "1:",
                     "netem", "delay", "5000us", "limit", str(NETEM_DEFAULT_LIMIT)]
    frame = 9216 + ETHERNET_OVERHEAD
    assert second == ["tc", "-n", "ns1", "qdisc", "replace", "dev", "w-bd1-2", "parent", "1:1",
                      "handle", "10:", "tbf", "rate", "100000000bit", "burst", "50000",
                      "limit", str(QUEUE_FRAMES * frame)]
    assert border_link_commands("p2", 5000, 10**8, 9216)[0][:3] == ["tc", "qdisc", "replace"]


def test_netem_queue_holds_the_bandwidth_delay_product():
    # 10 Gbit/s for 50 ms is 62.5 MB in flight: 976563 frames of 64 bytes.
    assert netem_arguments(50_000, 10**10)[-1] == str(976_563)
    assert netem_arguments(1000, 10**6)[-1] == str(NETEM_DEFAULT_LIMIT)  # small: tc's default


def test_tbf_bucket_holds_4ms_of_the_rate_and_at_least_two_frames():
    assert tbf_rate_arguments(10**9, 1500)[4] == str(500_000)      # 1 Gbit/s * 4 ms / 8
    assert tbf_rate_arguments(64_000, 1500)[4] == str(2 * (1500 + ETHERNET_OVERHEAD))


def test_script_lines_are_the_commands_joined():
    assert border_link_script("p2", 8000, 50_000_000, 9216)[0] == \
        "tc qdisc replace dev p2 root handle 1: netem delay 8000us limit 1000"


@pytest.mark.parametrize("latency, rate", [(0, 10**6), (-1, 10**6), (1000, 0), (1000, -5)])
def test_non_positive_values_are_refused(latency, rate):
    with pytest.raises(ValueError):
        border_link_commands("p2", latency, rate, 1500)
