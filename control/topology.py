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
    rate_pps = 10000         # optional: full-size (1,514-byte) frames/s, each frame costing
                             # its own bytes (control/link_shaping.py)

    [collector]              # optional: where telemetry reports go
    name = "collector"
    ip = "192.168.100.2"
    mac = "00:00:00:00:c0:11"
    switch = "leaf1"
    port = 4

Every switch answers as a router with ``router_mac(switch)``; hosts reach it as their
gateway ``GATEWAY_IP`` (a static ARP entry and an onlink default route).

Domains (optional; a file without them is one domain, see Topology.effective_domains)::

    [[domains]]
    name = "west"            # unique, a NAME
    id = 1                   # unique; INT's domain-specific ID (16 bits)
    switches = ["w-leaf1", "w-border1"]   # each switch in exactly one domain
    hosts = ["h1"]           # each host in exactly one domain, attached to one of its switches
    borders = ["w-border1"]  # this domain's switches that end inter-domain links
    peers = ["east"]         # optional: domains its controller exchanges summaries with
                             # (default: those it shares an inter-domain link with; mutual)
    [domains.controller]     # the one controller that programs this domain's switches
    name = "ctl-west"        # unique
    election_id = 1          # optional, P4Runtime election id (default 1)
    role = "west"            # optional, P4Runtime role name, unique (default: the domain's name)
    [domains.collector]      # optional: this domain's telemetry collector, fields as
                             # [collector]'s, on one of its switches (no top-level
                             # [collector] then)

    [[interdomain_links]]    # between border switches of two different domains
    a = "w-border1:5"
    b = "e-border1:5"
    latency = "5ms"          # one way: a number and us | ms | s
    rate = "100mbit"         # a number and bit | kbit | mbit | gbit | tbit (decimal)
    allow_untagged = true    # optional (default true): the shared partition 0 crosses untagged
    [interdomain_links.partitions]   # optional: the VID each partition crosses this link
    tenant-a = 700           # with (partitions match by name; each domain's own tag
                             # is its policy's); a partition not named here cannot cross

An inter-domain link is also in Topology.links (it is a link the launcher wires and routing
crosses); Topology.interdomain_links adds its latency and rate (tc netem + tbf:
control/federation/netem.py).
"""
from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import Callable, TypeVar

from control.config_reader import Reader, load_document
from control.errors import ProblemList
from control.federation.units import parse_latency, parse_rate

MAX_PORT = 510  # 511 is v1model's drop port
GATEWAY_IP = "10.255.255.254"  # every host's default gateway; ARP-resolved to its switch's router MAC
# Names become interface, namespace and log-file names: no '/', ':' or white space.
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
NAME_RULE = "letters, digits, '_', '.', '-' (starting with a letter or digit, at most 64)"
_GRPC_HOST = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$")
# What a file without [[domains]] means: one domain holding everything, programmed by
# fabricctl as today (election id 1, the default role: full access), INT domain 1.
DEFAULT_DOMAIN = "default"
DEFAULT_DOMAIN_ID = 1
DEFAULT_CONTROLLER = "fabricctl"
DEFAULT_ELECTION_ID = 1
MAX_DOMAIN_ID = 0xFFFF  # INT-MD's domain-specific ID is 16 bits


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
class DomainController:
    """The one controller that programs a domain's switches, as P4Runtime knows it."""

    name: str
    election_id: int
    role: str  # P4Runtime role name; "" is the default role (full access)


@dataclass(frozen=True)
class Domain:
    """One administrative domain: its members (in the topology's order), its borders,
    the controller that alone programs it, and its collector."""

    name: str
    id: int
    switches: tuple[str, ...]
    hosts: tuple[str, ...]
    borders: tuple[str, ...]
    controller: DomainController
    collector: Collector | None = None
    peers: tuple[str, ...] = ()


