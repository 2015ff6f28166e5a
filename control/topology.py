"""The fabric's topology file: switches, hosts and links, validated before use.

Format (TOML, or the same structure in JSON)::

    [[switches]]
    name = "leaf1"           # unique; letters, digits, _ . - (names become interface names)
    device_id = 0            # unique P4Runtime device id
    grpc = "127.0.0.1:9559"  # P4Runtime address, HOST:PORT
    role = "leaf"            # leaf | spine
    node_id = 1              # INT node id, unique
    cpu_port = 255           # optional; no host or link may use this port

    [[hosts]]
    name = "h1"
    ip = "10.0.1.1"          # unicast, not the gateway
    mac = "00:00:0a:00:01:01"  # unicast
    switch = "leaf1"
    port = 1

    [[links]]
    a = "leaf1:3"            # switch:port at each end
    b = "spine1:1"
    rate_pps = 10000         # optional, for queue settings

    [collector]              # optional: where telemetry reports go
    name = "collector"
    ip = "192.168.100.2"
    mac = "00:00:00:00:c0:11"
    switch = "leaf1"
    port = 4

Every switch answers as a router with ``router_mac(switch)``; hosts reach it as their
gateway ``GATEWAY_IP`` (a static ARP entry and an onlink default route).
"""
from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import TypeVar

from control.config_reader import Reader, load_document
from control.errors import ProblemList

MAX_PORT = 510  # 511 is v1model's drop port
GATEWAY_IP = "10.255.255.254"  # every host's default gateway; ARP-resolved to its switch's router MAC
# Names become interface, namespace and log-file names: no '/', ':' or white space.
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
NAME_RULE = "letters, digits, '_', '.', '-' (starting with a letter or digit, at most 64)"
_GRPC_HOST = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$")


@dataclass(frozen=True)
class Switch:
    name: str
    device_id: int
    grpc: str
    role: str
    node_id: int
    cpu_port: int = 255


@dataclass(frozen=True)
class Host:
    name: str
    ip: str
    mac: str
    switch: str
    port: int


@dataclass(frozen=True)
class Link:
    a_switch: str
    a_port: int
    b_switch: str
    b_port: int
    rate_pps: float | None = None


@dataclass(frozen=True)
class Collector:
    """The telemetry collector: an addressable endpoint hanging off one switch port."""

    name: str
    ip: str
    mac: str
    switch: str
    port: int

    def as_host(self) -> Host:
        """Routing treats the collector like a host, so reports cross the fabric."""
        return Host(self.name, self.ip, self.mac, self.switch, self.port)


@dataclass(frozen=True)
class Topology:
    switches: tuple[Switch, ...]
    hosts: tuple[Host, ...]
    links: tuple[Link, ...]
    collector: Collector | None = None
    by_name: dict[str, Switch] = field(compare=False, repr=False, default_factory=dict)

    def switch(self, name: str) -> Switch:
        return self.by_name[name]

    def hosts_on(self, switch: str) -> list[Host]:
        return [h for h in self.hosts if h.switch == switch]

    def host_facing_ports(self, switch: str) -> set[int]:
        return {h.port for h in self.hosts_on(switch)}

    def fabric_ports(self, switch: str) -> set[int]:
        """Ports of ``switch`` that lead to another switch."""
        ports = set()
        for link in self.links:
            if link.a_switch == switch:
                ports.add(link.a_port)
            if link.b_switch == switch:
                ports.add(link.b_port)
        return ports

    def all_ports(self, switch: str) -> set[int]:
        """Every used port of ``switch``: hosts, links and the collector."""
        ports = self.host_facing_ports(switch) | self.fabric_ports(switch)
        if self.collector is not None and self.collector.switch == switch:
            ports.add(self.collector.port)
        return ports

    def host(self, name: str) -> Host:
        for h in self.hosts:
            if h.name == name:
                return h
        raise KeyError(f"no host named {name!r}")


def router_mac(switch: Switch) -> str:
    """The MAC a switch routes with (source of forwarded frames, hosts' gateway MAC).

    The one place the rule lives: 00:aa followed by the 32-bit node ID.
    """
    raw = (0x00AA << 32 | (switch.node_id & 0xFFFFFFFF)).to_bytes(6, "big")
    return ":".join(f"{b:02x}" for b in raw)


