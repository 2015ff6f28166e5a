"""The loaded program as the CLI sees it (what simple_switch_CLI reads from the
switch's JSON): tables, actions, profiles, counters, registers, meters, with
simple_switch_CLI's name lookup: a full name or any unique dotted suffix of one."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from p4sim.switch.cli_commands.errors import CliError

PRIORITY_KINDS = {"ternary", "range", "optional"}


@dataclass
class TableInfo:
    name: str
    match_type: str
    type: str                            # simple, indirect, indirect_ws
    action_profile: str | None
    keys: list[tuple[str, str, int]]     # (name, match kind, bit width)
    actions: list[str]

    @property
    def needs_priority(self) -> bool:
        return any(kind in PRIORITY_KINDS for _n, kind, _w in self.keys)


@dataclass
class ProgramInfo:
    tables: dict[str, TableInfo] = field(default_factory=dict)
    actions: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    profiles: dict[str, dict] = field(default_factory=dict)
    counters: dict[str, dict] = field(default_factory=dict)
    registers: dict[str, dict] = field(default_factory=dict)
    meters: dict[str, dict] = field(default_factory=dict)
    loaded: bool = True

    @classmethod
    def from_description(cls, data: dict[str, Any]) -> "ProgramInfo":
        """From the control channel's `describe` reply."""
        if not data.get("loaded"):
            return cls(loaded=False)
        return cls(
            tables={t["name"]: TableInfo(t["name"], t["match_type"], t["type"],
                                         t["action_profile"],
                                         [(k[0], k[1], int(k[2])) for k in t["keys"]],
                                         list(t["actions"]))
                    for t in data["tables"]},
            actions={a["name"]: [(p[0], int(p[1])) for p in a["params"]]
                     for a in data["actions"]},
            profiles={p["name"]: p for p in data["action_profiles"]},
            counters={c["name"]: c for c in data["counters"]},
            registers={r["name"]: r for r in data["registers"]},
            meters={m["name"]: m for m in data["meters"]})

    def lookup(self, kind: str, name: str) -> str:
        """The full name `name` stands for, or CliError "Invalid <kind> name (...)"."""
        objects = self._objects(kind)
        if name in objects:
            return name
        suffixes = Counter(suffix for full in objects for suffix in _suffixes(full))
        matches = [full for full in objects if name in _suffixes(full)]
        if len(matches) == 1 and suffixes[name] == 1:
            return matches[0]
        if not self.loaded:
            cause = f"unknown {kind} {name!r}: the switch has no program loaded"
        elif matches:
            cause = f"{kind} name {name!r} is ambiguous: {', '.join(sorted(matches))}"
        else:
            cause = f"unknown {kind} {name!r}; known: {', '.join(sorted(objects)) or 'none'}"
        raise CliError(f"Error: Invalid {kind} name ({name})", cause)

    def table(self, name: str) -> TableInfo:
        return self.tables[self.lookup("table", name)]

    def action_of(self, allowed: list[str], action: str, owner: str) -> str:
        """The full name of `action` among an owner's actions (a table's, a profile's)."""
        matches = [full for full in allowed if action in _suffixes(full)]
        if len(matches) == 1:
            return matches[0]
        raise CliError(f"Error: Table {owner} has no action {action}" if not matches else
                       f"Error: Invalid action name ({action})",
                       f"{owner} has actions {', '.join(allowed)}, not {action!r}")

    def _objects(self, kind: str) -> dict[str, Any]:
        objects: dict[str, dict[str, Any]] = {"table": self.tables, "action": self.actions,
                "action profile": self.profiles, "counter": self.counters,
                "register": self.registers, "meter": self.meters}
        return objects[kind]


def _suffixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[i:]) for i in range(len(parts))]