@dataclass(frozen=True)
class InterDomainLink:
    """A link between border switches of two domains, with the distance it emulates."""

    a_switch: str
    a_port: int
    b_switch: str
    b_port: int
    latency_us: int  # one way
    rate_bps: int
    # (partition name, VID on this link), and whether partition 0 crosses untagged:
    # the border's partition mapping (control/controller/partition_borders.py).
    partitions: tuple[tuple[str, int], ...] = ()
    allow_untagged: bool = True

    def link(self) -> Link:
        """The plain link (what the launcher wires and routing crosses)."""
        return Link(self.a_switch, self.a_port, self.b_switch, self.b_port)


@dataclass(frozen=True)
class Topology:
    switches: tuple[Switch, ...]
    hosts: tuple[Host, ...]
    links: tuple[Link, ...]  # inter-domain links included
    collector: Collector | None = None
    by_name: dict[str, Switch] = field(compare=False, repr=False, default_factory=dict)
    domains: tuple[Domain, ...] = ()  # as declared; none: see effective_domains()
    interdomain_links: tuple[InterDomainLink, ...] = ()

    def effective_domains(self) -> tuple[Domain, ...]:
        """The declared domains, or the one domain a file without them means."""
        if self.domains:
            return self.domains
        return (Domain(DEFAULT_DOMAIN, DEFAULT_DOMAIN_ID, tuple(s.name for s in self.switches),
                       tuple(h.name for h in self.hosts), (),
                       DomainController(DEFAULT_CONTROLLER, DEFAULT_ELECTION_ID, ""), self.collector),)

    def domain(self, name: str) -> Domain:
        for d in self.effective_domains():
            if d.name == name:
                return d
        raise KeyError(f"no domain named {name!r}")

    def domain_of(self, switch: str) -> Domain:
        """The domain ``switch`` belongs to."""
        for d in self.effective_domains():
            if switch in d.switches:
                return d
        raise KeyError(f"no switch named {switch!r}")

    def collectors(self) -> list[Collector]:
        """Every telemetry collector: the top-level one, or each domain's."""
        found = [self.collector] if self.collector is not None else []
        return found + [d.collector for d in self.domains if d.collector is not None]

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
        for collector in self.collectors():
            if collector.switch == switch:
                ports.add(collector.port)
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
    return parse_topology(load_document(path), path)


def parse_topology(document: dict, path: str) -> Topology:
    """Validate a parsed topology document (the structure of the file) from ``path``;
    raises ConfigError listing every problem, located in ``path``."""
    problems = ProblemList(path)
    top = Reader(document, "", problems)
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
    drafts = [_read_domain(Reader(t, f"domains[{i}]", problems))
              for i, t in enumerate(top.table_list("domains", required=False))]
    inter = [_read_interdomain_link(Reader(t, f"interdomain_links[{i}]", problems))
             for i, t in enumerate(top.table_list("interdomain_links", required=False))]
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
    for i, idl in enumerate(inter):
        if idl is None:
            continue
        for side, sw, port in (("a", idl.a_switch, idl.a_port), ("b", idl.b_switch, idl.b_port)):
            if sw not in names:
                problems.add(f"interdomain_links[{i}].{side}", f"no switch named {sw!r}")
            _claim_port(problems, used_ports, (sw, port), f"interdomain_links[{i}].{side}")
    if drafts:
        _check_domains(problems, drafts, inter, names, switches, hosts, links, collector, used_ports)
    elif "interdomain_links" in top.table:
        problems.add("interdomain_links", "needs [[domains]]: an inter-domain link joins border "
                                          "switches of two declared domains")
    problems.raise_if_any()
    good_hosts = tuple(h for h in hosts if h)
    good_inter = tuple(i for i in inter if i)
    return Topology(tuple(good_switches), good_hosts,
                    tuple(l for l in links if l) + tuple(i.link() for i in good_inter),
                    collector, by_name={s.name: s for s in good_switches},
                    domains=_build_domains(drafts, inter, good_switches, good_hosts),
                    interdomain_links=good_inter)


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
    ends = _link_ends(r)
    rate = r.number("rate_pps", 1, 1e9, required=False)
    r.reject_unknown()
    if ends is None:
        return None
    (a_sw, a_port), (b_sw, b_port) = ends
    return Link(a_sw, a_port, b_sw, b_port, rate)


