"""Packets per second through leaf -> spine -> leaf: three switch processes in a row (root).

Launches a line fabric (leaf1 - spine1 - leaf2, one host on each leaf) with the
project's launcher and controller (control/launch.py, fabricctl run: plain routing, no
INT), then offers stepped loads of 64-byte IPv4/UDP frames from h1 to h2 and prints,
per step, offered and delivered rate, loss, latency, and for p4sim where the loss
happened (frames the kernel dropped at each switch's full socket, tail drops in its
queues), how many frames each receive call brought (batching) and each switch's CPU
time per delivered packet.  The
sender really offers the rate: one sendmmsg per millisecond tick (batch_send), so that
past the fabric's capacity the load keeps rising instead of the sender falling behind.
The receiver counts stamped frames with recvmmsg (batch_receive).  The result is the
highest lossless step, and whether delivery held up past it (it must not fall as the
offered load rises).  With simple_switch_grpc on PATH the same runs on BMv2 too.

    .venv/bin/python bench/fabric.py [--rates 5000,10000,20000,40000,80000]
                                     [--seconds 3] [--target p4sim|bmv2|both]
                                     [--p4sim-switch PATH]

Three switches, the sender and the receiver share the machine's CPUs: on a small or
busy machine the figures say as much about the CPU left to the switches as about the
switches (the header line gives the load average; compare runs back to back).
"""
from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import socket
import struct
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from control.launch import FabricNetwork, ManagedProcess, start_controller
from control.topology import router_mac
from lab.namespace import can_run
from p4sim.switch.batch_receive import BatchReceiver
from p4sim.switch.batch_send import BatchSender
from p4sim.switch.control_channel import ControlClient
from wire_formats.checksum import internet_checksum

ROOT = Path(__file__).resolve().parents[1]
P4INFO = ROOT / "build/fabric.p4info.txtpb"
TOPOLOGY = ROOT / "topologies/line.toml"
POLICY = ROOT / "topologies/line.policy.toml"
SWITCHES = ("leaf1", "spine1", "leaf2")
STAMP = struct.Struct("!IIQ")       # run id, sequence number, send time (ns)
PAYLOAD = 18                        # 14 + 20 + 8 + 18 = 60-byte frames (64 on a wire)
TICK_NS = 1_000_000                 # the sender offers one batch per millisecond
READY = "fabric-bench ready"
RESULT = "fabric-bench result "


# -- frames ------------------------------------------------------------------------------
def frame_template(src_mac: str, dst_mac: str, src_ip: str, dst_ip: str) -> bytearray:
    """Ethernet/IPv4/UDP (port 5000) with the stamp as the last bytes."""
    udp_len = 8 + PAYLOAD
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + udp_len, 1, 0, 64, 17, 0,
                               socket.inet_aton(src_ip), socket.inet_aton(dst_ip)))
    ip[10:12] = struct.pack("!H", internet_checksum(bytes(ip)))
    udp = struct.pack("!HHHH", 4000, 5000, udp_len, 0)
    eth = bytes.fromhex(dst_mac.replace(":", "") + src_mac.replace(":", "")) + b"\x08\x00"
    return bytearray(eth + bytes(ip) + udp + bytes(PAYLOAD))


def open_raw(iface: str) -> socket.socket:
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
    sock.bind((iface, 0x0003))
    for option in (socket.SO_RCVBUF, socket.SO_SNDBUF):
        sock.setsockopt(socket.SOL_SOCKET, option, 8 << 20)
    return sock


# -- the sender and receiver processes (run inside the host namespaces) -----------------
def send(iface: str, template: bytearray, rate: float, count: int, run: int) -> dict:
    """`count` stamped frames at `rate` pps: each millisecond tick sends what is due by
    then in one sendmmsg, so the offered rate holds even when the fabric is saturated."""
    sock = open_raw(iface)
    sender = BatchSender.create(sock.fileno())
    stamp_at = len(template) - STAMP.size
    start = time.monotonic_ns()
    sent = refused = 0
    while sent < count:
        now = time.monotonic_ns()
        due = min(count, int((now - start) * rate / 1e9) + 1)
        frames = []
        for seq in range(sent, due):
            STAMP.pack_into(template, stamp_at, run, seq, now)
            frames.append(bytes(template))
        index = 0
        while index < len(frames):
            done = (sender.send(frames, index) if sender is not None
                    else _send_one(sock, frames[index]))
            if done <= 0:           # the kernel refused a frame: it counts as offered
                refused += 1
                done = 1
            index += done
        sent = due
        pause = start + int(sent * 1e9 / rate) - time.monotonic_ns()
        if pause > 0:
            time.sleep(min(pause, TICK_NS) / 1e9)
    elapsed = (time.monotonic_ns() - start) / 1e9
    sock.close()
    return {"sent": sent, "refused": refused, "seconds": elapsed}


