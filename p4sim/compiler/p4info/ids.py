"""P4Runtime object IDs computed the way p4c computes them.

An ID is ``prefix << 24 | low24``. ``low24`` is the low 24 bits of a Jenkins
one-at-a-time hash of the object's fully qualified name. Objects with an ``@id`` keep it
(the prefix is added when absent). The remaining names of one kind are hashed in sorted
(byte) order, and a taken ID makes the hash input value step up by one until a free ID
is found, so two compilers agree on every ID, collisions included.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from p4sim.compiler.p4info.errors import P4InfoError

_LOW_BITS = 0xFFFFFF
_WORD = 0xFFFFFFFF


class IdPrefix(IntEnum):
    """The object-type byte of an ID (p4info.proto ``P4Ids.Prefix``)."""

    ACTION = 0x01
    TABLE = 0x02
    VALUE_SET = 0x03
    CONTROLLER_HEADER = 0x04
    ACTION_PROFILE = 0x11
    COUNTER = 0x12
    DIRECT_COUNTER = 0x13
    METER = 0x14
    DIRECT_METER = 0x15
    REGISTER = 0x16
    DIGEST = 0x17


def jenkins_one_at_a_time(data: bytes) -> int:
    """Bob Jenkins' one-at-a-time hash over 32-bit unsigned arithmetic."""
    value = 0
    for byte in data:
        value = (value + byte) & _WORD
        value = (value + (value << 10)) & _WORD
        value ^= value >> 6
    value = (value + (value << 3)) & _WORD
    value ^= value >> 11
    value = (value + (value << 15)) & _WORD
    return value


def make_id(prefix: IdPrefix, hash_input: int) -> int:
    return (int(prefix) << 24) | (hash_input & _LOW_BITS)


def fixed_id_with_prefix(prefix: IdPrefix, fixed: int, what: str) -> int:
    """Apply p4c's rule for ``@id``: a value with a type byte must carry the right one;
    a value without one gets it."""
    if fixed < 0 or fixed > _WORD:
        raise P4InfoError(f"{what}: @id {fixed} is not a 32-bit unsigned integer")
    top = fixed >> 24
    if top not in (0, int(prefix)):
        raise P4InfoError(
            f"{what}: @id 0x{fixed:08x} has the wrong 8-bit prefix 0x{top:02x} "
            f"(expected 0x{int(prefix):02x} for {prefix.name.lower()})")
    return fixed | (int(prefix) << 24)


@dataclass
class IdAllocator:
    """Collects (kind, name, @id) symbols, then assigns every ID at once, because a
    name's ID depends on every other name of its kind."""

    _fixed: dict[tuple[IdPrefix, str], int | None] = field(default_factory=dict)
    _ids: dict[tuple[IdPrefix, str], int] | None = None

    def add(self, prefix: IdPrefix, name: str, fixed: int | None = None) -> None:
        """Register a symbol; a repeated (kind, name) is ignored, as p4c does."""
        if self._ids is not None:
            raise RuntimeError("IdAllocator: add() after ids were assigned")
        self._fixed.setdefault((prefix, name), fixed)

    def assign(self) -> None:
        taken: set[int] = set()
        ids: dict[tuple[IdPrefix, str], int] = {}
        for (prefix, name), fixed in self._fixed.items():
            if fixed is None:
                continue
            full = fixed_id_with_prefix(prefix, fixed, f"{prefix.name.lower()} '{name}'")
            if full in taken:
                raise P4InfoError(
                    f"{prefix.name.lower()} '{name}': @id 0x{full:08x} is assigned to "
                    "multiple declarations")
            taken.add(full)
            ids[(prefix, name)] = full
        for prefix in sorted({p for p, _ in self._fixed}):
            unfixed = sorted((n for (p, n), f in self._fixed.items()
                              if p == prefix and f is None), key=lambda n: n.encode())
            for name in unfixed:
                full = _probe(prefix, jenkins_one_at_a_time(name.encode()), taken)
                taken.add(full)
                ids[(prefix, name)] = full
        self._ids = ids

    def get(self, prefix: IdPrefix, name: str) -> int:
        if self._ids is None:
            self.assign()
        assert self._ids is not None
        try:
            return self._ids[(prefix, name)]
        except KeyError:
            raise P4InfoError(
                f"no {prefix.name.lower().replace('_', ' ')} named '{name}' in the "
                "control-plane model") from None


def _probe(prefix: IdPrefix, start: int, taken: set[int]) -> int:
    value = start
    while make_id(prefix, value) in taken:
        value = (value + 1) & _WORD
        if value == start:
            raise P4InfoError(f"no free P4Runtime id left for {prefix.name.lower()}")
    return make_id(prefix, value)


def compute_ids(symbols: Iterable[tuple[IdPrefix, str, int | None]]
                ) -> dict[tuple[IdPrefix, str], int]:
    """IDs for a whole program's symbols at once (kind, name, @id or None)."""
    symbols = list(symbols)
    allocator = IdAllocator()
    for prefix, name, fixed in symbols:
        allocator.add(prefix, name, fixed)
    allocator.assign()
    return {(p, n): allocator.get(p, n) for p, n, _ in symbols}
