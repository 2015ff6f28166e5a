"""p4sim's meters colour packets as BMv2's (bm_sim + PI) do, on a controlled clock:
per-microsecond rates, whole tokens credited from the meter's origin, peak bucket first,
red takes nothing, read-back truncated."""
from __future__ import annotations

import pytest

from p4sim.switch.externs.meters import GREEN, RED, YELLOW, MeterArray
from p4sim.switch.runtime_api import MeterConfig, TableError, TableErrorCode


class Clock:
    """Seconds, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def meter(unit: str = "packets") -> tuple[MeterArray, Clock]:
    clock = Clock()
    return MeterArray("m", 4, unit, clock), clock


def colours(arr: MeterArray, n: int, nbytes: int = 100, index: int = 0) -> list[int]:
    return [arr.execute(index, nbytes) for _ in range(n)]


def test_unconfigured_is_green_and_clearing_restores_it() -> None:
    arr, _ = meter()
    assert colours(arr, 3) == [GREEN] * 3
    arr.set_config(0, MeterConfig(cir=0, cburst=1, pir=0, pburst=1))
    assert colours(arr, 2) == [GREEN, RED]
    arr.set_config(0, None)
    assert arr.get_config(0) is None
    assert colours(arr, 3) == [GREEN] * 3


def test_zero_rate_gives_exactly_the_burst_then_red_forever() -> None:
    arr, clock = meter()
    arr.set_config(1, MeterConfig(cir=0, cburst=2, pir=0, pburst=2))
    assert colours(arr, 5, index=1) == [GREEN, GREEN, RED, RED, RED]
    clock.now += 3600
    assert colours(arr, 1, index=1) == [RED]
    assert colours(arr, 2, index=2) == [GREEN, GREEN]  # other cells untouched


def test_red_takes_no_tokens_and_yellow_spends_the_peak_bucket() -> None:
    # committed burst 1, peak burst 3, no refill: G (both pay), Y, Y (peak pays), R.
    arr, _ = meter()
    arr.set_config(0, MeterConfig(cir=0, cburst=1, pir=0, pburst=3))
    assert colours(arr, 5) == [GREEN, YELLOW, YELLOW, RED, RED]


def test_refill_is_whole_tokens_counted_from_the_origin_not_from_configuration() -> None:
    # 1 packet/s; the meter was created at t=100 s. Configured half a second later, the
    # next token arrives at t=101 s (a whole second after the origin), not at 101.5 s.
    arr, clock = meter()
    clock.now = 100.5
    arr.set_config(0, MeterConfig(cir=1, cburst=1, pir=1, pburst=1))
    assert colours(arr, 2) == [GREEN, RED]
    clock.now = 100.999999
    assert colours(arr, 1) == [RED]
    clock.now = 101.000001
    assert colours(arr, 2) == [GREEN, RED]


def test_fractions_of_a_token_are_never_lost() -> None:
    # 3 packets/s sampled every 0.1 s for ten seconds: the credit is floor(t * 3), so
    # the burst of one plus 29 earned by t = 9.95 s pass, whatever the sampling.
    arr, clock = meter()
    arr.set_config(0, MeterConfig(cir=3, cburst=1, pir=3, pburst=1))
    passed = colours(arr, 1).count(GREEN)
    for k in range(100):
        clock.now = 100.0 + k / 10 + 0.05
        passed += colours(arr, 1).count(GREEN)
    assert passed == 1 + 29


def test_burst_caps_what_an_idle_meter_saves() -> None:
    arr, clock = meter()
    arr.set_config(0, MeterConfig(cir=1000, cburst=4, pir=1000, pburst=4))
    clock.now += 60
    assert colours(arr, 6) == [GREEN] * 4 + [RED] * 2


def test_bytes_meter_charges_the_packet_length() -> None:
    arr, _ = meter("bytes")
    arr.set_config(0, MeterConfig(cir=0, cburst=250, pir=0, pburst=250))
    assert colours(arr, 3, nbytes=100) == [GREEN, GREEN, RED]
    assert colours(arr, 1, nbytes=50) == [GREEN]     # exactly the 50 left
    assert colours(arr, 1, nbytes=1) == [RED]


def test_rates_read_back_truncated_like_pi() -> None:
    # PI keeps rate / 1e6 and reads back trunc(kept * 1e6): 249 comes back as 248.
    arr, _ = meter()
    arr.set_config(0, MeterConfig(cir=249, cburst=7, pir=1000, pburst=9))
    assert arr.get_config(0) == MeterConfig(cir=248, cburst=7, pir=1000, pburst=9)


def test_committed_rate_above_peak_is_refused() -> None:
    arr, _ = meter()
    with pytest.raises(TableError) as err:
        arr.set_config(0, MeterConfig(cir=20, cburst=1, pir=10, pburst=1))
    assert err.value.code == TableErrorCode.INVALID_METER_OPERATION
    with pytest.raises(TableError) as err:
        arr.set_config(4, MeterConfig(cir=1, cburst=1, pir=1, pburst=1))
    assert err.value.code == TableErrorCode.INVALID_INDEX