def _link_ends(r: Reader) -> tuple[tuple[str, int], tuple[str, int]] | None:
    """A link table's ``a`` and ``b``, each SWITCH:PORT (None if either is wrong)."""
    ends: list[tuple[str, int] | None] = []
    for side in ("a", "b"):
        text = r.string(side)
        if text is None:
            ends.append(None)
            continue
        sw, sep, port_text = text.rpartition(":")
        if not sep or not sw or not (port_text.isascii() and port_text.isdigit()) or int(port_text) > MAX_PORT:
            r.problems.add(f"{r.where}.{side}", f"{text!r} must be SWITCH:PORT with PORT in [0, {MAX_PORT}]")
            ends.append(None)
        else:
            ends.append((sw, int(port_text)))
    a_end, b_end = ends
    if a_end is None or b_end is None:
        return None
    return a_end, b_end


def _read_interdomain_link(r: Reader) -> InterDomainLink | None:
    ends = _link_ends(r)
    latency = _unit_value(r, "latency", parse_latency)
    rate = _unit_value(r, "rate", parse_rate)
    allow = r.raw("allow_untagged", required=False)
    if allow is not None and not isinstance(allow, bool):
        r.problems.add(f"{r.where}.allow_untagged", f"{allow!r} is not true or false")
    partitions = _link_partitions(r)
    r.reject_unknown()
    if ends is None or latency is None or rate is None:
        return None
    (a_sw, a_port), (b_sw, b_port) = ends
    return InterDomainLink(a_sw, a_port, b_sw, b_port, latency, rate, partitions,
                           allow is not False)


def _link_partitions(r: Reader) -> tuple[tuple[str, int], ...]:
    """An inter-domain link's ``partitions`` table: partition name -> VID 1..4094, one
    partition per VID (whether the names are the policy's is checked with the policy)."""
    raw = r.raw("partitions", required=False)
    if raw is None:
        return ()
    where = f"{r.where}.partitions"
    if not isinstance(raw, dict):
        r.problems.add(where, "must be a table of partition name = VID")
        return ()
    found: list[tuple[str, int]] = []
    on_vid: dict[int, str] = {}
    for name, vid in raw.items():
        if not isinstance(vid, int) or isinstance(vid, bool) or not 1 <= vid <= 4094:
            r.problems.add(f"{where}.{name}", f"VID {vid!r} is not an integer in 1..4094")
        elif vid in on_vid:
            r.problems.add(f"{where}.{name}", f"VID {vid} is already partition "
                           f"{on_vid[vid]!r}'s on this link")
        else:
            on_vid[vid] = name
            found.append((str(name), vid))
    return tuple(found)


def _unit_value(r: Reader, name: str, parse: Callable[[object], int]) -> int | None:
    """A required number-with-unit field, read by ``parse`` (its ValueError: the reason)."""
    value = r.raw(name)
    if value is None:
        return None
    try:
        return parse(value)
    except ValueError as exc:
        r.problems.add(f"{r.where}.{name}", str(exc))
        return None


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


# -- domains ---------------------------------------------------------------------------
@dataclass
class _DomainDraft:
    """One [[domains]] table as read, before the checks across tables; members keep
    their list positions for located messages."""

    name: str | None
    id: int | None
    switches: list[tuple[int, str]]
    hosts: list[tuple[int, str]]
    borders: list[tuple[int, str]]
    peers: list[tuple[int, str]] | None  # None: not given (the linked domains)
    controller: DomainController | None
    collector: Collector | None


