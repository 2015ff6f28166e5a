"""Lookup structures, one per table match type, over a table's concatenated key.

A key is one int: every key element's value placed at its own bit offset. An entry
matches when `key & mask == value` and every range element is within its bounds.
Writers replace the structures they change instead of mutating lists that a
packet thread may be iterating (the exact unit's dict, which a packet thread only
reads with one `get`, is changed in place). Each unit's `items` is empty exactly when
the unit holds no entry: a table's apply tests it to skip building the key of an
empty table.
"""
from __future__ import annotations

import bisect
from typing import Any


class MatchSpec:
    """The compiled match of one entry over the concatenated key."""

    __slots__ = ("value", "mask", "ranges", "priority")

    def __init__(self, value: int, mask: int, ranges: tuple, priority: int) -> None:
        self.value = value
        self.mask = mask
        self.ranges = ranges      # ((shift, field_mask, low, high), ...)
        self.priority = priority

    def identity(self) -> tuple:
        return (self.value, self.mask, self.ranges, self.priority)


class ExactUnit:
    """Exact (and valid) keys: one dict lookup."""

    def __init__(self) -> None:
        self.items: dict[int, Any] = {}     # one dict for the unit's lifetime

    def insert(self, spec: MatchSpec, entry: Any) -> None:
        self.items[spec.value] = entry

    def remove(self, spec: MatchSpec) -> None:
        self.items.pop(spec.value, None)

    def find(self, spec: MatchSpec) -> Any:
        return self.items.get(spec.value)

    def lookup(self, key: int) -> Any:
        return self.items.get(key)

    def clear(self) -> None:
        self.items.clear()


class LpmUnit:
    """Longest prefix: one dict per mask, tried from the longest mask down."""

    def __init__(self) -> None:
        self._by_mask: dict[int, dict[int, Any]] = {}
        self.items: list[tuple[int, dict[int, Any]]] = []   # (mask, bucket), longest first

    def _reorder(self) -> None:
        self.items = sorted(((m, d) for m, d in self._by_mask.items() if d),
                             key=lambda md: -bin(md[0]).count("1"))

    def insert(self, spec: MatchSpec, entry: Any) -> None:
        bucket = self._by_mask.get(spec.mask)
        if bucket is None:
            bucket = {}
            self._by_mask[spec.mask] = bucket
            bucket[spec.value] = entry
            self._reorder()
        else:
            bucket[spec.value] = entry

    def remove(self, spec: MatchSpec) -> None:
        bucket = self._by_mask.get(spec.mask)
        if bucket is not None:
            bucket.pop(spec.value, None)
            if not bucket:
                del self._by_mask[spec.mask]
                self._reorder()

    def find(self, spec: MatchSpec) -> Any:
        return self._by_mask.get(spec.mask, {}).get(spec.value)

    def lookup(self, key: int) -> Any:
        for mask, bucket in self.items:
            entry = bucket.get(key & mask)
            if entry is not None:
                return entry
        return None

    def clear(self) -> None:
        self._by_mask = {}
        self.items = []


class TernaryUnit:
    """Ternary, range and optional keys: entries scanned in priority order
    (smaller numerical priority first, as bm_sim; ties go to the smaller handle)."""

    def __init__(self) -> None:
        self.items: list[tuple[MatchSpec, Any]] = []
        self._index: dict[tuple, Any] = {}

    @staticmethod
    def _order(item: tuple[MatchSpec, Any]) -> tuple[int, int]:
        return (item[0].priority, item[1].handle)

    def insert(self, spec: MatchSpec, entry: Any) -> None:
        entries = list(self.items)
        bisect.insort(entries, (spec, entry), key=self._order)
        self._index[spec.identity()] = entry
        self.items = entries

    def remove(self, spec: MatchSpec) -> None:
        entry = self._index.pop(spec.identity(), None)
        if entry is not None:
            self.items = [se for se in self.items if se[1] is not entry]

    def find(self, spec: MatchSpec) -> Any:
        return self._index.get(spec.identity())

    def lookup(self, key: int) -> Any:
        for spec, entry in self.items:
            if key & spec.mask == spec.value:
                for shift, fmask, low, high in spec.ranges:
                    if not low <= (key >> shift) & fmask <= high:
                        break
                else:
                    return entry
        return None

    def clear(self) -> None:
        self.items = []
        self._index = {}


def make_unit(match_type: str) -> ExactUnit | LpmUnit | TernaryUnit:
    if match_type == "exact":
        return ExactUnit()
    if match_type == "lpm":
        return LpmUnit()
    return TernaryUnit()
