"""A topology as a Containerlab lab, and such a lab back as a topology.

Export (``fabricctl export --format containerlab T.toml -o T.clab.yml``): one ``linux``
container per switch, host and collector; every link a veth given as
``endpoints: ["node:iface", "node:iface"]``. Inside a switch container, switch port N is
the interface ``pN``; a host's (or collector's) one interface is ``eth1`` (Containerlab
keeps ``eth0`` for its management network). Switches run from docker/p4sim-switch.Dockerfile
(or docker/bmv2-switch.Dockerfile with target "bmv2"): the node's ``cmd`` is the switch's
arguments, the same flags the launcher passes (only p4sim-switch gets --thrift-port), its
gRPC server on 0.0.0.0 at the topology's port inside its own container. Post-start
``exec`` commands give what the launcher gives: host addresses, the gateway's permanent
neighbour entry, checksum offload off, and the links' shaping (tc htb for rate_pps;
netem + tbf for inter-domain links), on each sending end.

Everything the topology file says is kept in ``labels`` (p4sim.*) and link ``vars``,
so import (clab_import.py) rebuilds an equal Topology, which our own launcher brings up.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import yaml

from control.errors import ConfigError
from control.federation.netem import border_link_script
from control.export.toml_writer import border_mapping_fields
from control.federation.units import format_latency, format_rate
from control.launch import HOST_MTU, LINK_MTU, PRIORITY_QUEUES
from control.link_shaping import shaping_commands
from control.topology import GATEWAY_IP, Collector, Host, Switch, Topology, grpc_port, router_mac

TARGETS = ("p4sim", "bmv2")
SWITCH_IMAGES = {"p4sim": "p4sim-switch:latest", "bmv2": "bmv2-switch:latest"}
HOST_IMAGE = "p4sim-switch:latest"   # hosts run the project's endpoints: the p4sim image
HOST_IFACE = "eth1"
THRIFT_PORT = 9090
L = "p4sim."                        # label prefix
PORT_IFACE = re.compile(r"^p(\d{1,3})$")  # what port_iface() names


def port_iface(port: int) -> str:
    """A switch port's interface inside the switch's container."""
    return f"p{port}"


# -- export ------------------------------------------------------------------------------
def containerlab_problems(topo: Topology) -> list[tuple[str, str]]:
    """(field, reason) for what a valid topology has that a lab cannot: Containerlab names
    every node in one namespace, switches, hosts and collectors alike."""
    problems = []
    switches = {s.name for s in topo.switches}
    for i, host in enumerate(topo.hosts):
        if host.name in switches:
            problems.append((f"hosts[{i}].name", f"{host.name!r} is also a switch's name: a "
                                                 f"Containerlab lab names every node differently"))
    for where, collector in _collector_fields(topo):
        if collector.name in switches:
            problems.append((f"{where}.name", f"{collector.name!r} is also a switch's name: a "
                                              f"Containerlab lab names every node differently"))
    return problems


def to_containerlab(topo: Topology, name: str, *, target: str = "p4sim",
                    switch_image: str | None = None, host_image: str = HOST_IMAGE) -> dict[str, Any]:
    """The Containerlab topology (a plain mapping, ready for YAML) of ``topo``."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {', '.join(TARGETS)}, not {target!r}")
    clashes = containerlab_problems(topo)
    if clashes:
        raise ValueError("; ".join(f"{field}: {reason}" for field, reason in clashes))
    image = switch_image or SWITCH_IMAGES[target]
    nodes: dict[str, Any] = {}
    for switch in topo.switches:
        nodes[switch.name] = _switch_node(topo, switch, target, image)
    for host in topo.hosts:
        labels = {f"{L}node": "host", f"{L}ip": host.ip, f"{L}mac": host.mac}
        nodes[host.name] = _endpoint_node(topo, host, labels, host_image)
    for domain_name, collector in _collectors(topo):
        labels = {f"{L}node": "collector", f"{L}ip": collector.ip, f"{L}mac": collector.mac}
        if domain_name is not None:
            labels[f"{L}domain"] = domain_name
        nodes[collector.name] = _endpoint_node(topo, collector.as_host(), labels, host_image)
    for domain in topo.domains:
        for host_name in domain.hosts:
            nodes[host_name]["labels"][f"{L}domain"] = domain.name
            nodes[host_name]["group"] = domain.name
    links: list[dict[str, Any]] = []
    inter = {x.link(): x for x in topo.interdomain_links}
    for link in topo.links:
        entry: dict[str, Any] = {"endpoints": [f"{link.a_switch}:{port_iface(link.a_port)}",
                                               f"{link.b_switch}:{port_iface(link.b_port)}"]}
        idl = inter.get(link)
        if idl is not None:
            entry["vars"] = {"latency": format_latency(idl.latency_us), "rate": format_rate(idl.rate_bps),
                             **border_mapping_fields(idl)}
        elif link.rate_pps is not None:
            entry["vars"] = {"rate_pps": link.rate_pps}
        links.append(entry)
    for endpoint in list(topo.hosts) + [c.as_host() for _, c in _collectors(topo)]:
        links.append({"endpoints": [f"{endpoint.name}:{HOST_IFACE}",
                                    f"{endpoint.switch}:{port_iface(endpoint.port)}"]})
    lab: dict[str, Any] = {"name": name, "topology": {"nodes": nodes}}
    if links:
        lab["topology"]["links"] = links
    return lab


