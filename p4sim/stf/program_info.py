"""What an STF test needs to know about a program, read from its BMv2 JSON.

Names in STF files may be the full JSON names (``IngressImpl.ipv4_lpm``) or unique
suffixes of them (``ipv4_lpm``), as p4c's runner allows; key names are the JSON key
``name`` (the ``@name`` or the P4 expression) or its unique suffix.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class KeyInfo:
    name: str
    match_kind: str  # exact, lpm, ternary, range, optional, valid
    bitwidth: int


@dataclass(frozen=True)
class ActionInfo:
    name: str
    params: tuple[tuple[str, int], ...]  # (name, bitwidth)


@dataclass(frozen=True)
class TableInfo:
    name: str
    match_type: str  # the table's overall match type in the JSON
    keys: tuple[KeyInfo, ...]
    actions: tuple[ActionInfo, ...]
    kind: str  # simple, indirect, indirect_ws
    action_profile: str | None  # the profile or selector of an indirect table

    @property
    def needs_priority(self) -> bool:
        """BMv2 orders entries by priority in ternary and range tables only (optional is ternary)."""
        return self.match_type in ("ternary", "range", "optional")


@dataclass(frozen=True)
class CounterInfo:
    name: str
    is_direct: bool
    table: str | None  # the table of a direct counter
    size: int


@dataclass(frozen=True)
class RegisterInfo:
    name: str
    size: int
    bitwidth: int


@dataclass(frozen=True)
class MeterInfo:
    name: str
    is_direct: bool
    size: int


class NameError_(LookupError):
    """A name not found, or found more than once (ambiguous suffix)."""


def resolve_name(wanted: str, candidates: list[str], what: str) -> str:
    """Exact name, else the unique candidate ending in ``.wanted``, else ending in it."""
    if wanted in candidates:
        return wanted
    for matches in ([n for n in candidates if n.endswith("." + wanted)],
                    [n for n in candidates if n.endswith(wanted)]):
        unique = sorted(set(matches))
        if len(unique) == 1:
            return unique[0]
        if len(unique) > 1:
            raise NameError_(f"{what} '{wanted}' is ambiguous: {', '.join(unique)}")
    listing = ", ".join(sorted(set(candidates))) or "none"
    raise NameError_(f"no {what} '{wanted}' (the program has: {listing})")


class ProgramInfo:
    """Tables, actions, counters, registers and meters of one BMv2 JSON program."""

    def __init__(self, program: dict[str, Any]) -> None:
        self._field_widths = _field_widths(program)
        actions_by_id = {a["id"]: ActionInfo(a["name"], tuple((p["name"], p["bitwidth"])
                                                               for p in a.get("runtime_data", [])))
                         for a in program.get("actions", [])}
        self.tables: dict[str, TableInfo] = {}
        for pipeline in program.get("pipelines", []):
            for table in pipeline.get("tables", []):
                keys = tuple(self._key_info(key) for key in table.get("key", []))
                actions = tuple(actions_by_id[i] for i in table.get("action_ids", []))
                self.tables[table["name"]] = TableInfo(
                    table["name"], table.get("match_type", "exact"), keys, actions,
                    table.get("type", "simple"), table.get("action_profile"))
        self.counters: dict[str, CounterInfo] = {
            c["name"]: CounterInfo(c["name"], bool(c.get("is_direct")), c.get("binding"),
                                   int(c.get("size", 0)))
            for c in program.get("counter_arrays", [])}
        self.registers: dict[str, RegisterInfo] = {
            r["name"]: RegisterInfo(r["name"], int(r["size"]), int(r["bitwidth"]))
            for r in program.get("register_arrays", [])}
        self.meters: dict[str, MeterInfo] = {
            m["name"]: MeterInfo(m["name"], bool(m.get("is_direct")), int(m.get("size", 0)))
            for m in program.get("meter_arrays", [])}

    def _key_info(self, key: dict[str, Any]) -> KeyInfo:
        target = key.get("target")
        name = key.get("name")
        if not name:
            name = ".".join(target) if isinstance(target, list) else str(target)
        width = self._field_widths.get(tuple(target) if isinstance(target, list) else (), 0)
        if key.get("match_type") == "valid" or (isinstance(target, list) and target[-1] == "$valid$"):
            width = 1
        return KeyInfo(name, key["match_type"], width)

    def table(self, name: str) -> TableInfo:
        return self.tables[resolve_name(name, list(self.tables), "table")]

    def counter(self, name: str) -> CounterInfo:
        return self.counters[resolve_name(name, list(self.counters), "counter")]

    def register(self, name: str) -> RegisterInfo:
        return self.registers[resolve_name(name, list(self.registers), "register")]

    def meter(self, name: str) -> MeterInfo:
        return self.meters[resolve_name(name, list(self.meters), "meter")]


def table_action(table: TableInfo, name: str) -> ActionInfo:
    """The table's action called ``name`` (or a unique suffix of its JSON name)."""
    names = [a.name for a in table.actions]
    resolved = resolve_name(name, names, f"action of table {table.name}")
    return next(a for a in table.actions if a.name == resolved)


def table_key(table: TableInfo, name: str) -> int:
    """The index of the table key called ``name`` (stack ``$N`` written as ``[N]``)."""
    names = [k.name for k in table.keys]
    alternatives = [name, re.sub(r"\$([0-9]+)", r"[\1]", name)]
    if name.endswith(".valid"):
        alternatives.append(name[: -len("valid")] + "$valid$")
    for alternative in alternatives:
        try:
            return names.index(resolve_name(alternative, names, f"key of table {table.name}"))
        except NameError_:
            continue
    resolve_name(name, names, f"key of table {table.name}")  # raises with the listing
    raise AssertionError("unreachable")


def _field_widths(program: dict[str, Any]) -> dict[tuple[str, str], int]:
    """(header instance, field) -> bitwidth, for the widths of table keys."""
    type_fields = {t["name"]: {f[0]: int(f[1]) for f in t.get("fields", []) if isinstance(f[1], int)}
                   for t in program.get("header_types", [])}
    widths: dict[tuple[str, str], int] = {}
    for header in program.get("headers", []):
        for field, width in type_fields.get(header["header_type"], {}).items():
            widths[(header["name"], field)] = width
    return widths
