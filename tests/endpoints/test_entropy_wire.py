"""The real sender and receiver processes take every packet's entropy value from
their flow's walk (endpoints.entropy), data, retransmissions and control packets
alike, and keep one value per flow when pinned: the EVs recorded, in order, in the
middle of a transfer (root, namespaces)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from endpoints.entropy import EV_LOW
from wire_formats.layers import UDP_PORT_UEC

from ep_net import HostPair
from test_ep_transfer import transfer

pytestmark = pytest.mark.netns


@dataclass
class EntropySequence:
    """The UDP source port of every UEC frame passing, in order."""

    values: list[int] = field(default_factory=list)

    def __call__(self, frame: bytes) -> list[bytes]:
        if len(frame) >= 14 + 20 + 8 and frame[12:14] == b"\x08\x00" and frame[23] == 17:
            udp = 14 + (frame[14] & 0x0F) * 4
            if int.from_bytes(frame[udp + 2:udp + 4], "big") == UDP_PORT_UEC:
                self.values.append(int.from_bytes(frame[udp:udp + 2], "big"))
        return [frame]


def assert_walk(values: list[int]) -> None:
    """Distinct dynamic ports, each from the one before by a Gray step: every odd step
    flips the same column (a frame missed by the recorder would break one step)."""
    assert len(set(values)) == len(values) and min(values) >= EV_LOW
    odd_steps = Counter(a ^ b for a, b in zip(values[::2], values[1::2]))
    assert odd_steps.most_common(1)[0][1] >= 0.95 * sum(odd_steps.values()), odd_steps


def test_sprayed_flows_walk_the_entropy_space_both_ways(tmp_path):
    forward, back = EntropySequence(), EntropySequence()
    with HostPair("evwalk", middle=True) as pair, pair.forwarder(forward, back):
        sent, received, _delivered = transfer(pair, tmp_path)
    assert sent["complete"] and received["complete"]
    assert len(forward.values) >= sent["packets"]
    assert_walk(forward.values)
    # The receiver keeps the flow's first value until it has seen the data spray
    # (what it answers the first packet with), then walks its own.
    pinned = next(i for i, v in enumerate(back.values) if v != forward.values[0])
    sprayed = back.values[pinned:]
    assert len(sprayed) >= 0.9 * len(back.values) and len(sprayed) >= 20
    assert_walk(sprayed)


def test_pinned_flows_keep_one_value_both_ways(tmp_path):
    forward, back = EntropySequence(), EntropySequence()
    with HostPair("evpin", middle=True) as pair, pair.forwarder(forward, back):
        sent, received, _delivered = transfer(pair, tmp_path, "--ev-mode", "pin")
    assert sent["complete"] and received["complete"]
    assert len(set(forward.values)) == 1 and set(back.values) == set(forward.values)
    assert len(back.values) == received["control_packets"] > 0
