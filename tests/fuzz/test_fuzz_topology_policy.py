"""Seeded mutations of the shipped topologies and policies: each mutant is refused
cleanly (a ConfigError whose every line names the file and a field) or it validates;
no input makes the loaders, fabricctl or the launch plan raise anything else.

Plan only: the launch is planned (plan_launch: every check it makes before creating
anything) and never entered, so no namespace is created. Bounded by FUZZ_SECONDS
(default 30). Reproduce one case with FUZZ_SEED=<seed> FUZZ_CASE=<n>; a failure
prints both and the mutated files.
"""
from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import random
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from control import fabricctl
from control.errors import ConfigError
from control.launch import plan_launch
from control.policy import load_policy
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
PAIRS = [(ROOT / "topologies/two_leaves.toml", ROOT / "topologies/two_leaves.policy.toml"),
         (ROOT / "topologies/leaf_spine.toml", ROOT / "topologies/leaf_spine.policy.toml")]
SEED = int(os.environ.get("FUZZ_SEED", "20261201"))
SECONDS = float(os.environ.get("FUZZ_SECONDS", "30"))
MAX_CASES = 5000

# Values that confuse types, fall out of range or point at nothing.
NUMBERS = [-1, 0, 1, 2, 7, 63, 64, 255, 256, 510, 511, 512, 4094, 4095, 65535, 65536,
           2**32 - 1, 2**32, 2**63 - 1, -2**63, 0.5, -0.0, 1e9, 1e300, math.inf, -math.inf, math.nan]
STRINGS = ["", " ", "x", "leaf1", "leaf2", "spine1", "nowhere", "h1", "h2", "h3", "collector",
           "leaf1:1", "leaf1:2", "leaf1:255", "leaf1:511", "leaf1:", ":1", "leaf9:1", "leaf1:-1",
           "leaf1:٣", "leaf1:1:2", "10.0.1.1", "10.0.0.300", "10.255.255.254", "224.0.0.1",
           "0.0.0.0", "255.255.255.255", "127.0.0.1:9559", "127.0.0.1:notaport", "127.0.0.1:0",
           "127.0.0.1:99999", "[::1]:9559", "10.9.9.9:1", "localhost:9999", "00:00:0a:00:01:01",
           "00:11", "01:00:5e:00:00:01", "00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff",
           "10.0.1.0/24", "10.0.1.1/33", "10.0.1.1/24", "round_robin", "entropy", "spine",
           "a" * 80, "h/1", "lé1", "\u0000", "true"]
OTHER = [True, False, [], [1], ["h1", "h1"], {}, {"x": 1}, [{}], [{"name": "x"}]]
# Values aimed at one field (by its key), so near-valid mistakes come up often.
NAMES = ["leaf1", "leaf2", "spine1", "h1", "h2", "h3", "collector", "nowhere", "", "a" * 80, "h/1",
         "leaf 1", "lé1", "leaf-number-two"]
BY_KEY = {
    "grpc": ["127.0.0.1:9559", "127.0.0.1:9560", "127.0.0.1:notaport", "127.0.0.1:0", "127.0.0.1:",
             ":9559", "127.0.0.1:99999", "[::1]:9559", "10.9.9.9:1", "localhost:9999", "0.0.0.0:9090",
             "127.0.0.1:٣", "nohostport"],
    "ip": ["10.0.1.1", "10.0.2.1", "10.0.0.300", "10.255.255.254", "224.0.0.1", "0.0.0.0",
           "255.255.255.255", "127.0.0.1", "192.168.100.2", "10.0.1.1/32", "::1"],
    "mac": ["00:00:0a:00:01:01", "00:00:00:00:c0:11", "00:11", "01:00:5e:00:00:01",
            "00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff", "00:AA:00:00:00:01", "0:0:0:0:0:1"],
    "a": ["leaf1:1", "leaf1:2", "leaf1:255", "leaf1:511", "leaf1:", ":1", "leaf9:1", "leaf1:-1",
          "leaf1:٣", "leaf1:1:2", "leaf2:2", "spine1:1", "leaf1:4"],
    "src": ["10.0.1.0/24", "10.0.1.1/33", "10.0.1.1/24", "0.0.0.0/0", "10.0.1.1", "x/8"],
    "name": NAMES, "switch": NAMES, "destination": NAMES, "collector": NAMES,
}
for _key, _same in (("b", "a"), ("port", "a"), ("members", "a"), ("dst", "src")):
    BY_KEY[_key] = BY_KEY[_same]


