"""--common-clock (a p4sim extension): global timestamps from the host's CLOCK_MONOTONIC,
so a packet's hop timestamps compare across switches; without it each switch counts
from its own start, as BMv2 does. Corpus 200 writes ingress_global_timestamp into the
Ethernet source address, which is read back after switch A and after switch B."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from p4sim.stf.compile import compile_program
from p4sim.target.switch_cli import build_parser, parse_args
from p4sim.switch.switch import Switch

PROGRAM = Path(__file__).resolve().parents[1] / "corpus" / "200_queueing_and_timestamps.p4"
FRAME = bytes(6) + bytes(6) + b"\x88\xb5" + bytes(12)   # ethernet + data_t
DEADLINE_S = 10.0


@pytest.fixture(scope="module")
def program() -> dict:
    return compile_program(str(PROGRAM), "p4sim")


def through_a_then_b(a: Switch, b: Switch) -> tuple[int, int]:
    """Ingress timestamps (us) of one frame at A, then at B (A's port 2 feeds B's port 1)."""
    seen: dict[str, int] = {}
    done = threading.Event()

    def from_a(port: int, data: bytes) -> None:
        seen["a"] = int.from_bytes(data[6:12], "big")
        b.inject(1, data)

    def from_b(port: int, data: bytes) -> None:
        seen["b"] = int.from_bytes(data[6:12], "big")
        done.set()

    a.add_output_listener(from_a)
    b.add_output_listener(from_b)
    a.inject(1, FRAME)
    assert done.wait(DEADLINE_S), "the frame did not come out of B"
    return seen["a"], seen["b"]


def started(program: dict, common_clock: bool) -> tuple[Switch, int, int]:
    """A running switch, and the clock (us) just before and after its origin was taken."""
    before = time.monotonic_ns() // 1000
    switch = Switch(common_clock=common_clock)
    after = time.monotonic_ns() // 1000
    switch.load_program(program)
    switch.start()
    return switch, before, after


def test_with_the_flag_timestamps_compare_across_switches(program):
    a, b = started(program, True)[0], started(program, True)[0]
    try:
        before = time.monotonic_ns() // 1000
        ts_a, ts_b = through_a_then_b(a, b)
        after = time.monotonic_ns() // 1000
    finally:
        a.stop()
        b.stop()
    assert before <= ts_a <= ts_b <= after  # one clock: CLOCK_MONOTONIC in us (48-bit field)
    assert ts_b - ts_a < DEADLINE_S * 1e6


def test_without_it_each_switch_counts_from_its_own_start(program):
    a, created_a, origin_a = started(program, False)
    while time.monotonic_ns() // 1000 < origin_a + 200_000:  # B starts 0.2 s later
        time.sleep(0.01)
    b, created_b, _ = started(program, False)
    try:
        ts_a, ts_b = through_a_then_b(a, b)
        now = time.monotonic_ns() // 1000
    finally:
        a.stop()
        b.stop()
    assert 200_000 <= ts_a <= now - created_a  # counted from A's start (BMv2)
    assert ts_b <= now - created_b
    assert ts_b < ts_a  # B started later: its clock is behind, not comparable


def test_the_flag_is_off_by_default_and_documented_as_an_extension():
    assert parse_args(["--no-p4"]).common_clock is False
    assert parse_args(["--no-p4", "--common-clock"]).common_clock is True
    text = " ".join(build_parser().format_help().split())
    block = text[text.index("--common-clock"):][:200]
    assert "p4sim extension" in block and "CLOCK_MONOTONIC" in block


def test_the_launcher_passes_it_only_when_asked_and_only_to_p4sim(tmp_path):
    from control.errors import ConfigError
    from control.launch import FabricNetwork

    topology = Path(__file__).resolve().parents[2] / "topologies" / "two_leaves.toml"
    plain = FabricNetwork(topology, tag="cc0", log_dir=tmp_path)
    common = FabricNetwork(topology, tag="cc1", log_dir=tmp_path, common_clock=True)
    leaf1 = plain.topology.switches[0]
    assert "--common-clock" not in plain.switch_command(leaf1)
    assert "--common-clock" in common.switch_command(leaf1)
    with pytest.raises(ConfigError, match="common_clock"):
        FabricNetwork(topology, tag="cc2", log_dir=tmp_path, switch_binary="simple_switch_grpc",
                      common_clock=True)
