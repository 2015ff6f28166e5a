"""IDs of the members of one object (match fields, action params, packet metadata):
``@id`` values first, then 1, 2, 3... by position, skipping taken numbers. A member
with an @id still uses up its position, as in p4c."""
from __future__ import annotations

from collections.abc import Sequence

from p4sim.compiler.p4info.errors import P4InfoError


def allocate_field_ids(fixed: Sequence[int | None], owner: str) -> list[int]:
    taken: set[int] = set()
    for position, value in enumerate(fixed):
        if value is None:
            continue
        if value <= 0:
            raise P4InfoError(f"{owner}: member {position + 1}: {value} is not a valid @id value")
        if value in taken:
            raise P4InfoError(f"{owner}: member {position + 1}: @id {value} is used multiple times")
        taken.add(value)
    result: list[int] = []
    index = 1
    for value in fixed:
        if value is not None:
            result.append(value)
            index += 1
            continue
        while index in taken:
            index += 1
        result.append(index)
        taken.add(index)
    return result
