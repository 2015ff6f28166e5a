"""Tiny generated functions for the hottest per-packet loops (bit packing and
unpacking of headers and field lists), built once at load time from integers only."""
from __future__ import annotations

from typing import Callable


def make_packer(slots_shifts: list[tuple[int, int]]) -> Callable[[list], int]:
    """f -> OR of f[slot] << shift, as one generated expression."""
    if not slots_shifts:
        return lambda f: 0
    terms = " | ".join(f"(f[{int(s)}] << {int(sh)})" if sh else f"f[{int(s)}]"
                       for s, sh in slots_shifts)
    return eval(f"lambda f: {terms}", {"__builtins__": {}})  # noqa: S307 - ints only


def make_unpacker(shifts_masks: list[tuple[int, int]]) -> Callable[[int], list]:
    """v -> [(v >> shift) & mask, ...] as one generated expression."""
    items = ", ".join(f"(v >> {int(s)}) & {int(m)}" if s else f"v & {int(m)}"
                      for s, m in shifts_masks)
    return eval(f"lambda v: [{items}]", {"__builtins__": {}})  # noqa: S307 - ints only