def _read_domain(r: Reader) -> _DomainDraft:
    name = _name(r, r.string("name"))
    domain_id = r.integer("id", 0, MAX_DOMAIN_ID)
    switches = _name_list(r, "switches", required=True)
    if r.table.get("switches") == []:
        r.problems.add(f"{r.where}.switches", "at least one switch is needed")
    hosts = _name_list(r, "hosts", required=False)
    borders = _name_list(r, "borders", required=False)
    peers = _name_list(r, "peers", required=False) if "peers" in r.table else None
    raw_controller = r.raw("controller")
    controller = (_read_controller(Reader(raw_controller, f"{r.where}.controller", r.problems), name)
                  if raw_controller is not None else None)
    raw_collector = r.raw("collector", required=False)
    collector = (_read_collector(Reader(raw_collector, f"{r.where}.collector", r.problems))
                 if raw_collector is not None else None)
    r.reject_unknown()
    return _DomainDraft(name, domain_id, switches, hosts, borders, peers, controller, collector)


def _read_controller(r: Reader, domain: str | None) -> DomainController | None:
    name = _name(r, r.string("name"))
    election_id = r.integer("election_id", 1, 2**64 - 1, required=False, default=DEFAULT_ELECTION_ID)
    role = r.string("role", required=False, default=domain)
    if role is not None and not NAME.match(role):
        r.problems.add(f"{r.where}.role", f"{role!r} is not a valid role name: use {NAME_RULE}")
        role = None
    r.reject_unknown()
    if name is None or election_id is None or role is None:
        return None
    return DomainController(name, election_id, role)


def _name_list(r: Reader, name: str, required: bool) -> list[tuple[int, str]]:
    """An array of names, as (position, name); wrong elements are reported and left out."""
    value = r.raw(name, required)
    if value is None:
        return []
    if not isinstance(value, list):
        r.problems.add(f"{r.where}.{name}", f"must be an array of names, not {value!r}")
        return []
    found = []
    for k, item in enumerate(value):
        if isinstance(item, str) and item:
            found.append((k, item))
        else:
            r.problems.add(f"{r.where}.{name}[{k}]", f"must be a non-empty string, not {item!r}")
    return found