@dataclass
class Case:
    number: int
    what: list[str]
    topology: str   # file text
    policy: str
    topology_suffix: str
    policy_suffix: str


def test_mutated_topologies_and_policies_are_refused_cleanly_or_validate(tmp_path):
    print(f"fuzz seed {SEED} (FUZZ_SEED), up to {SECONDS:.0f} s")
    only = os.environ.get("FUZZ_CASE")
    numbers = [int(only)] if only is not None else range(MAX_CASES)
    deadline = time.monotonic() + SECONDS
    outcomes = {"refused": 0, "valid": 0}
    for number in numbers:
        if time.monotonic() > deadline:
            break
        case = make_case(number)
        outcome = run_case(case, tmp_path)
        outcomes[outcome] += 1
    print(f"{sum(outcomes.values())} cases: {outcomes}")
    assert outcomes["refused"] > 0 and sum(outcomes.values()) >= (1 if only else 50)


def make_case(number: int) -> Case:
    """Case ``number`` of this seed: the same mutations every time."""
    rng = random.Random(f"{SEED}:{number}")
    topology_path, policy_path = rng.choice(PAIRS)
    docs = {"topology": tomllib.loads(topology_path.read_text()),
            "policy": tomllib.loads(policy_path.read_text())}
    texts = {"topology": topology_path.read_text(), "policy": policy_path.read_text()}
    what: list[str] = [f"base {topology_path.name} + {policy_path.name}"]
    suffixes = {"topology": ".toml", "policy": ".toml"}
    targets = rng.choice([["topology"]] * 9 + [["policy"]] * 9 + [["topology", "policy"]] * 2)
    for target in targets:
        if rng.random() < 0.1:
            texts[target] = mutate_text(rng, texts[target], what, target)
            continue
        for _ in range(rng.choice([1] * 15 + [2] * 4 + [3])):
            mutate(rng, docs[target], what, target)
        suffixes[target] = rng.choice([".toml", ".json"])
        texts[target] = to_json(docs[target]) if suffixes[target] == ".json" else to_toml(docs[target])
    return Case(number, what, texts["topology"], texts["policy"], suffixes["topology"], suffixes["policy"])


def run_case(case: Case, tmp_path: Path) -> str:
    directory = tmp_path / f"case{case.number}"
    directory.mkdir()
    topology = directory / f"topology{case.topology_suffix}"
    policy = directory / f"policy{case.policy_suffix}"
    topology.write_text(case.topology)
    policy.write_text(case.policy)
    try:
        return check(topology, policy, directory)
    except AssertionError as exc:
        raise AssertionError(f"{explain(case, topology, policy)}\n{exc}") from None
    except Exception as exc:
        raise AssertionError(f"{explain(case, topology, policy)}\nraised {exc!r}") from exc


def explain(case: Case, topology: Path, policy: Path) -> str:
    return (f"FUZZ_SEED={SEED} FUZZ_CASE={case.number}: {'; '.join(case.what)}\n"
            f"--- {topology.name}\n{case.topology}\n--- {policy.name}\n{case.policy}")


def check(topology: Path, policy: Path, directory: Path) -> str:
    """'refused' or 'valid'; an AssertionError or any other exception is a finding."""
    outcome = "valid"
    try:
        topo = load_topology(str(topology))
        load_policy(str(policy), topo)
    except ConfigError as exc:
        assert_located(exc, {str(topology), str(policy)})
        outcome = "refused"
    # The entry points: fabricctl (in process) and the launch plan, on the same files.
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = fabricctl.main(["show", "routes", "--topology", str(topology), "--policy", str(policy),
                                 "--log-level", "error"])
    assert status == (2 if outcome == "refused" else 0), stderr.getvalue()
    try:
        planned = plan_launch(topology, policy=policy, tag=f"fz{os.getpid()}")
    except ConfigError as exc:
        assert_located(exc, {str(topology.resolve()), str(topology), str(policy), "launch"})
        return "refused"
    planned.close()
    assert outcome == "valid", "the launch plan accepted what the loaders refused"
    return outcome


def assert_located(exc: ConfigError, files: set[str]) -> None:
    text = exc.render()
    assert exc.problems, "a ConfigError with no problem"
    for line in text.splitlines():
        path, sep, rest = line.partition(": ")
        assert sep and path in files, f"not located in a file: {line!r}"
        field, sep, reason = rest.partition(": ")
        assert sep and field.strip() and reason.strip(), f"no field or reason: {line!r}"


