"""A domain's summary for its peers: what it reaches, per partition, and its borders.

This is all one domain tells another (docs/federation-api.md): reachable IPv4 prefixes
per partition and, per border (a border switch and its inter-domain link), the path
latency inside the domain from INT, the link's available capacity and the border's
health. No switch address, device id or P4Runtime detail: a peer learns what it needs
to pick a border, nothing it could program a switch with.

The JSON is versioned (``version``, SUMMARY_VERSION) and read strictly: ``from_json``
refuses every bad field at once, each with its path (``borders[0].latency_us.p99``) and
reason, and refuses fields it does not know (a typo must not pass silently).
``to_json`` checks a summary with the same rules before it leaves, so a controller never
publishes what its peers would refuse.
"""
from __future__ import annotations

import ipaddress
import json
import math
from dataclasses import dataclass
from typing import Any, Mapping

from control.config_reader import Reader
from control.errors import ConfigError, ProblemList
from control.topology import MAX_DOMAIN_ID, MAX_PORT, NAME, NAME_RULE

SUMMARY_VERSION = 1
SHARED_PARTITION = 0          # the policy's shared default partition (control/policy.py)
SHARED_PARTITION_NAME = "shared"
MAX_PARTITION_ID = 255
LATENCY_SOURCES = ("int", "given")  # measured by the domain's collector, or configured
# Bounds on what a peer may make us hold: far above any real fabric.
MAX_PARTITIONS = MAX_PARTITION_ID + 1
MAX_PREFIXES = 4096           # per partition
MAX_BORDERS = 256
MAX_SERIAL = 2**63 - 1
MAX_RATE_BPS = 10**12         # as control/federation/units.py
MAX_LATENCY_US = 10_000_000.0

KnownPartitions = Mapping[int, str]  # partition id -> name, as the receiver's policy has it


class SummaryError(ConfigError):
    """A summary that breaks the schema: every (field path, reason), named by its source
    (e.g. "summary from east")."""


@dataclass(frozen=True)
class PartitionPrefixes:
    """The prefixes a domain reaches in one partition (0 is the shared partition)."""

    id: int
    name: str
    prefixes: tuple[str, ...]  # IPv4 networks, host bits clear


@dataclass(frozen=True)
class PathLatency:
    """Latency inside the domain through one border: percentiles of the per-packet sum
    of INT hop latencies (``source`` "int", ``samples`` reports), or configured numbers
    (``source`` "given")."""

    p50_us: float
    p99_us: float
    samples: int = 0
    source: str = "given"


@dataclass(frozen=True)
class Capacity:
    """The inter-domain link's rate and the load measured on it, in bits per second."""

    rate_bps: int
    load_bps: int

    @property
    def available_bps(self) -> int:
        return max(0, self.rate_bps - self.load_bps)


@dataclass(frozen=True)
class Health:
    """Whether the publisher sees its border up, and when it last saw it up (its own
    clock, as ``generated_at``; None: never)."""

    up: bool
    last_seen: float | None


@dataclass(frozen=True)
class BorderLink:
    """An inter-domain link from the publisher's side: ``local`` and ``remote`` are the
    topology's SWITCH:PORT ends (names and port numbers, never addresses)."""

    local: str
    remote: str
    peer_domain: str

    @property
    def local_switch(self) -> str:
        return self.local.rpartition(":")[0]


@dataclass(frozen=True)
class BorderSummary:
    switch: str
    link: BorderLink
    latency: PathLatency
    capacity: Capacity
    health: Health


@dataclass(frozen=True)
class Summary:
    domain_id: int
    domain: str
    serial: int             # grows with every summary the domain publishes
    generated_at: float     # the publisher's clock, seconds since the epoch
    partitions: tuple[PartitionPrefixes, ...]
    borders: tuple[BorderSummary, ...]
    version: int = SUMMARY_VERSION

    def partition(self, partition_id: int) -> PartitionPrefixes | None:
        for part in self.partitions:
            if part.id == partition_id:
                return part
        return None


def known_partitions(partitions: Mapping[int, str] | None = None) -> dict[int, str]:
    """The receiver's partitions for ``from_json``: the shared one plus ``partitions``
    (e.g. ``{p.id: p.name for p in policy.partitions}``)."""
    return {SHARED_PARTITION: SHARED_PARTITION_NAME, **(partitions or {})}


def to_dict(summary: Summary) -> dict[str, Any]:
    """The summary as the JSON object of docs/federation-api.md (not checked)."""
    return {
        "version": summary.version,
        "domain": {"id": summary.domain_id, "name": summary.domain},
        "serial": summary.serial,
        "generated_at": summary.generated_at,
        "partitions": [{"id": p.id, "name": p.name, "prefixes": list(p.prefixes)}
                       for p in summary.partitions],
        "borders": [_border_dict(b) for b in summary.borders],
    }


