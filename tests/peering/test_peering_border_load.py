"""BorderLoad's arithmetic: bits per second over its window from byte-counter readings,
a restarted switch's counters starting again, an unreadable switch skipped. The reads
are given as a function over a table of byte counts; the P4Runtime read of a real
switch's port_tx is exercised by tests/federation/test_fed_capacity.py."""
from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from control.p4rt.entities import P4Names, load_p4info
from control.peering.border_load import BorderLoad
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
P4INFO = ROOT / "build/fabric.p4info.txtpb"
ENDS = ["w-bd1:2", "w-bd2:2"]


class Counters:
    """Byte counts per (switch, port), a clock, and switches that do not answer."""

    def __init__(self) -> None:
        self.sent = {("w-bd1", 2): 0, ("w-bd2", 2): 0}
        self.now = 100.0
        self.dead: set[str] = set()

    def read(self, switch: str, port: int) -> int:
        if switch in self.dead:
            raise grpc.RpcError(f"{switch} unavailable")
        return self.sent[(switch, port)]


def load(counters: Counters) -> BorderLoad:
    if not P4INFO.exists():
        pytest.fail("build/fabric.* missing: run `make build` first", pytrace=False)
    topo = load_topology(str(ROOT / "topologies/two_domains.toml"))
    return BorderLoad(topo, P4Names(load_p4info(str(P4INFO))), ENDS, window_s=1.0,
                      read=counters.read, clock=lambda: counters.now)


def step(counters: Counters, monitor: BorderLoad, seconds: float, **bytes_sent: int) -> None:
    counters.now += seconds
    for name, count in bytes_sent.items():
        counters.sent[(name.replace("_", "-"), 2)] += count
    monitor.sample()


def test_load_is_the_bit_rate_over_the_window_and_capacity_the_rate_less_it():
    counters = Counters()
    monitor = load(counters)
    monitor.sample()
    assert monitor.load_bps() == {}  # one reading: no rate yet
    for _ in range(8):  # 1 Mbit/s on w-bd1, nothing on w-bd2, read every 0.25 s
        step(counters, monitor, 0.25, w_bd1=31_250)
    assert monitor.load_bps() == {"w-bd1:2": 1_000_000, "w-bd2:2": 0}
    assert monitor.available_bps({"w-bd1:2": 100_000_000, "w-bd2:2": 50_000_000}) == \
        {"w-bd1:2": 99_000_000, "w-bd2:2": 50_000_000}
    for _ in range(8):  # the load stops: gone once the window holds only idle readings
        step(counters, monitor, 0.25)
    assert monitor.load_bps()["w-bd1:2"] == 0


def test_a_restarted_switch_starts_its_counter_again_and_a_dead_one_is_skipped():
    counters = Counters()
    monitor = load(counters)
    for _ in range(4):
        step(counters, monitor, 0.25, w_bd1=125_000, w_bd2=12_500)
    counters.dead.add("w-bd2")
    step(counters, monitor, 0.25, w_bd1=125_000)
    assert "w-bd2:2" in monitor.errors and "w-bd1:2" not in monitor.errors
    assert monitor.load_bps()["w-bd2:2"] == 400_000  # what its readings in the window said
    counters.sent[("w-bd1", 2)] = 0  # restarted: its counter begins again
    step(counters, monitor, 0.25, w_bd1=125_000)
    step(counters, monitor, 0.25, w_bd1=125_000)
    assert monitor.load_bps()["w-bd1:2"] == 4_000_000
