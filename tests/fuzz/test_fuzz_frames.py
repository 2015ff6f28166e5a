"""Frame fuzzer: a running p4sim-switch with the fabric program on veths, fed seeded
random and mutated frames interleaved with valid ones.

Bad frames: every truncation of each valid frame, bad IPv4/UDP/TCP lengths and header
lengths, INT-MD shims with wrong word counts and cut-short stacks, UEC PDS headers cut
short, jumbo and over-MTU frames, runts and 0-length frames (which the veth itself
refuses: that is checked too), bit flips and random bytes.  They go in on two ports,
valid frames (UDP, TCP, UEC, INT-marked, jumbo, each with a unique sequence number)
on one of them.  The switch must never crash or fault (internal_errors 0), must
route every valid frame exactly as an in-process p4sim with the same entries does,
before, during and after the fuzzing, in order, and its memory must not grow.

Seeded and bounded: P4SIM_FUZZ_SEED picks the seed (printed), P4SIM_FUZZ_SECONDS the
fuzzing time.  A failure names the seed and the last bad frames sent.  Needs root and
build/fabric.json (`make build`); builds and deletes its own namespace.
"""
from __future__ import annotations

import errno
import json
import os
import random
import select
import socket
import struct
import threading
import time
from collections import deque
from pathlib import Path
from typing import Callable, Iterator

import pytest

from wire_formats.layers import DSCP_INT as INT_DSCP
from wire_formats.layers import UDP_PORT_UEC as UEC_PORT
from lab.namespace import Netns
from p4sim.switch.control_channel import ControlClient, ControlServer
from p4sim.switch.control_cli import run_command
from wire_formats.checksum import internet_checksum
from p4sim.switch.switch import Switch

ROOT = Path(__file__).resolve().parents[2]
FABRIC_JSON = ROOT / "build" / "fabric.json"
SEED = int(os.environ.get("P4SIM_FUZZ_SEED", "20261213"))
SECONDS = float(os.environ.get("P4SIM_FUZZ_SECONDS", "40"))
THRIFT = 9090
COMMANDS = [  # 10.0.0.0/8 -> group 1 -> one member: port 2, next-hop MACs
    "table_add routes set_group 0 10.0.0.0/8 => 1",
    "act_prof_create_member multipath_selector forward 2 0x0c0d 0x0a0b 0",
    "table_indirect_add next_hops 1 => 0",
]
MTU = 9500                  # what lab.namespace gives every veth
WINDOW = 64                 # frames sent before waiting for the switch to count them
VALID_EVERY = 4             # one valid frame after every few bad ones
RSS_GROWTH_LIMIT = 8 << 20  # bytes the switch may grow between the two samples
VLAN_MIN = 20               # shorter tagged frames never leave the kernel

pytestmark = pytest.mark.netns


@pytest.fixture(autouse=True)
def _pipeline_is_built() -> None:
    """A missing build is a failure with the fix in its message, not a silent skip."""
    if not FABRIC_JSON.exists():
        pytest.fail(f"{FABRIC_JSON} is missing: run `make build` first", pytrace=False)


# -- frames --------------------------------------------------------------------------------
def ipv4(proto: int, l4: bytes, dst: bytes = bytes([10, 1, 2, 3]), dscp: int = 0,
         ttl: int = 64, ihl: int = 5, total: int | None = None, options: bytes = b"") -> bytes:
    header = bytearray(struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, dscp << 2,
                                   20 + len(options) + len(l4) if total is None else total,
                                   1, 0, ttl, proto, 0, bytes([192, 168, 1, 10]), dst))
    header += options
    header[10:12] = struct.pack("!H", internet_checksum(bytes(header)))
    return bytes(header) + l4


def ethernet(payload: bytes, ether_type: int = 0x0800) -> bytes:
    return bytes.fromhex("000000000c0d" "000000000002") + struct.pack("!H", ether_type) + payload


def udp(dport: int, payload: bytes, length: int | None = None) -> bytes:
    return struct.pack("!HHHH", 4000, dport, 8 + len(payload) if length is None else length,
                       0) + payload


def tcp(payload: bytes, data_offset: int = 5) -> bytes:
    return struct.pack("!HHIIBBHHH", 4000, 80, 1, 0, data_offset << 4, 0x18, 1024, 0,
                       0) + payload


