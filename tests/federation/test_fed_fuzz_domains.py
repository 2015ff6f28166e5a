"""Seeded mutations of two_domains.toml: each mutant is refused cleanly (a ConfigError
whose every line names the file and a field) or validates, and what validates exports
to Containerlab and imports back equal; nothing else is ever raised. Deterministic:
FUZZ_SEED picks the mutants, FUZZ_CASES how many (default 1000)."""
from __future__ import annotations

import copy
import json
import math
import os
import random
import tomllib
from pathlib import Path
from typing import Any

import yaml

from control.errors import ConfigError
from control.export.clab_import import load_containerlab
from control.export.containerlab import containerlab_problems, dump_containerlab, to_containerlab
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
BASE = tomllib.loads((ROOT / "topologies/two_domains.toml").read_text())
SEED = int(os.environ.get("FUZZ_SEED", "20261202"))
CASES = int(os.environ.get("FUZZ_CASES", "1000"))
VALUES: list[Any] = [
    -1, 0, 1, 2, 5, 9, 65535, 65536, 2**64, 0.5, math.inf, True, None, "", "x", "5ms", "0ms",
    "100mbit", "1e3ms", "5", "west", "east", "north", "w-leaf1", "w-bd1", "e-bd2", "h1", "h3",
    "w-bd1:2", "e-bd1:2", "w-leaf1:3", "zz:1", "w-bd1:511", "10.1.1.1", "00:00:0a:01:01:01",
    [], ["w-bd1"], ["e-bd1", "w-bd1"], ["h1", "h1"], ["west"], [1], {}, {"name": "c"}]


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, prefix + (i,))
    return found


def _mutate(doc: dict, rng: random.Random) -> None:
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(doc))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        choice = rng.random()
        if choice < 0.2 and isinstance(parent, dict):
            del parent[last]
        elif choice < 0.3 and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[last]))
        else:
            parent[last] = copy.deepcopy(rng.choice(VALUES))


def test_mutants_are_refused_cleanly_or_round_trip(tmp_path):
    rng = random.Random(SEED)
    path = tmp_path / "mutant.json"
    lab_path = tmp_path / "mutant.clab.yml"
    valid = refused = 0
    for case in range(CASES):
        doc = copy.deepcopy(BASE)
        _mutate(doc, rng)
        text = json.dumps(doc, allow_nan=True)
        path.write_text(text)
        try:
            topo = load_topology(str(path))
        except ConfigError as exc:
            refused += 1
            lines = exc.render().splitlines()
            assert lines and all(line.startswith(f"{path}: ") and line.count(": ") >= 2 for line in lines), \
                f"case {case}: {text}\n{exc.render()}"
            continue
        except Exception as exc:  # noqa: BLE001 - the point: nothing else may escape
            raise AssertionError(f"case {case} (seed {SEED}) raised {exc!r} for {text}") from exc
        valid += 1
        clashes = containerlab_problems(topo)
        if clashes:  # a host named like a switch: valid here, one namespace of nodes there
            assert all("also a switch's name" in reason for _, reason in clashes)
            continue
        lab_path.write_text(dump_containerlab(to_containerlab(topo, "mutant")))
        assert load_containerlab(str(lab_path)) == topo, f"case {case}: {text}"
        assert yaml.safe_load(lab_path.read_text())["name"] == "mutant"
    print(f"{CASES} mutants of two_domains.toml: {refused} refused, {valid} valid and round-tripped")
    assert refused > 0 and valid > 0
