"""Parser value sets: (value, mask) pairs the parser's select can match."""
from __future__ import annotations

from p4sim.switch.runtime_api import TableError, TableErrorCode


class ValueSet:
    def __init__(self, name: str, bitwidth: int, max_size: int) -> None:
        self.name = name
        self.bitwidth = bitwidth
        self.max_size = max_size
        self._full = (1 << bitwidth) - 1
        self._entries: list[tuple[int, int]] = []

    def add(self, value: int, mask: int | None = None) -> None:
        mask = self._full if mask is None else mask
        if value < 0 or value > self._full or mask < 0 or mask > self._full:
            raise TableError(TableErrorCode.BAD_MATCH_KEY,
                             f"value set {self.name}: value/mask wider than {self.bitwidth} bits")
        entry = (value & mask, mask)
        if entry in self._entries:
            raise TableError(TableErrorCode.DUPLICATE_ENTRY,
                             f"value set {self.name}: {value:#x}/{mask:#x} already present")
        if self.max_size and len(self._entries) >= self.max_size:
            raise TableError(TableErrorCode.TABLE_FULL, f"value set {self.name} is full")
        self._entries = self._entries + [entry]

    def remove(self, value: int, mask: int | None = None) -> None:
        mask = self._full if mask is None else mask
        entry = (value & mask, mask)
        if entry not in self._entries:
            raise TableError(TableErrorCode.INVALID_HANDLE,
                             f"value set {self.name}: {value:#x}/{mask:#x} not present")
        self._entries = [e for e in self._entries if e != entry]

    def clear(self) -> None:
        self._entries = []

    def entries(self) -> list[tuple[int, int]]:
        return list(self._entries)

    def matches(self, key: int) -> bool:
        """Per-packet check; the list is replaced, never mutated, so reads need no lock."""
        for value, mask in self._entries:
            if key & mask == value:
                return True
        return False
