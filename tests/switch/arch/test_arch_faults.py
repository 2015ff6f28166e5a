"""Pipeline faults (a failed assert) are counted, logged with the packet, rate-limited,
and never stop the switch."""

import copy
import logging

from p4sim.switch.runtime_api import LpmParam
from p4sim.switch.switch import Switch

from sa_helpers import Collector, StepClock, reference_json, use_clock

ROUTED = bytes.fromhex("000000000001000000000002080045000024000100004011AD12C0A8010A"
                       "0A01020304D2005000106FA57061796C6F616421")     # to 10.1.2.3
MISSED = ROUTED[:30] + bytes([11]) + ROUTED[31:]                        # to 11.1.2.3


def asserting_l3() -> dict:
    """l3_lpm whose forward action asserts that the TTL is 0 (so it always fails)."""
    program = copy.deepcopy(reference_json("l3_lpm"))
    forward = next(a for a in program["actions"] if a["name"] == "IngressImpl.forward")
    forward["primitives"].append({"op": "assert", "parameters": [
        {"type": "expression", "value": {
            "op": "==", "left": {"type": "field", "value": ["ipv4", "ttl"]},
            "right": {"type": "hexstr", "value": "0x00"}}}]})
    return program


def test_failed_asserts_are_counted_and_the_switch_goes_on(caplog):
    sw = Switch()
    # Time stands still: all 30 faults fall in one second's logging window, however
    # slowly a loaded machine runs them.
    use_clock(sw, StepClock())
    sw.load_program(asserting_l3())
    sw.runtime.tables["IngressImpl.ipv4_lpm"].add_entry(
        [LpmParam(0x0A000000, 8)], "IngressImpl.forward", [2, 0xA0B, 0xC0D])
    out = Collector(sw)
    with caplog.at_level(logging.ERROR, logger="p4sim.switch.v1model"):
        with sw:
            for _ in range(30):
                sw.inject(1, ROUTED)
            sw.inject(1, MISSED)
            assert sw.wait_idle(5)
    assert out.take() == {}
    assert sw.stats.pipeline_errors == 30
    assert sw.stats.ingress_drops == 1          # the route miss still went through
    logged = [r.getMessage() for r in caplog.records if "pipeline error" in r.getMessage()]
    assert len(logged) == 10                    # rate-limited, not one line per packet
    assert "assert failed" in logged[0] and ROUTED[:16].hex() in logged[0]


def test_pipeline_swap_keeps_serving():
    sw = Switch()
    sw.load_program(asserting_l3())
    out = Collector(sw)
    with sw:
        sw.load_program(reference_json("l3_lpm"))
        sw.runtime.tables["IngressImpl.ipv4_lpm"].add_entry(
            [LpmParam(0x0A000000, 8)], "IngressImpl.forward", [2, 0xA0B, 0xC0D])
        sw.inject(1, ROUTED)
        assert sw.wait_idle(5)
    frames = out.take()[2]
    assert len(frames) == 1 and frames[0][:6] == bytes.fromhex("000000000A0B")
    assert sw.stats.pipeline_errors == 0


def test_random_frames_never_stop_any_reference_program():
    import random
    rng = random.Random(20261130)
    for name in ("l3_lpm", "replication", "stack_and_queues", "multipath"):
        sw = Switch(cpu_port=255)
        sw.load_program(reference_json(name))
        with sw:
            for _ in range(300):
                size = rng.choice([0, 1, 13, 14, 15, 33, 34, 60, 64, 200, 1500])
                sw.inject(rng.choice([0, 1, 2, 3, 255]), rng.randbytes(size))
            assert sw.wait_idle(10), name
            # still alive and serving: a frame injected after the storm is processed
            before = sw.stats.rx[1]
            sw.inject(1, ROUTED)
            assert sw.wait_idle(5), name
            assert sw.stats.rx[1] == before + 1, name
        assert sum(sw.stats.rx.values()) == 301, name
        assert sw.stats.internal_errors == 0, name
        assert sw.stats.pipeline_errors == 0, name    # bad frames are parser errors, not faults