def int_shim(words: int, stack: bytes, dscp: int = 0) -> bytes:
    """INT-MD shim (len = `words`), INT-MD header, then `stack`."""
    shim = struct.pack("!BBBB", 0x10, words & 0xFF, 0, dscp << 2)
    md = struct.pack("!HBBHHHH", 0x2000, 1, 4, 0x8000, 1, 0, 0)   # ver 2, hop_ml 1
    return shim + md + stack


def marked(frame: bytes, seq: int) -> bytes:
    """The frame with a sequence number in its last 4 bytes (they are payload)."""
    return frame[:-4] + struct.pack("!I", seq)


def valid_templates() -> list[bytes]:
    """Frames the fabric routes to port 2, ending with 4 payload bytes for a mark."""
    pad = bytes(22)
    return [
        ethernet(ipv4(17, udp(5000, pad))),
        ethernet(ipv4(6, tcp(pad))),
        ethernet(ipv4(17, udp(UEC_PORT, struct.pack("!H", 2 << 11) + bytes(20)))),
        ethernet(ipv4(17, udp(5001, int_shim(3 + 2, bytes(8)) + pad), dscp=INT_DSCP)),
        ethernet(ipv4(17, udp(5002, bytes(9000 - 14 - 20 - 8)))),      # jumbo
    ]


