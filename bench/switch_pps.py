"""Packets per second and latency of p4sim-switch on real interfaces (root).

A private namespace holds veth pairs s1/h1 and s2/h2; p4sim-switch runs in it with the
l3_lpm reference program (or --program/--commands); a traffic generator in a separate
process sends IPv4/UDP frames into h1 at a paced rate, each carrying a sequence number
and its send time (CLOCK_MONOTONIC, shared by all processes); this process receives on
h2 and reports, per offered rate, the delivered rate, the loss, the latency
percentiles, and the switch's own CPU time per delivered packet and CPU share (the
capacity of one dedicated core is 1e6 / CPU us per packet at saturation).

  python bench/switch_pps.py [--program l3_lpm|fabric|JSON [--commands FILE]]
                             [--rates 10000,20000,30000,40000] [--seconds 2]
                             [--latency-rate 2000]
"""

from __future__ import annotations

import argparse
import os
import select
import socket
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from p4sim.switch.control_channel import ControlClient
from p4sim.switch.control_cli import run_command
from wire_formats.checksum import internet_checksum
from lab.namespace import Netns, can_run
from p4sim.reference import reference_dir

REFERENCE_JSON = reference_dir() / "p4c-out/l3_lpm.json"
FABRIC_JSON = Path(__file__).resolve().parent.parent / "build" / "fabric.json"
PROGRAMS = {
    # name: (BMv2 JSON, p4sim-cli commands routing 10.0.0.0/8 to port 2)
    "l3_lpm": (REFERENCE_JSON,
               ["table_add ipv4_lpm forward 10.0.0.0/8 => 2 0x0a0b 0x0c0d"]),
    "fabric": (FABRIC_JSON,
               ["table_add routes set_group 0 10.0.0.0/8 => 1",
                "act_prof_create_member multipath_selector forward 2 0x0c0d 0x0a0b 0",
                "table_indirect_add next_hops 1 => 0"]),
}
STAMP = struct.Struct("!IQ")          # sequence number, send time (ns)
PAYLOAD_LEN = 18                      # 64-byte frames: 14 + 20 + 8 + 18 + 4 pad


def frame_template() -> bytes:
    """Ethernet/IPv4/UDP to 10.1.2.3 with room for the stamp at the end."""
    udp_len = 8 + PAYLOAD_LEN
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + udp_len, 1, 0, 64, 17, 0,
                               bytes([192, 168, 1, 10]), bytes([10, 1, 2, 3])))
    ip[10:12] = struct.pack("!H", internet_checksum(bytes(ip)))
    udp = struct.pack("!HHHH", 1234, 80, udp_len, 0)
    eth = bytes.fromhex("000000000001" "000000000002" "0800")
    return eth + bytes(ip) + udp + bytes(PAYLOAD_LEN)


# -- generator process -----------------------------------------------------------------
def generate(iface: str, rate: float, count: int, first_seq: int) -> None:
    """Send `count` stamped frames at `rate` pps, in 1 ms bursts (runs in the netns)."""
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    sock.bind((iface, 0))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    template = bytearray(frame_template())
    stamp_at = len(template) - STAMP.size
    per_burst = max(1, int(rate / 1000))
    interval_ns = int(per_burst * 1e9 / rate)
    next_burst = time.monotonic_ns()
    sent = 0
    while sent < count:
        for _ in range(min(per_burst, count - sent)):
            STAMP.pack_into(template, stamp_at, first_seq + sent, time.monotonic_ns())
            try:
                sock.send(template)
            except BlockingIOError:
                continue
            sent += 1
        next_burst += interval_ns
        delay = next_burst - time.monotonic_ns()
        if delay > 0:
            time.sleep(delay / 1e9)       # pacing to the offered rate
    sock.close()


