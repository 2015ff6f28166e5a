"""Shared helpers for the back-end tests: compile a program and summarise BMv2 JSON
into the parts whose behaviour must agree with p4c's output."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from p4sim.compiler.driver import CompileResult, compile_program
from p4sim.reference import reference_dir

REFERENCE = reference_dir()
REFERENCE_PROGRAMS = ("l3_lpm", "multipath", "replication", "stack_and_queues")


def compile_file(path: str | Path) -> CompileResult:
    return compile_program(str(path))


def p4c_json(name: str) -> dict:
    return json.loads((REFERENCE / "p4c-out" / f"{name}.json").read_text())


def strip_source_info(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: strip_source_info(v) for k, v in obj.items() if k != "source_info"}
    if isinstance(obj, list):
        return [strip_source_info(v) for v in obj]
    return obj


def is_synthetic(table_name: str) -> bool:
    return table_name.startswith("tbl_")


def tables(doc: dict) -> dict[str, dict]:
    return {t["name"]: t for p in doc["pipelines"] for t in p["tables"]}


def action_names(doc: dict) -> dict[int, str]:
    return {a["id"]: a["name"] for a in doc["actions"]}


def table_summary(doc: dict, table: dict) -> dict:
    """What the control plane and the data path see of a user table."""
    names = action_names(doc)
    default = table.get("default_entry")
    return {
        "key": [(k["match_type"], k["name"], tuple(k["target"])) for k in table["key"]],
        "match_type": table["match_type"],
        "type": table["type"],
        "action_profile": table.get("action_profile"),
        "actions": sorted(table["actions"]),
        "with_counters": table["with_counters"],
        "support_timeout": table["support_timeout"],
        "direct_meters": table["direct_meters"],
        "default": None if default is None else (
            names[default["action_id"]], default["action_const"],
            [int(d, 16) for d in default["action_data"]]),
        "entries": [(strip_source_info(e["match_key"]), names[e["action_entry"]["action_id"]],
                     [int(d, 16) for d in e["action_entry"]["action_data"]], e["priority"])
                    for e in table.get("entries", [])],
    }


def reachable_user_tables(doc: dict, start: str | None) -> frozenset[str]:
    """User tables reachable from a node through conditionals and synthetic tables."""
    by_name: dict[str, dict] = {}
    for p in doc["pipelines"]:
        for t in p["tables"]:
            by_name[t["name"]] = t
        for c in p["conditionals"]:
            by_name[c["name"]] = c
    seen: set[str] = set()
    found: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name is None or name in seen:
            continue
        seen.add(name)
        node = by_name[name]
        if "expression" in node:
            todo += [node["true_next"], node["false_next"]]
            continue
        if not is_synthetic(name):
            found.add(name)
        todo += list(node["next_tables"].values())
    return frozenset(found)


def flow_summary(doc: dict) -> dict[str, Any]:
    """Per pipeline: tables reachable from the start, and per user table and action
    the user tables that can follow."""
    out: dict[str, Any] = {}
    for p in doc["pipelines"]:
        out[p["name"]] = reachable_user_tables(doc, p["init_table"])
        for t in p["tables"]:
            if is_synthetic(t["name"]):
                continue
            for action, nxt in t["next_tables"].items():
                out[f"{t['name']}/{action}"] = reachable_user_tables(doc, nxt)
    return out


def without_ids(items: list[dict]) -> list[dict]:
    return [{k: v for k, v in strip_source_info(i).items() if k != "id"} for i in items]