# -- mutations -----------------------------------------------------------------------
def slots(node: Any, path: tuple = ()) -> list[tuple[Any, Any, tuple]]:
    """Every (container, key, path) in a parsed document."""
    found = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for key, value in items:
        found.append((node, key, path + (key,)))
        found.extend(slots(value, path + (key,)))
    return found


def random_value(rng: random.Random, doc: dict, key: Any = None, current: Any = None) -> Any:
    """A value for field ``key`` (now ``current``): mostly one aimed at that field."""
    if rng.random() < 0.7:
        if key in BY_KEY and isinstance(current, (str, list)):
            return rng.choice(BY_KEY[key]) if isinstance(current, str) \
                else [rng.choice(BY_KEY[key]) for _ in range(rng.randint(0, 3))]
        if isinstance(current, (int, float)) and not isinstance(current, bool):
            return rng.choice(NUMBERS)
    pool = rng.choice([NUMBERS, STRINGS, OTHER, "copy"])
    if pool == "copy":  # a value from elsewhere in the document: duplicates, wrong places
        _, _, path = rng.choice(slots(doc))
        node: Any = doc
        for key in path:
            node = node[key]
        return copy.deepcopy(node)
    return copy.deepcopy(rng.choice(pool))


def mutate(rng: random.Random, doc: dict, what: list[str], target: str) -> None:
    everything = slots(doc)
    by_name: dict[str, list[tuple[Any, Any, tuple]]] = {}
    for slot in everything:  # every field name equally likely, however often it occurs
        by_name.setdefault(str(_field_name(slot[2])), []).append(slot)
    if by_name:
        container, key, path = rng.choice(by_name[rng.choice(sorted(by_name))])
    else:
        container, key, path = doc, "x", ("x",)
    where = f"{target}:{'.'.join(map(str, path))}"
    operation = rng.choice(["set"] * 6 + ["delete", "unknown", "duplicate", "section"])
    if operation == "set":
        value = random_value(rng, doc, _field_name(path), container[key])
        container[key] = value
        what.append(f"{where} = {value!r}"[:200])
    elif operation == "delete":
        del container[key]
        what.append(f"delete {where}")
    elif operation == "unknown":
        table = container[key] if isinstance(container[key], dict) else doc
        table["colour"] = "red"
        what.append(f"unknown field under {where}")
    elif operation == "duplicate":
        lists = [(c, k) for c, k, _ in everything if isinstance(c[k], list) and c[k]]
        if lists:
            holder, name = rng.choice(lists)
            holder[name].append(copy.deepcopy(rng.choice(holder[name])))
            what.append(f"duplicate an element of {target}:{name}")
    else:  # a whole known section replaced or removed
        section = rng.choice(["switches", "hosts", "links", "collector", "spraying", "partitions",
                              "int", "ecn", "trim", "credit"])
        doc[section] = random_value(rng, doc) if rng.random() < 0.7 else []
        what.append(f"{target}:{section} = {doc[section]!r}"[:200])


def _field_name(path: tuple) -> Any:
    """The key a value sits under: members[0] -> members, switches[1] -> switches."""
    named = [key for key in path if not isinstance(key, int)]
    return named[-1] if named else path[-1]


def mutate_text(rng: random.Random, text: str, what: list[str], target: str) -> str:
    lines = text.splitlines()
    index = rng.randrange(len(lines))
    operation = rng.choice(["drop", "repeat", "truncate", "garbage"])
    what.append(f"{target} text: {operation} line {index + 1}")
    if operation == "drop":
        del lines[index]
    elif operation == "repeat":
        lines.insert(index, lines[index])
    elif operation == "truncate":
        return "\n".join(lines)[:rng.randrange(len(text))]
    else:
        lines[index] = lines[index][:rng.randrange(len(lines[index]) + 1)] + rng.choice("[]=\"'{}#\\\x00é")
    return "\n".join(lines) + "\n"


# -- writers: TOML (inline tables, which the parser reads the same) and JSON ----------
def to_json(doc: dict) -> str:
    return json.dumps(doc, indent=1)


def to_toml(doc: dict) -> str:
    return "".join(f"{_toml_key(key)} = {_toml_value(value)}\n" for key, value in doc.items())


def _toml_key(key: Any) -> str:
    return json.dumps(str(key), ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(max(-2**63, min(2**63 - 1, value)))  # TOML integers are 64-bit
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) \
            else repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")
