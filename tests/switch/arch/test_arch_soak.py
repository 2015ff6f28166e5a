"""Soak test on veth: garbage, truncated-IPv4, 9.4 KB junk and 9 KB frames interleaved
with good traffic for a few seconds (runts too, which the veth itself refuses).  The switch must keep running, forward every good
frame (other ports keep working), and its counters must account for every frame.

Needs root; builds and deletes its own namespace `pp-<pid>-soak`.
"""

import errno
import os
import random
import struct
import threading
import time

import pytest

from p4sim.switch.control_channel import ControlClient
from lab.namespace import Netns
from wire_formats.checksum import internet_checksum

from sa_helpers import P4C_OUT

pytestmark = pytest.mark.netns

ROUTER_MAC, NEXT_HOP_MAC = bytes.fromhex("000000000c0d"), bytes.fromhex("000000000a0b")
SOAK_SECONDS = 3.0       # rounds go on this long (and to MIN_ROUNDS at least, however
MIN_ROUNDS = 1000        # slowly a loaded machine runs them): a good and a junk frame each,
JUMBO_EVERY = 10         # and a 9000-byte good frame every 10th round
WINDOW = 100             # rounds sent before waiting for the switch to count them
PACKET_OTHERHOST_OUTGOING = 4


def ipv4_frame(seq: int, size: int, dst: bytes = bytes([10, 1, 2, 3]), ttl: int = 64) -> bytes:
    """Ethernet + IPv4 (valid checksum) + payload starting with `seq`, `size` bytes."""
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, size - 14, seq & 0xFFFF, 0, ttl,
                               17, 0, bytes([192, 168, 1, 10]), dst))
    ip[10:12] = struct.pack("!H", internet_checksum(bytes(ip)))
    payload = struct.pack("!I", seq) + bytes(size - 14 - 20 - 4)
    return bytes.fromhex("000000000001" "000000000002" "0800") + bytes(ip) + payload


def junk_frames(rng: random.Random, good: bytes) -> list[bytes]:
    """Frames the l3_lpm program must drop, one of each kind per cycle."""
    return [
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 14))),   # runt
        bytes(12) + b"\x86\xdd" + rng.randbytes(rng.randrange(0, 200)),   # not IPv4
        good[:14 + rng.randrange(0, 20)],                                # IPv4 cut short
        ipv4_frame(0, 64, ttl=1),                                        # TTL expired
        ipv4_frame(0, 64, dst=bytes([192, 0, 2, 1])),                    # no route
        bytes(12) + b"\x88\xb5" + rng.randbytes(9400 - 14),             # jumbo junk, read whole
        b"\x00" * 12 + b"\x08\x00" + unroutable_garbage(rng),         # IPv4 garbage
    ]


def unroutable_garbage(rng: random.Random) -> bytes:
    """Random bytes after an IPv4 ethertype, whose destination (if any) is not 10/8."""
    body = bytearray(rng.randbytes(rng.randrange(0, 60)))
    if len(body) > 16:
        body[16] = 192
    return bytes(body)


class Drain(threading.Thread):
    """Keeps reading a host socket so that its buffer never overflows."""

    def __init__(self, sock) -> None:
        super().__init__(daemon=True)
        self.sock = sock
        self.frames: list[bytes] = []
        self.stop = threading.Event()

    def run(self) -> None:
        self.sock.settimeout(0.05)
        while not self.stop.is_set():
            try:
                data, _anc, _flags, address = self.sock.recvmsg(65535, 0)
            except TimeoutError:
                continue
            if address[2] != PACKET_OTHERHOST_OUTGOING:
                self.frames.append(data)


