"""Two-rate three-colour meters that count exactly as BMv2's do: green 0, yellow 1, red 2.

Why exact: the fabric trims on a meter's colour, and a test that passes on p4sim must
pass on simple_switch_grpc too, down to which packet of a burst turns red.

What BMv2 (bm_sim meters + PI's BMv2 target) does, and so this module:

- A configuration arrives per second (P4Runtime's unit) and is kept per microsecond,
  ``rate / 1e6``; reading it back gives ``trunc(kept * 1e6)``, which for some rates is
  one less than what was written (249 reads back as 248).
- Tokens are whole units. A bucket's credit is ``trunc(whole microseconds since the
  meter's origin * rate)``: a refill is the growth of that credit since the last packet,
  capped at the burst, so no fraction is ever lost and the first token may arrive at any
  moment after configuration, not one period later. A new configuration fills both
  buckets to their burst.
- The peak bucket is tried first: short of tokens, the packet is red and takes nothing;
  then the committed bucket: short, yellow (the peak tokens stay taken); else both pay
  and the packet is green. An unconfigured meter marks everything green.
"""
from __future__ import annotations

import threading
from typing import Callable

from p4sim.switch.errors import PipelineFault
from p4sim.switch.runtime_api import MeterConfig, TableError, TableErrorCode

GREEN, YELLOW, RED = 0, 1, 2
MICROS_PER_SECOND = 1e6


class _Bucket:
    """One rate of a meter, in the units BMv2 keeps it (per microsecond)."""

    __slots__ = ("rate_us", "burst", "tokens", "credited")

    def __init__(self, per_second: float, burst: int) -> None:
        self.rate_us = per_second / MICROS_PER_SECOND
        self.burst = burst
        self.tokens = burst
        self.credited = 0  # tokens credited from the origin up to the last packet

    def per_second(self) -> float:
        """The rate as PI reads it back: truncated, not rounded."""
        return float(int(self.rate_us * MICROS_PER_SECOND))

    def take(self, micros: int, amount: int) -> bool:
        """Refill up to ``micros`` since the origin, then take ``amount`` if there."""
        credit = int(micros * self.rate_us)
        if credit > self.credited:
            self.tokens = min(self.tokens + credit - self.credited, self.burst)
            self.credited = credit
        if self.tokens < amount:
            return False
        self.tokens -= amount
        return True


class Meter:
    """One meter cell: a peak and a committed bucket. ``origin_us`` is the time its
    refills count from (BMv2: when the meter was created)."""

    __slots__ = ("_origin_us", "_peak", "_committed")

    def __init__(self, origin_us: float = 0.0) -> None:
        self._origin_us = origin_us
        self._peak: _Bucket | None = None
        self._committed: _Bucket | None = None

    @property
    def config(self) -> MeterConfig | None:
        """The configuration as BMv2 reports it (rates truncated to whole units/s)."""
        if self._peak is None or self._committed is None:
            return None
        return MeterConfig(cir=self._committed.per_second(), cburst=self._committed.burst,
                           pir=self._peak.per_second(), pburst=self._peak.burst)

    def configure(self, config: MeterConfig | None, now_us: float | None = None) -> None:
        """Set (or, with None, clear) the rates; ``now_us`` is not needed (refills count
        from the origin) and is accepted for callers that pass the time."""
        if config is None:
            self._peak = self._committed = None
            return
        self._committed = _Bucket(config.cir, config.cburst)
        self._peak = _Bucket(config.pir, config.pburst)

    def execute(self, amount: int, now_us: float) -> int:
        """Colour of a packet worth ``amount`` (1, or its ingress length in bytes)."""
        peak, committed = self._peak, self._committed
        if peak is None or committed is None:
            return GREEN
        micros = max(0, int(now_us - self._origin_us))
        if not peak.take(micros, amount):
            return RED
        if not committed.take(micros, amount):
            return YELLOW
        return GREEN


def validate_config(config: MeterConfig) -> None:
    """BMv2 refuses a committed rate above the peak rate; negative values are invalid."""
    if (config.cir < 0 or config.pir < 0 or config.cburst < 0 or config.pburst < 0
            or config.pir < config.cir):
        raise TableError(TableErrorCode.INVALID_METER_OPERATION,
                         f"bad meter config {config}: rates/bursts must be >= 0 and pir >= cir")


class MeterArray:
    """An indirect meter: ``size`` cells of one unit ("packets" or "bytes")."""

    def __init__(self, name: str, size: int, unit: str, clock: Callable[[], float]) -> None:
        self.name = name
        self.size = size
        self.unit = unit
        self.is_bytes = unit == "bytes"
        self._clock = clock
        origin = clock() * MICROS_PER_SECOND
        self._cells = [Meter(origin) for _ in range(size)]
        self._lock = threading.Lock()

    def execute(self, index: int, nbytes: int) -> int:
        if not 0 <= index < self.size:
            raise PipelineFault(f"meter {self.name}: index {index} out of range (size {self.size})")
        amount = nbytes if self.is_bytes else 1
        with self._lock:
            return self._cells[index].execute(amount, self._clock() * MICROS_PER_SECOND)

    def set_config(self, index: int, config: MeterConfig | None) -> None:
        self._check(index)
        if config is not None:
            validate_config(config)
        with self._lock:
            self._cells[index].configure(config)

    def get_config(self, index: int) -> MeterConfig | None:
        self._check(index)
        with self._lock:
            return self._cells[index].config

    def reset(self) -> None:
        with self._lock:
            for cell in self._cells:
                cell.configure(None)

    def _check(self, index: int) -> None:
        if not isinstance(index, int) or not 0 <= index < self.size:
            raise TableError(TableErrorCode.INVALID_INDEX,
                             f"meter {self.name}: index {index} not in [0, {self.size})")
