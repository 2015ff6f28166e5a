"""The rules of Containerlab's published topology schema (schemas/clab.schema.json in
the containerlab repository, JSON Schema draft-07), checked by hand.

Facts read from the schema (not its text, which is not vendored here):

- the file is an object with the required keys ``name`` (a string) and ``topology`` (an
  object); no other top-level keys than name, prefix, mgmt, topology and settings;
- ``topology`` requires ``nodes``, an object whose values are null or a node object;
  ``links``, when present, is an array of at least one link object;
- a node admits only the schema's node properties (additionalProperties false); kind,
  image, cmd, entrypoint and group are strings; labels and env are objects whose values
  are strings or numbers; exec and binds are non-empty arrays of strings (binds unique);
- a link's ``endpoints`` is an array of at least two unique strings, each matching
  ``^\\S+:\\S+$`` ("node:interface"); its ``vars`` is an object.

schema_problems() returns (field, reason) pairs, the field a dotted path into the file.
"""
from __future__ import annotations

import re
from typing import Any

TOP_LEVEL = frozenset({"name", "prefix", "mgmt", "topology", "settings"})
NODE_FIELDS = frozenset({
    "image", "image-pull-policy", "kind", "license", "type", "group", "startup-config",
    "startup-delay", "enforce-startup-config", "auto-remove", "exec", "binds", "ports", "env",
    "user", "entrypoint", "cmd", "publish", "labels", "runtime", "mgmt-ipv4", "mgmt-ipv6",
    "network-mode", "cpu", "memory", "cpu-set", "sandbox", "kernel", "extras", "config",
    "stages", "dns", "certificate", "healthcheck", "wait-for", "SANs"})
STRING_FIELDS = ("kind", "image", "cmd", "entrypoint", "group", "type", "license", "memory")
MAP_FIELDS = ("labels", "env")
LIST_FIELDS = ("exec", "binds")
ENDPOINT = re.compile(r"^\S+:\S+$")


def schema_problems(doc: Any) -> list[tuple[str, str]]:
    """Every way ``doc`` (a parsed .clab.yml) breaks the schema's rules above."""
    if not isinstance(doc, dict):
        return [("(top level)", "must be a mapping")]
    problems: list[tuple[str, str]] = []
    for key in doc:
        if key not in TOP_LEVEL:
            problems.append((str(key), f"not a top-level key of a topology ({', '.join(sorted(TOP_LEVEL))})"))
    if not isinstance(doc.get("name"), str):
        problems.append(("name", "required: the lab's name, a string"))
    topology = doc.get("topology")
    if not isinstance(topology, dict):
        problems.append(("topology", "required: a mapping with the nodes"))
        return problems
    nodes = topology.get("nodes")
    if not isinstance(nodes, dict):
        problems.append(("topology.nodes", "required: a mapping of node name to node"))
    else:
        for name, node in nodes.items():
            problems += _node_problems(f"topology.nodes.{name}", node)
    if "links" in topology:
        links = topology["links"]
        if not isinstance(links, list) or not links:
            problems.append(("topology.links", "must be a non-empty list of links"))
        else:
            for i, link in enumerate(links):
                problems += _link_problems(f"topology.links[{i}]", link)
    return problems


def _node_problems(where: str, node: Any) -> list[tuple[str, str]]:
    if node is None:
        return []
    if not isinstance(node, dict):
        return [(where, "must be a mapping (or empty)")]
    problems = [(f"{where}.{key}", "not a node field of the schema") for key in node if key not in NODE_FIELDS]
    for key in STRING_FIELDS:
        if key in node and not isinstance(node[key], str):
            problems.append((f"{where}.{key}", "must be a string"))
    for key in MAP_FIELDS:
        if key in node:
            value = node[key]
            if not isinstance(value, dict):
                problems.append((f"{where}.{key}", "must be a mapping"))
                continue
            for k, v in value.items():
                if isinstance(v, bool) or not isinstance(v, (str, int, float)):
                    problems.append((f"{where}.{key}.{k}", "must be a string or a number"))
    for key in LIST_FIELDS:
        if key in node:
            value = node[key]
            if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
                problems.append((f"{where}.{key}", "must be a non-empty list of strings"))
            elif key == "binds" and len(set(value)) != len(value):
                problems.append((f"{where}.{key}", "items must be unique"))
    return problems


def _link_problems(where: str, link: Any) -> list[tuple[str, str]]:
    if not isinstance(link, dict):
        return [(where, "must be a mapping")]
    problems = []
    if "endpoints" in link:
        ends = link["endpoints"]
        if not isinstance(ends, list) or len(ends) < 2:
            problems.append((f"{where}.endpoints", "must be a list of at least two endpoints"))
        else:
            for k, end in enumerate(ends):
                if not isinstance(end, str) or not ENDPOINT.match(end):
                    problems.append((f"{where}.endpoints[{k}]", f"{end!r} is not \"node:interface\""))
            if all(isinstance(e, str) for e in ends) and len(set(ends)) != len(ends):
                problems.append((f"{where}.endpoints", "endpoints must be unique"))
    if "vars" in link and not isinstance(link["vars"], dict):
        problems.append((f"{where}.vars", "must be a mapping"))
    return problems
