"""Meter fuzzer: p4sim's meters against a closed-form token-bucket oracle.

The oracle does not run the bucket step by step: a bucket's tokens when packet j
arrives are the minimum, over every earlier arrival k (the last time the bucket may
have been full), of burst + credit(j) - credit(k) - what the bucket paid from k to j,
with credit(t) = floor(whole microseconds since the origin * rate / 1e6), as BMv2
credits. The peak bucket pays for every packet that is not red, the committed bucket
for green ones only. Random two-rate configurations (packets or bytes), random
arrival gaps and sizes; every colour must match.

Seeded and bounded: P4SIM_FUZZ_SEED picks the seed (default fixed, printed),
P4SIM_FUZZ_SECONDS the time (default 2). A failure names the seed, the configuration and the arrivals.
"""
from __future__ import annotations

import os
import random
import time

from p4sim.switch.externs.meters import GREEN, RED, YELLOW, MeterArray
from p4sim.switch.runtime_api import MeterConfig


class StepClock:
    """Seconds; set to the middle of a whole microsecond so that the meter's
    truncation to whole microseconds sees exactly that microsecond."""

    def __init__(self) -> None:
        self.now = 0.0

    def at(self, micros: int) -> None:
        self.now = (micros + 0.5) / 1e6

    def __call__(self) -> float:
        return self.now


def credit(micros: int, per_second: float) -> int:
    return int(micros * (per_second / 1e6))


def oracle(config: MeterConfig, arrivals: list[tuple[int, int]]) -> list[int]:
    """Colours of (microsecond, amount) arrivals by the closed form above."""
    colours: list[int] = []
    for j, (mj, aj) in enumerate(arrivals):
        def tokens(rate: float, burst: int, pays: tuple[int, ...]) -> int:
            best = None
            paid = 0
            for k in range(j - 1, -1, -1):   # paid = amounts of arrivals k..j-1 that paid
                if colours[k] in pays:
                    paid += arrivals[k][1]
                value = burst + credit(mj, rate) - credit(arrivals[k][0], rate) - paid
                best = value if best is None else min(best, value)
            return burst if best is None else min(best, burst)
        if tokens(config.pir, config.pburst, (GREEN, YELLOW)) < aj:
            colours.append(RED)
        elif tokens(config.cir, config.cburst, (GREEN,)) < aj:
            colours.append(YELLOW)
        else:
            colours.append(GREEN)
    return colours


def random_case(rng: random.Random) -> tuple[str, MeterConfig, list[tuple[int, int]]]:
    unit = rng.choice(("packets", "bytes"))
    scale = 1 if unit == "packets" else 1000
    cir = rng.choice((0, rng.randrange(1, 5000 * scale)))
    pir = cir + rng.choice((0, rng.randrange(1, 5000 * scale)))
    config = MeterConfig(cir=float(cir), cburst=rng.randrange(0, 20 * scale),
                         pir=float(pir), pburst=rng.randrange(0, 40 * scale))
    now = rng.randrange(0, 10**6)
    arrivals = []
    for _ in range(rng.randrange(1, 120)):
        now += rng.choice((0, 0, rng.randrange(1, 50), rng.randrange(1, 20000)))
        arrivals.append((now, 1 if unit == "packets" else rng.randrange(64, 1519)))
    return unit, config, arrivals


def test_meter_matches_the_closed_form():
    seed = int(os.environ.get("P4SIM_FUZZ_SEED", "20261202"))  # fixed: the same cases first
    budget = float(os.environ.get("P4SIM_FUZZ_SECONDS", "2"))
    print(f"meter fuzz seed {seed} ({budget:g} s)")
    rng = random.Random(seed)
    deadline = time.monotonic() + budget
    cases = 0
    while time.monotonic() < deadline:
        unit, config, arrivals = random_case(rng)
        clock = StepClock()
        arr = MeterArray("m", 1, unit, clock)   # origin: microsecond 0
        arr.set_config(0, config)
        got = []
        for micros, amount in arrivals:
            clock.at(micros)
            got.append(arr.execute(0, amount))
        want = oracle(config, arrivals)
        assert got == want, (f"seed {seed}, case {cases}: {unit} meter {config}, "
                             f"arrivals (us, amount) {arrivals}: got {got}, oracle {want}")
        cases += 1
    assert cases > 0
