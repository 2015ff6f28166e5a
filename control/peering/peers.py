"""The peers' summaries a controller holds, each with its age; after the TTL it expires.

A peer that stops pushing (its controller died, the path between controllers broke)
must not keep attracting traffic on the strength of an old summary: once its summary is
older than ``ttl_s`` it is expired, and every border in it counts as unhealthy
(border_choice). Ages are measured on the receiver's own clock from when a summary
arrived, never from the sender's ``generated_at`` (the two clocks need not agree). The
clock is injectable, so tests step it instead of sleeping.

Thread-safe: the HTTP server's threads push while the controller reads.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, Mapping

from control.peering.summary import Summary

DEFAULT_TTL_S = 10.0
Clock = Callable[[], float]


class PushRefused(ValueError):
    """A push the table does not take; ``status`` is the HTTP status the API answers."""

    def __init__(self, status: int, reason: str):
        self.status = status
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class PeerState:
    """One configured peer as the table holds it at one moment."""

    domain: str
    domain_id: int
    summary: Summary | None   # None: nothing received yet
    received_at: float | None  # the receiver's clock
    age_s: float | None
    expired: bool              # True also when nothing was received

    @property
    def fresh(self) -> bool:
        return self.summary is not None and not self.expired


class PeerTable:
    def __init__(self, peers: Mapping[str, int], ttl_s: float = DEFAULT_TTL_S,
                 clock: Clock = time.monotonic):
        """``peers``: the configured peer domains, name -> domain id."""
        if not ttl_s > 0:
            raise ValueError(f"ttl_s must be > 0 s, got {ttl_s}")
        self.peers = dict(peers)
        self.ttl_s = ttl_s
        self._clock = clock
        self._lock = threading.Lock()
        self._held: dict[str, tuple[Summary, float]] = {}

    def accept(self, domain: str, summary: Summary) -> None:
        """Hold ``summary`` pushed as ``domain``'s; PushRefused (403 not a peer, 400 the
        body names another domain, 409 an older serial than the one held)."""
        if domain not in self.peers:
            listed = ", ".join(sorted(self.peers)) or "none"
            raise PushRefused(403, f"{domain!r} is not a configured peer of this domain "
                                   f"(peers: {listed})")
        if summary.domain != domain or summary.domain_id != self.peers[domain]:
            raise PushRefused(400, f"domain: the summary is domain {summary.domain!r} id "
                                   f"{summary.domain_id}, pushed as {domain!r} id "
                                   f"{self.peers[domain]}")
        with self._lock:
            held = self._held.get(domain)
            if held is not None and (summary.serial < held[0].serial or
                                     (summary.serial == held[0].serial and summary != held[0])):
                raise PushRefused(409, f"serial: {summary.serial} is older than the held "
                                       f"summary's {held[0].serial} (or the same serial with "
                                       "other contents)")
            self._held[domain] = (summary, self._clock())

    def state(self, domain: str) -> PeerState:
        if domain not in self.peers:
            raise KeyError(f"{domain!r} is not a configured peer")
        now = self._clock()
        with self._lock:
            held = self._held.get(domain)
        if held is None:
            return PeerState(domain, self.peers[domain], None, None, None, True)
        summary, received = held
        age = now - received
        return PeerState(domain, self.peers[domain], summary, received, age, age > self.ttl_s)

    def states(self) -> list[PeerState]:
        """Every configured peer, by name."""
        return [self.state(domain) for domain in sorted(self.peers)]


__all__ = ["Clock", "DEFAULT_TTL_S", "PeerState", "PeerTable", "PushRefused"]
