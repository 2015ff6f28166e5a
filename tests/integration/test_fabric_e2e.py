"""The whole stack on two_leaves: fabricctl programs both switches, the endpoints move
data h1 -> h2 over the two parallel links, the collector stores INT reports; then a link
is cut and a switch restarted under the controller. Root; each test its own fabric."""
from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from scapy.layers.inet import IP, UDP
from scapy.utils import rdpcap

from control.launch import (FabricNetwork, Transfer, run_transfer, start_collector, start_controller,
                            start_transfer)
from control.link_frames import data_packets_per_second
from wire_formats.layers import DSCP_TRIMMED, UecRequest

pytestmark = pytest.mark.netns
ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_leaves.toml"
POLICY = ROOT / "topologies/two_leaves.policy.toml"
P4INFO = ROOT / "build/fabric.p4info.txtpb"
PROBE = ("-m", "control.probe")  # reads P4Runtime state inside the switch namespace
LINK_PORTS = (2, 3)  # leaf1:2-leaf2:2 and leaf1:3-leaf2:3
LINK_RATE_PPS = 200
TRIM_THRESHOLD = 4
BURST = 16  # the sender's first window: the initial congestion window, sent before any credit
TRIM_METER = "FabricIngress.trimming.data_rate"
TRANSFER_BYTES = 64 * 1024


@pytest.fixture(autouse=True)
def _built_pipeline() -> None:
    """A missing build is a failure with the fix in its message, not a silent skip."""
    if not P4INFO.exists():
        pytest.fail("build/fabric.* missing: run `make build` first", pytrace=False)


def probe(net: FabricNetwork, switch: str, *args: str, timeout: float = 60) -> tuple[int, dict]:
    """Run fabric_probe.py against ``switch`` in the switch namespace; (status, JSON)."""
    sw = net.topology.switch(switch)
    command, rest = args[0], args[1:]
    extra = [] if command == "pipeline" else [str(P4INFO)]
    process = net.switch_exec([sys.executable, *PROBE, command, sw.grpc, str(sw.device_id), *extra, *rest])
    status = process.wait(timeout)
    lines = process.output.strip().splitlines()
    try:
        return status, json.loads(lines[-1])
    except (IndexError, ValueError):
        raise AssertionError(f"probe {args} failed:\n{process.output}") from None


def counter(net: FabricNetwork, switch: str, name: str) -> dict[int, int]:
    status, values = probe(net, switch, "counter", name)
    assert status == 0
    return {int(k): v for k, v in values.items()}


def meter_config(net: FabricNetwork, switch: str, name: str, index: int) -> tuple[int, ...] | None:
    """(cir, cburst, pir, pburst) of one meter cell as the switch reports it."""
    status, values = probe(net, switch, "meter", name, str(index))
    assert status == 0
    return None if values is None else tuple(values)


def assert_complete(transfer: Transfer, nbytes: int) -> None:
    """Every byte delivered, in order: the receiver's output hashes like the sender's data."""
    assert transfer.delivered_bytes == nbytes
    assert transfer.sender["sha256"] == transfer.delivered_sha256
    assert transfer.receiver["sha256"] == transfer.delivered_sha256
    assert transfer.receiver["bytes"] == nbytes


def policy_with(tmp_path: Path, **changes: dict) -> Path:
    """The two_leaves policy with some tables replaced, written as JSON (which the
    policy loader reads like TOML)."""
    document = tomllib.loads(POLICY.read_text())
    for table, values in changes.items():
        document.setdefault(table, {}).update(values)
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(document))
    return path


def test_sprayed_transfer_delivers_every_byte_in_order_over_both_links(tmp_path):
    with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-e1") as net:
        start_controller(net, POLICY)
        before = counter(net, "leaf1", "FabricEgress.port_tx")
        transfer = run_transfer(net, "h1", "h2", TRANSFER_BYTES, tmp_path, ev_mode="spray")
        after = counter(net, "leaf1", "FabricEgress.port_tx")
    assert_complete(transfer, TRANSFER_BYTES)
    carried = {port: after.get(port, 0) - before.get(port, 0) for port in LINK_PORTS}
    print(f"sprayed {TRANSFER_BYTES} B: packets per link {carried}, "
          f"goodput {transfer.sender.get('goodput_bps', 0) / 1e6:.2f} Mb/s, fct {transfer.sender.get('fct_s')} s")
    total = sum(carried.values())
    assert total > 0
    for port in LINK_PORTS:  # sprayed: each link carries a real share, not a stray packet
        assert carried[port] >= total // 5, carried