class _Endpoints(list):  # type: ignore[type-arg]
    """A link's endpoints, written in flow style: ["a:p1", "b:p2"]."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Endpoints, lambda dumper, data: dumper.represent_sequence(
    "tag:yaml.org,2002:seq", list(data), flow_style=True))


def dump_containerlab(lab: dict[str, Any]) -> str:
    """YAML text of a lab (block style; endpoints as ["node:iface", "node:iface"])."""
    topology = dict(lab["topology"])
    if "links" in topology:
        topology["links"] = [{**link, "endpoints": _Endpoints(link["endpoints"])} for link in topology["links"]]
    return yaml.dump({**lab, "topology": topology}, Dumper=_Dumper, sort_keys=False,
                     default_flow_style=False, width=1000)


def write_containerlab(topo: Topology, out: str, name: str, *, source: str = "(topology)",
                       target: str = "p4sim",
                       switch_image: str | None = None, host_image: str = HOST_IMAGE) -> dict[str, Any]:
    """to_containerlab() written to ``out``; the lab it wrote. ConfigError (in ``source``)
    for what a lab cannot hold."""
    problems = containerlab_problems(topo)
    if problems:
        raise ConfigError(source, problems)
    lab = to_containerlab(topo, name, target=target, switch_image=switch_image, host_image=host_image)
    Path(out).write_text(f"# Written by `fabricctl export --format containerlab` (target {target}).\n"
                         + dump_containerlab(lab), encoding="utf-8")
    return lab


def switch_arguments(topo: Topology, switch: Switch, target: str) -> list[str]:
    """The switch program's arguments in its container (the launcher's flags)."""
    interfaces = [arg for port in sorted(topo.all_ports(switch.name))
                  for arg in ("-i", f"{port}@{port_iface(port)}")]
    thrift_port = THRIFT_PORT if grpc_port(switch) != THRIFT_PORT else THRIFT_PORT + 1
    thrift = ["--thrift-port", str(thrift_port)] if target == "p4sim" else []
    return ["--no-p4", "--device-id", str(switch.device_id), *thrift, *interfaces, "--",
            "--grpc-server-addr", f"0.0.0.0:{grpc_port(switch)}", "--cpu-port", str(switch.cpu_port),
            "--priority-queues", str(PRIORITY_QUEUES)]


def _switch_node(topo: Topology, switch: Switch, target: str, image: str) -> dict[str, Any]:
    labels = {f"{L}node": "switch", f"{L}device-id": str(switch.device_id), f"{L}grpc": switch.grpc,
              f"{L}role": switch.role, f"{L}node-id": str(switch.node_id),
              f"{L}cpu-port": str(switch.cpu_port)}
    node: dict[str, Any] = {"kind": "linux", "image": image,
                            "cmd": shlex.join(switch_arguments(topo, switch, target)), "labels": labels}
    for index, domain in enumerate(topo.domains):
        if switch.name not in domain.switches:
            continue
        node["group"] = domain.name
        labels.update({f"{L}domain": domain.name, f"{L}domain-index": str(index),
                       f"{L}domain-id": str(domain.id), f"{L}controller": domain.controller.name,
                       f"{L}election-id": str(domain.controller.election_id),
                       f"{L}controller-role": domain.controller.role})
        if domain.peers:
            labels[f"{L}peers"] = ",".join(domain.peers)
        if switch.name in domain.borders:
            labels[f"{L}border"] = "true"
    commands = _shaping_commands(topo, switch.name)
    if commands:
        node["exec"] = commands
    return node


def _shaping_commands(topo: Topology, switch: str) -> list[str]:
    """tc on each of this switch's sending ends: htb with a control band for rate_pps
    (control/link_shaping.py), netem + tbf for inter-domain links."""
    commands = []
    for idl in topo.interdomain_links:
        for sw, port in ((idl.a_switch, idl.a_port), (idl.b_switch, idl.b_port)):
            if sw == switch:
                commands += border_link_script(port_iface(port), idl.latency_us, idl.rate_bps, LINK_MTU)
    for link in topo.links:
        if link.rate_pps is None:
            continue
        for sw, port in ((link.a_switch, link.a_port), (link.b_switch, link.b_port)):
            if sw == switch:
                commands += [shlex.join(argv) for argv in
                             shaping_commands(port_iface(port), link.rate_pps, LINK_MTU)]
    return commands


def _endpoint_node(topo: Topology, endpoint: Host, labels: dict[str, str], image: str) -> dict[str, Any]:
    """A host or collector: an idle container whose eth1 gets what the launcher gives a
    host namespace's eth0."""
    gateway_mac = router_mac(topo.switch(endpoint.switch))
    commands = [f"ip link set {HOST_IFACE} address {endpoint.mac}",
                f"ip link set {HOST_IFACE} mtu {HOST_MTU} up",
                f"ip addr add {endpoint.ip}/32 dev {HOST_IFACE}",
                f"ip neigh replace {GATEWAY_IP} lladdr {gateway_mac} dev {HOST_IFACE} nud permanent",
                f"ip route replace default via {GATEWAY_IP} dev {HOST_IFACE} onlink",
                f"ethtool -K {HOST_IFACE} tx off rx off"]
    return {"kind": "linux", "image": image, "entrypoint": "sleep", "cmd": "infinity",
            "labels": labels, "exec": commands}


def _collector_fields(topo: Topology) -> list[tuple[str, Collector]]:
    found = [("collector", topo.collector)] if topo.collector else []
    return found + [(f"domains[{i}].collector", d.collector) for i, d in enumerate(topo.domains)
                    if d.collector is not None]


def _collectors(topo: Topology) -> list[tuple[str | None, Collector]]:
    found: list[tuple[str | None, Collector]] = [(None, topo.collector)] if topo.collector else []
    return found + [(d.name, d.collector) for d in topo.domains if d.collector is not None]

