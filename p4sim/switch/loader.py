"""Shared load-time machinery: JSON access that fails with a quoted fragment, the
version check, and the LoadContext that compile steps share.

Nothing here runs per packet.
"""
from __future__ import annotations

import logging
import random
import time
from typing import Any, Callable

from p4sim.switch.errors import LoadError
from p4sim.switch.packet import PhvLayout

SUPPORTED_MAJOR = 2
REQUIRED_KEYS = ("header_types", "headers", "parsers", "deparsers", "actions", "pipelines")


def require(obj: Any, key: str, where: str, kinds: type | tuple[type, ...] | None = None) -> Any:
    """obj[key], or a LoadError quoting obj when it is missing or of the wrong type."""
    if not isinstance(obj, dict):
        raise LoadError(where, "expected a JSON object", obj)
    if key not in obj:
        raise LoadError(where, f"missing key {key!r}", obj)
    value = obj[key]
    if kinds is not None and not isinstance(value, kinds):
        names = kinds.__name__ if isinstance(kinds, type) else "/".join(k.__name__ for k in kinds)
        raise LoadError(where, f"key {key!r} must be {names}", obj)
    return value


# Extern arrays (counters, meters, registers) are allocated cell by cell at load time;
# a bound keeps a bad size from exhausting memory.  Tables and value sets allocate per
# entry, so only their sign is checked.
MAX_ARRAY_CELLS = 1 << 22


def require_size(obj: Any, key: str, where: str, default: int | None = None,
                 limit: int | None = None, minimum: int = 0) -> int:
    """A size (or width) obj[key]: an int in [minimum, limit], else a LoadError quoting
    obj; `default` when the key is absent or null (None: the key is required)."""
    value = obj.get(key) if isinstance(obj, dict) else None
    if value is None:
        if default is not None:
            return default
        return require(obj, key, where, int)
    if isinstance(value, bool) or not isinstance(value, int):
        raise LoadError(where, f"{key} must be an integer, got {value!r}", obj)
    if value < minimum:
        raise LoadError(where, f"{key} {value} is below {minimum}", obj)
    if limit is not None and value > limit:
        raise LoadError(where, f"{key} {value} is over this switch's limit of {limit}", obj)
    return value


def parse_hexstr(text: Any, where: str, fragment: Any = None) -> int:
    """A BMv2 hexstr ('0x0800', '-0x1') as an int."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise LoadError(where, f"expected a hex string, got {text!r}", fragment)
    if isinstance(text, int):
        return text
    try:
        return int(text, 16)
    except ValueError:
        raise LoadError(where, f"bad hex string {text!r}", fragment) from None


def check_meta(doc: Any) -> None:
    """Refuse anything that is not a BMv2 JSON of a major version we implement."""
    if not isinstance(doc, dict):
        raise LoadError("top level", "a BMv2 JSON document must be a JSON object", doc)
    meta = doc.get("__meta__")
    if meta is None:
        raise LoadError("__meta__", "missing __meta__ (with version [2, minor])", None)
    version = require(meta, "version", "__meta__", list)
    if (len(version) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in version)):
        raise LoadError("__meta__.version", "must be [major, minor]", meta)
    if version[0] != SUPPORTED_MAJOR:
        raise LoadError("__meta__.version",
                        f"unsupported BMv2 JSON major version {version[0]} "
                        f"(this switch reads {SUPPORTED_MAJOR}.x)", meta)
    for key in REQUIRED_KEYS:
        require(doc, key, "top level", list)


class LoadContext:
    """What the compile steps of one program share while building closures."""

    def __init__(self, doc: dict, clock: Callable[[], float] | None,
                 rng: random.Random | None, logger: logging.Logger | None) -> None:
        self.doc = doc
        self.layout = PhvLayout()
        self.clock = clock or time.monotonic
        self.rng = rng or random.Random()
        self.logger = logger or logging.getLogger("p4sim.switch")
        self.errors: dict[str, int] = {}
        self.calculations: dict[str, Any] = {}
        self.counters: dict[str, Any] = {}
        self.meters: dict[str, Any] = {}
        self.direct_meters: dict[str, dict] = {}
        self.registers: dict[str, Any] = {}
        self.value_sets: dict[str, Any] = {}
        self.learn_lists: dict[int, tuple[str, list[int]]] = {}
        self.learn_list_fields: dict[int, list[tuple[str, str]]] = {}
        self.extern_instances: dict[str, dict] = {}

    def error_code(self, name: str) -> int:
        """Numeric value of a P4 error, from the JSON (core defaults otherwise)."""
        if name in self.errors:
            return self.errors[name]
        return CORE_ERRORS[name]


CORE_ERRORS = {
    "NoError": 0, "PacketTooShort": 1, "NoMatch": 2, "StackOutOfBounds": 3,
    "HeaderTooShort": 4, "ParserTimeout": 5, "ParserInvalidArgument": 6,
}
