"""choose_border: by latency, by capacity, failover, expiry, partition isolation."""
from __future__ import annotations

import dataclasses
import ipaddress
import random

import pytest

from control.peering.border_choice import LocalBorder, choose_border
from control.peering.peers import PeerTable
from control.peering.summary import (BorderLink, BorderSummary, Capacity, Health,
                                     PartitionPrefixes, PathLatency, Summary)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _border(n: int, p50: float, rate: int, load: int, up: bool = True) -> BorderSummary:
    return BorderSummary(f"e-bd{n}", BorderLink(f"e-bd{n}:2", f"w-bd{n}:2", "west"),
                         PathLatency(p50, p50 * 2, 10, "int"), Capacity(rate, load),
                         Health(up, 999.0 if up else None))


def _east(*borders: BorderSummary, partitions=None) -> Summary:
    parts = partitions or (PartitionPrefixes(0, "shared", ("10.2.1.0/24",)),
                           PartitionPrefixes(1, "tenant-a", ("10.2.2.0/24",)))
    return Summary(2, "east", 1, 1000.0, parts, borders)


def _local(n: int, latency: float = 0.0, link: float = 0.0, up: bool = True,
           available: int | None = None) -> LocalBorder:
    return LocalBorder(f"w-bd{n}:2", f"e-bd{n}:2", "east", up, latency, link, available)


def _peers(summary: Summary, clock: Clock | None = None, ttl: float = 10.0):
    table = PeerTable({"east": 2}, ttl, clock or Clock())
    table.accept("east", summary)
    return table, table.states()


# bd1: near inside east but a long link; bd2: far inside east, short link, more capacity.
EAST = _east(_border(1, 300, 100_000_000, 90_000_000), _border(2, 1000, 50_000_000, 0))
WEST = [_local(1, latency=50, link=5000), _local(2, latency=40, link=8000)]


def test_by_latency_sums_our_latency_the_link_and_the_peers():
    _, states = _peers(EAST)
    choice = choose_border("10.2.1.7", 0, states, WEST, by="latency")
    assert choice.chosen is not None and choice.chosen.local == "w-bd1:2"
    assert [c.latency_us for c in choice.ranked] == [50 + 5000 + 300, 40 + 8000 + 1000]
    assert choice.chosen.prefix == "10.2.1.0/24" and choice.skipped == ()


def test_by_p99_uses_the_tail():
    _, states = _peers(EAST)
    choice = choose_border("10.2.1.7", 0, states, WEST, by="latency", percentile="p99")
    assert [c.latency_us for c in choice.ranked] == [50 + 5000 + 600, 40 + 8000 + 2000]


def test_by_capacity_takes_the_most_available():
    _, states = _peers(EAST)
    choice = choose_border("10.2.1.7", 0, states, WEST, by="capacity")
    assert choice.chosen is not None and choice.chosen.local == "w-bd2:2"
    assert [c.available_bps for c in choice.ranked] == [50_000_000, 10_000_000]


def test_capacity_is_the_smaller_of_ours_and_the_peers():
    _, states = _peers(EAST)
    local = [_local(1, available=100_000_000), _local(2, available=1_000_000)]
    choice = choose_border("10.2.1.7", 0, states, local, by="capacity")
    assert choice.chosen is not None and choice.chosen.local == "w-bd1:2"
    assert choice.chosen.available_bps == 10_000_000


@pytest.mark.parametrize("by", ["latency", "capacity"])
def test_failover_when_our_end_of_the_chosen_border_goes_down(by):
    _, states = _peers(EAST)
    first = choose_border("10.2.1.7", 0, states, WEST, by=by).chosen
    assert first is not None
    down = [dataclasses.replace(b, up=False) if b.local == first.local else b for b in WEST]
    choice = choose_border("10.2.1.7", 0, states, down, by=by)
    assert choice.chosen is not None and choice.chosen.local != first.local
    assert choice.skipped == ((first.local, f"our end {first.local} is down"),)


def test_failover_when_the_peer_reports_the_chosen_border_down():
    east = _east(_border(1, 300, 100_000_000, 0, up=False), _border(2, 1000, 50_000_000, 0))
    _, states = _peers(east)
    choice = choose_border("10.2.1.7", 0, states, WEST)
    assert choice.chosen is not None and choice.chosen.local == "w-bd2:2"
    assert choice.skipped == (("w-bd1:2", "east reports border e-bd1:2 down"),)


def test_every_border_down_chooses_none():
    _, states = _peers(EAST)
    choice = choose_border("10.2.1.7", 0, states, [dataclasses.replace(b, up=False) for b in WEST])
    assert choice.chosen is None and choice.ranked == () and len(choice.skipped) == 2


