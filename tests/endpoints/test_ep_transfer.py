"""Whole transfers between the real sender and receiver processes in host namespaces
(root): directly over a veth, and through a forwarder that trims or reorders."""
from __future__ import annotations

import hashlib
import json

import pytest
from scapy.layers.l2 import Ether

from wire_formats.layers import UecRequestCC
from endpoints.sender import payload_for

from ep_net import (RECEIVER_IP, SENDER_IP, ControlEntropy, CountData, DropCreditsUntilAsked,
                    DropEvery, HostPair, ReduceCredits, Reorder, TrimEvery,
                    assert_acks_coalesced, finish, uec_data_entropy, wait_for_line)

pytestmark = pytest.mark.netns

SIZE = 1_000_000
SEED = 7


def transfer(pair: HostPair, tmp_path, *sender_args: str,
             receiver_args: tuple[str, ...] = ()) -> tuple[dict, dict, bytes]:
    """Runs one transfer of SIZE bytes; returns both summaries and the delivered file."""
    out = tmp_path / "delivered.bin"
    receiver = pair.start(pair.receiver_ns, "endpoints.receiver", "--bind", RECEIVER_IP,
                          "--out", str(out), "--summary", str(tmp_path / "rx.json"),
                          "--timeout", "60", *receiver_args)
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
    # Receiver-driven: beyond the 4-packet initial window the sender ran on credit,
    # granted inside the ACKs: every control packet the sender got was one the
    # receiver sent, and they are few (coalesced ACK + SACK + credit).
    assert received["credits"] > 0 and sent["credit_bytes"] >= SIZE - 4 * 1200
    assert sent["control_packets"] == received["control_packets"]
    assert_acks_coalesced(received)
    assert received["flows"][0]["pdcid"] == sent["pdcid"]


def test_trimmed_packets_are_nacked_and_retransmitted_selectively(tmp_path):
    trimmer, back = TrimEvery(20), ControlEntropy()
    with HostPair("trim", middle=True) as pair, pair.forwarder(trimmer, back):
        sent, received, delivered = transfer(pair, tmp_path)
    assert delivered == payload_for(SIZE, SEED)
    assert trimmer.trimmed >= SIZE // 1200 // 20
    # Every trimmed packet the receiver lacked was NACKed (a retransmission may be
    # trimmed again). A trimmed copy of a packet it already held is acked instead:
    # that happens when a scheduling stall on a loaded machine fired the sender's
    # timeout or loss detection and the spurious resend was the one trimmed. (This,
    # not a lost NACK, made "43 NACKs for 44 trims".) Each NACK is answered by one
    # retransmission; anything else resent is one the sender counted as a loss or a
    # timeout, never a go-back-N burst.
    assert received["trimmed"] == trimmer.trimmed
    assert received["nacks"] + received["trimmed_duplicates"] == trimmer.trimmed
    assert sent["nacks"] == received["nacks"] >= trimmer.trimmed - 2
    extra = sent["losses"] + sent["timeouts"]
    assert received["trimmed_duplicates"] <= extra <= 2
    assert sent["nacks"] <= sent["retransmissions"] <= sent["nacks"] + extra
    assert received["retransmissions"] == sent["retransmissions"]
    # Sprayed: a fresh entropy value (UDP source port) per packet, retransmissions too.
    assert len(trimmer.entropy_values) > trimmer.seen // 2
    assert sent["entropy_values"] == len(trimmer.entropy_values)
    # The receiver's control packets are sprayed too, and few: coalesced ACKs with
    # credit, plus one NACK per trim.
    assert back.frames == received["control_packets"] == sent["control_packets"]
    assert len(back.entropy_values) > back.frames // 2
    assert_acks_coalesced(received)


def test_silently_lost_packets_are_detected_and_resent(tmp_path):
    dropper = DropEvery(25)
    with HostPair("drop", middle=True) as pair, pair.forwarder(dropper):
        sent, received, delivered = transfer(pair, tmp_path)
    assert delivered == payload_for(SIZE, SEED)
    assert dropper.dropped >= SIZE // 1200 // 25
    # Found by later packets being acknowledged (or, at the tail, by the timeout),
    # and each loss resent; resends that the receiver already had stay few.
    assert sent["losses"] + sent["timeouts"] >= dropper.dropped
    assert dropper.dropped <= sent["retransmissions"] <= dropper.dropped + 3
    assert received["nacks"] == 0