def switch_ip(switch: Switch) -> str:
    """The source address of a switch's telemetry reports: 10.254.x.y from the node ID."""
    return f"10.254.{(switch.node_id >> 8) & 0xFF}.{switch.node_id & 0xFF}"


def load_topology(path: str) -> Topology:
    """Read and validate a topology file; raises ConfigError listing every problem."""
    problems = ProblemList(path)
    top = Reader(load_document(path), "", problems)
    switch_tables = top.table_list("switches")
    switches = [_read_switch(Reader(t, f"switches[{i}]", problems)) for i, t in enumerate(switch_tables)]
    # Names a reference may use: those of switches refused for another field count, so
    # one mistake is reported once, not again at every host and link of that switch.
    declared = {t["name"] for t in switch_tables if isinstance(t, dict) and isinstance(t.get("name"), str)}
    hosts = [_read_host(Reader(t, f"hosts[{i}]", problems))
             for i, t in enumerate(top.table_list("hosts", required=False))]
    links = [_read_link(Reader(t, f"links[{i}]", problems), i, problems)
             for i, t in enumerate(top.table_list("links", required=False))]
    raw_collector = top.raw("collector", required=False)  # marks the field as known
    collector = (_read_collector(Reader(raw_collector, "collector", problems))
                 if raw_collector is not None else None)
    top.reject_unknown()
    good_switches = [s for s in switches if s is not None]
    if not switches and "switches" in top.table:
        problems.add("switches", "at least one switch is needed")
    _check_unique(problems, "switches", switches, ("name", "device_id", "node_id", "grpc"))
    _check_unique(problems, "hosts", hosts, ("name", "ip", "mac"))
    names = {s.name for s in good_switches} | declared
    # A switch's CPU port is not an interface: nothing may be plugged into it.
    used_ports: dict[tuple[str, int], str] = {
        (s.name, s.cpu_port): f"switches[{i}].cpu_port" for i, s in enumerate(switches) if s is not None}
    for i, host in enumerate(hosts):
        if host is None:
            continue
        if host.switch not in names:
            problems.add(f"hosts[{i}].switch", f"no switch named {host.switch!r}")
        _claim_port(problems, used_ports, (host.switch, host.port), f"hosts[{i}]")
    for i, link in enumerate(links):
        if link is None:
            continue
        for side, sw, port in (("a", link.a_switch, link.a_port), ("b", link.b_switch, link.b_port)):
            if sw not in names:
                problems.add(f"links[{i}].{side}", f"no switch named {sw!r}")
            _claim_port(problems, used_ports, (sw, port), f"links[{i}].{side}")
        if link.a_switch == link.b_switch:
            problems.add(f"links[{i}]", "a link must join two different switches")
    if collector is not None:
        if collector.switch not in names:
            problems.add("collector.switch", f"no switch named {collector.switch!r}")
        _claim_port(problems, used_ports, (collector.switch, collector.port), "collector")
        for i, host in enumerate(hosts):
            if host is not None and (host.ip == collector.ip or host.name == collector.name
                                     or host.mac == collector.mac):
                problems.add("collector", f"name, ip or mac clashes with hosts[{i}]")
    problems.raise_if_any()
    return Topology(tuple(good_switches), tuple(h for h in hosts if h), tuple(l for l in links if l),
                    collector, by_name={s.name: s for s in good_switches})


def _read_switch(r: Reader) -> Switch | None:
    name = _name(r, r.string("name"))
    device_id = r.integer("device_id", 0, 2**64 - 1)
    grpc = _grpc_address(r, r.string("grpc"))
    role = r.choice("role", ("leaf", "spine"))
    node_id = r.integer("node_id", 0, 2**32 - 1)
    cpu_port = r.integer("cpu_port", 1, MAX_PORT, required=False, default=255)
    r.reject_unknown()
    if (name is None or device_id is None or grpc is None or role is None
            or node_id is None or cpu_port is None):
        return None
    return Switch(name, device_id, grpc, role, node_id, cpu_port)


# What _read_endpoint builds: a Host or the Collector (the same five fields).
_Endpoint = TypeVar("_Endpoint", Host, Collector)


def _name(r: Reader, name: str | None) -> str | None:
    if name is not None and not NAME.match(name):
        r.problems.add(f"{r.where}.name", f"{name!r} is not a valid name: use {NAME_RULE}")
        return None
    return name


