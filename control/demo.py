"""`make demo`: the fabric pipeline on one switch, end to end, in a private namespace.

It starts the switch (p4sim-switch, or simple_switch_grpc with TARGET=bmv2) on four
veth pairs, pushes build/fabric.json over P4Runtime, configures an entropy-spraying
group over ports 2 and 3 and INT (source on port 1, sinks on 2 and 3, reports to a
collector behind port 4), sends a UEC-style burst from the host on port 1, and prints
the per-member split and one decoded telemetry report. Needs root.
"""
from __future__ import annotations

import argparse
import os
import random
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from control.collector.decode import describe
from control.collector.receiver import ReportReceiver
from control.collector.store import Store
from wire_formats.layers import CPU_PORT, DSCP_INT, INT_ALL_SUPPORTED, REPORT_UDP_PORT, UDP_PORT_UEC, UecRequest
from control.p4rt.client import SwitchConnection
from control.p4rt.errors import P4RuntimeError
from control.p4rt.entities import INSERT, MODIFY, P4Names, clone_session, load_p4info, pre_update, update
from p4.v1 import p4runtime_pb2
from lab.errors import LabError
from lab.namespace import Netns, enter_namespace
from lab.packet_socket import packet_socket
from lab.process import ManagedProcess
from lab.readiness import tcp_accepts
from lab.switch import switch_command
from lab.target import Target

ROOT = Path(__file__).resolve().parents[1]
PORTS = (1, 2, 3, 4)
GRPC_PORT = 9559
ROUTER_MAC = "00:aa:00:00:00:01"
SENDER = ("10.0.1.1", "00:00:0a:00:01:01")
DEST_PREFIX, DEST_IP = "10.0.2.0/24", "10.0.2.1"
MEMBERS = {2: "00:00:0a:00:02:02", 3: "00:00:0a:00:02:03"}  # port -> next-hop MAC
COLLECTOR = ("192.168.100.2", "00:00:00:00:c0:11")
SWITCH_IP = "192.168.100.1"
NODE_ID = 1
GROUP = 1
REPORT_SESSION = 100


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    try:
        binary = args.switch or Target.from_environment().require_switch()
    except LabError as exc:
        print(f"make demo: {exc}", file=sys.stderr)
        return 1
    if os.geteuid() != 0:
        print("make demo needs root: it creates a network namespace with veth pairs", file=sys.stderr)
        return 1
    for path in (args.json, args.p4info):
        if not Path(path).is_file():
            print(f"{path}: missing; run `make build` first", file=sys.stderr)
            return 1
    with Netns(f"p4demo-{os.getpid()}", list(PORTS)) as ns:
        enter_namespace(ns.name)  # this thread and every thread and process it starts from now on
        _configure_collector_interface()
        switch = _start_switch(binary, args.log)
        try:
            switch.wait_until(lambda: tcp_accepts("127.0.0.1", GRPC_PORT),
                              f"its gRPC server 127.0.0.1:{GRPC_PORT} accepted", 60)
            return _run_demo(args)
        except (P4RuntimeError, LabError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        finally:
            switch.stop()


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="make demo", description=__doc__.splitlines()[0])
    parser.add_argument("--switch", help="the switch program (default: as TARGET / SWITCH select)")
    parser.add_argument("--json", default=str(ROOT / "build/fabric.json"))
    parser.add_argument("--p4info", default=str(ROOT / "build/fabric.p4info.txtpb"))
    parser.add_argument("--packets", type=int, default=200)
    parser.add_argument("--log", default="/tmp/p4demo-switch.log")
    return parser.parse_args(argv)


def _configure_collector_interface() -> None:
    """The collector lives behind port 4 (interface h4) with its own IP and MAC."""
    for cmd in (["ip", "link", "set", "h4", "address", COLLECTOR[1]],
                ["ip", "addr", "add", f"{COLLECTOR[0]}/24", "dev", "h4"]):
        subprocess.run(cmd, check=True)