class BadFrames:
    """Seeded bad frames, every kind in turn; truncations walk every offset."""

    def __init__(self, rng: random.Random, templates: list[bytes]) -> None:
        self.rng = rng
        self.templates = templates
        self.kinds: list[Callable[[], bytes]] = [
            self.truncated, self.bad_ipv4_lengths, self.bad_l4_lengths, self.bad_int,
            self.short_uec, self.oversized, self.runt, self.flipped, self.garbage]
        self._cuts = self._all_cuts()

    def _all_cuts(self) -> Iterator[bytes]:
        while True:
            for frame in self.templates:
                offsets = range(len(frame)) if len(frame) < 200 else \
                    [*range(0, 120), *self.rng.sample(range(120, len(frame)), 40)]
                for at in offsets:
                    yield frame[:at]

    def next(self) -> bytes:
        return self.rng.choice(self.kinds)()

    def truncated(self) -> bytes:
        return next(self._cuts)

    def bad_ipv4_lengths(self) -> bytes:
        r = self.rng
        body = udp(5000, bytes(r.randrange(0, 40)))
        ihl = r.choice([0, 1, 4, 6, 15, 5])
        options = bytes(r.randrange(0, 41) // 4 * 4) if r.random() < 0.3 else b""
        total = r.choice([0, 1, 19, 20, 0xFFFF, r.randrange(0, 0x10000)])
        return ethernet(ipv4(17, body, ihl=ihl, total=total, options=options))

    def bad_l4_lengths(self) -> bytes:
        r = self.rng
        if r.random() < 0.5:
            body = udp(r.choice([5000, UEC_PORT]), bytes(r.randrange(0, 30)),
                       length=r.choice([0, 1, 7, 8, 0xFFFF, r.randrange(0, 0x10000)]))
            return ethernet(ipv4(17, body, dscp=r.choice([0, INT_DSCP])))
        body = tcp(bytes(r.randrange(0, 30)), data_offset=r.randrange(0, 16))
        return ethernet(ipv4(6, body, dscp=r.choice([0, INT_DSCP])))

    def bad_int(self) -> bytes:
        """INT-MD shims whose length disagrees with the stack that follows."""
        r = self.rng
        words = r.choice([0, 1, 2, 3, 4, 38, 39, 40, 255, r.randrange(0, 256)])
        stack = bytes(4 * r.randrange(0, 45))
        payload = int_shim(words, stack)[:r.randrange(0, 16 + len(stack) + 1)]
        if r.random() < 0.5:
            return ethernet(ipv4(17, udp(5001, payload), dscp=INT_DSCP))
        return ethernet(ipv4(6, tcp(payload), dscp=INT_DSCP))

    def short_uec(self) -> bytes:
        r = self.rng
        pds_type = r.choice([2, 3, 4, 6, 11, 13, 14, r.randrange(0, 32)])
        header = struct.pack("!H", pds_type << 11 | r.randrange(0, 1 << 11)) + \
            r.randbytes(r.randrange(0, 20))
        return ethernet(ipv4(17, udp(UEC_PORT, header[:r.randrange(0, len(header) + 1)])))

    def oversized(self) -> bytes:
        """Up to the MTU (the switch reads it whole) and beyond (the veth refuses)."""
        size = self.rng.choice([MTU + 14, MTU + 15, MTU + 100, 65535, 9216 + 64 + 1])
        return ethernet(ipv4(17, udp(5003, bytes(max(0, size - 42)))))[:size]

    def runt(self) -> bytes:
        return self.rng.randbytes(self.rng.randrange(0, 14))

    def flipped(self) -> bytes:
        frame = bytearray(self.rng.choice(self.templates[:4]))
        for _ in range(self.rng.randrange(1, 8)):
            frame[self.rng.randrange(len(frame))] ^= 1 << self.rng.randrange(8)
        return bytes(frame[:-4]) + b"\xff\xff\xff\xff"   # never a valid mark

    def garbage(self) -> bytes:
        r = self.rng
        head = r.choice([b"", bytes(12) + b"\x08\x00", bytes(12) + b"\x81\x00"])
        return head + r.randbytes(r.randrange(0, 300))


# -- the oracle: the same program and entries in process ------------------------------------
def oracle_outputs(frames: list[bytes]) -> list[tuple[int, bytes] | None]:
    """What p4sim in process sends for each frame entering on port 1 (None: nothing)."""
    switch = Switch(ports={})
    switch.load_program(json.loads(FABRIC_JSON.read_text()))
    server = ControlServer(switch, 0)
    server.start()
    try:
        with ControlClient(server.port) as client:
            for line in COMMANDS:
                run_command(client, line.split())
    finally:
        server.stop()
    out: list[tuple[int, bytes]] = []
    switch.add_output_listener(lambda port, data: out.append((port, data)))
    switch.start()
    try:
        results: list[tuple[int, bytes] | None] = []
        for frame in frames:
            out.clear()
            switch.inject(1, frame)
            assert switch.wait_idle(10)
            assert len(out) <= 1, out
            results.append(out[0] if out else None)
        return results
    finally:
        switch.stop()


# -- helpers around the running switch --------------------------------------------------------
class Drain(threading.Thread):
    """Reads every frame arriving on a host socket (so its buffer never overflows)."""

    def __init__(self, sock: socket.socket) -> None:
        super().__init__(daemon=True)
        self.sock = sock
        self.frames: list[bytes] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            if not select.select([self.sock], [], [], 0.05)[0]:
                continue
            data, _anc, _flags, address = self.sock.recvmsg(70000, 0)
            if address[2] != 4:                  # not our own transmissions
                self.frames.append(data)


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for pid {pid}")


def wait_counted(client: ControlClient, sent: dict[int, int], timeout: float = 20.0) -> dict:
    """Switch statistics once each port has received what was sent to it."""
    deadline = time.monotonic() + timeout
    while True:
        stats = client.call("stats")
        if all(stats["rx"].get(str(port), 0) >= count for port, count in sent.items()):
            return stats
        assert time.monotonic() < deadline, f"seed {SEED}: switch did not count {sent}: {stats}"
        time.sleep(0.002)


def send(sock: socket.socket, frame: bytes) -> bool:
    """True if the frame reaches the switch's socket.  The veth refuses runts and
    over-MTU frames; the kernel drops an 802.1Q/802.1ad frame too short for its tag
    before any socket sees it (on either target)."""
    try:
        sock.send(frame)
    except OSError as exc:
        assert len(frame) < 14 or len(frame) > MTU + 14, \
            f"seed {SEED}: a {len(frame)}-byte frame refused: {exc}"
        assert exc.errno in (errno.EINVAL, errno.EMSGSIZE), exc
        return False
    assert 14 <= len(frame) <= MTU + 14, f"seed {SEED}: veth took a {len(frame)}-byte frame"
    return not (frame[12:14] in (b"\x81\x00", b"\x88\xa8") and len(frame) < VLAN_MIN)


def test_fuzzed_frames_never_break_the_fabric_switch():
    print(f"frame fuzzer: seed {SEED} (P4SIM_FUZZ_SEED), {SECONDS:.0f} s")
    rng = random.Random(SEED)
    templates = valid_templates()
    expected = oracle_outputs(templates)
    for frame, result in zip(templates, expected):
        assert result is not None and result[0] == 2, f"the oracle does not route {frame.hex()}"
        port, data = result
        assert data[:6] == bytes.fromhex("000000000a0b") and data[22] == frame[22] - 1, \
            f"not routed as programmed (next-hop MAC, TTL): {data[:34].hex()}"
    bad = BadFrames(rng, templates)
    recent: deque[bytes] = deque(maxlen=12)
    with Netns(f"fz{os.getpid()}", [1, 2, 3]) as ns:
        switch = ns.start_switch(["-i", "1@s1", "-i", "2@s2", "-i", "3@s3", str(FABRIC_JSON),
                                  "--no-grpc", "--thrift-port", str(THRIFT)])
        pid = switch.process.pid
        with ControlClient.from_socket(ns.tcp_connect(THRIFT)) as client:
            for line in COMMANDS:
                run_command(client, line.split())
            h1, h3 = ns.host_socket(1), ns.host_socket(3)
            drain = Drain(ns.host_socket(2))
            drain.start()
            sent = {1: 0, 3: 0}
            valid_sent: list[bytes] = []      # expected outputs, in order
            seq = 0

            def send_valid() -> None:
                nonlocal seq
                seq += 1
                index = seq % len(templates)
                assert send(h1, marked(templates[index], seq))
                sent[1] += 1
                out = expected[index]
                assert out is not None
                valid_sent.append(marked(out[1], seq))

            try:
                for _ in range(3 * len(templates)):        # before: valid traffic only
                    send_valid()
                wait_counted(client, sent)
                started = time.monotonic()
                rss_early = None
                frames = 0
                while time.monotonic() - started < SECONDS:
                    for _ in range(WINDOW):
                        frame = bad.next()
                        recent.append(frame)
                        port, sock = (1, h1) if rng.random() < 0.5 else (3, h3)
                        if send(sock, frame):
                            sent[port] += 1
                        frames += 1
                        if frames % VALID_EVERY == 0:
                            send_valid()
                    wait_counted(client, sent)
                    assert switch.process.poll() is None, \
                        f"seed {SEED}: switch died; last bad frames: " \
                        f"{[f.hex() for f in recent]}\n{switch.stderr[-3000:]}"
                    if rss_early is None and time.monotonic() - started > SECONDS / 4:
                        rss_early = rss_bytes(pid)
                for _ in range(3 * len(templates)):        # after: valid traffic only
                    send_valid()
                stats = wait_counted(client, sent)
                rss_late = rss_bytes(pid)
                valid_set = set(valid_sent)
                deadline = time.monotonic() + 20
                while (sum(f in valid_set for f in list(drain.frames)) < len(valid_sent)
                       and time.monotonic() < deadline):
                    time.sleep(0.05)
            finally:
                drain.stop.set()
                drain.join(5)
        status, err = switch.terminate()

    context = f"seed {SEED}; last bad frames {[f.hex()[:120] for f in recent]}"
    assert status == 0, f"{context}\n{err[-3000:]}"
    assert stats["internal_errors"] == 0, f"{context}\n{err[-3000:]}"
    assert stats["ports"]["1"]["rx_oversized"] == stats["ports"]["3"]["rx_oversized"] == 0
    routed = [f for f in drain.frames if f in valid_set]
    assert routed == valid_sent, (
        f"{context}: {len(routed)} of {len(valid_sent)} valid frames routed as expected; "
        f"first missing: {next((f.hex()[:120] for f in valid_sent if f not in set(routed)), None)}")
    assert rss_early is not None
    assert rss_late - rss_early < RSS_GROWTH_LIMIT, \
        f"{context}: switch memory grew {rss_late - rss_early} bytes over the run"
    print(f"frame fuzzer: {frames} bad frames, {len(valid_sent)} valid ones routed, "
          f"switch RSS {rss_early >> 20} -> {rss_late >> 20} MiB, "
          f"{stats['pipeline_errors']} pipeline errors")
