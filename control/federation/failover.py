"""Border failover, measured on a launched federated fabric (issue 15, item 4).

A UEC transfer runs across the chosen border; the border link is cut (both ends, as a
pulled cable: FabricNetwork.set_link_down), or the border switch's process is killed
(FabricNetwork.kill_switch: its interfaces stay up, so only the controller's lost
connection tells, control/controller/domain_peering.py); the figure is the time from the cut to the
first packet on the other border's link, read from the switch-side interfaces' packet
counters (/proc/thread-self/net/dev on a thread inside the switches' namespace, polled
every POLL_S: the figure's resolution). tests/federation/test_fed_failover.py asserts
what must hold; bench/federation_failover.py prints the figure over N runs.
"""
from __future__ import annotations

import re
import socket
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from control.launch import FabricNetwork, RunningTransfer, Transfer, interface_name, start_transfer
from lab.readiness import wait_until

POLL_S = 0.002
FAILURES = ("link", "switch")  # cut the chosen border link, or kill the chosen border switch


def interface_counters(dev_text: str) -> dict[str, tuple[int, int]]:
    """/proc/net/dev's text -> interface: (rx packets, tx packets)."""
    counters = {}
    for line in dev_text.splitlines()[2:]:
        name, _, fields = line.partition(":")
        values = fields.split()
        if len(values) >= 10:
            counters[name.strip()] = (int(values[1]), int(values[9]))
    return counters


def read_counters() -> dict[str, tuple[int, int]]:
    """The calling thread's namespace's interface counters."""
    return interface_counters(Path("/proc/thread-self/net/dev").read_text())


class CounterWatch:
    """Samples (monotonic time, rx+tx of each watched interface) in the switches'
    namespace until stopped, from a thread of its own."""

    def __init__(self, net: FabricNetwork, interfaces: list[str]):
        self.net = net
        self.interfaces = list(interfaces)
        self.samples: list[tuple[float, dict[str, tuple[int, int]]]] = []
        self._stop = threading.Event()
        self._started = threading.Event()
        self._thread = threading.Thread(target=lambda: net.in_switch_namespace(self._run),
                                        name="counter-watch", daemon=True)

    def _run(self) -> None:
        while True:
            now = time.monotonic()
            counters = read_counters()
            self.samples.append((now, {i: counters.get(i, (0, 0)) for i in self.interfaces}))
            self._started.set()
            if self._stop.wait(POLL_S):
                return

    def __enter__(self) -> "CounterWatch":
        self._thread.start()
        self._started.wait(30)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def latest(self) -> dict[str, tuple[int, int]]:
        return self.samples[-1][1]

    def first_change_after(self, interface: str, when: float) -> float | None:
        """The time of the first sample after ``when`` where ``interface`` counted more
        packets (rx or tx) than in the last sample at or before ``when``."""
        before = None
        for t, values in list(self.samples):
            if t <= when:
                before = values[interface]
            elif before is not None and values[interface] != before:
                return t
        return None


PROBE_PORT = 9  # discard: nothing answers but the receiver's kernel (port unreachable)


class Probe:
    """Small UDP datagrams from host ``src`` to ``dst`` every ``interval`` seconds, from
    a thread in ``src``'s namespace: traffic that never waits on a retransmission timer,
    so the first packet on the other border shows when the fabric carries it."""

    def __init__(self, net: FabricNetwork, src: str, dst: str, interval: float, size: int = 0):
        """``size``: each datagram's payload padded to this many bytes (a load)."""
        self.net, self.src, self.interval, self.size = net, src, interval, size
        self.address = (net.endpoints[dst].ip, PROBE_PORT)
        self.sent = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: net.in_endpoint_namespace(src, self._run),
                                        name="failover-probe", daemon=True)

    def _run(self) -> None:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.bind((self.net.endpoints[self.src].ip, 0))
            while not self._stop.wait(self.interval):
                try:
                    sock.sendto((b"failover probe %d " % self.sent).ljust(self.size, b"."),
                                self.address)
                    self.sent += 1
                except OSError:  # e.g. an ICMP error queued on the socket: keep probing
                    continue

    def __enter__(self) -> "Probe":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