def topology_with_link_rate(tmp_path: Path, rate_pps: int) -> Path:
    """two_leaves with every link shaped to ``rate_pps``, written as JSON."""
    document = tomllib.loads(TOPOLOGY.read_text())
    for link in document["links"]:
        link["rate_pps"] = rate_pps
    path = tmp_path / "topology.json"
    path.write_text(json.dumps(document))
    return path


def test_trimmed_packet_is_retransmitted_selectively(tmp_path):
    # Slow links between the leaves and a low trim threshold: a burst trims some
    # packets, the receiver NACKs them, the sender resends just those. The switches'
    # captures say which PSNs were trimmed and which were sent twice. Only what runs
    # on simple_switch_grpc too: the launcher shapes the links with tc (the queue
    # builds in the qdisc, after the switch, where no queue depth shows it) and the
    # controller gives each fabric port a meter of the link's rate holding the trim
    # threshold, over P4Runtime; red means the link's queue would exceed the threshold.
    topology = topology_with_link_rate(tmp_path, LINK_RATE_PPS)
    policy = policy_with(tmp_path, trim={"threshold": TRIM_THRESHOLD})
    pcaps = tmp_path / "pcap"
    pcaps.mkdir()
    with FabricNetwork(topology, tag=f"ln{os.getpid()}-e2", switch_args=(f"--pcap={pcaps}",)) as net:
        start_controller(net, policy)
        meters = {port: meter_config(net, "leaf1", TRIM_METER, port) for port in LINK_PORTS}
        transfer = run_transfer(net, "h1", "h2", TRANSFER_BYTES, tmp_path, ev_mode="spray",
                                sender_args=("--initial-window", str(BURST)))
        trimmed_count = counter(net, "leaf1", "FabricIngress.trimming.trimmed_packets")
    meter_pps = round(data_packets_per_second(LINK_RATE_PPS))   # data packets, not full frames
    assert meters == {port: (meter_pps, TRIM_THRESHOLD, meter_pps, TRIM_THRESHOLD)
                      for port in LINK_PORTS}
    assert_complete(transfer, TRANSFER_BYTES)
    sent = Counter(psn for psn, _ in data_requests(pcaps / "leaf1-1_in.pcap"))
    trimmed = {psn for psn, dscp in data_requests(pcaps / "leaf2-1_out.pcap") if dscp == DSCP_TRIMMED}
    resent = {psn for psn, times in sent.items() if times > 1}
    # Other recovery the sender reports: SACK-inferred losses (reordering across the
    # two links, or a packet the full qdisc dropped) and timer expiries. Only those may
    # explain a resent PSN that was never trimmed.
    other_recovery = transfer.sender.get("losses", 0) + transfer.sender.get("timeouts", 0)
    print(f"{len(sent)} PSNs, {sum(trimmed_count.values())} trimmed by leaf1 ({len(trimmed)} PSNs "
          f"reached h2 trimmed), {len(resent)} PSNs resent, {transfer.receiver.get('nacks')} NACKs, "
          f"{other_recovery} losses/timeouts")
    assert trimmed, "the fabric trimmed nothing"
    assert sum(trimmed_count.get(port, 0) for port in LINK_PORTS) >= len(trimmed)
    assert transfer.receiver["nacks"] > 0
    assert trimmed <= resent  # every trimmed packet was sent again...
    assert len(resent - trimmed) <= other_recovery  # ...and nothing else without a reason
    assert len(resent) < len(sent)  # selective, not go-back-N


def data_requests(pcap: Path) -> list[tuple[int, int]]:
    """(PSN, DSCP) of every UEC data request in a capture."""
    found = []
    for frame in rdpcap(str(pcap)):
        if UDP in frame and isinstance(frame[UDP].payload, UecRequest):
            found.append((frame[UDP].payload.psn, frame[IP].tos >> 2))
    return found


