"""A Topology written as a topology file (TOML) that load_topology() reads back equal.

The standard library reads TOML but does not write it; the topology file has a fixed,
shallow shape (arrays of tables, tables, strings, numbers, arrays of strings), so a
small writer for that shape is all an import needs.
"""
from __future__ import annotations

import json
import math
from typing import Any

from control.federation.units import format_latency, format_rate
from control.topology import Collector, InterDomainLink, Topology


def topology_document(topo: Topology) -> dict[str, Any]:
    """The file structure of ``topo`` (what load_document would return for it)."""
    inter = {idl.link() for idl in topo.interdomain_links}
    doc: dict[str, Any] = {
        "switches": [{"name": s.name, "device_id": s.device_id, "grpc": s.grpc, "role": s.role,
                      "node_id": s.node_id, "cpu_port": s.cpu_port} for s in topo.switches],
        "hosts": [_endpoint(h.name, h.ip, h.mac, h.switch, h.port) for h in topo.hosts],
        "links": [{"a": f"{l.a_switch}:{l.a_port}", "b": f"{l.b_switch}:{l.b_port}",
                   **({"rate_pps": l.rate_pps} if l.rate_pps is not None else {})}
                  for l in topo.links if l not in inter],
    }
    if topo.collector is not None:
        doc["collector"] = _collector(topo.collector)
    if topo.domains:
        doc["domains"] = [{
            "name": d.name, "id": d.id, "switches": list(d.switches), "hosts": list(d.hosts),
            "borders": list(d.borders), "peers": list(d.peers),
            "controller": {"name": d.controller.name, "election_id": d.controller.election_id,
                           "role": d.controller.role},
            **({"collector": _collector(d.collector)} if d.collector is not None else {}),
        } for d in topo.domains]
    if topo.interdomain_links:
        doc["interdomain_links"] = [{
            "a": f"{x.a_switch}:{x.a_port}", "b": f"{x.b_switch}:{x.b_port}",
            "latency": format_latency(x.latency_us), "rate": format_rate(x.rate_bps),
            **border_mapping_fields(x),
        } for x in topo.interdomain_links]
    return {key: value for key, value in doc.items() if value != []}


def dump_toml(doc: dict[str, Any], header: str = "") -> str:
    """TOML text for a document of the topology file's shape: top-level tables and
    arrays of tables, whose values are scalars, arrays of scalars or (one level) tables."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    for key, value in doc.items():
        if isinstance(value, list):
            for table in value:
                lines += ["", f"[[{key}]]", *_table(key, table)]
        elif isinstance(value, dict):
            lines += ["", f"[{key}]", *_table(key, value)]
        else:
            raise ValueError(f"{key}: top-level values must be tables or arrays of tables")
    return "\n".join(lines).lstrip("\n") + "\n"


def _table(path: str, table: dict[str, Any]) -> list[str]:
    lines = [f"{_key(key)} = {_value(value)}" for key, value in table.items()
             if not isinstance(value, dict)]
    for key, value in table.items():
        if isinstance(value, dict):
            lines += ["", f"[{path}.{key}]", *_table(f"{path}.{key}", value)]
    return lines


def _key(key: str) -> str:
    """A bare key where TOML allows one, else a quoted one (partition names are free)."""
    return key if key and all(c.isascii() and (c.isalnum() or c in "-_") for c in key) \
        else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} has no place in a topology file")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string: the same escapes
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    raise ValueError(f"cannot write {value!r} as TOML")


def _endpoint(name: str, ip: str, mac: str, switch: str, port: int) -> dict[str, Any]:
    return {"name": name, "ip": ip, "mac": mac, "switch": switch, "port": port}


def _collector(c: Collector) -> dict[str, Any]:
    return _endpoint(c.name, c.ip, c.mac, c.switch, c.port)


def border_mapping_fields(link: InterDomainLink) -> dict[str, Any]:
    """The link's partition mapping as the topology file writes it (only what differs
    from the defaults, so files without a mapping stay as they were)."""
    fields: dict[str, Any] = {}
    if not link.allow_untagged:
        fields["allow_untagged"] = False
    if link.partitions:
        fields["partitions"] = dict(link.partitions)
    return fields