def _border_dict(border: BorderSummary) -> dict[str, Any]:
    return {
        "switch": border.switch,
        "link": {"local": border.link.local, "remote": border.link.remote,
                 "peer_domain": border.link.peer_domain},
        "latency_us": {"p50": border.latency.p50_us, "p99": border.latency.p99_us,
                       "samples": border.latency.samples, "source": border.latency.source},
        "capacity_bps": {"rate": border.capacity.rate_bps, "load": border.capacity.load_bps,
                         "available": border.capacity.available_bps},
        "health": {"up": border.health.up, "last_seen": border.health.last_seen},
    }


def to_json(summary: Summary, known: KnownPartitions | None = None) -> str:
    """The summary as JSON, after the checks its receivers make (SummaryError if it
    breaks one: a bug of the publisher, better found before it leaves)."""
    doc = to_dict(summary)
    from_dict(doc, known, source=f"summary of {summary.domain}")
    return json.dumps(doc, sort_keys=True)


def from_json(text: str | bytes, known: KnownPartitions | None = None,
              source: str = "summary") -> Summary:
    """Read a summary; SummaryError with every problem (path, reason) otherwise.
    ``known`` (see known_partitions) refuses partitions the receiver does not have."""
    try:
        doc = json.loads(text, parse_constant=_refuse_constant)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SummaryError(source, [("(json)", f"not JSON: {exc}")]) from None
    except ValueError as exc:  # NaN / Infinity
        raise SummaryError(source, [("(json)", str(exc))]) from None
    except RecursionError:
        raise SummaryError(source, [("(json)", "nested too deeply to read")]) from None
    return from_dict(doc, known, source)


def _refuse_constant(name: str) -> float:
    raise ValueError(f"not JSON: {name} is not a number JSON allows")


def from_dict(doc: Any, known: KnownPartitions | None = None, source: str = "summary") -> Summary:
    """Check a parsed summary object and build it; SummaryError lists every problem."""
    problems = ProblemList(source)
    if not isinstance(doc, dict):
        raise SummaryError(source, [("(top level)", f"must be an object, not {type(doc).__name__}")])
    top = Reader(doc, "", problems)
    version = top.raw("version")
    if version is None:
        raise SummaryError(source, list(problems.items))
    if isinstance(version, bool) or version != SUMMARY_VERSION:
        # A later version may change any field: read no further.
        raise SummaryError(source, [("version", f"unknown version {version!r} (this controller "
                                                f"reads version {SUMMARY_VERSION})")])
    domain = _table(top, "domain")
    domain_id = domain.integer("id", 0, MAX_DOMAIN_ID)
    domain_name = _name(domain, "name")
    domain.reject_unknown()
    serial = top.integer("serial", 0, MAX_SERIAL)
    generated_at = _nonnegative(top, "generated_at", "a time")
    partitions = _partitions(top, known, problems)
    borders = _borders(top, domain_name, generated_at, problems)
    top.reject_unknown()
    if problems.items:
        raise SummaryError(source, list(problems.items))
    assert domain_id is not None and domain_name is not None and serial is not None
    assert generated_at is not None
    return Summary(domain_id, domain_name, serial, generated_at, partitions, borders)


# -- fields ------------------------------------------------------------------------------

def _where(r: Reader, name: str) -> str:
    return f"{r.where}.{name}" if r.where else name


def _table(r: Reader, field: str) -> Reader:
    """A Reader of the nested object ``field``; when it is absent (already reported as
    missing) or null, one whose problems go nowhere, so nothing is reported twice."""
    raw = r.raw(field)
    if raw is None:
        return Reader({}, _where(r, field), ProblemList("(absent)"))
    return Reader(raw, _where(r, field), r.problems)


def _name(r: Reader, field: str) -> str | None:
    value = r.string(field)
    if value is not None and not NAME.match(value):
        r.problems.add(_where(r, field), f"{value!r} is not a name ({NAME_RULE})")
        return None
    return value


def _nonnegative(r: Reader, field: str, what: str, required: bool = True,
                 high: float = math.inf) -> float | None:
    value = r.raw(field, required)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        r.problems.add(_where(r, field), f"must be a number ({what}), not {value!r}")
        return None
    if not math.isfinite(value):
        r.problems.add(_where(r, field), f"{value!r} is not a finite number")
        return None
    if value < 0:
        r.problems.add(_where(r, field), f"negative {what}: {value!r}")
        return None
    if value > high:
        r.problems.add(_where(r, field), f"{value!r} is more than {high:g}")
        return None
    return value