def wait_counted(client: ControlClient, sent: dict[int, int], timeout: float = 10.0) -> dict:
    """Switch statistics once it has received and disposed of (sent or dropped)
    everything sent so far, or the last ones seen at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        stats = client.call("stats")
        done = sum(stats["tx"].values()) + stats["ingress_drops"]
        if (all(stats["rx"].get(str(port), 0) >= count for port, count in sent.items())
                and done >= sum(sent.values())):
            return stats
        if time.monotonic() > deadline:
            return stats
        time.sleep(0.005)


def test_soak_with_garbage_runts_and_jumbo_frames():
    rng = random.Random(1234)
    with Netns(f"pp-{os.getpid()}-soak", [1, 2, 3, 4]) as ns:
        switch = ns.start_switch(["-i", "1@s1", "-i", "2@s2", "-i", "3@s3", "-i", "4@s4",
                                  str(P4C_OUT / "l3_lpm.json"), "--no-grpc",
                                  "--thrift-port", "9090"])
        with ControlClient.from_socket(ns.tcp_connect(9090)) as client:
            client.call("table_add", table="ipv4_lpm", action="forward",
                        keys=["10.0.0.0/8"], args=["2", "0x0a0b", "0x0c0d"])
            good_in, junk_in, jumbo_in = ns.host_socket(1), ns.host_socket(3), ns.host_socket(4)
            drain = Drain(ns.host_socket(2))
            drain.start()
            sent = {1: 0, 3: 0, 4: 0}
            expected: list[bytes] = []
            junk_runts = 0
            started = time.monotonic()
            try:
                round_no = 0
                while time.monotonic() - started < SOAK_SECONDS or round_no < MIN_ROUNDS:
                    round_no += 1
                    frame = ipv4_frame(round_no, 64)
                    good_in.send(frame)
                    sent[1] += 1
                    expected.append(frame)
                    junk = rng.choice(junk_frames(rng, frame))
                    if len(junk) < 14:
                        # A veth refuses frames shorter than an Ethernet header, so a
                        # runt never reaches the switch here; check that it is refused.
                        with pytest.raises(OSError) as refused:
                            junk_in.send(junk)
                        assert refused.value.errno == errno.EINVAL
                        junk_runts += 1
                    else:
                        junk_in.send(junk)
                        sent[3] += 1
                    if round_no % JUMBO_EVERY == 0:
                        jumbo = ipv4_frame(100_000 + round_no, 9000)
                        jumbo_in.send(jumbo)
                        sent[4] += 1
                        expected.append(jumbo)
                    if round_no % WINDOW == WINDOW - 1:
                        stats = wait_counted(client, sent)
                        assert switch.process.poll() is None, switch.stderr
                stats = wait_counted(client, sent)
                forwarded = len(expected)
                deadline = time.monotonic() + 10
                while len(drain.frames) < forwarded and time.monotonic() < deadline:
                    time.sleep(0.01)
            finally:
                drain.stop.set()
                drain.join(5)
            elapsed = time.monotonic() - started
        status, err = switch.terminate()

    assert status == 0, err
    assert elapsed >= SOAK_SECONDS and round_no >= MIN_ROUNDS, round_no
    # Every frame in was counted on its port; junk never left, good traffic all did.
    assert {p: stats["rx"].get(str(p), 0) for p in sent} == sent
    assert stats["ports"]["3"]["rx_oversized"] == 0     # every frame was read whole
    assert stats["ingress_drops"] == sent[3]
    assert stats["tx"] == {"2": len(expected)}
    assert stats["pipeline_errors"] == 0 and stats["internal_errors"] == 0
    assert junk_runts > 0
    # Good frames arrive in order per input port, rewritten by the route.
    got = drain.frames
    assert len(got) == len(expected)
    small = [f for f in got if len(f) == 64]
    jumbo = [f for f in got if len(f) == 9000]
    assert len(small) + len(jumbo) == len(got)
    for sent_frames, got_frames in (([f for f in expected if len(f) == 64], small),
                                    ([f for f in expected if len(f) == 9000], jumbo)):
        assert [f[38:42] for f in got_frames] == [f[38:42] for f in sent_frames]
        for out, orig in zip(got_frames, sent_frames):
            assert out[:12] == NEXT_HOP_MAC + ROUTER_MAC
            assert out[22] == orig[22] - 1                       # TTL
            assert internet_checksum(out[14:34]) == 0                # checksum updated
            assert out[34:] == orig[34:]
