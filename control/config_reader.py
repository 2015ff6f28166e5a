"""Typed access to a parsed TOML/JSON document that records problems instead of raising.

Both the topology and the policy loaders read user files field by field; each accessor
checks the type and range, records a located problem on failure and returns None, so
one pass reports every problem in the file.
"""
from __future__ import annotations

import ipaddress
import json
import re
import tomllib
from pathlib import Path
from typing import Any

from control.errors import ConfigError, ProblemList

_MAC = re.compile(r"^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$")


def load_document(path: str) -> dict[str, Any]:
    """Parse a .toml or .json file; syntax errors become a ConfigError with the line."""
    text_path = Path(path)
    try:
        raw = text_path.read_bytes()
    except OSError as exc:
        raise ConfigError(path, [("(file)", f"cannot read: {exc.strerror}")]) from None
    try:
        if text_path.suffix == ".json":
            doc = json.loads(raw)
        else:
            doc = tomllib.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(path, [(f"line {exc.lineno} col {exc.colno}", exc.msg)]) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(path, [("(syntax)", str(exc))]) from None
    except RecursionError:
        raise ConfigError(path, [("(syntax)", "nested too deeply to read")]) from None
    if not isinstance(doc, dict):
        raise ConfigError(path, [("(top level)", "must be a table/object")])
    return doc


class Reader:
    """Reads fields of one table at ``where`` (e.g. ``switches[1]``), logging problems."""

    def __init__(self, table: Any, where: str, problems: ProblemList):
        self.where = where
        self.problems = problems
        if not isinstance(table, dict):
            problems.add(where, f"must be a table, not {type(table).__name__}")
            table = {}
        self.table = table
        self._known: set[str] = set()

    def _field(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def _get(self, name: str, required: bool) -> Any:
        self._known.add(name)
        if name not in self.table:
            if required:
                self.problems.add(self._field(name), "missing (required)")
            return None
        if self.table[name] is None:  # JSON's null (TOML has none): not a value, not absent
            self.problems.add(self._field(name), "must not be null")
        return self.table[name]

    def raw(self, name: str, required: bool = True) -> Any:
        """The field's value as parsed, unchecked (None when absent); for nested tables
        and shapes the typed accessors do not cover. Marks the field as known."""
        return self._get(name, required)

    def string(self, name: str, required: bool = True, default: str | None = None) -> str | None:
        value = self._get(name, required)
        if value is None:
            return default
        if not isinstance(value, str) or not value:
            self.problems.add(self._field(name), f"must be a non-empty string, not {value!r}")
            return None
        return value

    def integer(self, name: str, low: int, high: int, required: bool = True,
                default: int | None = None) -> int | None:
        value = self._get(name, required)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.add(self._field(name), f"must be an integer, not {value!r}")
            return None
        if not low <= value <= high:
            self.problems.add(self._field(name), f"{value} is out of range [{low}, {high}]")
            return None
        return value

    def number(self, name: str, low: float, high: float, required: bool = True,
               default: float | None = None) -> float | None:
        value = self._get(name, required)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.problems.add(self._field(name), f"must be a number, not {value!r}")
            return None
        if not low <= value <= high:
            self.problems.add(self._field(name), f"{value} is out of range [{low}, {high}]")
            return None
        return float(value)

    def choice(self, name: str, choices: tuple[str, ...], required: bool = True,
               default: str | None = None) -> str | None:
        value = self.string(name, required, default)
        if value is not None and value not in choices:
            self.problems.add(self._field(name), f"{value!r} is not one of {', '.join(choices)}")
            return None
        return value

    def ipv4(self, name: str, required: bool = True) -> str | None:
        value = self.string(name, required)
        if value is None:
            return None
        try:
            return str(ipaddress.IPv4Address(value))
        except ValueError:
            self.problems.add(self._field(name), f"{value!r} is not an IPv4 address")
            return None

    def ipv4_prefix(self, name: str, required: bool = True) -> str | None:
        value = self.string(name, required)
        if value is None:
            return None
        try:
            return str(ipaddress.IPv4Network(value, strict=True))
        except ValueError as exc:
            self.problems.add(self._field(name), f"{value!r} is not an IPv4 prefix ({exc})")
            return None

    def mac(self, name: str, required: bool = True) -> str | None:
        value = self.string(name, required)
        if value is not None and not _MAC.match(value):
            self.problems.add(self._field(name), f"{value!r} is not a MAC address (aa:bb:cc:dd:ee:ff)")
            return None
        return value.lower() if value else None

    def table_list(self, name: str, required: bool = True) -> list[Any]:
        value = self._get(name, required)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problems.add(self._field(name), "must be an array of tables")
            return []
        return value

    def reject_unknown(self) -> None:
        """Report fields the schema does not know: a typo must not be silently ignored."""
        for key in self.table:
            if key not in self._known:
                self.problems.add(self._field(key), "unknown field")
