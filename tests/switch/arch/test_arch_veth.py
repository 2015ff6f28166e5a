"""p4sim-switch as a process on real interfaces: veth pairs in a private namespace.

Needs root (network namespaces, raw sockets); every test builds and deletes its own
namespace `pp-<pid>-<tag>`.
"""

import json
import os
import time

import pytest

from p4sim.switch.control_channel import ControlClient
from p4sim.switch.control_cli import run_command
from lab.namespace import Netns
from lab.packet_socket import receive
from p4sim.switch.pcap import read_pcap

from sa_helpers import P4C_OUT, PROBE, REFERENCE, hop_of, plain, priority_program

pytestmark = pytest.mark.netns


def private_netns(tag: str, ports: list[int]) -> Netns:
    """Namespaces of these tests are named pp-<pid>-<tag>."""
    return Netns(f"pp-{os.getpid()}-{tag}", ports)


def stf_pairs(name: str) -> list[tuple[int, bytes, int | None, bytes | None]]:
    """(in port, packet, out port, expected) from a reference STF (None: dropped)."""
    pairs = []
    for line in (REFERENCE / "stf" / f"{name}.stf").read_text().splitlines():
        words = line.split()
        if words and words[0] == "packet":
            pairs.append([int(words[1]), bytes.fromhex(words[2]), None, None])
        elif words and words[0] == "expect":
            pairs[-1][2:] = [int(words[1]), bytes.fromhex(words[2])]
    return [tuple(p) for p in pairs]


# The control channel opens only with --thrift-port (simple_switch_grpc opens none).
CONTROL_PORT = 9090
CONTROL = ["--thrift-port", str(CONTROL_PORT)]


def control(ns: Netns) -> ControlClient:
    return ControlClient.from_socket(ns.tcp_connect(CONTROL_PORT))


def wait_for_stats(client: ControlClient, condition, timeout: float = 5.0) -> dict:
    """Switch statistics once `condition` holds (or the last ones seen at the deadline)."""
    deadline = time.monotonic() + timeout
    stats = client.call("stats")
    while not condition(stats) and time.monotonic() < deadline:
        time.sleep(0.01)
        stats = client.call("stats")
    return stats


def l3_routes(client: ControlClient) -> None:
    client.call("table_add", table="ipv4_lpm", action="forward", keys=["10.0.0.0/8"],
                args=["2", "0x0a0b", "0x0c0d"])
    client.call("table_add", table="ipv4_lpm", action="forward", keys=["10.1.9.0/24"],
                args=["3", "0x0e0f", "0x0c0d"])


def test_forwarding_through_interfaces_matches_bmv2(tmp_path):
    with private_netns("fwd", [1, 2, 3, 4]) as ns:
        switch = ns.start_switch([*CONTROL, "-i", "1@s1", "-i", "2@s2", "-i", "3@s3", "-i", "4@s4",
                                  str(P4C_OUT / "l3_lpm.json"), "--no-grpc"])
        assert "ports 1@s1,2@s2,3@s3,4@s4" in switch.ready_line
        with control(ns) as client:
            l3_routes(client)
        socks = {port: ns.host_socket(port) for port in (1, 2, 3, 4)}
        for in_port, packet, out_port, expected in stf_pairs("l3_lpm"):
            socks[in_port].send(packet)
            if out_port is None:
                continue
            got = receive(socks[out_port], 1, 5)
            # veth pads nothing: frames come back exactly as the switch sent them
            assert got == [expected], f"packet on {in_port} to {out_port}"
        for port, sock in socks.items():
            assert receive(sock, 1, 0.2) == [], f"unexpected frame on port {port}"
        status, err = switch.terminate()
        assert status == 0, err