def test_int_reports_are_stored_by_the_collector(tmp_path):
    db = tmp_path / "reports.sqlite"
    with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-e3") as net:
        collector = start_collector(net, db)
        start_controller(net, POLICY)
        transfer = run_transfer(net, "h1", "h2", TRANSFER_BYTES // 4, tmp_path)
        collector.stop()
        leaf1, leaf2 = net.topology.switch("leaf1"), net.topology.switch("leaf2")
    assert_complete(transfer, TRANSFER_BYTES // 4)
    with sqlite3.connect(db) as conn:
        paths = dict(conn.execute("SELECT path, COUNT(*) FROM reports GROUP BY path").fetchall())
        hop_nodes = {n for (n,) in conn.execute("SELECT DISTINCT node_id FROM hops")}
    print(f"reports by path: {paths}")
    assert paths.get(f"{leaf1.node_id},{leaf2.node_id}", 0) > 0, paths
    assert {leaf1.node_id, leaf2.node_id} <= hop_nodes


def test_link_failure_is_repaired_and_traffic_continues(tmp_path):
    with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-e4") as net:
        controller = start_controller(net, POLICY)
        status, groups = probe(net, "leaf1", "group-ports")
        assert any(set(LINK_PORTS) <= set(ports) for ports in groups.values()), groups
        nbytes = 4 * TRANSFER_BYTES
        # The sender holds at a quarter, so the cut falls inside the transfer however
        # fast the machine; what it sent before is in flight or delivered.
        running = start_transfer(net, "h1", "h2", nbytes, tmp_path, ev_mode="spray",
                                 pause_at=nbytes // 4)
        watchers = {sw: net.switch_exec([sys.executable, *PROBE, "wait-port-gone",
                                         net.topology.switch(sw).grpc, str(net.topology.switch(sw).device_id),
                                         str(P4INFO), "2", "60"], name=f"watch-{sw}")
                    for sw in ("leaf1", "leaf2")}
        assert nbytes // 4 <= running.wait_paused(60) < nbytes
        cut = net.set_link_down("leaf1", 2)
        delivered_at_cut = running.delivered_bytes()
        running.resume()
        repaired = {}
        for sw, watcher in watchers.items():
            assert watcher.wait(90) == 0, watcher.output
            repaired[sw] = json.loads(watcher.output.strip().splitlines()[-1])["at"] - cut
        transfer = running.finish(180)
        # One event for the link, from whichever end the controller saw go down first.
        reported = [controller.wait_for_line(" down repaired in ", 30)]
        before = counter(net, "leaf1", "FabricEgress.port_tx")
        after_cut = run_transfer(net, "h1", "h2", TRANSFER_BYTES // 4, tmp_path / "after")
        after = counter(net, "leaf1", "FabricEgress.port_tx")
    print(f"link leaf1:2-leaf2:2 cut: groups repaired after "
          + ", ".join(f"{sw} {t * 1000:.0f} ms" for sw, t in repaired.items())
          + f"; transfer across the cut ({delivered_at_cut} of {nbytes} B delivered when cut): "
          f"{transfer.sender.get('retransmissions')} retransmissions, "
          f"fct {transfer.sender.get('fct_s')} s; the controller says: {'; '.join(reported)}")
    assert delivered_at_cut < nbytes  # the cut fell inside the transfer
    assert_complete(transfer, nbytes)
    assert_complete(after_cut, TRANSFER_BYTES // 4)
    assert after.get(2, 0) == before.get(2, 0)  # nothing more sent into the cut link
    assert after.get(3, 0) > before.get(3, 0)


def test_switch_restart_is_restored(tmp_path):
    with FabricNetwork(TOPOLOGY, tag=f"ln{os.getpid()}-e5") as net:
        controller = start_controller(net, POLICY)
        assert_complete(run_transfer(net, "h1", "h2", TRANSFER_BYTES // 4, tmp_path / "before"),
                        TRANSFER_BYTES // 4)
        status, groups_before = probe(net, "leaf2", "group-ports")
        net.kill_switch("leaf2")
        net.restart_switch("leaf2")
        restarted = time.monotonic()
        status, restored = probe(net, "leaf2", "wait-groups", "60", timeout=90)
        assert status == 0, restored
        reported = controller.wait_for_line("fabricctl restored leaf2", 30)
        print(f"leaf2 restarted: groups restored {(restored['at'] - restarted) * 1000:.0f} ms "
              f"after it listened again; the controller says: {reported}")
        assert restored["groups"] == groups_before
        transfer = run_transfer(net, "h1", "h2", TRANSFER_BYTES // 4, tmp_path / "after")
    assert_complete(transfer, TRANSFER_BYTES // 4)