def _boolean(r: Reader, field: str) -> bool | None:
    value = r.raw(field)
    if value is None:
        return None
    if not isinstance(value, bool):
        r.problems.add(_where(r, field), f"must be true or false, not {value!r}")
        return None
    return value


def _array(r: Reader, field: str, limit: int) -> list[Any]:
    value = r.raw(field)
    if value is None:
        return []
    if not isinstance(value, list):
        r.problems.add(_where(r, field), f"must be an array, not {type(value).__name__}")
        return []
    if len(value) > limit:
        r.problems.add(_where(r, field), f"{len(value)} entries, more than {limit}")
        return []
    return value


def _port_ref(r: Reader, field: str) -> tuple[str, int] | None:
    """A SWITCH:PORT end of a link."""
    value = r.string(field)
    if value is None:
        return None
    switch, sep, port = value.rpartition(":")
    if not sep or not NAME.match(switch) or not (port.isascii() and port.isdigit()) \
            or int(port) > MAX_PORT:
        r.problems.add(_where(r, field), f"{value!r} is not SWITCH:PORT (a name and a port "
                                         f"0..{MAX_PORT})")
        return None
    return switch, int(port)


# -- partitions --------------------------------------------------------------------------

def _partitions(top: Reader, known: KnownPartitions | None,
                problems: ProblemList) -> tuple[PartitionPrefixes, ...]:
    found: list[PartitionPrefixes] = []
    ids: dict[int, int] = {}
    names: dict[str, int] = {}
    owners: list[tuple[ipaddress.IPv4Network, str]] = []  # every prefix so far, where
    for i, raw in enumerate(_array(top, "partitions", MAX_PARTITIONS)):
        r = Reader(raw, f"partitions[{i}]", problems)
        pid = r.integer("id", 0, MAX_PARTITION_ID)
        name = _name(r, "name")
        prefixes: list[str] = []
        for k, text in enumerate(_array(r, "prefixes", MAX_PREFIXES)):
            where = f"partitions[{i}].prefixes[{k}]"
            network = _prefix(text, where, problems)
            if network is None:
                continue
            clash = next((w for net, w in owners if net.overlaps(network)), None)
            if clash is not None:
                problems.add(where, f"{network} overlaps {clash}: a destination must belong "
                                    "to one partition only")
                continue
            owners.append((network, where))
            prefixes.append(str(network))
        r.reject_unknown()
        if pid is None or name is None:
            continue
        if pid in ids:
            problems.add(f"partitions[{i}].id", f"duplicate {pid} (also partitions[{ids[pid]}])")
            continue
        if name in names:
            problems.add(f"partitions[{i}].name", f"duplicate {name!r} (also partitions[{names[name]}])")
            continue
        ids[pid], names[name] = i, i
        if known is not None and not _check_known(pid, name, known, f"partitions[{i}]", problems):
            continue
        found.append(PartitionPrefixes(pid, name, tuple(prefixes)))
    return tuple(found)


def _prefix(text: Any, where: str, problems: ProblemList) -> ipaddress.IPv4Network | None:
    if not isinstance(text, str):
        problems.add(where, f"must be an IPv4 prefix in quotes, not {text!r}")
        return None
    if "/" not in text:
        problems.add(where, f"{text!r} is not an IPv4 prefix: the length is missing (e.g. "
                            "'10.0.2.0/24')")
        return None
    try:
        return ipaddress.IPv4Network(text, strict=True)
    except ValueError as exc:
        problems.add(where, f"{text!r} is not an IPv4 prefix ({exc})")
        return None


def _check_known(pid: int, name: str, known: KnownPartitions, where: str,
                 problems: ProblemList) -> bool:
    if pid not in known:
        listed = ", ".join(f"{k} {known[k]!r}" for k in sorted(known)) or "none"
        problems.add(f"{where}.id", f"partition {pid} ({name!r}) is unknown to this domain "
                                    f"(known: {listed})")
        return False
    if known[pid] != name:
        problems.add(f"{where}.name", f"partition {pid} is {known[pid]!r} in this domain, "
                                      f"not {name!r}")
        return False
    return True


# -- borders -----------------------------------------------------------------------------