def test_bad_frames_never_stall_other_ports():
    _in, good, _out, expected = stf_pairs("l3_lpm")[0]
    with private_netns("bad", [1, 2, 3]) as ns:
        switch = ns.start_switch([*CONTROL, "-i", "1@s1", "-i", "2@s2", "-i", "3@s3",
                                  str(P4C_OUT / "l3_lpm.json"), "--no-grpc"])
        with control(ns) as client:
            l3_routes(client)
            junk = ns.host_socket(3)
            sender = ns.host_socket(1)
            receiver = ns.host_socket(2)
            # Nothing here may be routed: no IPv4 at all, or an IPv4 header cut short.
            garbage = [b"\xff" * 14, b"\x00" * 12 + b"\x86\xdd" + os.urandom(46),
                       b"\x00" * 9400, good[:20], good[:33]]   # 9400: read whole
            for i in range(20):
                junk.send(garbage[i % len(garbage)])
                sender.send(good)
            got = receive(receiver, 20, 10)
            assert got == [expected] * 20
            assert receive(receiver, 1, 0.3) == []
            stats = wait_for_stats(client, lambda st: st["rx"].get("3") == 20)
        assert stats["rx"]["1"] == 20 and stats["rx"].get("3") == 20, stats["rx"]
        assert stats["ports"]["3"]["rx"] == 20
        assert stats["ports"]["3"]["rx_oversized"] == 0
        status, err = switch.terminate()
        assert status == 0, err


def test_queue_held_at_known_rate_shows_depth_and_delay():
    with private_netns("queue", [1, 2]) as ns:
        switch = ns.start_switch([*CONTROL, "-i", "1@s1", "-i", "2@s2", "--no-grpc",
                                  str(P4C_OUT / "stack_and_queues.json")])
        with control(ns) as client:
            client.call("table_add", table="fwd", action="forward", keys=["1"], args=["2"])
            client.call("table_add", table="hop_record", action="push_hop", keys=["1"],
                        args=["7"])
            client.call("set_queue_rate", pps=100, port=2)     # one packet per 10 ms
            sender, receiver = ns.host_socket(1), ns.host_socket(2)
            sent_at = time.monotonic()
            for _ in range(10):
                sender.send(PROBE)
            frames = receive(receiver, 10, 10)
            window_us = (time.monotonic() - sent_at) * 1e6
        assert len(frames) == 10
        hops = [hop_of(f) for f in frames]
        assert [h[2] for h in hops] == [0, 8, 7, 6, 5, 4, 3, 2, 1, 0]
        latencies = [h[3] for h in hops]
        # Never before its slot; never longer than the frame was in the test's hands
        # (a stalled switch process sends late: on a loaded machine by 100 ms and more,
        # so no fixed allowance holds).
        for i, latency in enumerate(latencies):
            assert 10_000 * i - 2_000 <= latency <= window_us, (latencies, window_us)
        assert switch.terminate()[0] == 0


def test_higher_priority_drains_first(tmp_path):
    program = tmp_path / "priority.json"
    program.write_text(json.dumps(priority_program()))
    with private_netns("prio", [1, 2]) as ns:
        switch = ns.start_switch([*CONTROL, "-i", "1@s1", "-i", "2@s2", str(program), "--",
                                  "--no-grpc", "--priority-queues", "2"])
        with control(ns) as client:
            client.call("table_add", table="fwd", action="forward", keys=["1"], args=["2"])
            client.call("set_queue_rate", pps=100, port=2)
            sender, receiver = ns.host_socket(1), ns.host_socket(2)
            lows = [plain(0, i) for i in range(6)]
            highs = [plain(1, 100 + i) for i in range(3)]
            for frame in lows + highs:
                sender.send(frame)
            got = receive(receiver, 9, 10)
        assert got == [lows[0]] + highs + lows[1:]
        assert switch.terminate()[0] == 0


def test_pcap_files_and_clean_sigterm(tmp_path):
    _in, good, _out, expected = stf_pairs("l3_lpm")[0]
    with private_netns("pcap", [1, 2]) as ns:
        switch = ns.start_switch([*CONTROL, "-i", "1@s1", "-i", "2@s2", "--pcap", str(tmp_path),
                                  str(P4C_OUT / "l3_lpm.json"), "--no-grpc"])
        with control(ns) as client:
            l3_routes(client)
        sender, receiver = ns.host_socket(1), ns.host_socket(2)
        for _ in range(3):
            sender.send(good)
        assert receive(receiver, 3, 5) == [expected] * 3
        status, err = switch.terminate()
        assert status == 0, err
        assert "Traceback" not in err
    assert [f for _t, f in read_pcap(tmp_path / "s1_in.pcap")] == [good] * 3
    assert [f for _t, f in read_pcap(tmp_path / "s2_out.pcap")] == [expected] * 3
    assert list(read_pcap(tmp_path / "s2_in.pcap")) == []
    assert list(read_pcap(tmp_path / "s1_out.pcap")) == []