def test_an_expired_summary_makes_every_border_unhealthy():
    clock = Clock()
    table, states = _peers(EAST, clock, ttl=10.0)
    assert choose_border("10.2.1.7", 0, states, WEST).chosen is not None
    clock.now += 10.0  # exactly the TTL: still fresh
    assert choose_border("10.2.1.7", 0, table.states(), WEST).chosen is not None
    clock.now += 0.5
    choice = choose_border("10.2.1.7", 0, table.states(), WEST)
    assert choice.chosen is None
    assert choice.skipped == (("w-bd1:2", "summary of east expired (10.5 s old)"),
                              ("w-bd2:2", "summary of east expired (10.5 s old)"))
    table.accept("east", dataclasses.replace(EAST, serial=2))  # a fresh push heals it
    assert choose_border("10.2.1.7", 0, table.states(), WEST).chosen is not None


def test_a_peer_never_heard_from_offers_nothing():
    table = PeerTable({"east": 2}, 10.0, Clock())
    assert choose_border("10.2.1.7", 0, table.states(), WEST).chosen is None


def test_a_border_not_seen_up_for_long_is_unhealthy_when_asked():
    east = _east(dataclasses.replace(_border(1, 1, 10, 0), health=Health(True, 900.0)),
                 _border(2, 1000, 10, 0))
    _, states = _peers(east)
    assert choose_border("10.2.1.7", 0, states, WEST).chosen.local == "w-bd1:2"
    choice = choose_border("10.2.1.7", 0, states, WEST, stale_after_s=30.0)
    assert choice.chosen.local == "w-bd2:2"
    assert "100 s before its summary" in choice.skipped[0][1]


def test_ties_break_by_the_other_metric_then_by_name():
    east = _east(_border(1, 100, 10_000, 0), _border(2, 100, 20_000, 0), _border(3, 100, 20_000, 0))
    _, states = _peers(east)
    local = [_local(3), _local(2), _local(1)]
    choice = choose_border("10.2.1.0/25", 0, states, local, by="latency")
    assert [c.local for c in choice.ranked] == ["w-bd2:2", "w-bd3:2", "w-bd1:2"]
    # The same answer whatever order the inputs come in.
    for seed in range(5):
        shuffled = list(local)
        random.Random(seed).shuffle(shuffled)
        again = choose_border("10.2.1.0/25", 0, states, shuffled, by="latency")
        assert again == choice


def test_the_longest_matching_prefix_wins_over_the_metric():
    near = _east(_border(1, 1, 10, 0), partitions=(PartitionPrefixes(0, "shared", ("10.2.0.0/16",)),))
    far = Summary(3, "north", 1, 1000.0, (PartitionPrefixes(0, "shared", ("10.2.1.0/24",)),),
                  (BorderSummary("n-bd1", BorderLink("n-bd1:2", "w-bd3:2", "west"),
                                 PathLatency(9000, 9000, 1, "int"), Capacity(10, 0), Health(True, 1.0)),))
    table = PeerTable({"east": 2, "north": 3}, 10.0, Clock())
    table.accept("east", near)
    table.accept("north", far)
    local = [_local(1), LocalBorder("w-bd3:2", "n-bd1:2", "north", True)]
    assert choose_border("10.2.1.9", 0, table.states(), local).chosen.peer_domain == "north"
    assert choose_border("10.2.7.9", 0, table.states(), local).chosen.peer_domain == "east"


def test_a_destination_no_peer_reaches_chooses_none():
    _, states = _peers(EAST)
    assert choose_border("10.9.0.1", 0, states, WEST).chosen is None
    assert choose_border("10.2.0.0/16", 0, states, WEST).chosen is None  # wider than advertised


def test_a_prefix_of_one_partition_is_never_chosen_for_another():
    _, states = _peers(EAST)
    assert choose_border("10.2.2.5", 1, states, WEST).chosen is not None
    assert choose_border("10.2.2.5", 0, states, WEST).chosen is None
    assert choose_border("10.2.1.5", 1, states, WEST).chosen is None
    assert choose_border("10.2.2.5", 2, states, WEST).chosen is None


