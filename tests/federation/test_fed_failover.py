"""Border failover on topologies/two_domains.toml, real processes in namespaces (root).

Each domain's controller peers with the other (summaries over the peering API on the
switch namespace's loopback) and routes the other domain's hosts over the border the
summaries choose: by latency, w-bd1 (5 ms) rather than w-bd2 (8 ms). A UEC transfer
h1 -> h3 runs over w-bd1; its link is cut; the transfer must complete with every byte,
over w-bd2. The time from the cut to the first packet on w-bd2 is printed (no
threshold: bench/federation_failover.py gives it over N runs); a small probe flow runs
beside the transfer so the figure is the fabric's, not the sender's retransmission
timer. Then the same with w-bd1's switch process killed instead of its link cut."""
from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from control.federation.failover import describe, measure_failover
from control.launch import FabricNetwork, interface_name, peering_urls, start_controllers
from lab.process import ManagedProcess
from lab.readiness import wait_until

pytestmark = pytest.mark.netns
ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_domains.toml"
POLICY = ROOT / "topologies/two_domains.policy.toml"
P4INFO = ROOT / "build/fabric.p4info.txtpb"
TRANSFER_BYTES = 1024 * 1024
MSS = 1200
CHOSEN, OTHER = ("w-bd1", 2), ("w-bd2", 2)
PROBE_S = 0.005  # a datagram h1 -> h3 every 5 ms beside the transfer: the fabric's figure


@pytest.fixture(scope="module")
def fabric(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FabricNetwork, dict[str, ManagedProcess], Path]]:
    if not P4INFO.exists():
        pytest.fail("build/fabric.* missing: run `make build` first", pytrace=False)
    work = tmp_path_factory.mktemp("failover")
    with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-fo") as net:
        controllers = start_controllers(net, POLICY)
        yield net, controllers, work


def test_each_controller_peers_and_routes_the_other_domain_over_the_lower_latency_border(fabric):
    net, controllers, _ = fabric
    west, east = controllers["west"], controllers["east"]
    for host in ("h3", "h4"):
        west.wait_for_line(f"fabricctl border {host} via w-bd1:2 programmed", 60)
    for host in ("h1", "h2"):
        east.wait_for_line(f"fabricctl border {host} via e-bd1:2 programmed", 60)
    urls = peering_urls(net)
    assert set(urls) == {"west", "east"}

    def held() -> dict:
        with urllib.request.urlopen(f"{urls['west']}/v1/peers", timeout=10) as answer:
            return json.loads(answer.read())
    peers = net.in_switch_namespace(held)
    (east_entry,) = peers["peers"]
    assert east_entry["domain"] == "east" and east_entry["received"] and not east_entry["expired"]
    prefixes = {p for part in east_entry["summary"]["partitions"] for p in part["prefixes"]}
    assert prefixes == {"10.2.1.1/32", "10.2.1.2/32"}, prefixes  # h3 and h4, nothing else
    assert "grpc" not in json.dumps(east_entry)  # summaries, never switch access


def test_cut_border_link_fails_over_to_the_other_border_with_every_byte_delivered(fabric):
    net, controllers, work = fabric
    west = controllers["west"]
    west.wait_for_line("fabricctl border h3 via w-bd1:2 programmed", 60)
    run = measure_failover(net, "h1", "h3", TRANSFER_BYTES, work / "h1-h3", CHOSEN, OTHER,
                           probe_interval=PROBE_S)
    transfer = run.transfer
    assert transfer is not None
    assert transfer.delivered_bytes == TRANSFER_BYTES, transfer.receiver
    assert transfer.sender["sha256"] == transfer.delivered_sha256  # every byte, in order
    assert transfer.receiver["sha256"] == transfer.delivered_sha256
    chosen, other = interface_name(*CHOSEN), interface_name(*OTHER)
    # Before the cut the data went over the chosen border, (almost) none over the other.
    sent_chosen = run.before[chosen][1] - run.start[chosen][1]
    sent_other = run.before[other][1] - run.start[other][1]
    assert sent_chosen >= TRANSFER_BYTES // 8 // MSS, (sent_chosen, sent_other)
    assert sent_other * 20 < sent_chosen, (sent_chosen, sent_other)
    # After it, the rest (at least the quarter the sender held back) over the other one.
    moved = run.after[other][1] - run.before[other][1]
    assert moved >= TRANSFER_BYTES // 4 // MSS, (moved, run.after, run.before)
    west.wait_for_line("fabricctl link w-bd1:2 down repaired", 30)
    west.wait_for_line("fabricctl border h3 via w-bd2:2 programmed", 30)
    figures = describe(run)
    print(f"failover: cut of {CHOSEN[0]}:{CHOSEN[1]} -> first packet sent on "
          f"{OTHER[0]}:{OTHER[1]} after {figures['to_first_sent_ms']:.1f} ms (probe every "
          f"{PROBE_S * 1e3:g} ms), either way {figures['to_first_packet_ms']:.1f} ms; "
          f"{sent_chosen} packets over the chosen border before, {moved} over the other after"
          + (f" ({'; '.join(run.notes)})" if run.notes else ""))
    assert run.to_first_sent_s is not None and run.to_first_sent_s > 0


def test_killed_border_switch_fails_over_to_the_other_border_with_every_byte_delivered(fabric):
    net, controllers, work = fabric
    west, east = controllers["west"], controllers["east"]
    net.set_link_up(*CHOSEN)  # the previous test left it cut
    back = "fabricctl border h3 via w-bd1:2 programmed"
    wait_until(lambda: west.output.count(back) >= 2, "west routing over w-bd1 again", 60)
    wait_until(lambda: "fabricctl border h1 via e-bd1:2 programmed" in east.output.split(
        "fabricctl border h1 via e-bd2:2")[-1], "east routing over e-bd1 again", 60)
    moved_line = "fabricctl border h3 via w-bd2:2"
    moves_before = west.output.count(moved_line)
    try:
        run = measure_failover(net, "h1", "h3", TRANSFER_BYTES, work / "h1-h3-kill", CHOSEN, OTHER,
                               probe_interval=PROBE_S, failure="switch")
        transfer = run.transfer
        assert transfer is not None
        assert transfer.delivered_bytes == TRANSFER_BYTES, transfer.receiver
        assert transfer.sender["sha256"] == transfer.delivered_sha256  # every byte, in order
        assert transfer.receiver["sha256"] == transfer.delivered_sha256
        other = interface_name(*OTHER)
        moved = run.after[other][1] - run.before[other][1]
        assert moved >= TRANSFER_BYTES // 4 // MSS, (moved, run.after, run.before)
        # The west controller moved h3 because it lost w-bd1 (its link stayed up), and
        # east moved h1 off e-bd1 on west's summary (its own end never went down).
        # (printed once every west switch confirmed or 10 s passed: w-bd1 never confirms)
        wait_until(lambda: west.output.count(moved_line) > moves_before,
                   "west printing its move of h3 to w-bd2", 30)
        assert "fabricctl link w-bd1:2 down" not in west.output.split(back)[-1]
        east.wait_for_line("fabricctl border h1 via e-bd2:2", 30)
        assert run.to_first_sent_s is not None and run.to_first_sent_s > 0
        print(f"failover: kill of {CHOSEN[0]} -> first packet sent on {OTHER[0]}:{OTHER[1]} "
              f"after {run.to_first_sent_s * 1e3:.1f} ms (probe every {PROBE_S * 1e3:g} ms)")
    finally:
        net.restart_switch(CHOSEN[0])
    wait_until(lambda: west.output.count(back) >= 3, "west routing over w-bd1 once it is back", 60)
