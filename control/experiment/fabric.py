"""The experiment's fabric: a copy of the topology with shaped links and a collector,
the policy of one setting, and what the switches count.

The copy is written to the run's work directory, never over topologies/: the shipped
file keeps its unshaped links. Counters are read through control.probe inside the
switch namespace, as bench/fabric_transfer.py does.
"""
from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from control.experiment.plan import Setting
from control.launch import ROOT, FabricNetwork, LaunchError
from control.topology import Topology

TOPOLOGY = ROOT / "topologies/leaf_spine.toml"
P4INFO = ROOT / "build/fabric.p4info.txtpb"
PORT_TX = "FabricEgress.port_tx"
TRIMMED = "FabricIngress.trimming.trimmed_packets"
COLLECTOR = {"name": "collector", "ip": "192.168.100.2", "mac": "00:00:00:00:c0:11",
             "switch": "leaf1", "port": 5}

POLICY = """# control/experiment: {tenants}, spraying mode {mode!r}, INT on every UEC packet.
[spraying]
default = "{mode}"

[int]
enabled = true
hop_budget = 4
domain_id = 1
collector = "collector"

[[int.watchlist]]
proto = 17
dst_port = 4793
"""
# Depths for queues in the switch (--switch-uplinks, the incast's last hop): there a
# trimmed header or an ACK takes a data packet's slot, so trimming is the last resort,
# above one receiver's credit window (27 packets), and ECN slows the senders first.
# The meter of a tc-shaped port (a virtual queue; no ECN there) keeps 16.
ECN = """
[ecn]
threshold = 16

[feedback]
queue = 7
"""
TRIM = """
[trim]
threshold = 32
meter_burst = 16

[[trim.classes]]
dscp = 0x0A
length = 64
trimmed_dscp = 0x0B
queue = 7
"""


def _toml_value(value: Any) -> str:
    return json.dumps(value) if isinstance(value, str) else repr(value)


def topology_file(name: str) -> Path:
    """The shipped topology a plan names (plan.Plan.topology)."""
    return ROOT / "topologies" / f"{name}.toml"


def write_topology(path: Path, link_pps: float, source: Path = TOPOLOGY) -> Path:
    """``source`` with every link at ``link_pps`` full-size frames/s (each frame costs its
    own bytes: control/link_shaping.py) and the collector on leaf1 port 5."""
    document = tomllib.loads(source.read_text())
    lines = [f"# {source.name} for control/experiment: links at {link_pps:g} full-size "
             f"frames/s."]
    for table in ("switches", "hosts", "links"):
        for entry in document.get(table, []):
            if table == "links":
                entry = {**entry, "rate_pps": float(link_pps)}
            lines.append(f"[[{table}]]")
            lines += [f"{key} = {_toml_value(value)}" for key, value in entry.items()]
            lines.append("")
    lines.append("[collector]")
    lines += [f"{key} = {_toml_value(value)}" for key, value in COLLECTOR.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


PARTITION = """
[[partitions]]
id = {id}
name = "{name}"
members = [{members}]
queue = {queue}
"""


def policy_mode(mode: str) -> str:
    """The policy's [spraying] default for an experiment mode: adaptive is entropy
    spraying (its weights come from the controller, not the file)."""
    return "entropy" if mode == "adaptive" else mode


def write_policy(path: Path, setting: Setting) -> Path:
    """One shared tenant with ECN (and trimming if ``setting.trim``), or the mixed case's
    back-end and front-end partitions without either (plan.Setting says why)."""
    parts = setting.partitions
    tenants = "one tenant" if parts is None else (
        f"back end and front end, {parts.label}")
    text = POLICY.format(mode=policy_mode(setting.mode), tenants=tenants)
    if parts is None:
        text += ECN + (TRIM if setting.trim else "")
    else:
        backend_queue = parts.BACKEND_QUEUE if parts.queues else parts.FRONTEND_QUEUE
        for pid, name, members, queue in ((1, "backend", parts.backend, backend_queue),
                                          (2, "frontend", parts.frontend, parts.FRONTEND_QUEUE)):
            text += PARTITION.format(id=pid, name=name, queue=queue,
                                     members=", ".join(json.dumps(m) for m in members))
    path.write_text(text)
    return path


def counters(net: FabricNetwork, wanted: list[tuple[str, str]]) -> dict[tuple[str, str], dict[int, int]]:
    """(switch, counter name) -> index -> packets, all read by one probe process."""
    specs = {}
    for switch, name in wanted:
        sw = net.topology.switch(switch)
        specs[f"{sw.grpc}:{sw.device_id}:{name}"] = (switch, name)
    probe = net.switch_exec([sys.executable, "-m", "control.experiment.counters", str(P4INFO),
                             *specs], name="counters")
    if probe.wait(60) != 0:
        raise LaunchError(f"reading counters failed:\n{probe.output}")
    read = json.loads(probe.output.strip().splitlines()[-1])
    return {specs[spec]: {int(k): v for k, v in values.items()} for spec, values in read.items()}


def spine_ports(topology: Topology) -> list[tuple[str, int, str]]:
    """Every directed leaf-spine link as (sending switch, its port, receiving switch)."""
    role = {s.name: s.role for s in topology.switches}
    directed = []
    for link in topology.links:
        if {role[link.a_switch], role[link.b_switch]} == {"leaf", "spine"}:
            directed.append((link.a_switch, link.a_port, link.b_switch))
            directed.append((link.b_switch, link.b_port, link.a_switch))
    return sorted(directed)


def snapshot(net: FabricNetwork) -> dict[str, Any]:
    """Packets sent on each directed leaf-spine link, and trims over all switches."""
    ports = spine_ports(net.topology)
    senders = sorted({p[0] for p in ports})
    switches = [s.name for s in net.topology.switches]
    read = counters(net, [(name, PORT_TX) for name in senders]
                    + [(name, TRIMMED) for name in switches])
    return {"links": {(a, port, b): read[(a, PORT_TX)].get(port, 0) for a, port, b in ports},
            "trims": sum(sum(read[(name, TRIMMED)].values()) for name in switches)}
