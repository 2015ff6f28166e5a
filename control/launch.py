"""Launch a whole fabric from a topology file, on veth pairs and network namespaces (root).

Layout (one FabricNetwork):

- one namespace ``<tag>-sw`` holds every switch and every switch-side interface; a
  switch port is the interface ``<switch>-<port>`` (``leaf1-2``). A link is a veth pair
  joining two such interfaces, so each switch process sees only its own ports. Every
  switch's gRPC (and control-channel) server listens on loopback in that namespace.
- one namespace per host ``<tag>-<host>`` and one for the collector ``<tag>-col``, each
  with a single interface ``eth0`` (the far end of the attachment port's veth) carrying
  the endpoint's MAC and its IP as a /32, a permanent neighbour entry for the gateway
  10.255.255.254 with the attached switch's router MAC, and a default route via that
  gateway (onlink). The fabric routes on /32s, so hosts need no subnet. ``eth0`` has
  checksum offload off (control/offload.py) and MTU HOST_MTU, so ordinary TCP and UDP
  cross the software switch whole.

Every input (topology, policy, build outputs, tag, switch program, the machine) is
checked before the first namespace exists (control/launch_check.py, plan_launch); a
mistake is a ConfigError naming file, field and reason, printed like fabricctl's.

Switches run the Makefile's $SWITCH (p4sim-switch, or simple_switch_grpc with
TARGET=bmv2) with flags simple_switch_grpc's --help lists; only p4sim-switch also gets
--thrift-port (its control channel), since simple_switch_grpc serves no Thrift and,
built without it, refuses the flag. A link's ``rate_pps`` is enforced on both targets
by tc on the link's veths (control/link_shaping.py). set_queue_rate/set_queue_depth
change the switch's own egress queue (what the switch's queue metadata shows: ECN,
trimming's depth signal, INT; trimming on shaped links uses the per-port meter), which
only p4sim's control channel can do at run time; on simple_switch_grpc they raise
LaunchError. Everything started here is stopped and every namespace deleted on exit,
also on failure.

A topology with [[domains]] (topologies/two_domains.toml) gets every domain's collector
(namespace ``<tag>-<collector>``), each p4sim switch bound to its domain's P4Runtime role
(``--p4rt-allowed-roles``; simple_switch_grpc has no such option and ignores roles: the
launch then notes that sovereignty is not enforced) and, with a policy, one
``fabricctl run --domain D`` per domain (start_controllers). Border links get their rate
(tbf) and their latency (netem) where the kernel has netem; where it has not, the launch
says once that latency is not emulated (FabricNetwork.notes, border_shaping) and goes on.

By hand: ``sudo .venv/bin/python -m control.launch topologies/two_leaves.toml --policy
topologies/two_leaves.policy.toml`` keeps a programmed fabric up until Ctrl-C; then e.g.
``ip netns exec ln<pid>-h2 .venv/bin/python -m endpoints.receiver --bind 10.0.2.1``.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from control.errors import ConfigError, raise_all
from control.federation.border_shaping import BorderShaping, shape_border_link
from control.federation.domain_view import domain_view
from control.launch_check import (ENVIRONMENT, MAX_IFNAME, environment_problems, file_problems,
                                  port_interface, tag_problems, topology_problems)
from wire_formats.layers import REPORT_UDP_PORT as REPORT_PORT
from control.link_shaping import ShapingError, shape
from control.offload import OffloadError, disable_checksum_offload
from control.policy import Policy, load_policy
from control.routing import link_between
from control.topology import (DEFAULT_DOMAIN, Host, InterDomainLink, Link, Switch, Topology,
                              grpc_port, load_topology, router_mac)
from lab.errors import LabError, NetnsError, TargetError
from lab.namespace import Netns, ip, set_link, veth_pair
from lab.process import ManagedProcess
from lab.readiness import tcp_accepts, wait_until
from lab.switch import BMV2_GRPC, is_bmv2, runtime_cli
from lab.target import Target

ROOT = Path(__file__).resolve().parents[1]
GATEWAY_IP = "10.255.255.254"
FIRST_THRIFT_PORT = 9090
# MTUs both targets carry. Hosts send at most HOST_MTU; switch-side interfaces allow
# LINK_MTU, room for what the fabric adds on the way (VLAN tag, an INT stack of 4 hops
# is 160 bytes). Neither switch truncates: BMv2 reads each frame whole through libpcap
# (snapshot length 262144; a shorter capture is dropped) and p4sim sizes its receive
# buffers from the interface MTU (packet_io.frame_capacity), so any veth MTU works.
HOST_MTU = 9000
LINK_MTU = 9216
PRIORITY_QUEUES = 8
READY_TIMEOUT = 60.0


LaunchError = LabError
"""The fabric could not be brought up (namespace, link or process): the lab harness's
own error (lab/errors.py), so one clause catches the launcher's and the harness's."""


@dataclass(frozen=True)
class Endpoint:
    """Something plugged into one switch port through its own namespace: a host or
    the telemetry collector."""
    name: str
    ip: str
    mac: str
    switch: str
    port: int


def default_switch_binary() -> str:
    """The switch TARGET / SWITCH select (lab/target.py: $SWITCH as the Makefile exports
    it, else the target's own switch)."""
    return Target.from_environment().switch


def interface_name(switch: str, port: int) -> str:
    """The switch-side interface of ``switch``'s ``port``."""
    name = port_interface(switch, port)
    if len(name) > MAX_IFNAME:
        raise LaunchError(f"interface name {name!r} for {switch} port {port} is longer than "
                          f"{MAX_IFNAME} characters; use a shorter switch name in the topology")
    return name


class FabricNetwork:
    """The namespaces, links and switch processes of one topology; a context manager.

    ``tag`` prefixes every namespace name (default ``ln<pid>``), so two networks (or
    two test runs) never collide.
    """

    def __init__(self, topology: str | Path | Topology, *, tag: str | None = None,
                 switch_binary: str | None = None, log_dir: str | Path | None = None,
                 switch_args: tuple[str, ...] = (), ready_timeout: float = READY_TIMEOUT,
                 common_clock: bool = False, pcap_dir: str | Path | None = None) -> None:
        if isinstance(topology, Topology):
            self.topology, self.topology_path = topology, None
        else:
            self.topology, self.topology_path = load_topology(str(topology)), Path(topology).resolve()
        self.tag = tag or f"ln{os.getpid()}"
        # Refuse what cannot be built before touching anything (ConfigError, located).
        raise_all([error for error in (
            _error(str(self.topology_path or "(topology)"), topology_problems(self.topology)),
            _error(ENVIRONMENT, tag_problems(self.tag))) if error])
        try:
            self.switch_binary = switch_binary or default_switch_binary()
        except TargetError as exc:
            raise_all([ConfigError(ENVIRONMENT, [("TARGET", str(exc))])])
        self.cli = runtime_cli(self.switch_binary)
        # p4sim-switch --common-clock: hop timestamps comparable across switches (BMv2 has none).
        self.common_clock = common_clock
        if common_clock and is_bmv2(self.switch_binary):
            raise_all([ConfigError(ENVIRONMENT, [(
                "common_clock", f"{self.switch_binary} has no common clock: a p4sim-switch extension")])])
        self._own_log_dir = log_dir is None
        self.log_dir = Path(log_dir or tempfile.mkdtemp(prefix=f"{self.tag}-logs-"))
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.switch_args = tuple(switch_args)
        # --pcap=<pcap_dir>/<switch>: <interface>_in.pcap / _out.pcap per port, on both
        # targets (BMv2's --pcap takes its value only after "="); a restart starts them anew.
        self.pcap_dir = Path(pcap_dir).resolve() if pcap_dir is not None else None
        self.ready_timeout = ready_timeout
        self.endpoints = {h.name: _host_endpoint(h) for h in self.topology.hosts}
        self.collector = _collector_endpoint(self.topology)  # the top-level [collector]
        # Every collector by name: the top-level one, or one per domain ([domains.collector]).
        self.collectors = {c.name: _host_endpoint(c.as_host()) for c in self.topology.collectors()}
        # What the launch could not do as the topology asks (e.g. border latency without
        # netem), one line each: printed by main(), for reports to repeat.
        self.notes: list[str] = []
        self.border_shaping: list[BorderShaping] = []
        # p4sim-switch binds each switch to its domain's role; simple_switch_grpc ignores roles.
        self.enforce_roles = bool(self.topology.domains) and not is_bmv2(self.switch_binary)
        if self.topology.domains and not self.enforce_roles:
            self.notes.append(f"sovereignty not enforced: {self.switch_binary} has no "
                              "--p4rt-allowed-roles (docs/sovereignty.md)")
        self.switch_ns = f"{self.tag}-sw"
        self._namespaces: dict[str, Netns] = {}
        self._switches: dict[str, ManagedProcess] = {}
        self._processes: list[ManagedProcess] = []
        self._thrift_ports = _thrift_ports(self.topology)

    # -- lifecycle ---------------------------------------------------------------------
    def planned_namespaces(self) -> list[str]:
        """Every namespace _build() creates."""
        return [self.switch_ns] + [self.namespace_of(e.name) for e in self.all_endpoints()]

    def machine_problems(self) -> ConfigError | None:
        """What this machine lacks for the launch (root, tools, the switch program, free
        namespace names), found without changing anything."""
        shaped = any(link.rate_pps for link in self.topology.links) or self.topology.interdomain_links
        tools = ("ip", "tc") if shaped else ("ip",)
        return _error(ENVIRONMENT, environment_problems(self.switch_binary, self.planned_namespaces(),
                                                        tools))

    def __enter__(self) -> "FabricNetwork":
        problem = self.machine_problems()
        if problem is not None:  # refused before the first namespace exists
            raise problem
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every process started here (newest first), delete every namespace."""
        for process in reversed(self._processes):
            process.stop()
        self._processes.clear()
        self._switches.clear()
        for namespace in reversed(list(self._namespaces.values())):
            namespace.close()
        self._namespaces.clear()
        if self._own_log_dir and self.log_dir.exists():
            for path in self.log_dir.glob("*"):
                path.unlink()
            self.log_dir.rmdir()

    def _build(self) -> None:
        self._add_namespace(self.switch_ns)
        for link in self.topology.links:
            self._add_link(link)
        for endpoint in self.all_endpoints():
            self._add_endpoint(endpoint)
        for switch in self.topology.switches:
            self._start_switch(switch)
        for switch in self.topology.switches:
            self._wait_switch_ready(switch)

    def _add_namespace(self, name: str) -> Netns:
        namespace = Netns(name, [])
        namespace.__enter__()
        self._namespaces[name] = namespace
        return namespace

    def _add_link(self, link: Link) -> None:
        a = interface_name(link.a_switch, link.a_port)
        b = interface_name(link.b_switch, link.b_port)
        veth_pair(a, b, namespace=self.switch_ns)
        for end in (a, b):  # switches send complete frames: no offload to turn off here
            set_link(end, namespace=self.switch_ns, mtu=LINK_MTU)
        if link.rate_pps:
            self.set_link_rate(link.a_switch, link.a_port, link.rate_pps)
            self.set_link_rate(link.b_switch, link.b_port, link.rate_pps)
        for border in self.topology.interdomain_links:
            if border.link() == link:
                self._shape_border(border, a)
                self._shape_border(border, b)

    def _shape_border(self, border: InterDomainLink, interface: str) -> None:
        """Rate (tbf) and, where the kernel has netem, latency on one sending end."""
        try:
            done = shape_border_link(self.switch_ns, interface, border.latency_us,
                                     border.rate_bps, LINK_MTU)
        except ShapingError as exc:
            raise LaunchError(f"border link {border.a_switch}:{border.a_port}-"
                              f"{border.b_switch}:{border.b_port}: {exc}") from None
        self.border_shaping.append(done)
        if not done.latency_emulated and all(s.latency_emulated for s in self.border_shaping[:-1]):
            self.notes.append("border latency NOT emulated (this kernel has no netem: "
                              f"{done.reason}); border links carry their rate only (tbf)")

    def _add_endpoint(self, endpoint: Endpoint) -> None:
        ns = self.namespace_of(endpoint.name)
        self._add_namespace(ns)
        outer = interface_name(endpoint.switch, endpoint.port)
        veth_pair(outer, "eth0", namespace=self.switch_ns, peer_namespace=ns)
        set_link(outer, namespace=self.switch_ns, mtu=LINK_MTU)
        try:  # the host's kernel must checksum what it sends: the switch forwards it as read
            self._namespaces[ns].run_inside(lambda: disable_checksum_offload("eth0"))
        except OffloadError as exc:
            raise LaunchError(f"{endpoint.name}: turning checksum offload off on eth0 in {ns}: "
                              f"{exc}") from None
        gateway_mac = router_mac(self.topology.switch(endpoint.switch))
        for args in (("link", "set", "eth0", "address", endpoint.mac, "mtu", str(HOST_MTU), "up"),
                     ("addr", "add", f"{endpoint.ip}/32", "dev", "eth0"),
                     ("neigh", "replace", GATEWAY_IP, "lladdr", gateway_mac, "dev", "eth0",
                      "nud", "permanent"),
                     ("route", "add", "default", "via", GATEWAY_IP, "dev", "eth0", "onlink")):
            ip("-n", ns, *args)

    def all_endpoints(self) -> list[Endpoint]:
        """Hosts, then every collector."""
        return list(self.endpoints.values()) + list(self.collectors.values())

    # -- switches ----------------------------------------------------------------------
    def switch_command(self, switch: Switch) -> list[str]:
        """The $SWITCH command line for ``switch`` (run inside the switch namespace)."""
        interfaces = [arg for port in sorted(self.topology.all_ports(switch.name))
                      for arg in ("-i", f"{port}@{interface_name(switch.name, port)}")]
        thrift = [] if self.cli is None else ["--thrift-port", str(self._thrift_ports[switch.name])]
        clock = ["--common-clock"] if self.common_clock else []
        pcap = [] if self.pcap_dir is None else [f"--pcap={self.pcap_dir / switch.name}"]
        roles = (["--p4rt-allowed-roles", self.topology.domain_of(switch.name).controller.role]
                 if self.enforce_roles else [])
        return [self.switch_binary, "--no-p4", "--device-id", str(switch.device_id),
                *thrift, *interfaces, *clock, *pcap,
                *self.switch_args, "--", "--grpc-server-addr", switch.grpc,
                "--cpu-port", str(switch.cpu_port), "--priority-queues", str(PRIORITY_QUEUES),
                *roles]

    def _start_switch(self, switch: Switch) -> None:
        if self.pcap_dir is not None:   # simple_switch_grpc does not create it
            (self.pcap_dir / switch.name).mkdir(parents=True, exist_ok=True)
        process = self.start_process(self.switch_ns, f"switch-{switch.name}", self.switch_command(switch))
        self._switches[switch.name] = process

    def _wait_switch_ready(self, switch: Switch) -> None:
        """Ready = its gRPC port accepts a connection inside the switch namespace (what
        works for simple_switch_grpc too, which prints no ready line)."""
        host, _, port_text = switch.grpc.rpartition(":")
        namespace = self._namespaces[self.switch_ns]
        self._switches[switch.name].wait_until(
            lambda: namespace.run_inside(lambda: tcp_accepts(host, int(port_text))),
            f"its gRPC server {switch.grpc} accepted", self.ready_timeout)

    def switch_process(self, name: str) -> ManagedProcess:
        return self._switches[name]

    def kill_switch(self, name: str) -> None:
        """SIGKILL the switch: all its state is gone, its interfaces stay."""
        self._switches[name].kill()

    def restart_switch(self, name: str) -> None:
        """Start the switch again (killing it first if it still runs), as a fresh
        process with no pipeline; returns once its gRPC server accepts."""
        old = self._switches[name]
        old.kill()
        self._processes.remove(old)
        old.stop()
        switch = self.topology.switch(name)
        self._start_switch(switch)
        self._wait_switch_ready(switch)

    def thrift_port(self, name: str) -> int:
        """The switch's control-channel (Thrift) port; LaunchError for simple_switch_grpc."""
        if self.cli is None:
            raise LaunchError(f"{name}: {self.switch_binary} has no Thrift port")
        return self._thrift_ports[name]

    def set_link_rate(self, switch: str, port: int, pps: float) -> None:
        """What ``switch`` sends out of ``port`` is limited to ``pps`` packets/s by tc on
        the port's interface (any target; the queue builds after the switch)."""
        try:
            shape(self.switch_ns, interface_name(switch, port), pps, LINK_MTU)
        except ShapingError as exc:
            raise LaunchError(f"{switch}:{port}: {exc}") from None

    def set_queue_rate(self, switch: str, port: int, pps: float) -> None:
        """The switch's own egress queue rate on one port (its queue depth then builds
        inside the switch, where the pipeline sees it), through the run-time CLI."""
        self._cli(switch, f"set_queue_rate {int(pps)} {port}")

    def set_queue_depth(self, switch: str, port: int, packets: int) -> None:
        self._cli(switch, f"set_queue_depth {packets} {port}")

    def _cli(self, switch: str, command: str) -> None:
        if self.cli is None:
            raise LaunchError(
                f"{switch}: '{command}' needs a run-time CLI on a Thrift port, and "
                f"{self.switch_binary} serves P4Runtime only: simple_switch_grpc cannot change "
                f"its queues at run time. Use set_link_rate (tc on the link) for a link rate; "
                f"an in-switch queue (enq_qdepth) needs p4sim-switch or Thrift simple_switch")
        argv = ["ip", "netns", "exec", self.switch_ns, *self.cli,
                "--thrift-port", str(self._thrift_ports[switch])]
        done = subprocess.run(argv, input=command + "\n", capture_output=True, text=True,
                              timeout=60, check=False)
        if done.returncode != 0 or "Error" in done.stdout:
            raise LaunchError(f"{switch}: '{command}' failed: {done.stdout.strip()} {done.stderr.strip()}")

    # -- links -------------------------------------------------------------------------
    def link_at(self, switch: str, port: int) -> Link:
        """The link with one end at ``switch``:``port``."""
        link = link_between(self.topology, switch, port)
        if link is None:
            raise LaunchError(f"no link at {switch}:{port} in the topology")
        return link

    def set_link_down(self, switch: str, port: int) -> float:
        """Cut the link at ``switch``:``port`` (both ends down, as a pulled cable);
        returns the time.monotonic() just before the cut, for repair-time measurements."""
        return self._set_link(self.link_at(switch, port), "down")

    def set_link_up(self, switch: str, port: int) -> float:
        return self._set_link(self.link_at(switch, port), "up")

    def _set_link(self, link: Link, state: str) -> float:
        """Both ends in one `ip -batch`, so they change together; returns when it began."""
        commands = "".join(f"link set {interface_name(sw, port)} {state}\n"
                           for sw, port in ((link.a_switch, link.a_port), (link.b_switch, link.b_port)))
        began = time.monotonic()
        done = subprocess.run(["ip", "-n", self.switch_ns, "-batch", "-"], input=commands,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise LaunchError(f"setting link {link.a_switch}:{link.a_port}-{link.b_switch}:{link.b_port} "
                              f"{state} failed: {done.stderr.strip()}")
        return began

    # -- processes in namespaces -------------------------------------------------------
    def namespace_of(self, endpoint: str) -> str:
        """The namespace of a host (by name) or of a collector (``TAG-col`` for the
        top-level one, ``TAG-<name>`` for a domain's)."""
        if self.collector and endpoint == self.collector.name:
            return f"{self.tag}-col"
        if endpoint not in self.endpoints and endpoint not in self.collectors:
            raise LaunchError(f"no host named {endpoint!r} in the topology")
        return f"{self.tag}-{endpoint}"

    def start_process(self, namespace: str, name: str, argv: list[str], **popen: Any) -> ManagedProcess:
        """Start ``argv`` inside ``namespace``; stopped on close() if still running.
        Its output goes to ``<log_dir>/<name>.log`` and can be waited on."""
        safe = name.replace("/", "_")
        process = ManagedProcess(name, self._namespaces[namespace].command(*argv),
                                 self.log_dir / f"{safe}.log", **popen)
        self._processes.append(process)
        return process

    def host_exec(self, host: str, argv: list[str], name: str | None = None, **popen: Any) -> ManagedProcess:
        """Run ``argv`` in the namespace of ``host`` (or of the collector, by its name)."""
        label = name or f"{host}-{Path(argv[0]).name}-{len(self._processes)}"
        return self.start_process(self.namespace_of(host), label, argv, **popen)

    def switch_exec(self, argv: list[str], name: str | None = None, **popen: Any) -> ManagedProcess:
        """Run ``argv`` in the switch namespace (where every gRPC server listens)."""
        label = name or f"sw-{Path(argv[0]).name}-{len(self._processes)}"
        return self.start_process(self.switch_ns, label, argv, **popen)

    def in_switch_namespace(self, function: Any) -> Any:
        """function() on a thread inside the switch namespace (e.g. a P4Runtime read)."""
        return self._namespaces[self.switch_ns].run_inside(function)

    def in_endpoint_namespace(self, endpoint: str, function: Any) -> Any:
        """function() on a thread inside a host's (or the collector's) namespace; sockets
        it opens stay in there (e.g. a test's own TCP or UDP endpoint)."""
        return self._namespaces[self.namespace_of(endpoint)].run_inside(function)

    def namespaces(self) -> list[str]:
        return list(self._namespaces)


# -- the whole stack on a fabric: controller, collector, a transfer --------------------
CONTROLLER_READY = "fabricctl ready"
COLLECTOR_READY = "collector ready"
RECEIVER_READY = "receiver ready"


def start_controller(net: FabricNetwork, policy: str | Path, *, p4info: str | Path | None = None,
                     device_json: str | Path | None = None, extra: tuple[str, ...] = (),
                     timeout: float = 120.0, domain: str | None = None) -> ManagedProcess:
    """`fabricctl run` in the switch namespace; returns once every switch is programmed
    (with ``domain``: `fabricctl run --domain`, that domain's controller and switches)."""
    p4info = p4info or ROOT / "build/fabric.p4info.txtpb"
    device_json = device_json or ROOT / "build/fabric.json"
    topology_file = _topology_file(net)
    argv = [sys.executable, "-m", "control.fabricctl", "run", "--topology", str(topology_file),
            "--policy", str(policy), "--p4info", str(p4info), "--json", str(device_json),
            *(("--domain", domain) if domain is not None else ()), *extra]
    process = net.switch_exec(argv, name="fabricctl" if domain is None else f"fabricctl-{domain}")
    process.wait_for_line(CONTROLLER_READY, timeout)
    return process


def start_controllers(net: FabricNetwork, policy: str | Path | Mapping[str, str | Path], *,
                      timeout: float = 120.0,
                      extra: tuple[str, ...] = (), peering: bool = True,
                      domain_extra: Mapping[str, tuple[str, ...]] | None = None
                      ) -> dict[str, ManagedProcess]:
    """One controller per declared domain (each its own switches), or the one fabricctl
    of a topology without domains (keyed by control.topology.DEFAULT_DOMAIN). With
    ``peering``, each domain's controller serves the peering API on a loopback port of
    the switch namespace (where every controller runs) and is given its peers' urls in
    ``<log_dir>/peers.json`` (peering_urls). ``domain_extra``: more fabricctl arguments
    for some domains' controllers only (e.g. ``{"west": ("--border-by", "capacity")}``).
    ``policy``: one file for every domain, or domain name -> its own (each domain its
    partition ids and tags; the border links' VIDs join them)."""
    policies = {d.name: policy for d in net.topology.effective_domains()} \
        if isinstance(policy, (str, Path)) else dict(policy)
    missing = [d.name for d in net.topology.effective_domains() if d.name not in policies]
    if missing:
        raise LaunchError(f"no policy for domain(s) {', '.join(missing)}")
    if not net.topology.domains:
        return {DEFAULT_DOMAIN: start_controller(net, policies[DEFAULT_DOMAIN], timeout=timeout,
                                                 extra=extra)}
    per_domain: dict[str, tuple[str, ...]] = {d.name: () for d in net.topology.domains}
    if peering:
        urls = write_peering_urls(net)
        per_domain = {name: ("--peering-port", url.rpartition(":")[2],
                             "--peers", str(net.log_dir / PEERS_FILE)) for name, url in urls.items()}
    more = domain_extra or {}
    return {d.name: start_controller(net, policies[d.name], timeout=timeout,
                                     extra=(*extra, *per_domain[d.name], *more.get(d.name, ())),
                                     domain=d.name)
            for d in net.topology.domains}


PEERS_FILE = "peers.json"


def write_peering_urls(net: FabricNetwork) -> dict[str, str]:
    """A free loopback port in the switch namespace per domain; writes and returns
    {domain: "http://127.0.0.1:PORT"} (``<log_dir>/peers.json``, fabricctl's --peers)."""
    domains = [d.name for d in net.topology.domains]
    ports = net.in_switch_namespace(lambda: _free_loopback_ports(len(domains)))
    urls = {name: f"http://127.0.0.1:{port}" for name, port in zip(domains, ports)}
    (net.log_dir / PEERS_FILE).write_text(json.dumps(urls, indent=2) + "\n")
    return urls


def _free_loopback_ports(count: int) -> list[int]:
    """``count`` distinct ports free on 127.0.0.1 of the calling thread's namespace."""
    sockets = [socket.socket(socket.AF_INET, socket.SOCK_STREAM) for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def peering_urls(net: FabricNetwork) -> dict[str, str]:
    """The urls start_controllers gave the domains' peering APIs ({} without peering)."""
    path = net.log_dir / PEERS_FILE
    return json.loads(path.read_text()) if path.exists() else {}


def collector_databases(net: FabricNetwork, db: str | Path) -> dict[str, Path]:
    """Each collector's SQLite file for one --collector-db: ``db`` itself for a lone
    collector, else ``<stem>-<collector><suffix>`` beside it."""
    path = Path(db)
    if len(net.collectors) == 1:
        return {name: path for name in net.collectors}
    return {name: path.with_name(f"{path.stem}-{name}{path.suffix}") for name in net.collectors}


def start_collector(net: FabricNetwork, db: str | Path, *, extra: tuple[str, ...] = (),
                    timeout: float = 60.0, collector: str | None = None) -> ManagedProcess:
    """A telemetry collector in its namespace, bound to its IP: the topology's
    [collector], or the one named ``collector`` (a domain's)."""
    if collector is None:
        if net.collector is None:
            raise LaunchError("the topology has no [collector]: name a domain's collector")
        endpoint = net.collector
    elif collector in net.collectors:
        endpoint = net.collectors[collector]
    else:
        raise LaunchError(f"no collector named {collector!r} (the topology has: "
                          f"{', '.join(net.collectors) or 'none'})")
    argv = [sys.executable, "-m", "control.collector", "--bind", endpoint.ip,
            "--port", str(REPORT_PORT), "--db", str(db), *extra]
    process = net.host_exec(endpoint.name, argv,
                            name="collector" if endpoint == net.collector else f"collector-{endpoint.name}")
    process.wait_for_line(COLLECTOR_READY, timeout)
    return process


@dataclass
class Transfer:
    """What one sender -> receiver transfer reported, and what arrived."""
    sender: dict[str, Any]
    receiver: dict[str, Any]
    delivered_sha256: str
    delivered_bytes: int
    wall_s: float


class RunningTransfer:
    """A transfer in flight: the receiver is ready and the sender started; finish()
    waits for both and collects what they report."""

    def __init__(self, net: FabricNetwork, src: str, dst: str, nbytes: int, work_dir: str | Path,
                 ev_mode: str, sender_args: tuple[str, ...], receiver_args: tuple[str, ...],
                 pause_at: int | None = None) -> None:
        work = Path(work_dir)
        work.mkdir(parents=True, exist_ok=True)
        src_ip, dst_ip = net.endpoints[src].ip, net.endpoints[dst].ip
        self.out = work / f"{dst}.out"
        self.receiver_summary = work / f"{dst}.summary.json"
        self.sender_summary = work / f"{src}.summary.json"
        for path in (self.out, self.receiver_summary, self.sender_summary):
            path.unlink(missing_ok=True)
        self.receiver = net.host_exec(
            dst, [sys.executable, "-m", "endpoints.receiver", "--bind", dst_ip, "--out", str(self.out),
                  "--summary", str(self.receiver_summary), *receiver_args], name=f"receiver-{dst}")
        try:
            self.receiver.wait_for_line(RECEIVER_READY, 30)
            self.started = time.monotonic()
            pause = ("--pause-at", str(pause_at)) if pause_at is not None else ()
            self.sender = net.host_exec(
                src, [sys.executable, "-m", "endpoints.sender", "--src", src_ip, "--dst", dst_ip,
                      "--bytes", str(nbytes), "--ev-mode", ev_mode,
                      "--summary", str(self.sender_summary), *pause, *sender_args],
                name=f"sender-{src}",
                **({"stdin": subprocess.PIPE} if pause_at is not None else {}))
        except BaseException:
            self.receiver.stop()
            raise

    def wait_paused(self, timeout: float) -> int:
        """Until the sender holds at ``pause_at`` (everything before it sent); the offset."""
        line = self.sender.wait_for_line("sender paused at", timeout)
        return int(line.split()[-1])

    def resume(self) -> None:
        """Lets a sender held at ``pause_at`` send the rest."""
        self.sender.send_line("go")

    def delivered_bytes(self) -> int:
        """Bytes the receiver has delivered so far (its --out file)."""
        return self.out.stat().st_size if self.out.exists() else 0

    def finish(self, timeout: float) -> Transfer:
        try:
            status = self.sender.wait(timeout)
            wall = time.monotonic() - self.started
            if status != 0:
                raise LaunchError(f"sender exited with status {status}:\n{self.sender.output[-3000:]}")
            _wait_for_file(self.receiver_summary, self.receiver, 30)
        finally:
            self.sender.stop()
            self.receiver.stop()
        data = self.out.read_bytes() if self.out.exists() else b""
        return Transfer(json.loads(self.sender_summary.read_text()),
                        json.loads(self.receiver_summary.read_text()),
                        hashlib.sha256(data).hexdigest(), len(data), wall)


def start_transfer(net: FabricNetwork, src: str, dst: str, nbytes: int, work_dir: str | Path, *,
                   ev_mode: str = "spray", sender_args: tuple[str, ...] = (),
                   receiver_args: tuple[str, ...] = (),
                   pause_at: int | None = None) -> RunningTransfer:
    """Start one UEC transfer of ``nbytes`` from host ``src`` to host ``dst`` with the
    project's endpoints (receiver first, once it is ready the sender). ``pause_at``:
    the sender holds new data from that byte offset until resume()."""
    return RunningTransfer(net, src, dst, nbytes, work_dir, ev_mode, sender_args, receiver_args,
                           pause_at)


def run_transfer(net: FabricNetwork, src: str, dst: str, nbytes: int, work_dir: str | Path, *,
                 ev_mode: str = "spray", timeout: float = 120.0,
                 sender_args: tuple[str, ...] = (), receiver_args: tuple[str, ...] = ()) -> Transfer:
    """start_transfer() and finish(): both summaries and the hash of what arrived."""
    running = start_transfer(net, src, dst, nbytes, work_dir, ev_mode=ev_mode,
                             sender_args=sender_args, receiver_args=receiver_args)
    return running.finish(timeout)


def _wait_for_file(path: Path, process: ManagedProcess, timeout: float) -> None:
    """Until ``path`` holds complete JSON (the receiver writes its summary when done)."""
    def complete() -> bool:
        try:
            json.loads(path.read_text())
        except (OSError, ValueError):  # not there yet, or being written
            return False
        return True
    wait_until(complete, f"written ({path})", timeout, context=lambda: process.output[-3000:])


def _error(path: str, problems: list[tuple[str, str]]) -> ConfigError | None:
    return ConfigError(path, problems) if problems else None


def _thrift_ports(topology: Topology) -> dict[str, int]:
    """A control-channel port per switch from FIRST_THRIFT_PORT on, skipping every
    gRPC port: all of them listen in the one switch namespace."""
    taken = {grpc_port(s) for s in topology.switches}
    ports: dict[str, int] = {}
    candidate = FIRST_THRIFT_PORT
    for switch in topology.switches:
        while candidate in taken:
            candidate += 1
        ports[switch.name] = candidate
        taken.add(candidate)
    return ports


def _topology_file(net: FabricNetwork) -> Path:
    if net.topology_path is None:
        raise LaunchError("the controller needs the topology file: build the FabricNetwork from a path")
    return net.topology_path


def _host_endpoint(host: Host) -> Endpoint:
    return Endpoint(host.name, host.ip, host.mac, host.switch, host.port)


def _collector_endpoint(topology: Topology) -> Endpoint | None:
    collector = topology.collector
    if collector is None:
        return None
    return Endpoint(collector.name, collector.ip, collector.mac, collector.switch, collector.port)


def plan_launch(topology: str | Path, *,
                policy: str | Path | Mapping[str, str | Path] | None = None,
                collector_db: str | Path | None = None, tag: str | None = None,
                switch_binary: str | None = None, common_clock: bool = False) -> FabricNetwork:
    """A FabricNetwork, not yet entered, once every input the launch will use has been
    checked (topology, policy, build outputs, collector database, the machine); else a
    ConfigError naming every problem's file, field and reason. Changes nothing.
    ``policy``: one file for every domain, or domain name -> its own (as
    start_controllers takes it)."""
    net = FabricNetwork(topology, tag=tag, switch_binary=switch_binary,  # topology checks
                        common_clock=common_clock)
    try:
        errors = _policy_problems(net, policy) if policy is not None else []
        if collector_db is not None:
            db_dir = Path(collector_db).resolve().parent
            if not net.collectors:
                errors.append(ConfigError(str(net.topology_path or "(topology)"), [
                    ("collector", "missing: --collector-db needs a [collector] to run")]))
            if not db_dir.is_dir():
                errors.append(ConfigError(str(collector_db), [
                    ("(file)", f"directory {db_dir} does not exist")]))
        machine = net.machine_problems()  # last: the input files' problems come first
        raise_all(errors + ([machine] if machine else []))
    except BaseException:
        net.close()
        raise
    return net


def _border_partition_problems(topology: Topology, policy: Policy, domain: str,
                               path: str) -> list[ConfigError]:
    """The domain's border mapping (topology links' partition VIDs against the policy's
    partitions) as its controller would refuse it."""
    from control.controller.partition_borders import PartitionBorderError, check_links, mapped, \
        switch_links
    if not mapped(topology, policy):
        return []
    problems = []
    for switch in topology.domain(domain).borders:
        try:
            check_links(policy.partitions, switch_links(topology, switch), f"border {switch}")
        except PartitionBorderError as exc:
            problems.append(("interdomain_links.partitions", str(exc)))
    return [ConfigError(path, problems)] if problems else []


def _policy_problems(net: FabricNetwork,
                     policy: str | Path | Mapping[str, str | Path]) -> list[ConfigError]:
    """What fabricctl would refuse, found before the switches start (in its order): the
    policy file(s) against the topology, the build outputs, INT's DSCP against the program."""
    errors: list[ConfigError] = []
    loaded: Policy | None = None
    loaded_path = ""
    # Each domain's controller reads its policy against its own view (its collector).
    views = ([domain_view(net.topology, d.name) for d in net.topology.domains]
             or [net.topology])
    domains: list[str | None] = [d.name for d in net.topology.domains] or [None]
    per_domain = {} if isinstance(policy, (str, Path)) else dict(policy)
    unknown = sorted(set(per_domain) - {d or DEFAULT_DOMAIN for d in domains})
    if unknown:
        errors.append(ConfigError(str(net.topology_path or "(topology)"), [
            ("domains", f"a policy is given for {', '.join(unknown)}, which the topology "
                        f"does not declare")]))
    for view, domain in zip(views, domains):
        path = str(policy) if isinstance(policy, (str, Path)) \
            else str(per_domain.get(domain or DEFAULT_DOMAIN, ""))
        if not path:
            errors.append(ConfigError(str(net.topology_path or "(topology)"), [
                ("domains", f"no policy for domain {domain or DEFAULT_DOMAIN}")]))
            continue
        try:
            loaded = load_policy(path, view)
        except ConfigError as exc:
            if exc.render() not in {e.render() for e in errors}:
                errors.append(exc)
            continue
        if domain is not None:
            errors += _border_partition_problems(net.topology, loaded, domain, path)
        loaded_path = path
    if errors:
        loaded = None
    device_json = ROOT / "build/fabric.json"
    missing = [error for error in (file_problems(ROOT / "build/fabric.p4info.txtpb", "run `make build`"),
                                   file_problems(device_json, "run `make build`")) if error]
    errors += missing
    if loaded is not None and loaded.int.enabled and not missing:
        # Here, not at the top: the package would load the whole controller (gRPC).
        from control.controller.int_dscp import IntDscpError, check_int_dscp
        try:
            check_int_dscp(device_json.read_bytes(), loaded.int.dscp, where=str(device_json))
        except IntDscpError as exc:
            errors.append(ConfigError(loaded_path, [("int.dscp", str(exc))]))
    return errors


def _policy_argument(parser: Any, topology: str, policy: str | None,
                     domain_policies: list[str]) -> str | dict[str, str] | None:
    """--policy alone, or domain -> file: --domain-policy's, the other domains taking
    --policy (a domain left without one is refused by plan_launch, naming it)."""
    if not domain_policies:
        return policy
    chosen: dict[str, str] = {}
    for item in domain_policies:
        domain, sep, path = item.partition("=")
        if not sep or not domain or not path:
            parser.error(f"--domain-policy {item!r}: expected DOMAIN=FILE")
        if domain in chosen:
            parser.error(f"--domain-policy: domain {domain} given twice")
        chosen[domain] = path
    if policy is not None:
        try:
            names = [d.name for d in load_topology(topology).effective_domains()]
        except ConfigError:  # plan_launch reports the topology's problems
            names = []
        chosen = {**{name: policy for name in names}, **chosen}
    return chosen


def main(argv: list[str] | None = None) -> int:
    """`python -m control.launch TOPOLOGY [--policy P] [--collector-db F]`: bring a fabric
    up (and program it), print where everything is, keep it until Ctrl-C."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m control.launch",  # no docstring with -OO
                                     description=main.__doc__.splitlines()[0] if main.__doc__ else None)
    parser.add_argument("topology")
    parser.add_argument("--policy", help="run fabricctl with this policy once the switches listen")
    parser.add_argument("--domain-policy", action="append", default=[], metavar="DOMAIN=FILE",
                        help="this domain's controller reads FILE instead of --policy "
                             "(repeat per domain; each domain its own partition tags)")
    parser.add_argument("--collector-db", help="run the collector, storing reports in this SQLite file "
                                               "(with domains: one collector each, in F's stem + "
                                               "-<collector> + F's suffix)")
    parser.add_argument("--tag", help="namespace name prefix (default ln<pid>)")
    parser.add_argument("--common-clock", action="store_true",
                        help="p4sim-switch only: INT timestamps from one host clock, comparable "
                             "across switches (default: each switch's own start, as BMv2)")
    args = parser.parse_args(argv)
    policy = _policy_argument(parser, args.topology, args.policy, args.domain_policy)
    try:  # every input checked before anything is created; the same message as fabricctl
        planned = plan_launch(args.topology, policy=policy, collector_db=args.collector_db,
                              tag=args.tag, common_clock=args.common_clock)
    except ConfigError as exc:
        print(exc.render(), file=sys.stderr)
        return 2
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        with planned as net:
            for note in net.notes:  # what the launch could not emulate, said once
                print(f"note: {note}", flush=True)
            if args.collector_db:
                for name, db in collector_databases(net, args.collector_db).items():
                    start_collector(net, db, collector=name)
            if policy is not None:
                start_controllers(net, policy)
            print(f"switches in namespace {net.switch_ns}: "
                  + ", ".join(f"{s.name} ({s.grpc})" for s in net.topology.switches))
            for domain in net.topology.domains:
                print(f"domain {domain.name} (INT domain {domain.id}): controller "
                      f"{domain.controller.name} role {domain.controller.role!r} programs "
                      + ", ".join(domain.switches))
            for endpoint in net.all_endpoints():
                print(f"{endpoint.name} {endpoint.ip} in namespace {net.namespace_of(endpoint.name)}")
            print(f"logs in {net.log_dir}; Ctrl-C to tear everything down", flush=True)
            stop.wait()
    except ConfigError as exc:  # the machine changed since the check (e.g. a namespace appeared)
        print(exc.render(), file=sys.stderr)
        return 2
    except LabError as exc:  # the launcher's own (LaunchError) and the harness's
        print(f"python -m control.launch: {exc}", file=sys.stderr)
        return 1
    return 0


__all__ = ["FabricNetwork", "Endpoint", "LaunchError", "ManagedProcess", "GATEWAY_IP", "plan_launch",
           "interface_name", "default_switch_binary", "NetnsError", "Transfer", "tcp_accepts",
           "BMV2_GRPC",
           "start_controller", "start_controllers", "start_collector", "collector_databases", "start_transfer", "run_transfer", "RunningTransfer"]


if __name__ == "__main__":
    sys.exit(main())
