"""Indirect counter arrays; bmv2 counters always count both bytes and packets."""
from __future__ import annotations

from p4sim.switch.errors import PipelineFault
from p4sim.switch.runtime_api import TableError, TableErrorCode


class CounterArray:
    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self._bytes = [0] * size
        self._packets = [0] * size

    def _check(self, index: int) -> None:
        if not isinstance(index, int) or not 0 <= index < self.size:
            raise TableError(TableErrorCode.INVALID_INDEX,
                             f"counter {self.name}: index {index} not in [0, {self.size})")

    def count(self, index: int, nbytes: int) -> None:
        """Per-packet update; an out-of-range index is a pipeline error."""
        if not 0 <= index < self.size:
            raise PipelineFault(f"counter {self.name}: index {index} out of range "
                                f"(size {self.size})")
        self._bytes[index] += nbytes
        self._packets[index] += 1

    def read(self, index: int) -> tuple[int, int]:
        """(bytes, packets)."""
        self._check(index)
        return self._bytes[index], self._packets[index]

    def write(self, index: int, nbytes: int, packets: int) -> None:
        self._check(index)
        if nbytes < 0 or packets < 0:
            raise TableError(TableErrorCode.ERROR, "counter values must be non-negative")
        self._bytes[index] = nbytes
        self._packets[index] = packets

    def reset(self) -> None:
        self._bytes = [0] * self.size
        self._packets = [0] * self.size
