"""Which border carries traffic to a destination in a partition: a pure function of the
peers' summaries and the local borders' state (issue 15, item 4 fails over with it).

A candidate is a border of a peer domain whose summary, in the *same partition*, has a
prefix covering the destination, reached over an inter-domain link of ours. Prefixes of
other partitions are never looked at, so a partition cannot leak into another through
border choice. A candidate is skipped when it is unhealthy: the peer's summary expired
(or never came), the peer reports the border down (or not seen up for too long), or our
own end of the link is down. Among the healthy ones the longest matching prefix wins, as
in routing; then the policy's metric:

- ``latency``: our latency to our border + the link's one-way latency + the peer's
  in-domain latency (its p50, or p99), lowest first, then capacity;
- ``capacity``: the smaller of the peer's and our available bit rate, highest first,
  then latency;

and last, for a deterministic answer, the peer domain's name and our link end's name.

With ``current`` (the border in use) and a ``margin``, the border in use stays first
while it is healthy, matches as long a prefix, and the best other is not clearly better:
by more than that fraction on the metric, or the same on it within the fraction and
better by more than it on the other one. Measured load and INT latency move all the
time, and traffic that changes border on every small difference moves its own load
with it.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Sequence

from control.peering.peers import PeerState
from control.peering.summary import BorderSummary, Summary

METRICS = ("latency", "capacity")
PERCENTILES = ("p50", "p99")


@dataclass(frozen=True)
class LocalBorder:
    """Our end of an inter-domain link as our own controller sees it."""

    local: str                 # our SWITCH:PORT
    remote: str                # the peer's SWITCH:PORT
    peer_domain: str
    up: bool                   # our border switch and our end of the link are up
    latency_us: float = 0.0    # inside our domain to this border (our own summary's)
    link_latency_us: float = 0.0  # one way, the topology's
    available_bps: int | None = None  # on our sending side; None: not measured


@dataclass(frozen=True)
class Candidate:
    peer_domain: str
    local: str
    remote: str
    prefix: str            # the matching prefix the peer advertises
    latency_us: float
    available_bps: int


@dataclass(frozen=True)
class BorderChoice:
    """The chosen border (None when no healthy border reaches the destination), every
    healthy candidate in order of preference, and every skipped one with why."""

    chosen: Candidate | None
    ranked: tuple[Candidate, ...]
    skipped: tuple[tuple[str, str], ...]  # (local link end, reason)


def choose_border(destination: str, partition: int, peers: Sequence[PeerState],
                  local: Sequence[LocalBorder], by: str = "latency", percentile: str = "p50",
                  stale_after_s: float | None = None, current: str | None = None,
                  margin: float = 0.0) -> BorderChoice:
    """The border for ``destination`` (an IPv4 address or prefix) in ``partition``.
    ``stale_after_s``: a border the peer last saw up longer than this before it
    generated its summary is unhealthy too (None: trust its ``up``). ``current``: our
    link end in use, kept first unless another is better by more than ``margin``."""
    if by not in METRICS:
        raise ValueError(f"by: {by!r} is not one of {', '.join(METRICS)}")
    if margin < 0:
        raise ValueError(f"margin: {margin!r} must not be negative")
    if percentile not in PERCENTILES:
        raise ValueError(f"percentile: {percentile!r} is not one of {', '.join(PERCENTILES)}")
    target = _network(destination)
    ours = {(b.local, b.remote, b.peer_domain): b for b in local}
    healthy: list[tuple[int, Candidate]] = []
    skipped: list[tuple[str, str]] = []
    for state in sorted(peers, key=lambda s: s.domain):
        summary = state.summary
        if summary is None:
            continue
        prefix = _covering(summary, partition, target)
        if prefix is None:
            continue
        for border in sorted(summary.borders, key=lambda b: b.link.local):
            mine = ours.get((border.link.remote, border.link.local, summary.domain))
            if mine is None:
                continue  # a link of the peer's that does not end in our domain
            why = _unhealthy(state, border, mine, stale_after_s)
            if why is not None:
                skipped.append((mine.local, why))
                continue
            peer_latency = border.latency.p50_us if percentile == "p50" else border.latency.p99_us
            available = border.capacity.available_bps
            if mine.available_bps is not None:
                available = min(available, mine.available_bps)
            healthy.append((prefix.prefixlen, Candidate(
                summary.domain, mine.local, mine.remote, str(prefix),
                mine.latency_us + mine.link_latency_us + peer_latency, available)))
    ordered = sorted(healthy, key=lambda pc: _rank(pc[0], pc[1], by))
    if current is not None and ordered:
        ordered = _keep_current(ordered, current, by, margin)
    ranked = tuple(c for _, c in ordered)
    return BorderChoice(ranked[0] if ranked else None, ranked, tuple(skipped))


def _keep_current(ordered: list[tuple[int, Candidate]], current: str, by: str,
                  margin: float) -> list[tuple[int, Candidate]]:
    """``ordered`` with the candidate in use moved first unless the best is clearly
    better: by more than ``margin`` on the metric, or within it on the metric and by
    more than it on the other one (so a tie on capacity still goes by latency)."""
    best_len, best = ordered[0]
    at = next((i for i, (_, c) in enumerate(ordered) if c.local == current), None)
    if at is None or at == 0 or ordered[at][0] != best_len:
        return ordered
    kept = ordered[at][1]
    capacity = _compare(best.available_bps, kept.available_bps, margin)
    latency = _compare(-best.latency_us, -kept.latency_us, margin)
    primary, secondary = (capacity, latency) if by == "capacity" else (latency, capacity)
    clearly_better = primary > 0 or (primary == 0 and secondary > 0)
    return ordered if clearly_better else [ordered[at], *ordered[:at], *ordered[at + 1:]]


def _compare(value: float, reference: float, margin: float) -> int:
    """1 if ``value`` is higher than ``reference`` by more than ``margin`` of it, -1 if
    lower by more, else 0 (the same, within the noise)."""
    tolerance = abs(reference) * margin
    return 1 if value > reference + tolerance else -1 if value < reference - tolerance else 0


def _rank(prefix_len: int, c: Candidate, by: str) -> tuple:
    metric = (c.latency_us, -c.available_bps) if by == "latency" else (-c.available_bps, c.latency_us)
    return (-prefix_len, *metric, c.peer_domain, c.local, c.remote)


def _network(destination: str) -> ipaddress.IPv4Network:
    try:
        return ipaddress.IPv4Network(destination, strict=True)
    except ValueError as exc:
        raise ValueError(f"destination: {destination!r} is not an IPv4 address or prefix "
                         f"({exc})") from None


def _covering(summary: Summary, partition: int,
              target: ipaddress.IPv4Network) -> ipaddress.IPv4Network | None:
    """The longest prefix of ``partition`` (only) in ``summary`` that covers ``target``."""
    part = summary.partition(partition)
    if part is None:
        return None
    covering = [n for n in map(ipaddress.IPv4Network, part.prefixes) if target.subnet_of(n)]
    return max(covering, key=lambda n: n.prefixlen, default=None)


def _unhealthy(state: PeerState, border: BorderSummary, mine: LocalBorder,
               stale_after_s: float | None) -> str | None:
    if state.expired:
        age = "never received" if state.age_s is None else f"{state.age_s:g} s old"
        return f"summary of {state.domain} expired ({age})"
    if not mine.up:
        return f"our end {mine.local} is down"
    if not border.health.up:
        return f"{state.domain} reports border {border.link.local} down"
    last_seen = border.health.last_seen
    summary = state.summary
    if stale_after_s is not None and summary is not None and last_seen is not None \
            and summary.generated_at - last_seen > stale_after_s:
        return (f"{state.domain} last saw border {border.link.local} up "
                f"{summary.generated_at - last_seen:g} s before its summary")
    return None


__all__ = ["BorderChoice", "Candidate", "LocalBorder", "METRICS", "PERCENTILES", "choose_border"]
