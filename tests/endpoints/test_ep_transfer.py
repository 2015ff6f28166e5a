"""Whole transfers between the real sender and receiver processes in host namespaces
(root): directly over a veth, and through a forwarder that trims or reorders."""
from __future__ import annotations

import hashlib

import pytest

from endpoints.sender import payload_for
from p4sim.switch.netns import can_run

from ep_net import RECEIVER_IP, SENDER_IP, HostPair, Reorder, TrimEvery, finish, wait_for_line

pytestmark = pytest.mark.skipif(not can_run(), reason="needs root and ip netns")

SIZE = 1_000_000
SEED = 7


def transfer(pair: HostPair, tmp_path, *sender_args: str) -> tuple[dict, dict, bytes]:
    """Runs one transfer of SIZE bytes; returns both summaries and the delivered file."""
    out = tmp_path / "delivered.bin"
    receiver = pair.start(pair.receiver_ns, "endpoints.receiver", "--bind", RECEIVER_IP,
                          "--out", str(out), "--summary", str(tmp_path / "rx.json"),
                          "--timeout", "60")
    wait_for_line(receiver, "receiver ready", 30)
    sender = pair.start(pair.sender_ns, "endpoints.sender", "--src", SENDER_IP,
                        "--dst", RECEIVER_IP, "--bytes", str(SIZE), "--seed", str(SEED),
                        "--timeout", "60", *sender_args)
    sent_status, sent, sent_err = finish(sender, 90)
    received_status, received, received_err = finish(receiver, 90)
    assert sent_status == 0, sent_err
    assert received_status == 0, received_err
    return sent, received, out.read_bytes()


def test_direct_veth_transfer_delivers_every_byte_in_order(tmp_path):
    expected = payload_for(SIZE, SEED)
    with HostPair("direct") as pair:
        sent, received, delivered = transfer(pair, tmp_path)
    assert delivered == expected
    digest = hashlib.sha256(expected).hexdigest()
    assert sent["sha256"] == received["sha256"] == digest
    assert received["bytes"] == sent["bytes"] == SIZE
    assert received["complete"] and sent["complete"]
    assert sent["retransmissions"] == 0 and sent["nacks"] == 0
    assert received["goodput_bps"] > 0 and received["fct_s"] > 0
    # Receiver-driven: beyond the 4-packet initial window the sender ran on credit.
    assert received["credits"] > 0 and sent["credit_bytes"] >= SIZE - 4 * 1200


def test_trimmed_packets_are_nacked_and_retransmitted_selectively(tmp_path):
    trimmer = TrimEvery(20)
    with HostPair("trim", middle=True) as pair, pair.forwarder(trimmer):
        sent, received, delivered = transfer(pair, tmp_path)
    assert delivered == payload_for(SIZE, SEED)
    assert trimmer.trimmed >= SIZE // 1200 // 20
    # Every trimmed packet (a retransmission may be trimmed again) was NACKed and
    # resent once, and nothing else was resent.
    assert received["trimmed"] == trimmer.trimmed
    assert received["nacks"] == sent["nacks"] == trimmer.trimmed
    assert sent["retransmissions"] == trimmer.trimmed
    assert received["retransmissions"] == sent["retransmissions"]
    assert sent["timeouts"] == 0


def test_reordered_packets_are_delivered_in_order(tmp_path):
    packets = -(-SIZE // 1200)
    # The last packets are not held: nothing would come after them to release them.
    reorder = Reorder(nth=7, delay=3, hold_until=packets - 10)
    with HostPair("reorder", middle=True) as pair, pair.forwarder(reorder):
        sent, received, delivered = transfer(pair, tmp_path, "--ev-mode", "pin")
    assert delivered == payload_for(SIZE, SEED)
    assert reorder.reordered >= SIZE // 1200 // 7 - 2
    assert received["sha256"] == sent["sha256"]
    # Reordering is not loss: nothing needed resending.
    assert sent["retransmissions"] == 0