def test_partition_isolation_fuzzed():
    """Random summaries and destinations: whatever is chosen for partition P is a
    prefix the peer advertises in P, never one of another partition."""
    rng = random.Random(15)
    for _ in range(300):
        pool = [ipaddress.IPv4Network(f"10.{rng.randrange(4)}.{rng.randrange(4)}.0/24")
                for _ in range(12)]
        parts, used = [], []
        for pid in range(4):
            mine = []
            for net in rng.sample(pool, 3):
                if not any(net.overlaps(u) for u in used):
                    used.append(net)
                    mine.append(str(net))
            parts.append(PartitionPrefixes(pid, "shared" if pid == 0 else f"p{pid}", tuple(mine)))
        east = _east(_border(1, rng.randrange(1000), 100, rng.randrange(200)),
                     _border(2, rng.randrange(1000), 100, rng.randrange(200)),
                     partitions=tuple(parts))
        _, states = _peers(east)
        destination = f"10.{rng.randrange(4)}.{rng.randrange(4)}.{rng.randrange(256)}"
        partition = rng.randrange(5)
        choice = choose_border(destination, partition, states, WEST,
                               by=rng.choice(["latency", "capacity"]))
        own = parts[partition].prefixes if partition < 4 else ()
        covering = [p for p in own if ipaddress.IPv4Address(destination) in ipaddress.IPv4Network(p)]
        if covering:
            assert choice.chosen is not None and choice.chosen.prefix in covering
        else:
            assert choice.chosen is None and choice.ranked == ()


@pytest.mark.parametrize("kwargs,words", [
    ({"by": "cost"}, "by: 'cost'"),
    ({"percentile": "p90"}, "percentile: 'p90'"),
    ({"destination": "10.2.1.1/24"}, "is not an IPv4 address or prefix"),
    ({"margin": -0.1}, "margin: -0.1 must not be negative"),
])
def test_bad_arguments_are_refused(kwargs, words):
    _, states = _peers(EAST)
    args = {"destination": "10.2.1.7", "partition": 0, "peers": states, "local": WEST, **kwargs}
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        choose_border(**args)


@pytest.mark.parametrize("by,current,margin,first", [
    # capacity: bd2 50 Mbit/s vs bd1 10 Mbit/s available, so bd1 is worse by far more than 10%
    ("capacity", "w-bd1:2", 0.1, "w-bd2:2"),
    ("capacity", "w-bd1:2", 4.0, "w-bd1:2"),   # 50 <= 10 x 5: the same within the margin,
                                               # and bd1's latency is lower: kept
    # latency: bd1 5,350 us vs bd2 9,040 us
    ("latency", "w-bd2:2", 0.1, "w-bd1:2"),
    ("latency", "w-bd2:2", 0.5, "w-bd2:2"),    # 5,350 >= 9,040 x 0.5: kept
    ("latency", "w-bd1:2", 0.5, "w-bd1:2"),    # already the best
    ("latency", "w-bd9:2", 0.5, "w-bd1:2"),    # not a candidate: plain ranking
])
def test_the_border_in_use_is_kept_within_the_margin(by, current, margin, first):
    _, states = _peers(EAST)
    choice = choose_border("10.2.1.7", 0, states, WEST, by=by, current=current, margin=margin)
    assert choice.chosen is not None and choice.chosen.local == first
    assert sorted(c.local for c in choice.ranked) == ["w-bd1:2", "w-bd2:2"]


def test_a_tie_within_the_margin_goes_by_the_other_metric():
    # By capacity, bd2 (100 Mbit/s) edges out bd1 in use (99): the same within 2%, and
    # bd2 is slower (9,040 us against 5,350), so bd1 keeps the traffic ...
    east = _east(_border(1, 300, 100_000_000, 1_000_000), _border(2, 1000, 100_000_000, 0))
    _, states = _peers(east)
    choice = choose_border("10.2.1.7", 0, states, WEST, by="capacity", current="w-bd1:2",
                           margin=0.02)
    assert choice.chosen is not None and choice.chosen.local == "w-bd1:2"
    assert choose_border("10.2.1.7", 0, states, WEST, by="capacity").chosen.local == "w-bd2:2"
    # ... and with capacities equal, bd2 in use gives way to bd1's clearly lower latency.
    even = _east(_border(1, 300, 100_000_000, 0), _border(2, 1000, 100_000_000, 0))
    _, states = _peers(even)
    choice = choose_border("10.2.1.7", 0, states, WEST, by="capacity", current="w-bd2:2",
                           margin=0.02)
    assert choice.chosen is not None and choice.chosen.local == "w-bd1:2"


def test_a_border_in_use_that_goes_down_is_not_kept():
    _, states = _peers(EAST)
    down = [dataclasses.replace(b, up=False) if b.local == "w-bd2:2" else b for b in WEST]
    choice = choose_border("10.2.1.7", 0, states, down, by="capacity", current="w-bd2:2",
                           margin=100.0)
    assert choice.chosen is not None and choice.chosen.local == "w-bd1:2"