def _borders(top: Reader, domain: str | None, generated_at: float | None,
             problems: ProblemList) -> tuple[BorderSummary, ...]:
    found: list[BorderSummary] = []
    locals_seen: dict[str, int] = {}
    for i, raw in enumerate(_array(top, "borders", MAX_BORDERS)):
        where = f"borders[{i}]"
        r = Reader(raw, where, problems)
        switch = _name(r, "switch")
        link = _link(_table(r, "link"), switch, domain)
        latency = _latency(_table(r, "latency_us"))
        capacity = _capacity(_table(r, "capacity_bps"))
        health = _health(r.raw("health"), f"{where}.health", problems, generated_at)
        r.reject_unknown()
        if link is not None and link.local in locals_seen:
            problems.add(f"{where}.link.local", f"{link.local!r} is also borders"
                                                f"[{locals_seen[link.local]}]'s link")
            continue
        if switch is None or link is None or latency is None or capacity is None or health is None:
            continue
        locals_seen[link.local] = i
        found.append(BorderSummary(switch, link, latency, capacity, health))
    return tuple(found)


def _link(r: Reader, switch: str | None, domain: str | None) -> BorderLink | None:
    local = _port_ref(r, "local")
    remote = _port_ref(r, "remote")
    peer = _name(r, "peer_domain")
    r.reject_unknown()
    ok = local is not None and remote is not None and peer is not None
    if local is not None and switch is not None and local[0] != switch:
        r.problems.add(f"{r.where}.local", f"{local[0]}:{local[1]} is not a port of the "
                                           f"border switch {switch!r}")
        ok = False
    if peer is not None and peer == domain:
        r.problems.add(f"{r.where}.peer_domain", f"{peer!r} is the publishing domain itself: "
                                                 "an inter-domain link joins two domains")
        ok = False
    if not ok:
        return None
    assert local is not None and remote is not None and peer is not None
    return BorderLink(f"{local[0]}:{local[1]}", f"{remote[0]}:{remote[1]}", peer)


def _latency(r: Reader) -> PathLatency | None:
    p50 = _nonnegative(r, "p50", "latency", high=MAX_LATENCY_US)
    p99 = _nonnegative(r, "p99", "latency", high=MAX_LATENCY_US)
    samples = r.integer("samples", 0, MAX_SERIAL)
    source = r.choice("source", LATENCY_SOURCES)
    r.reject_unknown()
    if p50 is None or p99 is None or samples is None or source is None:
        return None
    if p99 < p50:
        r.problems.add(f"{r.where}.p99", f"{p99!r} is below p50 {p50!r}")
        return None
    if source == "int" and samples == 0:
        r.problems.add(f"{r.where}.samples", "0: a latency measured by INT needs samples "
                                             "(no reports: say \"given\" or leave the border out)")
        return None
    return PathLatency(p50, p99, samples, source)


def _capacity(r: Reader) -> Capacity | None:
    rate = r.integer("rate", 1, MAX_RATE_BPS)
    load = r.integer("load", 0, MAX_RATE_BPS)
    available = r.integer("available", 0, MAX_RATE_BPS)
    r.reject_unknown()
    if rate is None or load is None or available is None:
        return None
    capacity = Capacity(rate, load)
    if available != capacity.available_bps:
        r.problems.add(f"{r.where}.available", f"{available} is not rate - load "
                                               f"({capacity.available_bps}, never below 0)")
        return None
    return capacity


def _health(raw: Any, where: str, problems: ProblemList,
            generated_at: float | None) -> Health | None:
    # last_seen may be null (never seen up), which Reader refuses: it is read apart.
    if raw is None:
        return None  # reported as missing (or null) by the caller's Reader
    has_last_seen = isinstance(raw, dict) and "last_seen" in raw
    rest = {k: v for k, v in raw.items() if k != "last_seen"} if isinstance(raw, dict) else raw
    r = Reader(rest, where, problems)
    up = _boolean(r, "up")
    r.reject_unknown()
    last_seen: float | None = None
    if not isinstance(raw, dict):
        return None
    if not has_last_seen:
        problems.add(f"{where}.last_seen", "missing (required; null: never seen up)")
        return None
    if raw["last_seen"] is not None:
        last_seen = _nonnegative(Reader({"last_seen": raw["last_seen"]}, where, problems),
                                 "last_seen", "a time")
        if last_seen is None:
            return None
    if up is None:
        return None
    if last_seen is not None and generated_at is not None and last_seen > generated_at:
        problems.add(f"{where}.last_seen", f"{last_seen!r} is after the summary's "
                                           f"generated_at {generated_at!r}")
        return None
    if up and last_seen is None:
        problems.add(f"{where}.last_seen", "null, yet the border is up: an up border was seen")
        return None
    return Health(up, last_seen)


__all__ = ["BorderLink", "BorderSummary", "Capacity", "Health", "KnownPartitions",
           "LATENCY_SOURCES", "PartitionPrefixes", "PathLatency", "SHARED_PARTITION",
           "SHARED_PARTITION_NAME", "SUMMARY_VERSION", "Summary", "SummaryError", "from_dict",
           "from_json", "known_partitions", "to_dict", "to_json"]
