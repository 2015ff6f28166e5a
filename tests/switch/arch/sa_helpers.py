"""Shared helpers of the switch architecture tests: reference programs, collectors."""

from __future__ import annotations

import copy
import json
import struct
import threading
import time
from collections import defaultdict

from p4sim.switch.runtime_api import ExactParam
from p4sim.switch.switch import Switch
from p4sim.reference import reference_dir

REFERENCE = reference_dir()
P4C_OUT = REFERENCE / "p4c-out"


def reference_json(name: str) -> dict:
    """What real p4c emitted for reference program `name`."""
    return json.loads((P4C_OUT / f"{name}.json").read_text())


class Collector:
    """Records every frame leaving the switch, per port, in order."""

    def __init__(self, switch: Switch) -> None:
        self._lock = threading.Lock()
        self.by_port: dict[int, list[bytes]] = defaultdict(list)
        self.order: list[tuple[int, bytes]] = []
        self.packet_ins: list[bytes] = []
        self.digests: list[tuple[str, tuple]] = []
        switch.add_output_listener(self._output)
        switch.add_packet_in_listener(self._packet_in)
        switch.add_digest_listener(self._digest)

    def _output(self, port: int, data: bytes) -> None:
        with self._lock:
            self.by_port[port].append(data)
            self.order.append((port, data))

    def _packet_in(self, data: bytes) -> None:
        with self._lock:
            self.packet_ins.append(data)

    def _digest(self, name: str, values: tuple) -> None:
        with self._lock:
            self.digests.append((name, values))

    def count(self, port: int) -> int:
        with self._lock:
            return len(self.by_port.get(port, ()))

    def wait_count(self, port: int, count: int, timeout: float = 10.0) -> int:
        """Frames seen on ``port`` once there are ``count`` (or at the deadline)."""
        deadline = time.monotonic() + timeout
        while self.count(port) < count and time.monotonic() < deadline:
            time.sleep(0.001)  # polling a condition, with a deadline
        return self.count(port)

    def take(self) -> dict[int, list[bytes]]:
        """Frames seen since the last take(), per port."""
        with self._lock:
            seen = dict(self.by_port)
            self.by_port = defaultdict(list)
            self.order = []
            return seen


# -- stack_and_queues.json: probes carrying per-hop queue metadata -------------------
PROBE = bytes.fromhex("000000000001" "000000000002" "88B5" "0000") + b"\xAA" * 16


class StepClock:
    """A switch clock (nanoseconds) that moves only when the test calls ``advance``.

    The dataplane thread runs ingress and the queues' departures interleaved, on the
    wall clock: with real time, a burst "injected before start()" is not all queued
    before the first departure when the machine is loaded (the thread is preempted
    for longer than a slot between two ingresses), so a later probe finds an idle
    queue. On this clock the whole burst is queued at one instant and each departure
    happens when the test moves time to its slot: depths and delays are exact."""

    def __init__(self, start_ns: int = 1_000_000_000) -> None:
        self._lock = threading.Lock()
        self._now = start_ns
        self.reads = 0

    def __call__(self) -> int:
        with self._lock:
            self.reads += 1
            return self._now

    def advance(self, ns: int) -> None:
        with self._lock:
            self._now += ns


def use_clock(sw: Switch, clock: StepClock) -> None:
    """Make ``clock`` the switch's time; before load_program (the pipeline keeps the
    clock it was built with)."""
    sw.now_ns = clock  # type: ignore[method-assign]


def wait_ingressed(sw: Switch, clock: StepClock, port: int, count: int,
                   timeout: float = 10.0) -> None:
    """Until ``count`` frames entered ingress on ``port`` and the dataplane is done with
    them, while some packet waits in a queue: the loop reads the clock at least once
    per ingress and twice per round while it waits for a departure (next departure,
    then drain), so several reads after the last arrival mean it was queued or sent."""
    deadline = time.monotonic() + timeout
    while sw.stats.rx[port] < count:
        assert time.monotonic() < deadline, f"{sw.stats.rx[port]} of {count} frames ingressed"
        time.sleep(0.001)  # polling a condition, with a deadline
    reads = clock.reads + 6
    while clock.reads < reads:
        assert time.monotonic() < deadline, "the dataplane loop did not come round"
        time.sleep(0.001)  # polling a condition, with a deadline


def probe_switch(clock: StepClock | None = None, **kwargs) -> Switch:
    sw = Switch(**kwargs)
    if clock is not None:
        use_clock(sw, clock)
    sw.load_program(reference_json("stack_and_queues"))
    configure_probe_tables(sw)
    return sw


def configure_probe_tables(sw: Switch) -> None:
    tables = sw.runtime.tables
    tables["IngressImpl.fwd"].add_entry([ExactParam(1)], "IngressImpl.forward", [2])
    tables["EgressImpl.hop_record"].add_entry([ExactParam(1)], "EgressImpl.push_hop", [7])


def hop_of(frame: bytes) -> tuple[int, int, int, int]:
    """(switch_id, egress_port, qdepth, hop_latency) of the first hop record."""
    assert frame[12:14] == b"\x88\xb5" and frame[14] >= 1
    return struct.unpack_from("!HHII", frame, 16)


def priority_program() -> dict:
    """stack_and_queues with `standard_metadata.priority = src_addr[2:0]` in forward."""
    program = copy.deepcopy(reference_json("stack_and_queues"))
    forward = next(a for a in program["actions"] if a["name"] == "IngressImpl.forward")
    forward["primitives"].append({
        "op": "assign",
        "parameters": [
            {"type": "field", "value": ["standard_metadata", "priority"]},
            {"type": "expression", "value": {
                "op": "&",
                "left": {"type": "field", "value": ["ethernet", "src_addr"]},
                "right": {"type": "hexstr", "value": "0x000000000007"}}},
        ],
    })
    return program


def plain(src_low: int, seq: int) -> bytes:
    """A non-probe frame whose source MAC low bits pick the priority; seq in payload."""
    return bytes.fromhex("000000000001" "0000000000" f"{src_low:02x}" "0800") + bytes([seq]) * 20