# -- receiver ----------------------------------------------------------------------------
@dataclass
class Phase:
    offered: float
    sent: int
    received: int
    rx_pps: float
    latencies_us: list[float]

    def percentile(self, q: float) -> float:
        if not self.latencies_us:
            return float("nan")
        ordered = sorted(self.latencies_us)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Receiver:
    """Counts stamped frames on a socket; cheap per frame so that it steals little CPU
    from the switch on a small machine (non-blocking reads, select only when idle)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sock.setblocking(False)
        self.stamp_at = len(frame_template()) - STAMP.size

    def run(self, first_seq: int, count: int, idle_timeout: float) -> tuple[int, float, list[float]]:
        sock, stamp_at, unpack = self.sock, self.stamp_at, STAMP.unpack_from
        buffer = bytearray(2048)
        end_seq = first_seq + count
        received = 0
        first = last = 0
        latencies: list[float] = []
        wait = idle_timeout
        while received < count:
            try:
                size = sock.recv_into(buffer)
            except BlockingIOError:
                if not select.select([sock], [], [], wait)[0]:
                    break
                continue
            now = time.monotonic_ns()
            if size < stamp_at + STAMP.size:
                continue
            seq, sent_ns = unpack(buffer, stamp_at)
            if not first_seq <= seq < end_seq:
                continue
            received += 1
            first = first or now
            last = now
            latencies.append((now - sent_ns) / 1000)
            wait = 1.0
        rate = (received - 1) / ((last - first) / 1e9) if received > 1 and last > first else 0.0
        return received, rate, latencies


def run_phase(ns: Netns, receiver: Receiver, rate: float, seconds: float,
              first_seq: int) -> Phase:
    count = int(rate * seconds)
    result: dict = {}
    thread = threading.Thread(target=lambda: result.update(
        zip(("received", "rate", "lat"), receiver.run(first_seq, count, seconds + 5))))
    thread.start()
    generator = subprocess.run(
        ns.command(sys.executable, __file__, "--generate", "h1", str(rate), str(count),
                   str(first_seq)), capture_output=True, text=True)
    thread.join()
    if generator.returncode != 0:
        raise RuntimeError(f"generator failed: {generator.stderr}")
    return Phase(rate, count, result["received"], result["rate"], result["lat"])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (from /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pin_cpus(switch_pid: int) -> None:
    """Switch alone on the last CPU, generator and receiver on the others: on a small
    machine this keeps the measurement from depending on the scheduler's mood."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return
    os.sched_setaffinity(switch_pid, {cpus[-1]})
    os.sched_setaffinity(0, set(cpus[:-1]))     # this process and the generators


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="10000,20000,30000,40000,50000",
                        help="offered rates to try, packets/s, comma separated")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each phase")
    parser.add_argument("--latency-rate", type=float, default=2000,
                        help="light load for the latency figures, packets/s")
    parser.add_argument("--program", default="l3_lpm",
                        help=f"one of {', '.join(PROGRAMS)}, or a BMv2 JSON path "
                             f"(then give --commands)")
    parser.add_argument("--commands", type=Path, default=None,
                        help="p4sim-cli commands (one per line) routing 10.0.0.0/8 to port 2")
    parser.add_argument("--generate", nargs=4, metavar=("IFACE", "PPS", "COUNT", "SEQ"),
                        help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.generate:
        iface, rate, count, seq = options.generate
        generate(iface, float(rate), int(count), int(seq))
        return 0
    if not can_run():
        print("switch_pps: needs root and `ip netns`", file=sys.stderr)
        return 2
    if options.program in PROGRAMS:
        program, commands = PROGRAMS[options.program]
    else:
        program, commands = Path(options.program), []
    if options.commands:
        commands = options.commands.read_text().splitlines()
    if not commands:
        print("switch_pps: give --commands for a program of your own", file=sys.stderr)
        return 2
    with Netns(f"pp-bench-{os.getpid()}", [1, 2]) as ns:
        switch = ns.start_switch(["-i", "1@s1", "-i", "2@s2", str(program), "--no-grpc",
                                  "--thrift-port", "9090"])
        pin_cpus(switch.process.pid)
        with ControlClient.from_socket(ns.tcp_connect(9090)) as client:
            for line in commands:
                if line.strip() and not line.startswith("#"):
                    run_command(client, line.split())
            receiver = Receiver(ns.host_socket(2))
            print(f"p4sim-switch {program.name}, 64-byte frames, veth, "
                  f"{os.cpu_count()} CPUs (switch pinned to one)")
            print(f"{'offered pps':>12} {'delivered pps':>14} {'loss %':>7} "
                  f"{'p50 us':>8} {'p99 us':>8} {'switch CPU us/pkt':>18} {'CPU %':>6}")
            seq = 0
            best = sustained = saturated_cost = 0.0
            rates = [options.latency_rate] + [float(r) for r in options.rates.split(",")]
            for rate in rates:
                cpu_before = cpu_seconds(switch.process.pid)
                phase = run_phase(ns, receiver, rate, options.seconds, seq)
                cpu_used = cpu_seconds(switch.process.pid) - cpu_before
                seq += phase.sent
                loss = 100.0 * (phase.sent - phase.received) / phase.sent
                if loss < 1.0:
                    best = max(best, phase.rx_pps)
                    if phase.percentile(0.5) < 10_000:
                        sustained = max(sustained, rate)
                us_per_packet = 1e6 * cpu_used / phase.received if phase.received else 0.0
                # the share of a CPU the switch had while it was delivering
                cpu_share = phase.rx_pps * us_per_packet / 1e4
                if rate >= max(rates):
                    saturated_cost = us_per_packet
                print(f"{rate:12.0f} {phase.rx_pps:14.0f} {loss:7.2f} "
                      f"{phase.percentile(0.5):8.0f} {phase.percentile(0.99):8.0f} "
                      f"{us_per_packet:18.1f} {cpu_share:6.0f}", flush=True)
            stats = client.call("stats")
        status, err = switch.terminate()
    print(f"highest offered rate sustained (loss < 1%, p50 < 10 ms): {sustained:.0f} pps; "
          f"highest delivered rate: {best:.0f} pps (target 30000)")
    if saturated_cost:
        # On a shared machine the switch's CPU may also serve other processes (CPU %
        # well under 100 at saturation), so the delivered rate understates the switch;
        # its own CPU time per packet does not.
        print(f"switch CPU time per packet at the highest offered rate: "
              f"{saturated_cost:.1f} us, i.e. {1e6 / saturated_cost:.0f} pps on one "
              f"dedicated core")
    print(f"switch pipeline errors {stats['pipeline_errors']}, exit status {status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