def test_missing_interface_is_a_clear_error():
    with private_netns("noif", [1]) as ns:
        with pytest.raises(Exception, match="cannot bind interface 'nosuch0'"):
            ns.start_switch(["-i", "1@s1", "-i", "2@nosuch0", "--no-p4", "--no-grpc"],
                            timeout=20)


def test_garbage_json_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"__meta__": {"version": [9, 0]}}')
    with private_netns("badjson", [1]) as ns:
        with pytest.raises(Exception, match="unsupported BMv2 JSON major version 9"):
            ns.start_switch(["-i", "1@s1", str(bad), "--no-grpc"], timeout=20)


def test_p4runtime_server_starts_by_default_and_stops_on_sigterm():
    with private_netns("grpc", [1]) as ns:
        switch = ns.start_switch(["-i", "1@s1", "--no-p4", "--",
                                  "--grpc-server-addr", "127.0.0.1:50051", "--cpu-port", "255"])
        assert "grpc 127.0.0.1:50051" in switch.ready_line
        ns.tcp_connect(50051).close()          # the server listens once "ready" is printed
        status, err = switch.terminate()
        assert status == 0, err


def test_multicast_and_mirroring_through_interfaces():
    payload = "AA" * 16
    with private_netns("mcast", [1, 2, 3, 4]) as ns:
        switch = ns.start_switch([*CONTROL, "-i", "1@s1", "-i", "2@s2", "-i", "3@s3", "-i", "4@s4",
                                  str(P4C_OUT / "replication.json"), "--no-grpc"])
        socks = {port: ns.host_socket(port) for port in (1, 2, 3, 4)}
        with control(ns) as client:
            for words in (["table_add", "l2", "flood", "0xffffffffffff", "=>", "1"],
                          ["table_add", "l2", "unicast", "0x000000000001", "=>", "1"],
                          ["table_add", "smac", "NoAction", "0x000000000002", "=>"],
                          ["mc_mgrp_create", "1"], ["mc_node_create", "0", "1", "2", "3"],
                          ["mc_node_associate", "1", "0"], ["mirroring_add", "5", "4"]):
                run_command(client, words)
        flood = bytes.fromhex("ffffffffffff" "000000000002" "0800" + payload)
        socks[2].send(flood)
        for port in (1, 2, 3):
            assert receive(socks[port], 1, 5) == [flood], f"port {port}"
        tagged = bytes.fromhex("000000000001" "000000000002" "9001" + payload)
        socks[2].send(tagged)
        assert receive(socks[1], 1, 5) == [tagged]
        clone = bytes.fromhex("000000000001" "00000000c10e" "9001" + payload)
        assert receive(socks[4], 1, 5) == [clone]
        for port, sock in socks.items():
            assert receive(sock, 1, 0.2) == [], f"unexpected frame on port {port}"
        assert switch.terminate()[0] == 0


def test_vlan_tags_reach_the_pipeline_intact():
    """The kernel strips received 802.1Q tags into metadata; the switch puts them back."""
    with private_netns("vlan", [1, 2]) as ns:
        switch = ns.start_switch([*CONTROL, "-i", "1@s1", "-i", "2@s2", "--no-grpc",
                                  str(P4C_OUT / "stack_and_queues.json")])
        with control(ns) as client:
            client.call("table_add", table="fwd", action="forward", keys=["1"], args=["2"])
        sender, receiver = ns.host_socket(1), ns.host_socket(2)
        tagged = bytes.fromhex("000000000001" "000000000002" "8100" "600a" "0800") + b"\x55" * 46
        priority_tagged = tagged[:14] + b"\x00\x00" + tagged[16:]        # VLAN 0, PCP 0
        for frame in (tagged, priority_tagged):
            sender.send(frame)
            assert receive(receiver, 1, 5) == [frame]
        assert switch.terminate()[0] == 0