def _send_one(sock: socket.socket, frame: bytes) -> int:
    try:
        sock.send(frame)
    except OSError:
        return 0
    return 1


def receive(iface: str, frame_len: int, count: int, run: int, idle_s: float) -> dict:
    """Count this run's stamped frames until `count` arrived or none came for
    `idle_s`; delivered rate over the span between the first and the last arrival."""
    sock = open_raw(iface)
    receiver = BatchReceiver.create(sock.fileno(), 64, 2048, 64, 0x10)
    if receiver is None:
        raise SystemExit("recvmmsg is not available")
    stamp_at = frame_len - STAMP.size
    print(READY, flush=True)
    seen = bytearray(count)
    received = duplicates = foreign = 0
    first = last = 0
    latencies: list[int] = []
    deadline = time.monotonic() + 30 + idle_s      # time for the sender to start
    while received < count:
        got = receiver.receive(64)
        if isinstance(got, int):
            raise SystemExit(f"receive failed: {os.strerror(-got)}")
        if not got:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([sock], [], [], wait)[0]:
                break
            continue
        now = time.monotonic_ns()
        for data, _aux, pkttype in got:
            if pkttype == 4 or len(data) != frame_len:      # our own, or not ours
                foreign += 1
                continue
            tag, seq, sent_ns = STAMP.unpack_from(data, stamp_at)
            if tag != run or seq >= count:
                foreign += 1
                continue
            if seen[seq]:
                duplicates += 1
                continue
            seen[seq] = 1
            received += 1
            first = first or now
            last = now
            latencies.append(now - sent_ns)
        deadline = time.monotonic() + idle_s
    sock.close()
    latencies.sort()

    def pct(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] / 1e3 \
            if latencies else float("nan")
    span = (last - first) / 1e9
    return {"received": received, "duplicates": duplicates, "foreign": foreign,
            "span_s": span, "p50_us": pct(0.5), "p99_us": pct(0.99)}


