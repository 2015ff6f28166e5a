"""Many flows, one receiver process (root): a 3:1 incast through a rate-limited,
trimming bottleneck (ep_fabric.Bottleneck) completes every flow without livelock,
the receiver's one credit budget gives each sender about a third, several senders on
one address are told apart by PDC id, and spraying's reordering is not taken for loss.
"""
from __future__ import annotations

import hashlib
import subprocess

import pytest

from endpoints.sender import payload_for

from ep_fabric import Bottleneck, TwoPaths
from ep_net import (RECEIVER_IP, SENDER_IP, HostPair, assert_acks_coalesced, finish,
                    wait_for_line)

pytestmark = pytest.mark.netns

SENDERS = (SENDER_IP, "10.77.0.3", "10.77.0.4")
MSS = 1200


def incast(pair: HostPair, tmp_path, sources: tuple[str, ...], size: int, *,
           sender_args: tuple[str, ...] = (), receiver_args: tuple[str, ...] = ()
           ) -> tuple[list[dict], dict]:
    """One receiver process serving a flow from each of ``sources`` (size bytes,
    seed = position), the senders started together; returns their summaries and the
    receiver's, after checking every flow's bytes arrived intact."""
    for address in sorted(set(sources) - {SENDER_IP}):
        pair.add_sender_address(address)
    out_dir = tmp_path / "flows"
    out_dir.mkdir()
    receiver = pair.start(pair.receiver_ns, "endpoints.receiver", "--bind", RECEIVER_IP,
                          "--flows", str(len(sources)), "--out-dir", str(out_dir),
                          "--timeout", "60", *receiver_args)
    wait_for_line(receiver, "receiver ready", 30)
    senders: list[subprocess.Popen] = []
    for seed, source in enumerate(sources):
        senders.append(pair.start(pair.sender_ns, "endpoints.sender", "--src", source,
                                  "--dst", RECEIVER_IP, "--bytes", str(size), "--seed",
                                  str(seed), "--wait-for-go", "--timeout", "60",
                                  *sender_args, stdin=True))
    for sender in senders:
        wait_for_line(sender, "sender ready", 30)
    for sender in senders:
        assert sender.stdin is not None
        sender.stdin.write("go\n")
        sender.stdin.flush()
    results = [finish(sender, 90) for sender in senders]
    received_status, received, received_err = finish(receiver, 90)
    for seed, (status, sent, err) in enumerate(results):
        assert status == 0, f"sender {seed}: {err[-2000:]}"
        expected = payload_for(size, seed)
        assert sent["sha256"] == hashlib.sha256(expected).hexdigest()
        delivered = out_dir / f"{sources[seed]}-{sent['pdcid']}.bin"
        assert delivered.read_bytes() == expected, f"flow {seed} delivered other bytes"
    assert received_status == 0, received_err
    assert received["complete"] and len(received["flows"]) == len(sources)
    assert received["bytes"] == size * len(sources)
    return [sent for _s, sent, _e in results], received


def describe(title: str, sent: list[dict], received: dict, bottleneck: Bottleneck,
             control_back: int, data_out: int) -> None:
    fct = max(s["fct_s"] for s in sent)
    ideal = bottleneck.data_frames / bottleneck.rate_pps
    print(f"{title}: {len(sent)} flows complete in {fct:.2f} s (queue alone: "
          f"{ideal:.2f} s); {bottleneck.trimmed} trims, {bottleneck.dropped} drops, "
          f"{bottleneck.marked} CE, max depth {bottleneck.max_depth}; retransmissions "
          f"{sum(s['retransmissions'] for s in sent)} (spurious: {received['duplicates']}); "
          f"{control_back / max(data_out, 1):.3f} control packets per data packet; "
          f"credit window at the end {received['credit_window']} B")


