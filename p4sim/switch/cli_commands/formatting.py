"""simple_switch_CLI's output shapes: byte strings of values, key and action-data
lines of table_add, table_dump's entries, show_tables / show_actions rows."""
from __future__ import annotations

from typing import Any

from p4sim.switch.cli_commands.program_info import TableInfo
from p4sim.switch.runtime_api import (ExactParam, LpmParam, MatchParam, OptionalParam,
                                      RangeParam, TernaryParam, ValidParam)


def value_bytes(value: int, bitwidth: int) -> bytes:
    return value.to_bytes((bitwidth + 7) // 8, "big")


def colon_hex(value: int, bitwidth: int) -> str:
    """`0a:00:01:01`: how table_add echoes a value."""
    return ":".join(f"{b:02x}" for b in value_bytes(value, bitwidth))


def plain_hex(value: int, bitwidth: int) -> str:
    """`0a000101`: how table_dump shows a value."""
    return value_bytes(value, bitwidth).hex()


def key_echo(param: MatchParam, bitwidth: int) -> str:
    """One key element as table_add's "match key:" line shows it (BmMatchParam)."""
    if isinstance(param, ExactParam):
        return f"EXACT-{colon_hex(param.value, bitwidth)}"
    if isinstance(param, LpmParam):
        return f"LPM-{colon_hex(param.value, bitwidth)}/{param.prefix_len}"
    if isinstance(param, TernaryParam):
        return (f"TERNARY-{colon_hex(param.value, bitwidth)} &&& "
                f"{colon_hex(param.mask, bitwidth)}")
    if isinstance(param, RangeParam):
        return f"RANGE-{colon_hex(param.low, bitwidth)} -> {colon_hex(param.high, bitwidth)}"
    if isinstance(param, OptionalParam):
        if param.value is None:
            return "OPTIONAL-*"
        return f"OPTIONAL-{colon_hex(param.value, bitwidth)}"
    assert isinstance(param, ValidParam)
    return "VALID-"


def labelled(label: str, text: str) -> str:
    """`match key:           ...`: a 20-wide label, as simple_switch_CLI aligns them."""
    return f"{label:20} {text}"


def table_row(table: TableInfo) -> str:
    keys = ",\t".join(f"{name}({kind}, {width})" for name, kind, width in table.keys)
    return f"{table.name:30} [implementation={table.action_profile}, mk={keys}]"


def action_row(name: str, params: list[tuple[str, int]]) -> str:
    data = ",\t".join(f"{param}({width})" for param, width in params)
    return f"{name:30} [{data}]"


def action_entry(action: str | None, args: list[int], params: list[tuple[str, int]]) -> str:
    if action is None:
        return "EMPTY"
    data = ", ".join(plain_hex(v, w) for v, (_p, w) in zip(args, params))
    return f"Action entry: {action} - {data}"


def _dumped_key(key: dict[str, Any], width: int) -> str:
    kind = key["kind"]
    if kind == "exact":
        return plain_hex(key["value"], width)
    if kind == "lpm":
        return f"{plain_hex(key['value'], width)}/{key['prefix_len']}"
    if kind == "ternary":
        return f"{plain_hex(key['value'], width)} &&& {plain_hex(key['mask'], width)}"
    if kind == "range":
        return f"{plain_hex(key['low'], width)} -> {plain_hex(key['high'], width)}"
    if kind == "optional":
        return "*" if key["value"] is None else plain_hex(key["value"], width)
    return "01" if key["valid"] else "00"


def dump_entry(table: TableInfo, entry: dict[str, Any],
               actions: dict[str, list[tuple[str, int]]]) -> list[str]:
    """One entry of table_dump: handle, key fields, priority, action or member/group."""
    lines = [f"Dumping entry {hex(entry['handle'])}", "Match key:"]
    width = max([20] + [len(name) for name, _k, _w in table.keys])
    for key, (name, kind, bits) in zip(entry["keys"], table.keys):
        lines.append(f"* {name:{width}}: {kind.upper():10}{_dumped_key(key, bits)}")
    if table.needs_priority:
        lines.append(f"Priority: {entry['priority']}")
    if entry["member"] is not None:
        lines.append(f"Index: member({entry['member']})")
    elif entry["group"] is not None:
        lines.append(f"Index: group({entry['group']})")
    else:
        lines.append(action_entry(entry["action"], entry["args"],
                                  actions.get(entry["action"] or "", [])))
    if entry.get("ttl_ms") is not None:
        lines.append(f"Life: timeout is {entry['ttl_ms']}ms")
    return lines