@dataclass
class FailoverRun:
    """One failover: seconds from the cut to the first packet on the other border (sent
    towards the peer: tx of our end, data or probe; any packet: rx or tx), packets (rx,
    tx) per watched interface at the start, just before the cut and at the end, and the
    transfer."""

    to_first_sent_s: float | None
    to_first_packet_s: float | None
    before: dict[str, tuple[int, int]]
    after: dict[str, tuple[int, int]]
    start: dict[str, tuple[int, int]]
    transfer: Transfer | None = None
    notes: list[str] = field(default_factory=list)


def measure_failover(net: FabricNetwork, src: str, dst: str, nbytes: int, work_dir: str | Path,
                     chosen: tuple[str, int], other: tuple[str, int], *,
                     cut_after: float = 0.125, hold_at: float = 0.75,
                     probe_interval: float | None = None, timeout: float = 300.0,
                     failure: str = "link") -> FailoverRun:
    """Transfer ``nbytes`` ``src`` -> ``dst``; once ``cut_after`` of it arrived, cut the
    link at ``chosen`` (``failure`` "link") or kill ``chosen``'s switch ("switch"); wait (up to ``timeout``) for a packet on ``other``'s link; let
    the transfer finish. The sender holds at ``hold_at`` of the data until the
    measurement is taken, so the cut always falls inside the transfer. With
    ``probe_interval`` a Probe runs alongside (the first packet is then the fabric's
    figure; without, the sender's: it resumes at its retransmission timeout)."""
    if failure not in FAILURES:
        raise ValueError(f"failure: {failure!r} is not one of {', '.join(FAILURES)}")
    a, b = interface_name(*chosen), interface_name(*other)
    with ExitStack() as stack:
        watch = stack.enter_context(CounterWatch(net, [a, b]))
        if probe_interval is not None:
            stack.enter_context(Probe(net, src, dst, probe_interval))
        start = watch.latest()
        running = start_transfer(net, src, dst, nbytes, work_dir, pause_at=int(nbytes * hold_at))
        try:
            wait_until(lambda: running.delivered_bytes() >= nbytes * cut_after,
                       f"{cut_after:.0%} of {nbytes} bytes delivered", timeout)
            notes = []
            if "sender paused at" in running.sender.output:
                notes.append("the sender had reached its hold point before the cut")
            before = watch.latest()
            began = _fail(net, chosen, failure)
            wait_until(lambda: _tx_after(watch, b, began) is not None,
                       f"a packet sent on {b} after the cut", timeout)
            first_any = watch.first_change_after(b, began)
            first_tx = _tx_after(watch, b, began)
            _resume(running)
            transfer = running.finish(timeout)
        except BaseException:
            running.sender.stop()
            running.receiver.stop()
            raise
        after = watch.latest()
    return FailoverRun(None if first_tx is None else first_tx - began,
                       None if first_any is None else first_any - began,
                       before, after, start, transfer, notes)


def _fail(net: FabricNetwork, chosen: tuple[str, int], failure: str) -> float:
    """Make the failure; returns the time.monotonic() just before it."""
    if failure == "link":
        return net.set_link_down(*chosen)
    began = time.monotonic()
    net.kill_switch(chosen[0])
    return began


def _tx_after(watch: CounterWatch, interface: str, when: float) -> float | None:
    """The first sample after ``when`` with more packets sent on ``interface``."""
    before = None
    for t, values in list(watch.samples):
        if t <= when:
            before = values[interface][1]
        elif before is not None and values[interface][1] != before:
            return t
    return None


def _resume(running: RunningTransfer) -> None:
    """Let a held sender go on (it may not have reached the hold point yet: it then
    reads the line when it does)."""
    running.resume()


def repair_ms(controller_output: str, switch: str, port: int, state: str = "down") -> list[float]:
    """Every "fabricctl link SWITCH:PORT STATE repaired in N ms" figure the controller
    printed (its link watch's detection to every switch reprogrammed), in order."""
    pattern = re.compile(rf"fabricctl link {re.escape(switch)}:{port} {state} repaired in ([0-9.]+) ms")
    return [float(m.group(1)) for m in pattern.finditer(controller_output)]


def describe(run: FailoverRun) -> dict[str, Any]:
    return {"to_first_sent_ms": None if run.to_first_sent_s is None else run.to_first_sent_s * 1e3,
            "to_first_packet_ms": None if run.to_first_packet_s is None else run.to_first_packet_s * 1e3,
            "notes": run.notes}


__all__ = ["CounterWatch", "FAILURES", "FailoverRun", "Probe", "describe", "interface_counters", "measure_failover",
           "read_counters", "repair_ms"]