# -- the bench ------------------------------------------------------------------------------
@dataclass
class Step:
    offered: float
    sent: int
    received: int
    delivered_pps: float
    p50_us: float
    p99_us: float
    where_lost: str
    cpu_us: str


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (from /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class LineFabric:
    """The launched three-switch line, programmed by the controller."""

    def __init__(self, net: FabricNetwork, policy: Path) -> None:
        self.net = net
        start_controller(net, policy)
        h1, h2 = net.endpoints["h1"], net.endpoints["h2"]
        self.template = frame_template(h1.mac, router_mac(net.topology.switch("leaf1")),
                                       h1.ip, h2.ip)
        self.run = 0

    def switch_stats(self) -> dict[str, dict]:
        """p4sim's own counters per switch (empty on BMv2: no control channel)."""
        if self.net.cli is None:
            return {}
        out = {}
        for name in SWITCHES:
            port = self.net.thrift_port(name)
            sock = self.net.in_switch_namespace(
                lambda port=port: socket.create_connection(("127.0.0.1", port), 5))
            with ControlClient.from_socket(sock) as client:
                out[name] = client.call("stats")
        return out

    def step(self, rate: float, seconds: float) -> Step:
        self.run += 1
        count = max(1, int(rate * seconds))
        pids = {name: self.net.switch_process(name).pid for name in SWITCHES}
        before = self.switch_stats()
        cpu_before = {name: cpu_seconds(pid) for name, pid in pids.items()}
        script = str(Path(__file__).resolve())
        receiver = self.net.host_exec("h2", [
            sys.executable, script, "--receive", "eth0", str(len(self.template)), str(count),
            str(self.run)], name=f"bench-rx-{self.run}")
        try:
            receiver.wait_for_line(READY, 30)
            sender = self.net.host_exec("h1", [
                sys.executable, script, "--send", "eth0", self.template.hex(), str(rate),
                str(count), str(self.run)], name=f"bench-tx-{self.run}")
            sent = _result(sender, seconds + 60)
            got = _result(receiver, seconds + 60)
        finally:
            receiver.stop()
        cpu = {name: cpu_seconds(pid) - cpu_before[name] for name, pid in pids.items()}
        after = self.switch_stats()
        delivered = (got["received"] - 1) / got["span_s"] if got["span_s"] > 0 else 0.0
        lost = _where_lost(before, after)
        cpu_text = " ".join(f"{1e6 * cpu[n] / max(1, got['received']):.0f}" for n in SWITCHES)
        return Step(rate, sent["sent"], got["received"], delivered, got["p50_us"],
                    got["p99_us"], lost, cpu_text)


def _result(process: ManagedProcess, timeout: float) -> dict:
    line = process.wait_for_line(RESULT, timeout)
    return json.loads(line[len(RESULT):])


def _where_lost(before: dict[str, dict], after: dict[str, dict]) -> str:
    """Per switch: frames the kernel dropped at its sockets (s), tail drops (q) and
    frames per receive call (b: how well batching works)."""
    if not after:
        return "-"
    parts = []
    for name in SWITCHES:
        socket_drops = sum(after[name]["ports"][p].get("rx_socket_drops", 0)
                           - before[name]["ports"][p].get("rx_socket_drops", 0)
                           for p in after[name]["ports"])
        queue = after[name]["total_tail_drops"] - before[name]["total_tail_drops"]
        rx, calls = (sum(after[name]["ports"][p].get(key, 0) - before[name]["ports"][p].get(key, 0)
                         for p in after[name]["ports"]) for key in ("rx", "rx_calls"))
        parts.append(f"{name}:s{socket_drops}/q{queue}/b{rx / max(1, calls):.1f}")
    return " ".join(parts)


def bench(target: str, binary: str | None, rates: list[float], seconds: float) -> list[Step]:
    began = time.monotonic()
    with FabricNetwork(TOPOLOGY, tag=f"fb{os.getpid() % 100000}",
                       switch_binary=binary) as net:
        fabric = LineFabric(net, POLICY)
        print(f"{target}: fabric up and programmed in {time.monotonic() - began:.1f} s "
              f"({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f})", flush=True)
        print(f"{'offered pps':>11} {'sent':>7} {'received':>8} {'delivered pps':>13} "
              f"{'loss %':>7} {'p50 us':>8} {'p99 us':>8}  {'CPU us/pkt l1 s1 l2':>19}  "
              f"lost at (s: socket, q: queue; b: rx batch)", flush=True)
        steps = []
        for rate in rates:
            step = fabric.step(rate, seconds)
            steps.append(step)
            loss = 100.0 * (step.sent - step.received) / step.sent
            print(f"{step.offered:11.0f} {step.sent:7d} {step.received:8d} "
                  f"{step.delivered_pps:13.0f} {loss:7.2f} {step.p50_us:8.0f} "
                  f"{step.p99_us:8.0f}  {step.cpu_us:>19}  {step.where_lost}", flush=True)
    return steps


def summary(target: str, steps: list[Step]) -> str:
    lossless = [s.offered for s in steps if s.received == s.sent]
    best = max(lossless) if lossless else 0.0
    peak = max(s.delivered_pps for s in steps)
    past = [s.delivered_pps for s in steps if s.received < s.sent]
    held = all(b >= 0.9 * a for a, b in zip(past, past[1:]))
    return (f"{target}: max lossless rate {best:.0f} pps; peak delivered {peak:.0f} pps; "
            f"past capacity delivery {'held' if held else 'FELL'}"
            f"{' (' + ', '.join(f'{p:.0f}' for p in past) + ')' if past else ''}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="5000,10000,20000,40000,80000",
                        help="offered loads, packets/s, comma separated")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each step")
    parser.add_argument("--target", choices=("p4sim", "bmv2", "both"), default="both",
                        help="both: p4sim, and BMv2 when simple_switch_grpc is on PATH")
    parser.add_argument("--p4sim-switch", default=str(ROOT / ".venv/bin/p4sim-switch"),
                        help="the p4sim-switch to run (e.g. another checkout's, for A/B runs)")
    parser.add_argument("--send", nargs=5, help=argparse.SUPPRESS)
    parser.add_argument("--receive", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.send:
        iface, template, rate, count, run = args.send
        print(RESULT + json.dumps(send(iface, bytearray.fromhex(template), float(rate),
                                       int(count), int(run))), flush=True)
        return 0
    if args.receive:
        iface, frame_len, count, run = args.receive
        print(RESULT + json.dumps(receive(iface, int(frame_len), int(count), int(run), 2.0)),
              flush=True)
        return 0
    if not can_run():
        print("bench/fabric.py: skipped, needs root and `ip netns`")
        return 0
    if not P4INFO.exists():
        print(f"{P4INFO}: missing; run `make build`", file=sys.stderr)
        return 1
    rates = [float(r) for r in args.rates.split(",")]
    targets: list[tuple[str, str | None]] = []
    if args.target in ("p4sim", "both"):
        targets.append(("p4sim", args.p4sim_switch))
    bmv2 = shutil.which("simple_switch_grpc")
    if args.target in ("bmv2", "both"):
        if bmv2:
            targets.append(("bmv2", bmv2))
        else:
            print("bmv2: simple_switch_grpc is not on PATH, skipped")
    results: list[tuple[str, Any]] = []
    for target, binary in targets:
        results.append((target, bench(target, binary, rates, args.seconds)))
    for target, steps in results:
        print(summary(target, steps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
