"""FabricController: many switches, one desired state each, kept true over failures.

The controller computes routes for the whole fabric, turns them into each switch's
entities and hands them to that switch's agent. Link failures change the routes (the
down port's groups lose the member), switch restarts are handled by the agents, and
the adaptive loop changes member weights from INT measurements.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from p4.config.v1 import p4info_pb2

from control.controller.agent import SwitchAgent
from control.controller.border_routes import BorderPreference, routes_with_borders
from control.controller.program import FabricPlan, Weights, switch_items
from control.federation.domain_view import domain_view
from control.controller.balance import GroupKey, MemberPaths, WaitBalancer
from control.controller.weights import LatestOccupancy, PortKey, PortSample, WeightPolicy
from control.p4rt.entities import P4Names, load_p4info
from control.policy import Policy
from control.routing import NextHop, Route, compute_routes
from control.topology import Topology

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RepairEvent:
    """One link change and how long the fabric took to reflect it."""

    switch: str
    port: int
    up: bool
    seconds: float   # from detection to every switch's groups updated
    complete: bool   # False if some switch did not confirm within the timeout
    changed: bool = True  # False if routing did not change (e.g. the far end of a link already down)


class FabricController:
    def __init__(self, topo: Topology, policy: Policy, p4info: p4info_pb2.P4Info | str,
                 device_config: bytes | str, election_id: int = 1,
                 health_interval: float = 0.2, weight_policy: WeightPolicy | None = None,
                 on_restore: Callable[[str, float], None] | None = None,
                 domain: str | None = None):
        """``domain``: be that domain's controller (one per domain): program only its
        switches, with its controller's P4Runtime role and election id (the topology's
        [domains.controller]), its INT domain and borders, reports to its collector."""
        if isinstance(p4info, str):
            p4info = load_p4info(p4info)
        if isinstance(device_config, str):
            device_config = Path(device_config).read_bytes()
        own = None if domain is None else topo.domain(domain)
        if own is not None:
            topo = domain_view(topo, own.name)
            election_id = own.controller.election_id
        self.domain = own
        self.topo = topo
        self.policy = policy
        self.names = P4Names(p4info)
        self.plan = FabricPlan(topo, policy, own)
        self.weight_policy = weight_policy or WeightPolicy()
        self._lock = threading.RLock()
        self._down: set[tuple[str, int]] = set()
        self._weights: dict[tuple[str, str, int], int] = {}
        self._balancer = WaitBalancer(self.weight_policy)
        self._borders: dict[str, tuple[str, ...]] = {}  # foreign destination -> ranked ends
        self._routes: list[Route] = compute_routes(topo, frozenset(), self.plan.destinations)
        self.repairs: list[RepairEvent] = []
        self.restores: list[tuple[str, float]] = []  # (switch, seconds from loss to restored)
        self._on_restore = on_restore
        self.agents = {sw.name: SwitchAgent(sw, p4info, device_config, election_id=election_id,
                                            health_interval=health_interval,
                                            on_restore=self._record_restore,
                                            role="" if own is None else own.controller.role)
                       for sw in topo.switches if own is None or sw.name in own.switches}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._generations: dict[str, int] = {}

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Connect to every switch (in the background) and hand out the desired state."""
        for agent in self.agents.values():
            agent.start()
        self._distribute()

    def wait_ready(self, timeout: float) -> bool:
        """True once every switch is connected and holds its desired state."""
        deadline = time.monotonic() + timeout
        generations = self._generations
        return all(agent.wait_applied(generations[name], max(0.0, deadline - time.monotonic()))
                   for name, agent in self.agents.items())

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=10)
        for agent in self.agents.values():
            agent.stop()

    def __enter__(self) -> "FabricController":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # ------------------------------------------------------------------ state
    @property
    def routes(self) -> list[Route]:
        with self._lock:
            return list(self._routes)

    @property
    def down_ports(self) -> frozenset[tuple[str, int]]:
        with self._lock:
            return frozenset(self._down)

    @property
    def weights(self) -> Weights:
        with self._lock:
            return dict(self._weights)

    def _distribute(self) -> None:
        with self._lock:
            self._routes = routes_with_borders(self.topo, frozenset(self._down),
                                               self.plan.destinations, self._borders)
            self._generations = {
                name: agent.set_desired(switch_items(self.names, self.plan, name, self._routes, self._weights))
                for name, agent in self.agents.items()}

    def _record_restore(self, switch: str, seconds: float) -> None:
        with self._lock:
            self.restores.append((switch, seconds))
        if self._on_restore is not None:
            self._on_restore(switch, seconds)

    # ------------------------------------------------------------------ link failures
    def port_down(self, switch: str, port: int, detected_at: float | None = None,
                  timeout: float = 10.0) -> RepairEvent | None:
        """A port stopped working: route around it. ``detected_at`` (time.monotonic())
        is when the failure was seen; the event measures from there to repaired groups.
        Returns None if the port was already down."""
        return self._port_change(switch, port, False, detected_at, timeout)

    def port_up(self, switch: str, port: int, detected_at: float | None = None,
                timeout: float = 10.0) -> RepairEvent | None:
        """The port works again: give its members back to the groups."""
        return self._port_change(switch, port, True, detected_at, timeout)

    def _port_change(self, switch: str, port: int, up: bool, detected_at: float | None,
                     timeout: float) -> RepairEvent | None:
        start = time.monotonic() if detected_at is None else detected_at
        if switch not in self.agents:
            raise KeyError(f"no switch named {switch!r}")
        with self._lock:
            key = (switch, port)
            if (key not in self._down) == up:
                return None
            if up:
                self._down.discard(key)
            else:
                self._down.add(key)
            changed, generations = self._redistribute()
        complete = self._wait_applied(generations, timeout)
        event = RepairEvent(switch, port, up, time.monotonic() - start, complete, changed)
        with self._lock:
            self.repairs.append(event)
        if changed:
            log.info("link %s:%d %s: groups %s on %d switches in %.1f ms", switch, port,
                     "up" if up else "down", "updated" if complete else "NOT all updated",
                     len(self.agents), event.seconds * 1e3)
        return event

    def _redistribute(self) -> tuple[bool, dict[str, int]]:
        """Recompute and push routes (lock held): whether they changed, and the
        generation each switch must reach to hold them."""
        before = self._routes
        self._distribute()
        return self._routes != before, dict(self._generations)

    def _wait_applied(self, generations: Mapping[str, int], timeout: float) -> bool:
        """True once every reachable switch applied its generation, within one shared
        deadline. A switch the controller has lost (its process died) is not waited
        for: it resyncs when it returns, and waiting would only delay the report of a
        repair the others already hold."""
        deadline = time.monotonic() + timeout
        return all(agent.wait_applied(generations[name], max(0.0, deadline - time.monotonic()))
                   for name, agent in self.agents.items() if not agent.lost)

    # ------------------------------------------------------------------ border choice
    @property
    def border_preference(self) -> dict[str, tuple[str, ...]]:
        with self._lock:
            return dict(self._borders)

    def set_border_preference(self, preference: BorderPreference,
                              timeout: float = 10.0) -> RepairEvent | None:
        """Route each named foreign destination over the first of its ranked borders
        ("SWITCH:PORT", ours) that is up (control/controller/border_routes.py). Returns
        None if nothing changed, else the event (switch/port: the new first border of
        some destination; seconds: until every switch holds the new routes)."""
        start = time.monotonic()
        wanted = {dest: tuple(ends) for dest, ends in preference.items()}
        with self._lock:
            if wanted == self._borders:
                return None
            self._borders = wanted
            changed, generations = self._redistribute()
        complete = self._wait_applied(generations, timeout)
        first = next((ends[0] for ends in wanted.values() if ends), ":0")
        switch, _, port = first.rpartition(":")
        return RepairEvent(switch, int(port), True, time.monotonic() - start, complete, changed)

    # ------------------------------------------------------------------ adaptive spraying
    def adapt(self, samples: Mapping[PortKey, PortSample], now: float | None = None) -> bool:
        """One step of the adaptive policy (control/controller/balance.py) from each
        (node, egress port)'s latest PortSample at ``now`` (time.monotonic() if not
        given); returns True if any weight changed (and was pushed)."""
        with self._lock:
            when = time.monotonic() if now is None else now
            by_key = {(r.switch, r.host.name): r for r in self._routes}
            groups: dict[GroupKey, MemberPaths] = {
                (route.switch, route.host.name):
                    {hop.port: member_path(self.topo, by_key, route, hop) for hop in route.next_hops}
                for route in self._routes if not route.direct and len(route.next_hops) >= 2}
            weights = {(switch, dest, port): weight
                       for (switch, dest), members in self._balancer.step(groups, samples, when).items()
                       for port, weight in members.items()}
            if weights == self._weights:
                return False
            self._weights = weights
            self._distribute()
            log.info("adaptive spraying: new weights %s", _describe_weights(weights))
            return True

    def start_adaptive(self, db_path: str, interval: float | None = None) -> None:
        """Run ``adapt`` every ``interval`` seconds (the policy's poll_s if not given,
        at most its max_poll_s: the poll bounds the reaction time) from each port's
        latest report in the collector's store."""
        policy = self.weight_policy
        period = min(policy.poll_s if interval is None else interval, policy.max_poll_s)
        if interval is not None and interval > policy.max_poll_s:
            log.warning("adaptive interval %.2f s capped at %.2f s", interval, policy.max_poll_s)
        reader = LatestOccupancy(db_path)

        def loop() -> None:
            while not self._stop.wait(period):
                self.adapt(reader.read())
        self._start_thread(loop, "adaptive-spraying")

    def _start_thread(self, target, name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()


def member_path(topo: Topology, routes: dict[tuple[str, str], Route], route: Route,
                hop: NextHop) -> list[PortKey]:
    """The egress queues a member's traffic crosses: its own port, then onward while the
    path is forced (one next hop per switch); where the next switch sprays again, that
    switch's own weights take over."""
    path = [(topo.switch(route.switch).node_id, hop.port)]
    here = hop.neighbor
    for _ in range(len(topo.switches)):
        onward = routes.get((here, route.host.name))
        if onward is None or len(onward.next_hops) != 1:
            break
        path.append((topo.switch(here).node_id, onward.next_hops[0].port))
        if onward.direct:
            break
        here = onward.next_hops[0].neighbor
    return path


def _describe_weights(weights: Weights) -> str:
    return ", ".join(f"{sw}->{dest}:{port}={w}" for (sw, dest, port), w in sorted(weights.items()))
