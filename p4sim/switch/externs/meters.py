"""Two-rate three-colour meters (RFC 2698 style, as bm_sim): green 0, yellow 1, red 2.

Rates are configured per second and kept per microsecond internally; an unconfigured
meter marks everything green, as bmv2 does.
"""
from __future__ import annotations

import threading
from typing import Callable

from p4sim.switch.errors import PipelineFault
from p4sim.switch.runtime_api import MeterConfig, TableError, TableErrorCode

GREEN, YELLOW, RED = 0, 1, 2


class Meter:
    """One meter cell: a committed and a peak token bucket."""

    __slots__ = ("config", "_c_tokens", "_p_tokens", "_last_us")

    def __init__(self) -> None:
        self.config: MeterConfig | None = None
        self._c_tokens = 0.0
        self._p_tokens = 0.0
        self._last_us = 0.0

    def configure(self, config: MeterConfig | None, now_us: float) -> None:
        self.config = config
        if config is not None:
            self._c_tokens = float(config.cburst)
            self._p_tokens = float(config.pburst)
        self._last_us = now_us

    def execute(self, amount: int, now_us: float) -> int:
        cfg = self.config
        if cfg is None:
            return GREEN
        elapsed = max(0.0, now_us - self._last_us)
        self._last_us = now_us
        self._p_tokens = min(float(cfg.pburst), self._p_tokens + elapsed * cfg.pir / 1e6)
        self._c_tokens = min(float(cfg.cburst), self._c_tokens + elapsed * cfg.cir / 1e6)
        if self._p_tokens < amount:
            return RED
        if self._c_tokens < amount:
            self._p_tokens -= amount
            return YELLOW
        self._p_tokens -= amount
        self._c_tokens -= amount
        return GREEN


def validate_config(config: MeterConfig) -> None:
    if (config.cir < 0 or config.pir < 0 or config.cburst < 0 or config.pburst < 0
            or config.pir < config.cir):
        raise TableError(TableErrorCode.INVALID_METER_OPERATION,
                         f"bad meter config {config}: rates/bursts must be >= 0 and pir >= cir")


class MeterArray:
    def __init__(self, name: str, size: int, unit: str, clock: Callable[[], float]) -> None:
        self.name = name
        self.size = size
        self.unit = unit  # "packets" or "bytes"
        self.is_bytes = unit == "bytes"
        self._clock = clock
        self._cells = [Meter() for _ in range(size)]
        self._lock = threading.Lock()

    def execute(self, index: int, nbytes: int) -> int:
        if not 0 <= index < self.size:
            raise PipelineFault(f"meter {self.name}: index {index} out of range (size {self.size})")
        amount = nbytes if self.is_bytes else 1
        with self._lock:
            return self._cells[index].execute(amount, self._clock() * 1e6)

    def set_config(self, index: int, config: MeterConfig | None) -> None:
        self._check(index)
        if config is not None:
            validate_config(config)
        with self._lock:
            self._cells[index].configure(config, self._clock() * 1e6)

    def get_config(self, index: int) -> MeterConfig | None:
        self._check(index)
        return self._cells[index].config

    def reset(self) -> None:
        with self._lock:
            for cell in self._cells:
                cell.configure(None, 0.0)

    def _check(self, index: int) -> None:
        if not isinstance(index, int) or not 0 <= index < self.size:
            raise TableError(TableErrorCode.INVALID_INDEX,
                             f"meter {self.name}: index {index} not in [0, {self.size})")
