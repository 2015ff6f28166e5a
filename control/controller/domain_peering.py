"""A domain controller's peering: serve and push its summary, route by the peers' (issue
15, items 2 and 4).

Runs beside a FabricController made with ``domain=``. It serves the peering API
(control/peering/server.py) on a loopback port, builds the domain's summary (border
health from the controller's down ports, which its link watcher keeps, and from its
agents: a border switch the controller has lost, e.g. its process died, is down with
all its links; latency per border from the domain collector's store when given, else 0
"given": the in-domain links carry no latency in the topology, the inter-domain link's
own is added by border_choice; load per border link from the switches' port_tx
counters, control/peering/border_load.py, so capacity is rate - measured load), and
pushes it to every peer each ttl/3 and at once when one of its
borders changes. Every ``interval`` it ranks the borders for each foreign host
(choose_border, in the host's partition) and hands the ranking to the controller,
which reprograms the routes when it changed: a border down at our side, a peer
reporting its end down, or a peer's summary expiring all change it.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Mapping

from control.controller.fabric import FabricController, RepairEvent
from control.peering.border_choice import choose_border
from control.peering.border_load import BorderLoad
from control.peering.build import (build_summary, domain_border_links, local_borders, peer_domains,
                                   policy_partitions)
from control.peering.client import PeeringError, push_to_peers
from control.peering.int_latency import border_latency
from control.peering.peers import DEFAULT_TTL_S, Clock, PeerTable
from control.peering.server import PeeringServer
from control.peering.summary import SHARED_PARTITION, Health, PathLatency, Summary
from control.policy import Policy
from control.topology import Topology

log = logging.getLogger(__name__)

RETRY_S = 0.5            # a push that failed is tried again this soon
BORDER_MARGIN = 0.02     # the border in use stays unless another is >2% better (noise)
PUSH_TIMEOUT_S = 2.0
GIVEN_LATENCY = PathLatency(0.0, 0.0, 0, "given")
ChoiceChange = Callable[[str, tuple[str, ...], RepairEvent], None]  # (dest, ranked ends, event)


class DomainPeering:
    def __init__(self, controller: FabricController, topo: Topology, policy: Policy, domain: str,
                 *, port: int = 0, peer_urls: Mapping[str, str] | None = None,
                 by: str = "latency", percentile: str = "p50", ttl_s: float = DEFAULT_TTL_S,
                 db: str | None = None, interval: float = 0.05,
                 on_choice: ChoiceChange | None = None, clock: Clock = time.monotonic,
                 apply_timeout: float = 10.0, load: BorderLoad | None = None):
        """``topo``: the whole federated topology; ``peer_urls``: peer domain -> its API
        url (peers without one are held but never pushed to); ``clock``: the peer
        table's (expiry); ``apply_timeout``: how long a reprogramming is waited for;
        ``load``: what measures our border links' load (default: port_tx counter
        reads of our border switches)."""
        self.controller = controller
        self.topo = topo
        self.policy = policy
        self.domain = domain
        self.by = by
        self.percentile = percentile
        self.db = db
        self.interval = interval
        self._on_choice = on_choice
        self.known = policy_partitions(policy)
        self.apply_timeout = apply_timeout
        self.table = PeerTable(peer_domains(topo, domain), ttl_s, clock)
        self.server = PeeringServer(domain, self.table, self.known, port=port)
        self.peer_urls = {name: url for name, url in (peer_urls or {}).items()
                          if name in self.table.peers}
        self._ends = [link.local for link in local_borders(topo, domain, {})]
        self.rates = {link.local: rate for link, rate in domain_border_links(topo, domain)}
        self.load = load or BorderLoad(topo, controller.names, self._ends)
        self._last_seen: dict[str, float] = {}
        self._seen_connected: set[str] = set()  # border switches whose agent has connected
        self._serial = 0
        self._published_up: dict[str, bool] | None = None
        self._push_now = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.push_errors: dict[str, PeeringError | None] = {}

    @property
    def url(self) -> str:
        return self.server.url

    def start(self) -> "DomainPeering":
        self.load.start()
        self.publish()
        self.server.start()
        for target, name in ((self._choose_loop, "peering-choice"), (self._push_loop, "peering-push")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            self._threads.append(thread)
            thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._push_now.set()
        for thread in self._threads:
            thread.join(timeout=10)
        self.load.stop()
        self.server.close()

    # -- our summary ----------------------------------------------------------------------
    def local_up(self) -> dict[str, bool]:
        """Our end of each inter-domain link: up unless the controller holds it down or
        lost its connection to the switch (a dead switch leaves its links' carrier up:
        the link watch cannot see it, the agent's health check does). A switch not yet
        connected once is not held down: nothing is known of it yet."""
        down = self.controller.down_ports
        agents = self.controller.agents
        up = {}
        for end in self._ends:
            switch, _, port = end.rpartition(":")
            connected = agents[switch].connected
            if connected:
                self._seen_connected.add(switch)
            lost = not connected and switch in self._seen_connected
            up[end] = (switch, int(port)) not in down and not lost
        return up

    def publish(self) -> Summary:
        """Build the summary from the state now and serve it (the next push sends it)."""
        now = time.time()
        up = self.local_up()
        for end, is_up in up.items():
            if is_up:
                self._last_seen[end] = now
        latency = {}
        for end in self._ends:
            switch = end.rpartition(":")[0]
            measured = None
            if self.db is not None:
                measured = border_latency(self.db, self.topo.switch(switch).node_id)
            latency[switch] = measured or GIVEN_LATENCY
        health = {end: Health(up[end], self._last_seen.get(end)) for end in self._ends}
        self._serial = max(self._serial + 1, int(now * 1000))
        summary = build_summary(self.topo, self.policy, self.domain, serial=self._serial, now=now,
                                latency=latency, health=health, load_bps=self.load.load_bps())
        self.server.set_summary(summary)
        self._published_up = up
        return summary

    def push(self) -> dict[str, PeeringError | None]:
        summary = self.publish()
        outcome = push_to_peers(self.domain, summary, self.peer_urls, self.known, PUSH_TIMEOUT_S)
        for name, error in outcome.items():
            if error is not None and self.push_errors.get(name) is None:
                log.info("push to %s failed (retrying): %s", name, error)
        self.push_errors = outcome
        return outcome

    def _push_loop(self) -> None:
        period = self.table.ttl_s / 3
        while not self._stop.is_set():
            outcome = self.push()
            wait = RETRY_S if any(e is not None for e in outcome.values()) else period
            self._push_now.wait(wait)
            self._push_now.clear()

    # -- border choice --------------------------------------------------------------------
    def preference(self) -> dict[str, tuple[str, ...]]:
        """Each foreign host -> our link ends to it, best first (healthy ones only)."""
        up = self.local_up()
        borders = local_borders(self.topo, self.domain, up,
                                available_bps=self.load.available_bps(self.rates))
        states = self.table.states()
        owner = {member: p.id for p in self.policy.partitions for member in p.members}
        own_hosts = set(self.topo.domain(self.domain).hosts)
        ranked = {}
        for host in self.topo.hosts:
            if host.name in own_hosts:
                continue
            partition = owner.get((host.switch, host.port), SHARED_PARTITION)
            in_use = self.controller.border_preference.get(host.name, ())
            choice = choose_border(host.ip, partition, states, borders, self.by, self.percentile,
                                   current=in_use[0] if in_use else None,
                                   margin=BORDER_MARGIN)
            ranked[host.name] = tuple(c.local for c in choice.ranked)
        return ranked

    def step(self) -> RepairEvent | None:
        """One look: push at once if a border changed; reprogram if the ranking did."""
        if self.local_up() != self._published_up:
            self._push_now.set()
        wanted = self.preference()
        before = self.controller.border_preference
        event = self.controller.set_border_preference(wanted, self.apply_timeout)
        if event is not None and self._on_choice is not None:
            for dest, ends in sorted(wanted.items()):
                if before.get(dest) != ends:
                    self._on_choice(dest, ends, event)
        return event

    def _choose_loop(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.step()
            except Exception:  # keep choosing: a bad moment must not end the loop
                log.exception("border choice failed")


__all__ = ["DomainPeering", "GIVEN_LATENCY"]
