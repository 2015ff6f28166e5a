"""A Containerlab lab that `fabricctl export` wrote, back as a topology.

``fabricctl import --format containerlab T.clab.yml -o T.toml`` reads the p4sim.* labels,
link vars and endpoints (containerlab.py says what export puts where), rebuilds the
topology's structure and validates it as a topology file is validated, so the result is
equal to the exported Topology and our own launcher brings it up. Problems with the lab
file are located in it (``topology.nodes.leaf1.labels.p4sim.device-id``), the lab's
schema first; what the rebuilt topology gets wrong is located in the topology fields it
would have (``switches[0].device_id``) of "<file> (imported)". Node order matters: it is
the topology's switch and host order.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from control.errors import ConfigError, ProblemList
from control.export.clab_schema import schema_problems
from control.export.containerlab import L, PORT_IFACE
from control.export.toml_writer import dump_toml, topology_document
from control.topology import Topology, parse_topology
def load_containerlab(path: str) -> Topology:
    """The Topology a lab file exported by fabricctl describes; ConfigError listing every
    problem (the lab file's first, then the rebuilt topology's)."""
    try:
        lab = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(path, [("(file)", f"cannot read: {exc.strerror}")]) from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(path, [("(syntax)", " ".join(str(exc).split()))]) from None
    problems = ProblemList(path)
    for where, reason in schema_problems(lab):
        problems.add(where, reason)
    problems.raise_if_any()  # not a Containerlab topology: nothing more to read
    document = _LabReader(lab, problems).document()
    problems.raise_if_any()
    return parse_topology(document, f"{path} (imported)")


def import_containerlab(path: str, out: str) -> Topology:
    """load_containerlab(), then the topology written to ``out`` as a topology file."""
    topo = load_containerlab(path)
    header = f"Imported from {Path(path).name} by `fabricctl import --format containerlab`."
    Path(out).write_text(dump_toml(topology_document(topo), header), encoding="utf-8")
    return topo


class _LabReader:
    """Reads the p4sim.* labels, link vars and endpoints of an exported lab back into
    the topology file's structure, recording located problems."""

    def __init__(self, lab: dict[str, Any], problems: ProblemList) -> None:
        self.nodes: dict[str, Any] = {str(k): v or {} for k, v in lab["topology"]["nodes"].items()}
        self.links: list[Any] = lab["topology"].get("links", [])
        self.problems = problems
        self.kind: dict[str, str] = {}
        for name, node in self.nodes.items():
            kind = self._label(name, "node")
            if kind is not None and kind not in ("switch", "host", "collector"):
                problems.add(self._where(name, "node"), f"{kind!r} is not switch, host or collector")
            elif kind is not None:
                self.kind[name] = kind

    def _where(self, node: str, key: str) -> str:
        return f"topology.nodes.{node}.labels.{L}{key}"

    def _label(self, node: str, key: str, required: bool = True) -> str | None:
        labels = self.nodes[node].get("labels") or {}
        if f"{L}{key}" not in labels:
            if required:
                self.problems.add(self._where(node, key), "missing: not a lab `fabricctl export` wrote")
            return None
        return str(labels[f"{L}{key}"])

    def _number(self, node: str, key: str) -> int | None:
        text = self._label(node, key)
        if text is None:
            return None
        if not text.isascii() or not text.isdigit():
            self.problems.add(self._where(node, key), f"{text!r} is not a whole number")
            return None
        return int(text)

    def document(self) -> dict[str, Any]:
        switches = [name for name, kind in self.kind.items() if kind == "switch"]
        doc: dict[str, Any] = {"switches": [self._switch(name) for name in switches], "hosts": [],
                               "links": []}
        inter: list[dict[str, Any]] = []
        attached: dict[str, tuple[str, int]] = {}
        for i, link in enumerate(self.links):
            self._link(i, link, doc["links"], inter, attached)
        endpoints = {}
        for name, kind in self.kind.items():
            if kind == "switch":
                continue
            place = attached.get(name)
            if place is None:
                self.problems.add(f"topology.nodes.{name}", "no link to a switch port")
                continue
            endpoints[name] = {"name": name, "ip": self._label(name, "ip"), "mac": self._label(name, "mac"),
                               "switch": place[0], "port": place[1]}
        doc["hosts"] = [e for n, e in endpoints.items() if self.kind[n] == "host"]
        collectors = [n for n in endpoints if self.kind[n] == "collector"]
        top = [n for n in collectors if self._label(n, "domain", required=False) is None]
        if len(top) > 1:
            self.problems.add(f"topology.nodes.{top[1]}", f"a second collector outside any domain "
                                                          f"(also {top[0]})")
        if top:
            doc["collector"] = endpoints[top[0]]
        domains = self._domains(switches, endpoints)
        if domains:
            doc["domains"] = domains
        if inter:
            doc["interdomain_links"] = inter
        return {key: value for key, value in doc.items() if value != []}

    def _switch(self, name: str) -> dict[str, Any]:
        return {"name": name, "device_id": self._number(name, "device-id"), "grpc": self._label(name, "grpc"),
                "role": self._label(name, "role"), "node_id": self._number(name, "node-id"),
                "cpu_port": self._number(name, "cpu-port")}

    def _link(self, i: int, link: dict[str, Any], links: list[dict[str, Any]], inter: list[dict[str, Any]],
              attached: dict[str, tuple[str, int]]) -> None:
        where = f"topology.links[{i}]"
        ends = link.get("endpoints")
        if not isinstance(ends, list) or len(ends) != 2:
            self.problems.add(f"{where}.endpoints", "must be two endpoints (a point-to-point veth)")
            return
        parsed = []
        for k, end in enumerate(ends):
            node, _, iface = str(end).rpartition(":")
            if node not in self.kind:
                self.problems.add(f"{where}.endpoints[{k}]", f"no node named {node!r} with p4sim labels")
                return
            parsed.append((node, iface, k))
        switch_ends = []
        for node, iface, k in parsed:
            if self.kind[node] != "switch":
                continue
            match = PORT_IFACE.match(iface)
            if match is None:
                self.problems.add(f"{where}.endpoints[{k}]", f"{iface!r} is not a switch port interface (pN)")
                return
            switch_ends.append(f"{node}:{int(match.group(1))}")
        variables = link.get("vars") or {}
        if len(switch_ends) == 2:
            if "latency" in variables or "rate" in variables:
                inter.append({"a": switch_ends[0], "b": switch_ends[1],
                              "latency": variables.get("latency"), "rate": variables.get("rate"),
                              **{key: variables[key] for key in ("partitions", "allow_untagged")
                                 if key in variables}})
            else:
                entry: dict[str, Any] = {"a": switch_ends[0], "b": switch_ends[1]}
                if "rate_pps" in variables:
                    entry["rate_pps"] = variables["rate_pps"]
                links.append(entry)
        elif len(switch_ends) == 1:
            endpoint = next(node for node, _, _ in parsed if self.kind[node] != "switch")
            if endpoint in attached:
                self.problems.add(f"{where}", f"{endpoint} is already linked to {attached[endpoint][0]}")
                return
            sw, _, port = switch_ends[0].rpartition(":")
            attached[endpoint] = (sw, int(port))
        else:
            self.problems.add(where, "joins two hosts: every link has a switch at one end at least")

    def _domains(self, switches: list[str], endpoints: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
        by_name: dict[str, dict[str, Any]] = {}
        first: dict[str, str] = {}
        for name in switches:
            domain = self._label(name, "domain", required=False)
            if domain is None:
                continue
            fields = {"index": self._number(name, "domain-index"), "id": self._number(name, "domain-id"),
                      "controller": self._label(name, "controller"),
                      "election_id": self._number(name, "election-id"),
                      "role": self._label(name, "controller-role"),
                      "peers": self._label(name, "peers", required=False) or ""}
            if domain not in by_name:
                by_name[domain] = {"fields": fields, "switches": [], "borders": []}
                first[domain] = name
            elif by_name[domain]["fields"] != fields:
                self.problems.add(f"topology.nodes.{name}.labels",
                                  f"domain {domain!r} labels differ from {first[domain]}'s")
            by_name[domain]["switches"].append(name)
            if self._label(name, "border", required=False) == "true":
                by_name[domain]["borders"].append(name)
        ordered = sorted(by_name.items(), key=lambda item: item[1]["fields"]["index"] or 0)
        domains = []
        for domain, seen in ordered:
            f = seen["fields"]
            members = [n for n in endpoints if self._label(n, "domain", required=False) == domain]
            entry: dict[str, Any] = {
                "name": domain, "id": f["id"], "switches": seen["switches"],
                "hosts": [n for n in members if self.kind[n] == "host"], "borders": seen["borders"],
                "peers": [p for p in f["peers"].split(",") if p],
                "controller": {"name": f["controller"], "election_id": f["election_id"], "role": f["role"]}}
            collectors = [n for n in members if self.kind[n] == "collector"]
            if collectors:
                entry["collector"] = endpoints[collectors[0]]
            domains.append(entry)
        return domains
