"""fabric.p4's trimming on p4sim in-process, with the switch's own queue slowed: data
meeting a deep data queue is trimmed onto the priority queue, and trimming stops once
the data queue has drained (the depth signal counts neither trimmed packets nor the
depth a packet met at enqueue, which would stay stale while every packet is trimmed:
recording enq_qdepth from every packet, as the fabric once did, trimmed every later
packet on the idle port).

The switch runs on a step clock (tests/switch/arch/sa_helpers.py): on the wall clock,
whether the burst is all in before the second departure records its depth depends on
how fast the machine is, so the test would trim nothing on a fast machine and pass on a
loaded one. Here each departure happens when the test moves time to its slot."""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from wire_formats.layers import DSCP_TRIMMABLE, DSCP_TRIMMED, UDP_PORT_UEC, UecRequest
from p4sim.switch.runtime_api import ExactParam, LpmParam
from p4sim.switch.switch import Switch
from tests.switch.arch.sa_helpers import StepClock, use_clock, wait_ingressed

FABRIC_JSON = Path(__file__).resolve().parents[2] / "build/fabric.json"
ROUTER_MAC, HOST_MAC = 0x00AA00000001, 0x000000000002
THRESHOLD = 5
TRIM_LENGTH = 64
QUEUE_RATE = 100  # packets/s on port 2: one departure per 10 ms slot of the step clock
SLOT_NS = 1_000_000_000 // QUEUE_RATE


class Outputs:
    """Frames out of port 2, in order, with a wait for a count."""

    def __init__(self, switch: Switch) -> None:
        self.frames: list[bytes] = []
        self._cond = threading.Condition()
        switch.add_output_listener(self._add)

    def _add(self, port: int, data: bytes) -> None:
        if port == 2:
            with self._cond:
                self.frames.append(data)
                self._cond.notify_all()

    def wait_for(self, count: int, timeout: float = 20.0) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: len(self.frames) >= count, timeout), \
                f"{len(self.frames)} of {count} frames out of port 2 within {timeout} s"

    def release(self, clock: StepClock, count: int, timeout: float = 30.0) -> None:
        """Move time on slot by slot until ``count`` frames left port 2."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self.frames) < count:
                assert time.monotonic() < deadline, \
                    f"{len(self.frames)} of {count} frames out of port 2 within {timeout} s"
                clock.advance(SLOT_NS)
                seen = len(self.frames)
                self._cond.wait_for(lambda: len(self.frames) > seen, 0.2)


def data(psn: int) -> bytes:
    return bytes(Ether(src="00:00:00:00:00:01", dst="00:aa:00:00:00:01")
                 / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_TRIMMABLE << 2)
                 / UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=psn, spdcid=1)
                 / (b"t" * 400))


def psn_and_trimmed(frame: bytes) -> tuple[int, bool]:
    pkt = Ether(frame)
    trimmed = pkt[IP].tos >> 2 == DSCP_TRIMMED
    assert trimmed == (len(frame) == TRIM_LENGTH), f"DSCP and length disagree: {pkt!r}"
    return pkt[UecRequest].psn, trimmed


@pytest.fixture
def clock() -> StepClock:
    return StepClock()


def trimming_switch(clock: StepClock) -> Switch:
    """The fabric on a step-clocked switch: 10.0.2.0/24 out of port 2, which trims
    DSCP_TRIMMABLE packets from THRESHOLD queued (queue rates are the caller's)."""
    if not FABRIC_JSON.exists():
        pytest.fail(f"{FABRIC_JSON} is missing: run `make build` first")
    sw = Switch(priority_queues=8)
    use_clock(sw, clock)
    sw.load_program(json.loads(FABRIC_JSON.read_text()))
    rt = sw.runtime
    member = rt.action_profiles["FabricIngress.routing.multipath_selector"].add_member(
        "FabricIngress.routing.forward", [2, ROUTER_MAC, HOST_MAC, 2])
    rt.tables["FabricIngress.routing.next_hops"].add_indirect_entry([ExactParam(1)], member=member)
    rt.tables["FabricIngress.routing.routes"].add_entry(
        [ExactParam(0), LpmParam(0x0A000200, 24)], "FabricIngress.routing.set_group", [1])
    rt.tables["FabricIngress.trimming.trim_thresholds"].add_entry(
        [ExactParam(2)], "FabricIngress.trimming.set_trim_threshold", [THRESHOLD])
    rt.tables["FabricIngress.trimming.trim_classes"].add_entry(
        [ExactParam(DSCP_TRIMMABLE)], "FabricIngress.trimming.trim_to", [TRIM_LENGTH, DSCP_TRIMMED, 7])
    return sw


@pytest.fixture
def switch(clock):
    sw = trimming_switch(clock)
    sw.set_queue_rate(QUEUE_RATE, port=2)
    with sw:
        yield sw


def test_deep_data_queue_trims_and_trimming_stops_once_it_drains(switch, clock):
    out = Outputs(switch)
    first, departed, burst = 20, 7, 60
    # A backlog in port 2's data queue, and departures that record how deep it is (by
    # either measure: 13 left behind the 7th, 6 ahead of it when it arrived).
    for psn in range(first):
        switch.inject(1, data(psn))
    wait_ingressed(switch, clock, 1, first)
    out.release(clock, departed)
    # The rest of the burst meets that depth.
    for psn in range(first, burst):
        switch.inject(1, data(psn))
    wait_ingressed(switch, clock, 1, burst)
    out.release(clock, burst)
    assert switch.wait_idle(20)
    seen = [psn_and_trimmed(f) for f in out.frames]
    assert sorted(psn for psn, _ in seen) == list(range(burst))
    whole = [psn for psn, cut in seen if not cut]
    trimmed = [psn for psn, cut in seen if cut]
    assert trimmed, seen
    assert len(whole) >= THRESHOLD, seen   # the queue had to reach the threshold first
    # The trimmed packets took the priority queue: the first one overtook whole packets
    # that had arrived before it.
    order = [psn for psn, _ in seen]
    first_cut = min(trimmed)
    assert order.index(first_cut) < order.index(max(w for w in whole if w < first_cut)), seen

    # The data queue is empty now: later data on the idle port leaves whole, one packet
    # at a time (each after the previous one left).
    for psn in range(100, 105):
        count = len(out.frames)
        switch.inject(1, data(psn))
        out.release(clock, count + 1)
        assert psn_and_trimmed(out.frames[-1]) == (psn, False), "trimming did not stop"
    counts = switch.runtime.counters["FabricIngress.trimming.trimmed_packets"]
    assert counts.read(2)[1] == len(trimmed)


def test_trimming_waits_for_the_queue_not_for_time(switch, clock):
    """No backlog, no trimming: a burst sent slower than the queue drains stays whole."""
    out = Outputs(switch)
    for psn in range(10):
        count = len(out.frames)
        switch.inject(1, data(psn))
        out.release(clock, count + 1)
    assert [cut for _, cut in map(psn_and_trimmed, out.frames)] == [False] * 10
