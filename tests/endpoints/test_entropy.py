"""The endpoints' entropy walk (endpoints.entropy) through the fabric's own member
choice: routing.p4 in entropy mode hashes the UDP source port with crc16 (base 0,
max 65536) into mp_select, and the selector (identity hash) takes it modulo the
group's slots. ``member`` computes that with the p4sim switch's crc16;
test_entropy_fabric.py checks it against the compiled fabric.

The flows' sizes are the bench's (bench/congestion.py: 96 KB incast flows are 82
packets, 256 KB permutation flows 219); the seeds are fixed, so each figure is exact."""
from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from endpoints.entropy import EV_BITS, EV_LOW, EntropyWalk, random_basis
from endpoints.rx_flow import ReceiverFlow
from p4sim.switch.hashes import HashRegistry
from wire_formats.uec_datagram import Flow

CRC16 = HashRegistry(random.Random(0)).get("crc16")
FLOWS = range(64)          # seeds: one flow each


def member(ev: int, members: int) -> int:
    """The slot routing.p4 picks for a UEC packet with UDP source port ``ev``."""
    assert CRC16 is not None
    return CRC16(ev.to_bytes(2, "big")) % 65536 % members


def max_over_mean(evs: list[int], members: int) -> float:
    counts = Counter(member(ev, members) for ev in evs)
    return max(counts.values()) / (len(evs) / members)


def walk(seed: int, packets: int) -> list[int]:
    evs = EntropyWalk(random.Random(seed))
    return [evs.next() for _ in range(packets)]


def independent_draws(seed: int, packets: int) -> list[int]:
    """What the endpoints did before: a uniform draw per packet."""
    rng = random.Random(seed)
    return [rng.randrange(EV_LOW, 1 << 16) for _ in range(packets)]


def within(ratios: list[float], limit: float = 1.05) -> float:
    """Share of flows whose max/mean is at most ``limit``."""
    return sum(r <= limit + 1e-9 for r in ratios) / len(ratios)


def test_a_walk_visits_every_dynamic_port_once_then_walks_anew():
    values = walk(3, 2 << EV_BITS)
    first, second = values[:1 << EV_BITS], values[1 << EV_BITS:]
    assert sorted(first) == sorted(second) == list(range(EV_LOW, 1 << 16))
    assert first != second


def test_consecutive_values_differ_in_one_column_of_the_flow_s_matrix():
    values = walk(5, 1 << EV_BITS)
    steps = [a ^ b for a, b in zip(values, values[1:])]
    # Gray order: step i (from 1) flips column ctz(i); each column spans the space.
    columns = {(i & -i).bit_length() - 1: step for i, step in enumerate(steps, start=1)}
    assert len(columns) == EV_BITS
    assert all(step == columns[(i & -i).bit_length() - 1] for i, step in enumerate(steps, 1))
    span = {0}
    for column in columns.values():
        span |= {v ^ column for v in span}
    assert len(span) == 1 << EV_BITS


@pytest.mark.parametrize("members", [2, 4, 8])
def test_a_whole_walk_is_split_exactly_evenly(members):
    assert set(Counter(member(ev, members) for ev in walk(11, 1 << EV_BITS)).values()) \
        == {(1 << EV_BITS) // members}


@pytest.mark.parametrize("packets, members, walked, drawn", [
    (82, 2, 0.90, 0.45),      # the incast's flows, one per leaf: a leaf's two uplinks
    (82, 4, 0.60, 0.05),
    (219, 2, 0.95, 0.55),     # the permutation's
    (219, 4, 0.90, 0.05),
    (1000, 2, 1.0, 0.90),
    (1000, 4, 1.0, 0.25),
])
def test_flows_split_within_5_percent_far_more_often_than_with_independent_draws(
        packets, members, walked, drawn):
    """Share of 64 flows whose packets are within 1.05 max/mean over the members.
    A run of 2^j packets is even unless the hash is not onto on its j-dimensional
    subspace (chance about (members - 1) / 2^j), so short flows on four members miss
    most often; independent draws miss by binomial noise."""
    ours = [max_over_mean(walk(seed, packets), members) for seed in FLOWS]
    before = [max_over_mean(independent_draws(seed, packets), members) for seed in FLOWS]
    assert within(ours) >= walked
    assert within(before) <= drawn
    assert statistics.median(ours) <= 1.025
    assert statistics.median(ours) < statistics.median(before)


@pytest.mark.parametrize("members", [2, 4])
def test_flows_on_the_same_members_do_not_move_in_step(members):
    """Each flow draws its own matrix and start: two flows between the same hosts are
    on the same member as often as independent random choices would be."""
    shares = []
    for seed in range(32):
        a, b = walk(1000 + seed, 1000), walk(2000 + seed, 1000)
        shares.append(sum(member(x, members) == member(y, members)
                          for x, y in zip(a, b)) / 1000)
    assert abs(statistics.mean(shares) - 1 / members) < 0.02
    assert all(abs(share - 1 / members) < 0.15 for share in shares)


def test_receiver_control_packets_keep_the_flow_s_value_until_the_data_sprays():
    flow = ReceiverFlow(("10.0.0.1", 2), Flow(src="10.0.0.2", dst="10.0.0.1", own_pdcid=1,
                                              peer_pdcid=2), 0, 50000, 64, None,
                        random.Random(1))
    flow.note_entropy(50000)
    assert {flow.control_entropy() for _ in range(20)} == {50000}     # pinned data
    flow.note_entropy(50001)
    sprayed = [flow.control_entropy() for _ in range(256)]
    assert len(set(sprayed)) == 256 and min(sprayed) >= EV_LOW
    steps = [x ^ y for x, y in zip(sprayed, sprayed[1:])]
    assert len(set(steps[::2])) == 1 and len(set(steps)) == 8     # the walk, Gray order


def test_a_receiver_s_flows_share_its_walk():
    """One receiver's control packets leave by the same uplinks whatever flow they
    answer: its flows take turns on one walk, which stays even as a whole."""
    shared = EntropyWalk(random.Random(8))
    flows = [ReceiverFlow(("10.0.0.1", n), Flow(src="10.0.0.2", dst="10.0.0.1", own_pdcid=n,
                                                peer_pdcid=n), 0, 50000, 64, None,
                          random.Random(n), evs=shared) for n in (1, 2, 3)]
    for flow in flows:
        flow.note_entropy(50001)
    turns = [flows[n % 3 if n % 5 else 0].control_entropy() for n in range(1 << EV_BITS)]
    assert turns == walk(8, 1 << EV_BITS)


def test_random_basis_is_a_basis():
    for seed in range(20):
        columns = random_basis(random.Random(seed), 6)
        span = {0}
        for column in columns:
            span |= {v ^ column for v in span}
        assert len(columns) == 6 and len(span) == 64


@pytest.mark.parametrize("low, bits", [(49153, 14), (49152, 15), (0, 0)])
def test_a_range_that_is_not_an_aligned_block_of_ports_is_refused(low, bits):
    with pytest.raises(ValueError):
        EntropyWalk(random.Random(0), low, bits)
