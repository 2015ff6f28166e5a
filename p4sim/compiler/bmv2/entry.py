"""The opening every named BMv2 JSON object shares."""
from __future__ import annotations

from typing import Any


def named_entry(obj: Any) -> dict:
    """``{"name", "id"}`` plus ``source_info`` when the object has one, in the key order
    p4c writes (so the JSON text stays byte-identical to p4c's)."""
    entry: dict = {"name": obj.name, "id": obj.id}
    if obj.source_info:
        entry["source_info"] = obj.source_info
    return entry