def _start_switch(binary: str, log_path: str) -> ManagedProcess:
    """The switch on ports 1-4 (interfaces sN), in this thread's namespace."""
    cmd = switch_command(binary, {p: f"s{p}" for p in PORTS}, grpc_address=f"127.0.0.1:{GRPC_PORT}",
                         cpu_port=CPU_PORT)
    print(f"starting {' '.join(cmd)}  (log: {log_path})")
    Path(log_path).write_text("")  # this run's log only
    return ManagedProcess("switch", cmd, Path(log_path))


PHASES = (
    ("entropy mode, a new entropy value per packet (sprayed)", "use_entropy", True),
    ("entropy mode, one entropy value for the burst (pinned)", "use_entropy", False),
    ("round-robin mode (per-packet, exactly even)", "use_round_robin", True),
)


def _run_demo(args: argparse.Namespace) -> int:
    p4info = load_p4info(args.p4info)
    names = P4Names(p4info)
    store = Store()
    receiver = ReportReceiver(store, host=COLLECTOR[0], port=REPORT_UDP_PORT)
    receiver.start()
    with SwitchConnection(f"127.0.0.1:{GRPC_PORT}", device_id=0, election_id=1) as conn:
        print("pushing build/fabric.json over P4Runtime")
        conn.set_pipeline(p4info, Path(args.json).read_bytes())
        _configure(conn, names)
        before = _member_counters(conn, names)
        for title, mode, spray in PHASES:
            _set_mode(conn, names, mode)
            received = _send_burst(args.packets, spray)
            after = _member_counters(conn, names)
            _print_split(title, received, {p: after[p] - before[p] for p in MEMBERS}, args.packets)
            before = after
    receiver.wait_for(1, timeout=5)
    receiver.stop()
    return _print_report(receiver, store)


def _set_mode(conn: SwitchConnection, names: P4Names, mode: str) -> None:
    conn.write([update(MODIFY, table_entry=names.table_entry(
        "FabricIngress.routing.multipath_modes", {"group_id": GROUP},
        f"FabricIngress.routing.{mode}"))])


def _configure(conn: SwitchConnection, names: P4Names) -> None:
    """Spraying group over ports 2 and 3 in entropy mode, INT source/sink, collector."""
    selector = "FabricIngress.routing.multipath_selector"
    members = [update(INSERT, action_profile_member=names.member(
        selector, port, "FabricIngress.routing.forward",
        {"port": port, "src_mac": ROUTER_MAC, "dst_mac": mac, "member_index": port}))
        for port, mac in MEMBERS.items()]
    conn.write(members)
    conn.write([update(INSERT, action_profile_group=names.group(selector, GROUP, {p: 1 for p in MEMBERS}))])
    conn.write([
        update(INSERT, table_entry=names.table_entry(
            "FabricIngress.routing.routes", {"partition": 0, "ipv4_dst": DEST_PREFIX},
            "FabricIngress.routing.set_group", {"group": GROUP})),
        update(INSERT, table_entry=names.table_entry(
            "FabricIngress.routing.next_hops", {"group_id": GROUP}, group_id=GROUP)),
        update(INSERT, table_entry=names.table_entry(
            "FabricIngress.routing.multipath_modes", {"group_id": GROUP},
            "FabricIngress.routing.use_ecmp")),
        update(MODIFY, table_entry=names.default_entry(
            "FabricEgress.int_egress.int_node", "FabricEgress.int_egress.set_int_node",
            {"node_id": NODE_ID, "int_dscp": DSCP_INT})),
        update(INSERT, table_entry=names.table_entry(
            "FabricEgress.int_egress.int_source.int_watchlist",
            {"ipv4_dst": f"{DEST_IP}&&&255.255.255.255"},
            "FabricEgress.int_egress.int_source.start_int",
            {"instructions": INT_ALL_SUPPORTED, "hop_budget": 4, "domain_id": 1}, priority=10)),
        update(MODIFY, table_entry=names.default_entry(
            "FabricEgress.int_egress.int_report.report_encap",
            "FabricEgress.int_egress.int_report.set_report_encap",
            {"src_mac": ROUTER_MAC, "dst_mac": COLLECTOR[1], "src_ip": SWITCH_IP,
             "collector_ip": COLLECTOR[0], "src_port": 40000, "collector_port": REPORT_UDP_PORT,
             "hw_id": 1, "inner_bytes": 64})),
    ])
    conn.write([update(INSERT, table_entry=names.table_entry(
        "FabricEgress.int_egress.int_sink.int_sink_ports", {"egress_port": port},
        "FabricEgress.int_egress.int_sink.set_int_sink", {"report_session": REPORT_SESSION}))
        for port in MEMBERS])
    conn.write([pre_update(INSERT, clone_session(REPORT_SESSION, 4))])