def _grpc_address(r: Reader, text: str | None) -> str | None:
    """HOST:PORT with a TCP port, as both the switch (--grpc-server-addr) and the
    controller parse it."""
    if text is None:
        return None
    host, sep, port = text.rpartition(":")
    if not sep or not _GRPC_HOST.match(host) or not port.isascii() or not port.isdigit() \
            or not 1 <= int(port) <= 65535:
        r.problems.add(f"{r.where}.grpc", f"{text!r} must be HOST:PORT with a HOST name or "
                       f"address and PORT in [1, 65535]")
        return None
    return text


def grpc_port(switch: Switch) -> int:
    """The TCP port of a (validated) switch's P4Runtime address."""
    return int(switch.grpc.rpartition(":")[2])


def grpc_host(switch: Switch) -> str:
    """The host part of a (validated) switch's P4Runtime address, without brackets."""
    return switch.grpc.rpartition(":")[0].strip("[]")


def _read_host(r: Reader) -> Host | None:
    return _read_endpoint(r, Host, _name(r, r.string("name")))


def _read_collector(r: Reader) -> Collector | None:
    return _read_endpoint(r, Collector,
                          _name(r, r.string("name", required=False, default="collector")))


def _read_endpoint(r: Reader, cls: type[_Endpoint], name: str | None) -> _Endpoint | None:
    """The fields hosts and the collector share (address and attachment), after the
    name, which only a host must give."""
    ip = _unicast_ip(r, r.ipv4("ip"))
    mac = _unicast_mac(r, r.mac("mac"))
    switch = r.string("switch")
    port = r.integer("port", 0, MAX_PORT)
    r.reject_unknown()
    if name is None or ip is None or mac is None or switch is None or port is None:
        return None
    return cls(name, ip, mac, switch, port)


def _unicast_ip(r: Reader, ip: str | None) -> str | None:
    """An address a host can own: not the shared gateway, loopback, multicast or
    reserved (the kernel or the fabric would treat it specially)."""
    if ip is None:
        return None
    address = ipaddress.IPv4Address(ip)
    reason = None
    if ip == GATEWAY_IP:
        reason = "is every host's gateway address"
    elif address.is_unspecified or address.is_loopback or address.is_multicast \
            or address.is_reserved or address.is_link_local or int(address) >> 24 == 0:
        reason = "is not a unicast host address"
    if reason:
        r.problems.add(f"{r.where}.ip", f"{ip} {reason}")
        return None
    return ip


def _unicast_mac(r: Reader, mac: str | None) -> str | None:
    """Linux refuses a multicast or all-zero address on an interface."""
    if mac is None:
        return None
    if int(mac[:2], 16) & 1 or mac == "00:00:00:00:00:00":
        r.problems.add(f"{r.where}.mac", f"{mac} is not a unicast MAC address")
        return None
    return mac


def _read_link(r: Reader, index: int, problems: ProblemList) -> Link | None:
    ends: list[tuple[str, int] | None] = []
    for side in ("a", "b"):
        text = r.string(side)
        if text is None:
            ends.append(None)
            continue
        sw, sep, port_text = text.rpartition(":")
        if not sep or not sw or not (port_text.isascii() and port_text.isdigit()) or int(port_text) > MAX_PORT:
            problems.add(f"links[{index}].{side}", f"{text!r} must be SWITCH:PORT with PORT in [0, {MAX_PORT}]")
            ends.append(None)
        else:
            ends.append((sw, int(port_text)))
    rate = r.number("rate_pps", 1, 1e9, required=False)
    r.reject_unknown()
    a_end, b_end = ends
    if a_end is None or b_end is None:
        return None
    (a_sw, a_port), (b_sw, b_port) = a_end, b_end
    return Link(a_sw, a_port, b_sw, b_port, rate)


def _check_unique(problems: ProblemList, kind: str, items: list, attrs: tuple[str, ...]) -> None:
    for attr in attrs:
        seen: dict[object, int] = {}
        for i, item in enumerate(items):
            if item is None:
                continue
            value = getattr(item, attr)
            if value in seen:
                problems.add(f"{kind}[{i}].{attr}", f"duplicate {value!r} (also {kind}[{seen[value]}])")
            else:
                seen[value] = i


def _claim_port(problems: ProblemList, used: dict[tuple[str, int], str], key: tuple[str, int],
                where: str) -> None:
    if key in used:
        problems.add(where, f"port {key[1]} of {key[0]} is already used by {used[key]}")
    else:
        used[key] = where