def test_reordered_packets_are_delivered_in_order(tmp_path):
    packets = -(-SIZE // 1200)
    # The last packets are not held: nothing would come after them to release them.
    reorder = Reorder(nth=7, delay=3, hold_until=packets - 10)
    with HostPair("reorder", middle=True) as pair, pair.forwarder(reorder):
        sent, received, delivered = transfer(pair, tmp_path, "--ev-mode", "pin")
    assert delivered == payload_for(SIZE, SEED)
    assert reorder.reordered >= SIZE // 1200 // 7 - 2
    assert received["sha256"] == sent["sha256"]
    # Reordering is not loss: a reordered packet is not resent, unless the flow paused
    # while it was held back (then it is overdue by more than the allowance).
    assert sent["retransmissions"] <= reorder.reordered // 10
    # Pinned: one entropy value for the whole flow.
    assert len(reorder.entropy_values) == 1 and sent["entropy_values"] == 1


def test_sender_sends_only_what_credit_allows_even_when_a_switch_reduces_it(tmp_path):
    data, credits = CountData(), ReduceCredits(shift=1)
    with HostPair("credit", middle=True) as pair, pair.forwarder(data, credits):
        sent, received, delivered = transfer(pair, tmp_path,
                                             receiver_args=("--credit-carrier", "control"))
    assert delivered == payload_for(SIZE, SEED)
    # The sender saw every CREDIT as marked and only the reduced amounts.
    assert sent["credits"] == credits.credits == received["credits"]
    assert sent["credits_marked"] == credits.credits
    assert sent["credit_bytes"] == credits.credit_bytes < received["credit_bytes"]
    # Nothing beyond the initial window (4 packets) plus the credit it received.
    assert SIZE <= data.payload_bytes <= 4 * 1200 + credits.credit_bytes


def test_a_sender_starved_by_lost_credits_asks_for_credit_and_finishes(tmp_path):
    # Every credit from the third on is lost until the sender asks: the credit the
    # receiver counts as outstanding fills its window and it stops granting; only the
    # sender's CREDIT_REQUEST (after a timeout without credit) restarts the flow.
    lost = DropCreditsUntilAsked(first=3)
    with HostPair("starve", middle=True) as pair, pair.forwarder(lost.forward, lost.back):
        sent, received, delivered = transfer(pair, tmp_path,
                                             receiver_args=("--credit-carrier", "control"))
    assert delivered == payload_for(SIZE, SEED)
    assert lost.dropped >= 1 and lost.requests >= 1
    assert sent["credit_requests"] == lost.requests
    assert sent["credits"] == received["credits"] - lost.dropped


def test_empty_transfer_opens_and_closes_the_flow(tmp_path):
    with HostPair("empty") as pair:
        receiver = pair.start(pair.receiver_ns, "endpoints.receiver", "--bind", RECEIVER_IP,
                              "--out", str(tmp_path / "out.bin"), "--timeout", "30")
        wait_for_line(receiver, "receiver ready", 30)
        sender = pair.start(pair.sender_ns, "endpoints.sender", "--src", SENDER_IP,
                            "--dst", RECEIVER_IP, "--bytes", "0")
        sent_status, sent, _err = finish(sender, 60)
        received_status, received, _err = finish(receiver, 60)
    assert sent_status == 0 and received_status == 0
    assert sent["bytes"] == received["bytes"] == 0 and received["complete"]
    assert received["sha256"] == hashlib.sha256(b"").hexdigest()
    assert (tmp_path / "out.bin").read_bytes() == b""


def test_receiver_without_sender_gives_up_at_its_timeout(tmp_path):
    with HostPair("idle") as pair:
        receiver = pair.start(pair.receiver_ns, "endpoints.receiver", "--bind", RECEIVER_IP,
                              "--timeout", "0.5", "--summary", str(tmp_path / "rx.json"))
        wait_for_line(receiver, "receiver ready", 30)
        status, summary, err = finish(receiver, 30)
    assert status == 1 and "not complete" in err
    assert summary["complete"] is False and summary["bytes"] == 0
    assert json.loads((tmp_path / "rx.json").read_text()) == summary


def test_receiver_refuses_an_address_it_does_not_have():
    with HostPair("badaddr") as pair:
        receiver = pair.start(pair.receiver_ns, "endpoints.receiver", "--bind", "10.99.99.99")
        status, _summary, err = finish(receiver, 30)
    assert status == 2 and "cannot open raw UDP endpoint on 10.99.99.99:4793" in err


class NewDataBeforeRelease:
    """Counts the distinct PSNs of the data that passes before ``released`` is set."""

    def __init__(self) -> None:
        self.released = False
        self.psns_before: set[int] = set()

    def __call__(self, frame: bytes) -> list[bytes]:
        if not self.released and uec_data_entropy(frame) is not None:
            self.psns_before.add(Ether(frame)[UecRequestCC].psn)
        return [frame]


def test_a_paused_sender_holds_new_data_until_told_to_go_on(tmp_path):
    # What lets a test act at a known point of a transfer (e.g. cut a link while it
    # runs, however fast the machine): --pause-at holds new data until a stdin line.
    pause_packets = 100
    watch = NewDataBeforeRelease()
    out = tmp_path / "delivered.bin"
    with HostPair("pause", middle=True) as pair, pair.forwarder(watch):
        receiver = pair.start(pair.receiver_ns, "endpoints.receiver", "--bind", RECEIVER_IP,
                              "--out", str(out), "--timeout", "60")
        wait_for_line(receiver, "receiver ready", 30)
        sender = pair.start(pair.sender_ns, "endpoints.sender", "--src", SENDER_IP,
                            "--dst", RECEIVER_IP, "--bytes", str(SIZE), "--seed", str(SEED),
                            "--pause-at", str(pause_packets * 1200), "--timeout", "60",
                            stdin=True)
        paused = wait_for_line(sender, "sender paused at", 30)
        assert receiver.poll() is None        # nothing beyond the pause: still receiving
        watch.released = True
        assert sender.stdin is not None
        sender.stdin.write("go\n")
        sender.stdin.flush()
        sent_status, sent, sent_err = finish(sender, 90)
        received_status, received, received_err = finish(receiver, 90)
    assert int(paused.split()[-1]) == pause_packets * 1200
    assert len(watch.psns_before) <= pause_packets
    assert sent_status == 0, sent_err
    assert received_status == 0, received_err
    assert out.read_bytes() == payload_for(SIZE, SEED)