def _send_burst(count: int, spray: bool) -> dict[int, int]:
    """Send from h1, a new entropy value per packet when ``spray``; count what arrives
    on the members' host interfaces."""
    rng = random.Random(4793)
    pinned_ev = rng.randrange(49152, 65536)
    socks = {p: _raw_socket(f"h{p}") for p in MEMBERS}
    received = {p: 0 for p in MEMBERS}
    with _raw_socket("h1") as tx:
        for psn in range(count):
            pkt = (Ether(src=SENDER[1], dst=ROUTER_MAC)
                   / IP(src=SENDER[0], dst=DEST_IP)
                   / UDP(sport=rng.randrange(49152, 65536) if spray else pinned_ev, dport=UDP_PORT_UEC, chksum=0)
                   / UecRequest(psn=psn) / (b"d" * 64))
            tx.send(bytes(pkt))
            _drain(socks, received, wait=0.0)
        deadline = time.monotonic() + 5
        while sum(received.values()) < count and time.monotonic() < deadline:
            _drain(socks, received, wait=0.2)
    for sock in socks.values():
        sock.close()
    return received


def _drain(socks: dict[int, socket.socket], received: dict[int, int], wait: float) -> None:
    ready, _, _ = select.select(list(socks.values()), [], [], wait)
    for port, sock in socks.items():
        if sock in ready:
            while True:
                try:
                    data, addr = sock.recvfrom(65535, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    break
                if addr[2] != socket.PACKET_OUTGOING and len(data) > 34 and data[12:14] == b"\x08\x00":
                    received[port] += 1


def _raw_socket(iface: str) -> socket.socket:
    return packet_socket(iface, auxdata=False)


def _member_counters(conn: SwitchConnection, names: P4Names) -> dict[int, int]:
    entities = conn.read([p4runtime_pb2.Entity(counter_entry=names.counter(
        "FabricIngress.routing.member_packets", port)) for port in MEMBERS])
    return {e.counter_entry.index.index: e.counter_entry.data.packet_count for e in entities}


def _print_split(title: str, received: dict[int, int], counters: dict[int, int], sent: int) -> None:
    print()
    print(f"per-member split: {title}")
    print(f"  {'member (port)':>13}  {'switch counter':>14}  {'received':>8}  {'share':>6}")
    for port in MEMBERS:
        share = 100.0 * received[port] / sent if sent else 0.0
        print(f"  {port:>13}  {counters.get(port, 0):>14}  {received[port]:>8}  {share:5.1f}%")
    print(f"  {'total':>13}  {sum(counters.values()):>14}  {sum(received.values()):>8}  of {sent} sent")


def _print_report(receiver: ReportReceiver, store: Store) -> int:
    print()
    stats = receiver.stats
    print(f"collector: {stats.decoded} telemetry reports decoded, {stats.malformed} malformed")
    report = receiver.first_report  # set before the first report is counted
    if stats.decoded == 0 or report is None:
        print("no telemetry report arrived", file=sys.stderr)
        return 1
    print("one decoded report:")
    print(describe(report))
    for summary in store.hop_summaries():
        print(f"node {summary.node_id}: {summary.samples} samples, mean hop latency "
              f"{summary.mean_latency:.0f} us, max queue {summary.max_queue} packets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