def test_incast_through_a_trimming_bottleneck_completes_every_flow(tmp_path):
    # 3 senders, 300 KB each, through a 1000-packet/s queue that marks CE from 6 deep
    # and trims from 8.
    size = 300_000
    bottleneck = Bottleneck(rate_pps=1000, trim_at=8, ecn_at=6)
    with HostPair("incast", middle=True) as pair, \
            pair.timed_forwarder(bottleneck) as forwarder:
        sent, received = incast(pair, tmp_path, SENDERS, size)
    describe("3:1 incast, credit + trimming", sent, received, bottleneck,
             forwarder.control_back, forwarder.data_out)
    packets = len(SENDERS) * -(-size // MSS)
    # No livelock: trims are few, each trimmed packet NACKed once and resent once.
    assert bottleneck.trimmed <= 0.1 * packets
    assert received["trimmed"] == bottleneck.trimmed
    assert received["nacks"] + received["trimmed_duplicates"] == bottleneck.trimmed
    retransmissions = sum(s["retransmissions"] for s in sent)
    recovered = sum(s["losses"] + s["timeouts"] for s in sent)
    assert received["nacks"] <= retransmissions <= received["nacks"] + recovered
    # The bottleneck was kept busy: the transfer took at most twice what the queue
    # needs to send every data frame (a livelock never ends; 1.1-1.3x is usual, more
    # when the machine is loaded).
    assert max(s["fct_s"] for s in sent) <= 2.0 * bottleneck.data_frames / 1000 + 0.5
    # The receiver pulled less once the queue trimmed, without a hand-set rate.
    assert received["window_decreases"] >= 1 and received["credit_window"] < 32 * 1024
    # Every control packet the receiver sent came back through the forwarder, and each
    # ACK had its cause (a queue this shallow leaves room for grants of only two or
    # three packets, each in one ACK: about one control packet per two data packets,
    # as describe() prints; it was two per one).
    assert forwarder.control_back == received["control_packets"]
    assert_acks_coalesced(received, flows=len(SENDERS))


def test_one_credit_budget_gives_each_of_three_senders_a_third(tmp_path):
    size = 400_000
    bottleneck = Bottleneck(rate_pps=1000, trim_at=8)
    with HostPair("share", middle=True) as pair, \
            pair.timed_forwarder(bottleneck) as forwarder:
        sent, received = incast(pair, tmp_path, SENDERS, size)
    describe("3:1 share", sent, received, bottleneck, forwarder.control_back,
             forwarder.data_out)
    shares = bottleneck.shares_while_all_busy()
    print(f"shares while all three were busy: {shares}")
    assert len(shares) == 3
    assert all(abs(share - 1 / 3) <= 0.08 for share in shares.values()), shares


def test_incast_without_credit_relies_on_the_congestion_window(tmp_path):
    # Senders ignore credit: only their paced AIMD window, cut on NACKs and ECN
    # echoes, keeps the trimming queue from cycling the same PSNs forever.
    size = 200_000
    bottleneck = Bottleneck(rate_pps=1000, trim_at=8, ecn_at=6)
    with HostPair("nocredit", middle=True) as pair, \
            pair.timed_forwarder(bottleneck) as forwarder:
        sent, received = incast(pair, tmp_path, SENDERS, size, sender_args=("--credit", "off"))
    describe("3:1 incast, no credit + trimming", sent, received, bottleneck,
             forwarder.control_back, forwarder.data_out)
    packets = len(SENDERS) * -(-size // MSS)
    # Trims stay a small fraction of the traffic (about 5% usually), and every flow
    # finishes about when the queue could have sent everything.
    assert bottleneck.trimmed <= 0.15 * packets
    # The queue did fill (the senders probe for more until it does), and the senders
    # saw it: their windows were cut.
    assert bottleneck.marked + bottleneck.trimmed > 0
    assert sum(s["window_decreases"] for s in sent) >= 1
    assert max(s["fct_s"] for s in sent) <= 2.0 * bottleneck.data_frames / 1000 + 0.5


def test_one_receiver_tells_apart_flows_from_one_address_by_pdc_id(tmp_path):
    with HostPair("multi") as pair:
        sent, received = incast(pair, tmp_path, (SENDER_IP, SENDER_IP, "10.77.0.3"),
                                150_000)
    keys = {(flow["peer"], flow["pdcid"]) for flow in received["flows"]}
    assert keys == {(source, s["pdcid"]) for source, s in
                    zip((SENDER_IP, SENDER_IP, "10.77.0.3"), sent)}
    assert all(flow["complete"] and flow["bytes"] == 150_000 for flow in received["flows"])


def test_spraying_reordering_is_not_taken_for_loss(tmp_path):
    # No loss at all, half the packets 5 ms late (two paths of unequal delay): every
    # loss the sender declares is spurious. (3 MB: on a loaded machine one stall of
    # the forwarder's threads delays the slow path's ~10 packets in flight beyond any
    # sensible allowance; that must stay within the 1%.)
    size = 3_000_000
    paths = TwoPaths(delay=0.005, slow_share=0.5, seed=11)
    out = tmp_path / "delivered.bin"
    with HostPair("paths", middle=True) as pair, pair.timed_forwarder(paths) as forwarder:
        receiver = pair.start(pair.receiver_ns, "endpoints.receiver", "--bind", RECEIVER_IP,
                              "--out", str(out), "--timeout", "60")
        wait_for_line(receiver, "receiver ready", 30)
        sender = pair.start(pair.sender_ns, "endpoints.sender", "--src", SENDER_IP,
                            "--dst", RECEIVER_IP, "--bytes", str(size), "--seed", "3",
                            "--timeout", "60")
        sent_status, sent, sent_err = finish(sender, 90)
        received_status, received, received_err = finish(receiver, 90)
    assert sent_status == 0, sent_err
    assert received_status == 0, received_err
    assert out.read_bytes() == payload_for(size, 3)
    packets = -(-size // MSS)
    spurious = sent["losses"] + sent["timeouts"]
    ratio = forwarder.control_back / forwarder.data_out
    print(f"two paths, {paths.slow} of {paths.data_frames} data packets 5 ms late: "
          f"{sent['losses']} loss detections, {sent['timeouts']} timeouts, "
          f"{received['duplicates']} duplicate arrivals; {ratio:.3f} control packets per "
          f"data packet")
    assert paths.slow >= packets // 3
    assert spurious <= 0.01 * packets
    assert received["duplicates"] <= 0.01 * packets
    # Late packets arriving out of order do not each send an ACK: every ACK has its
    # cause (the ratio printed above is the figure; about 0.13 on an idle machine).
    assert forwarder.control_back == received["control_packets"]
    assert_acks_coalesced(received)


def test_both_hosts_send_and_receive_at_once(tmp_path):
    # All-to-all in miniature: each host runs a receiver and a sender on one address;
    # each side's raw socket sees the other flow's packets and must leave them alone.
    size = 200_000
    with HostPair("both") as pair:
        ends = ((pair.receiver_ns, RECEIVER_IP, pair.sender_ns, SENDER_IP, 1),
                (pair.sender_ns, SENDER_IP, pair.receiver_ns, RECEIVER_IP, 2))
        receivers = []
        for rx_ns, rx_ip, _tx_ns, _tx_ip, seed in ends:
            out = tmp_path / f"to-{rx_ip}.bin"
            receivers.append((pair.start(rx_ns, "endpoints.receiver", "--bind", rx_ip,
                                         "--out", str(out), "--timeout", "60"), out, seed))
        for receiver, _out, _seed in receivers:
            wait_for_line(receiver, "receiver ready", 30)
        senders = [pair.start(tx_ns, "endpoints.sender", "--src", tx_ip, "--dst", rx_ip,
                              "--bytes", str(size), "--seed", str(seed), "--timeout", "60")
                   for _rx_ns, rx_ip, tx_ns, tx_ip, seed in ends]
        for sender in senders:
            status, _summary, err = finish(sender, 90)
            assert status == 0, err
        for receiver, out, seed in receivers:
            status, summary, err = finish(receiver, 90)
            assert status == 0, err
            assert len(summary["flows"]) == 1
            assert out.read_bytes() == payload_for(size, seed)