def _check_domains(problems: ProblemList, drafts: list[_DomainDraft], inter: list[InterDomainLink | None],
                   names: set[str], switches: list[Switch | None], hosts: list[Host | None],
                   links: list[Link | None], collector: Collector | None,
                   used_ports: dict[tuple[str, int], str]) -> None:
    """What only the domains together can get wrong: membership, borders, links across
    domains, peers, controllers and collectors."""
    def label(j: int) -> str:
        return drafts[j].name or f"domains[{j}]"

    if collector is not None:
        problems.add("collector", "with [[domains]], each domain names its own collector "
                                  "(domains[N].collector): move it into its domain")
    _check_unique_fields(problems, "domains", [(d.name, d.id) for d in drafts], ("name", "id"))
    _check_unique_fields(problems, "domains", [(d.controller.name, d.controller.role) if d.controller
                                               else (None, None) for d in drafts],
                         ("controller.name", "controller.role"))
    # Switches: each in exactly one domain.
    switch_domain: dict[str, int] = {}
    contested: set[str] = set()
    listed: set[str] = set()
    for i, d in enumerate(drafts):
        here: set[str] = set()
        for k, sw in d.switches:
            where = f"domains[{i}].switches[{k}]"
            listed.add(sw)
            if sw not in names:
                problems.add(where, f"no switch named {sw!r}")
            elif sw in here:
                problems.add(where, f"{sw!r} is listed twice")
            elif sw in switch_domain:
                j = switch_domain[sw]
                problems.add(where, f"{sw!r} is already in domain {label(j)} (domains[{j}]): "
                                    f"a switch belongs to one domain")
                contested.add(sw)
            else:
                switch_domain[sw] = i
            here.add(sw)
    for sw in contested:  # no domain to judge its hosts and links by: one mistake, one line
        del switch_domain[sw]
    for i, s in enumerate(switches):
        if s is not None and s.name not in listed:
            problems.add(f"switches[{i}]", f"{s.name!r} is in no domain: list it in one "
                                           f"domain's switches")
    # Hosts: each in exactly one domain, attached to one of its switches.
    host_by_name = {h.name: h for h in hosts if h is not None}
    host_domain: dict[str, int] = {}
    listed_hosts: set[str] = set()
    for i, d in enumerate(drafts):
        for k, name in d.hosts:
            where = f"domains[{i}].hosts[{k}]"
            listed_hosts.add(name)
            host = host_by_name.get(name)
            if host is None:
                problems.add(where, f"no host named {name!r}")
            elif name in host_domain:
                j = host_domain[name]
                problems.add(where, f"{name!r} is already in domain {label(j)} (domains[{j}]): "
                                    f"a host belongs to one domain")
            else:
                host_domain[name] = i
                other = switch_domain.get(host.switch)
                if other is not None and other != i:
                    problems.add(where, f"{name!r} is attached to {host.switch!r} of domain "
                                        f"{label(other)}, not to a switch of {label(i)}")
    for i, h in enumerate(hosts):
        if h is not None and h.name not in listed_hosts:
            problems.add(f"hosts[{i}]", f"{h.name!r} is in no domain: list it in the domain "
                                        f"of its switch {h.switch!r}")
    # Borders, and the links that join domains.
    borders: dict[str, int] = {}
    for i, d in enumerate(drafts):
        own = {sw for _, sw in d.switches}
        for k, sw in d.borders:
            if sw not in own:
                problems.add(f"domains[{i}].borders[{k}]", f"{sw!r} is not one of this domain's switches")
            elif borders.get(sw) == i:
                problems.add(f"domains[{i}].borders[{k}]", f"{sw!r} is listed twice")
            else:
                borders[sw] = i
    for i, link in enumerate(links):
        if link is None:
            continue
        a, b = switch_domain.get(link.a_switch), switch_domain.get(link.b_switch)
        if a is not None and b is not None and a != b:
            problems.add(f"links[{i}]", f"joins {link.a_switch!r} of domain {label(a)} and "
                                        f"{link.b_switch!r} of domain {label(b)}: a link between "
                                        f"domains goes in [[interdomain_links]], with its latency and rate")
    linked: set[tuple[int, int]] = set()
    ends: set[str] = set()
    for i, idl in enumerate(inter):
        if idl is None:
            continue
        sides = (("a", idl.a_switch), ("b", idl.b_switch))
        ends.update(sw for _, sw in sides)
        for side, sw in sides:
            home = switch_domain.get(sw)
            if home is not None and borders.get(sw) != home:
                problems.add(f"interdomain_links[{i}].{side}",
                             f"{sw!r} is not a border switch of domain {label(home)}: list it in "
                             f"domains[{home}].borders")
        a, b = switch_domain.get(idl.a_switch), switch_domain.get(idl.b_switch)
        if a is not None and a == b:
            problems.add(f"interdomain_links[{i}]", f"both ends are in domain {label(a)}: an "
                                                    f"inter-domain link joins two different domains "
                                                    f"(a link inside a domain goes in [[links]])")
        elif a is not None and b is not None:
            linked.update({(a, b), (b, a)})
    if all(idl is not None for idl in inter):  # else a border's link may be the broken one
        for i, d in enumerate(drafts):
            for k, sw in d.borders:
                if borders.get(sw) == i and sw not in ends:
                    problems.add(f"domains[{i}].borders[{k}]",
                                 f"{sw!r} ends no [[interdomain_links]]: a border switch joins "
                                 f"another domain")
    _check_peers(problems, drafts, linked, label)
    _check_domain_collectors(problems, drafts, switch_domain, names, hosts, used_ports, label)


