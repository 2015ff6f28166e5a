"""Register arrays: cells of a fixed bit width."""
from __future__ import annotations

from p4sim.switch.errors import PipelineFault
from p4sim.switch.runtime_api import TableError, TableErrorCode


class RegisterArray:
    def __init__(self, name: str, size: int, bitwidth: int) -> None:
        self.name = name
        self.size = size
        self.bitwidth = bitwidth
        self._mask = (1 << bitwidth) - 1
        self._cells = [0] * size

    def read_checked(self, index: int) -> int:
        """Per-packet read; an out-of-range index is a pipeline error."""
        if not 0 <= index < self.size:
            raise PipelineFault(f"register {self.name}: index {index} out of range "
                                f"(size {self.size})")
        return self._cells[index]

    def write_checked(self, index: int, value: int) -> None:
        if not 0 <= index < self.size:
            raise PipelineFault(f"register {self.name}: index {index} out of range "
                                f"(size {self.size})")
        self._cells[index] = value & self._mask

    def read(self, index: int) -> int:
        self._check(index)
        return self._cells[index]

    def write(self, index: int, value: int) -> None:
        self._check(index)
        if value < 0 or value > self._mask:
            raise TableError(TableErrorCode.ERROR,
                             f"register {self.name}: value {value} does not fit "
                             f"{self.bitwidth} bits")
        self._cells[index] = value

    def reset(self) -> None:
        self._cells = [0] * self.size

    def _check(self, index: int) -> None:
        if not isinstance(index, int) or not 0 <= index < self.size:
            raise TableError(TableErrorCode.INVALID_INDEX,
                             f"register {self.name}: index {index} not in [0, {self.size})")
