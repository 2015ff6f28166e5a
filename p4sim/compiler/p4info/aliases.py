"""P4Info aliases: the shortest dot-separated suffix of a name that no other symbol of
the program shares (p4c counts all kinds of symbols together)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable


class SuffixSet:
    """Counts how many distinct symbols end in each component suffix."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._names: set[str] = set()
        self._counts: Counter[tuple[str, ...]] = Counter()
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        if not name or name in self._names:
            return
        self._names.add(name)
        parts = tuple(name.split("."))
        for start in range(len(parts)):
            self._counts[parts[start:]] += 1

    def alias(self, name: str) -> str:
        if name not in self._names:
            raise KeyError(f"symbol '{name}' is not in the suffix set")
        parts = name.split(".")
        for taken in range(1, len(parts) + 1):
            if self._counts[tuple(parts[-taken:])] < 2:
                return ".".join(parts[-taken:])
        return name
