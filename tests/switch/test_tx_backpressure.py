"""A slow link behind the switch fills the switch's own queue, as on BMv2.

BMv2's sockets keep the kernel's default send buffer and its sends block once a slow
link's qdisc holds that much of its frames, so its egress queue fills and the pipeline
sees the depth (the p4lang/tutorials ecn exercise marks CE from it). p4sim's ports now
do the same: a send refused for a full buffer (EAGAIN) is held, the port's queues pause,
and drain again when the socket is writable. Before, a 4 MB send buffer let the qdisc
take everything (or drop it): the switch's queue stayed empty and nothing was marked.

Needs root; each test builds and deletes its own namespace.
"""
from __future__ import annotations

import os
import select
import struct
import subprocess
import time
from pathlib import Path

import pytest

from lab.namespace import Netns
from lab.packet_socket import receive
from p4sim.compiler.driver import compile_program, write_outputs
from p4sim.switch.control_channel import ControlClient
from p4sim.switch.packet_io import RawPort

pytestmark = pytest.mark.netns

ROOT = Path(__file__).resolve().parents[2]
ECN_SOLUTION = ROOT / "labs/ecn/solution.p4"
SLOW_LINK = ("tbf", "rate", "4mbit", "burst", "3000", "limit", "8000000")  # a deep qdisc
FRAMES = 400
PAYLOAD = 600


def udp_frame(seq: int, ecn: int = 2) -> bytes:
    """IPv4/UDP 10.0.1.1 -> 10.0.2.1 with ECT(0) and a sequence number."""
    length = 20 + 8 + PAYLOAD
    body = struct.pack("!BBHHHBBH4s4s", 0x45, ecn, length, seq & 0xFFFF, 0, 64, 17, 0,
                       bytes([10, 0, 1, 1]), bytes([10, 0, 2, 1]))
    total = sum(struct.unpack("!10H", body))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    header = body[:10] + struct.pack("!H", ~total & 0xFFFF) + body[12:]
    udp = struct.pack("!HHHH", 49152, 5000, 8 + PAYLOAD, 0) + struct.pack("!I", seq) \
        + bytes(PAYLOAD - 4)
    return bytes.fromhex("000000000002" "000000000001" "0800") + header + udp


def qdisc_dropped(ns: Netns, iface: str) -> int:
    text = subprocess.run(ns.command("tc", "-s", "qdisc", "show", "dev", iface),
                          capture_output=True, text=True, check=True).stdout
    return int(text.split("dropped ")[1].split(",")[0])


def receive_until_quiet(sock, quiet_s: float = 2.0) -> list[bytes]:
    frames: list[bytes] = []
    while True:
        got = receive(sock, FRAMES, quiet_s)
        if not got:
            return frames
        frames += got


def test_a_full_send_buffer_holds_frames_instead_of_dropping_them():
    with Netns(f"bp-{os.getpid()}-io", [1]) as ns:
        subprocess.run(ns.command("tc", "qdisc", "add", "dev", "s1", "root", *SLOW_LINK),
                       check=True)
        raw = ns.run_inside(lambda: RawPort.open(1, "s1"))
        host = ns.host_socket(1)
        try:
            frames = [udp_frame(i) for i in range(FRAMES)]
            held = raw.send_many(frames)
            # The default send buffer (~208 KB of frames in the qdisc) refuses the rest:
            # they come back, in order, instead of being dropped.
            assert held and held == frames[FRAMES - len(held):], len(held)
            assert raw.counters.tx_blocked >= 1 and raw.counters.tx_errors == 0
            deadline = time.monotonic() + 30
            while held and time.monotonic() < deadline:
                select.select([], [raw.sock], [], 1.0)
                held = raw.send_many(held)
            assert not held, "the socket never became writable again"
            got = receive_until_quiet(host)
            assert got == frames
            assert qdisc_dropped(ns, "s1") == 0
        finally:
            raw.close()
            host.close()


def test_a_slow_link_fills_the_switch_queue_and_ecn_marks(tmp_path):
    program = tmp_path / "ecn.json"
    write_outputs(compile_program(str(ECN_SOLUTION)), str(program))
    with Netns(f"bp-{os.getpid()}-sw", [1, 2]) as ns:
        ns.start_switch(["-i", "1@s1", "-i", "2@s2", str(program), "--no-grpc",
                         "--thrift-port", "9090"])
        with ControlClient.from_socket(ns.tcp_connect(9090)) as client:
            client.call("table_add", table="LabIngress.routes", action="LabIngress.forward",
                        keys=["10.0.2.0/24"], args=["2"])
            client.call("table_add", table="LabEgress.ecn_thresholds",
                        action="LabEgress.set_threshold", keys=["2"], args=["10"])
        subprocess.run(ns.command("tc", "qdisc", "add", "dev", "s2", "root", *SLOW_LINK),
                       check=True)
        sender, out = ns.host_socket(1), ns.host_socket(2)
        for seq in range(FRAMES):
            sender.send(udp_frame(seq))
        got = receive_until_quiet(out)
        marked = [frame for frame in got if frame[15] & 3 == 3]
        seqs = [struct.unpack("!I", frame[42:46])[0] for frame in got]
        print(f"{len(got)} of {FRAMES} delivered, {len(marked)} marked CE; "
              f"qdisc dropped {qdisc_dropped(ns, 's2')}")
        assert seqs == sorted(seqs), "frames reordered"
        # The queue built in the switch (64 packets deep): packets that met 10 or more
        # queued were marked, and the excess was tail-dropped there, not in the qdisc.
        assert marked, "no packet met a queue in the switch"
        assert len(got) < FRAMES
        assert qdisc_dropped(ns, "s2") == 0
