"""What only a launch on this machine needs of its inputs, checked before anything exists.

control/topology.py refuses what is wrong with a topology for any use (fabricctl too).
A launch also turns names into interface and namespace names, runs every switch and
the controller in one namespace that has nothing but loopback, and runs programs and
tools that must be installed. These checks look at the inputs and the machine without
changing either, so FabricNetwork and `python -m control.launch` can refuse a mistake
(file, field, reason) before the first namespace, veth or process.
"""
from __future__ import annotations

import ipaddress
import os
import re
import shutil
from pathlib import Path

from control.errors import ConfigError
from control.topology import Topology, grpc_host, grpc_port
from lab.namespace import NETNS_DIR
from lab.target import executable_path

MAX_IFNAME = 15  # IFNAMSIZ - 1
ENVIRONMENT = "launch"  # the "file" of problems with the machine rather than an input file
TAG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
# Namespaces are TAG-<host>; these two suffixes are the launcher's own.
RESERVED_SUFFIXES = {"sw": "the switches", "col": "the collector"}


def port_interface(switch: str, port: int) -> str:
    """The switch-side interface name of ``switch``'s ``port`` (unchecked)."""
    return f"{switch}-{port}"


def topology_problems(topology: Topology) -> list[tuple[str, str]]:
    """(field, reason) for each thing in a valid topology that a launch cannot build."""
    problems = []
    grpc_ports: dict[int, str] = {}
    for i, switch in enumerate(topology.switches):
        too_long = [port_interface(switch.name, port) for port in sorted(topology.all_ports(switch.name))
                    if len(port_interface(switch.name, port)) > MAX_IFNAME]
        if too_long:
            problems.append((f"switches[{i}].name",
                             f"interface name {too_long[0]!r} is longer than {MAX_IFNAME} characters "
                             f"(Linux's limit); use a shorter switch name"))
        address = grpc_host(switch)
        if not _loopback(address):
            problems.append((f"switches[{i}].grpc",
                             f"{address!r} is not an address of the launcher's switch namespace, which "
                             f"has only loopback: use 127.0.0.1:PORT"))
        port = grpc_port(switch)
        if port in grpc_ports:  # one namespace: 0.0.0.0:P and 127.0.0.1:P clash too
            problems.append((f"switches[{i}].grpc",
                             f"port {port} is also {grpc_ports[port]}'s: every launched switch "
                             f"listens in one namespace, so each needs its own port"))
        grpc_ports.setdefault(port, switch.name)
    for i, name in enumerate(h.name for h in topology.hosts):
        if name in RESERVED_SUFFIXES:
            problems.append((f"hosts[{i}].name",
                             f"{name!r} would name the namespace TAG-{name}, which the "
                             f"launcher keeps for {RESERVED_SUFFIXES[name]}: rename the host"))
    return problems


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        address = ipaddress.IPv4Address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def tag_problems(tag: str) -> list[tuple[str, str]]:
    if TAG.match(tag):
        return []
    return [("--tag", f"{tag!r} is not a valid namespace prefix: letters, digits, '_', '.', '-' "
                      f"(starting with a letter or digit, at most 32)")]


def environment_problems(switch_binary: str, namespaces: list[str],
                         tools: tuple[str, ...] = ("ip",)) -> list[tuple[str, str]]:
    """(field, reason) for what the machine lacks: root, tools, the switch program,
    free namespace names."""
    problems = []
    if os.geteuid() != 0:
        problems.append(("root", "a launch needs root (network namespaces, veth pairs)"))
    for tool in tools:
        if shutil.which(tool) is None:
            problems.append((tool, f"{tool!r} is not on PATH (install iproute2)"))
    if executable_path(switch_binary) is None:
        problems.append(("SWITCH", f"{switch_binary!r} is not an executable program "
                                   f"(run `make install`, or set SWITCH / TARGET)"))
    for name in namespaces:
        if (NETNS_DIR / name).exists():
            problems.append(("--tag", f"namespace {name!r} already exists (another launch with "
                                      f"this tag?): choose another tag or `ip netns delete {name}`"))
    return problems


def file_problems(path: str | Path, hint: str) -> ConfigError | None:
    """A ConfigError for a file the launch reads that is not there."""
    if Path(path).is_file():
        return None
    return ConfigError(str(path), [("(file)", f"no such file ({hint})")])