def _check_peers(problems: ProblemList, drafts: list[_DomainDraft], linked: set[tuple[int, int]],
                 label: Callable[[int], str]) -> None:
    index = {d.name: i for i, d in enumerate(drafts) if d.name is not None}
    peers: list[set[int]] = []
    for i, d in enumerate(drafts):
        if d.peers is None:
            peers.append({b for a, b in linked if a == i})
            continue
        mine: set[int] = set()
        for k, name in d.peers:
            where = f"domains[{i}].peers[{k}]"
            j = index.get(name)
            if j is None:
                problems.add(where, f"no domain named {name!r}")
            elif j == i:
                problems.add(where, "a domain does not peer with itself")
            elif j in mine:
                problems.add(where, f"{name!r} is listed twice")
            else:
                mine.add(j)
        peers.append(mine)
    for i, d in enumerate(drafts):
        for j in sorted(peers[i]):
            if i not in peers[j]:
                problems.add(f"domains[{j}].peers", f"{label(i)} (domains[{i}]) peers with "
                                                    f"{label(j)}, which does not list it: peering "
                                                    f"is mutual")


def _check_domain_collectors(problems: ProblemList, drafts: list[_DomainDraft],
                             switch_domain: dict[str, int], names: set[str], hosts: list[Host | None],
                             used_ports: dict[tuple[str, int], str], label: Callable[[int], str]) -> None:
    seen: list[tuple[int, Collector]] = []
    for i, d in enumerate(drafts):
        c = d.collector
        if c is None:
            continue
        where = f"domains[{i}].collector"
        if c.switch not in names:
            problems.add(f"{where}.switch", f"no switch named {c.switch!r}")
        elif switch_domain.get(c.switch, i) != i:
            problems.add(f"{where}.switch", f"{c.switch!r} is in domain "
                                            f"{label(switch_domain[c.switch])}, not {label(i)}")
        _claim_port(problems, used_ports, (c.switch, c.port), where)
        for k, host in enumerate(hosts):
            if host is not None and (host.ip == c.ip or host.name == c.name or host.mac == c.mac):
                problems.add(where, f"name, ip or mac clashes with hosts[{k}]")
        for j, other in seen:
            if other.ip == c.ip or other.name == c.name or other.mac == c.mac:
                problems.add(where, f"name, ip or mac clashes with domains[{j}].collector")
        seen.append((i, c))


def _check_unique_fields(problems: ProblemList, kind: str, rows: list[tuple[object, object]],
                         fields: tuple[str, str]) -> None:
    """Duplicates among rows' values (None: not read, not compared)."""
    for column, name in enumerate(fields):
        seen: dict[object, int] = {}
        for i, row in enumerate(rows):
            value = row[column]
            if value is None:
                continue
            if value in seen:
                problems.add(f"{kind}[{i}].{name}", f"duplicate {value!r} (also {kind}[{seen[value]}])")
            else:
                seen[value] = i


def _build_domains(drafts: list[_DomainDraft], inter: list[InterDomainLink | None],
                   switches: list[Switch], hosts: tuple[Host, ...]) -> tuple[Domain, ...]:
    """Domains from drafts that passed every check; members in the topology's order (so
    how a file orders a domain's lists does not matter), peers in the domains' order."""
    switch_order = {s.name: i for i, s in enumerate(switches)}
    host_order = {h.name: i for i, h in enumerate(hosts)}
    domain_of = {sw: i for i, d in enumerate(drafts) for _, sw in d.switches}
    linked = {(domain_of[x.a_switch], domain_of[x.b_switch]) for x in inter if x is not None}
    built = []
    for i, d in enumerate(drafts):
        assert d.name is not None and d.id is not None and d.controller is not None
        if d.peers is None:
            peer_ids = {b for a, b in linked if a == i} | {a for a, b in linked if b == i}
        else:
            peer_ids = {j for j, other in enumerate(drafts) if other.name in {n for _, n in d.peers}}
        built.append(Domain(
            d.name, d.id,
            tuple(sorted((sw for _, sw in d.switches), key=switch_order.__getitem__)),
            tuple(sorted((h for _, h in d.hosts), key=host_order.__getitem__)),
            tuple(sorted((sw for _, sw in d.borders), key=switch_order.__getitem__)),
            d.controller, d.collector,
            tuple(str(drafts[j].name) for j in sorted(peer_ids))))
    return tuple(built)
