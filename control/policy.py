"""The fabric's policy file: what the controller configures on top of plain routing.

Validated completely (and against the topology) before any switch is touched, so a bad
file is refused with every problem's field and reason. Format (TOML, or JSON)::

    [spraying]
    default = "entropy"              # ecmp | entropy | round_robin (default ecmp)
    [[spraying.groups]]              # per-destination override
    destination = "h2"               # host name
    mode = "round_robin"
    [[spraying.classes]]             # per protocol class, beats the group's mode
    protocol = "rocev2"              # uec | rocev2 | tcp | other_udp | other
    mode = "ecmp"
    partition = "tenant-a"           # optional: a partition's name or id (0 = shared);
                                     # omitted = every partition
    # Defaults: rocev2 and tcp ecmp (pinned per queue pair / flow), the others the
    # group's mode.

    [[partitions]]
    id = 1                           # 1..255 (0 is the shared default partition)
    name = "tenant-a"
    members = ["h1", "leaf2:5"]      # host names or SWITCH:PORT
    vlan = 100                       # optional: the members' VLAN (tagged host ports)
    tag = 3585                       # VID of its 802.1Q tag on switch-to-switch links
                                     # (default PARTITION_TAG_BASE + id; hosts never see it)
    queue = 3                        # optional queue class 0..7 (standard_metadata.priority,
                                     # 7 drains first), on every switch; below trim queues

    [int]
    enabled = true
    instructions = 0x0780            # default: every supported bit (wire_formats.layers)
    hop_budget = 4
    domain_id = 1
    dscp = 0x17
    collector = "collector"          # the topology's [collector].name
    report_port = 32766
    inner_bytes = 64
    report_mode = "changes"          # changes (first packet, hop set or bucket change) | every_packet
    [[int.watchlist]]                # any omitted field is a wildcard
    src = "10.0.1.0/24"
    dst = "10.0.2.1/32"
    proto = 17
    src_port = 0                     # optional exact ports
    dst_port = 4793

    [ecn]
    threshold = 20                   # default for every port (packets; omit = off)
    [[ecn.ports]]
    port = "leaf1:2"
    threshold = 10

    [trim]
    threshold = 30                   # same shape as [ecn]
    meter_burst = 16                 # burst of the virtual queue (a shaped port's meter);
                                     # default: the port's threshold
    [[trim.classes]]
    dscp = 0x0A
    length = 64
    trimmed_dscp = 0x0B
    queue = 7

    [feedback]
    queue = 7                        # queue class of UEC ACKs, NACKs and CONTROL packets
                                     # (credits, credit requests, closes) on every switch
                                     # (omit = their partition's); at or above every
                                     # partition's, so feedback never waits behind data

    [credit]
    meter_pps = 1000                 # credit meter rate per port (omit = unmetered)
    meter_burst = 64
    [[credit.bands]]                 # queue depth range -> credit shift, every port
    min_depth = 8
    max_depth = 15
    shift = 1
"""
from __future__ import annotations

from dataclasses import dataclass, field

from control.config_reader import Reader, load_document
from control.errors import ProblemList
from wire_formats.layers import (DSCP_INT, DSCP_TRIMMABLE, DSCP_TRIMMED, INT_ALL_SUPPORTED,
                                  PDS_ACK, PDS_ACK_CC, PDS_ACK_CCX, PDS_CONTROL, PDS_NACK,
                                  PDS_NACK_CCX, REPORT_UDP_PORT)
from control.topology import MAX_PORT, Topology

SPRAY_MODES = ("ecmp", "entropy", "round_robin")
PROTOCOL_CLASSES = ("uec", "rocev2", "tcp", "other_udp", "other")
# Never sprayed unless the policy says so: reordering breaks RoCEv2 QPs and TCP.
CLASS_DEFAULTS = {"rocev2": "ecmp", "tcp": "ecmp"}
# (partition id, or None for every partition; protocol class): the key of a class mode.
ClassKey = tuple[int | None, str]
PartitionId = int  # spelt so inside Policy, whose field ``int`` shadows the type
QueueClass = int  # likewise: a standard_metadata.priority value
Packets = int     # likewise: a queue depth or burst
# A partition's default tag on fabric links is this plus its id (3585..3839): clear of
# VLAN 1 and the low VIDs hosts use, and readable in a capture (0xE01 is partition 1).
PARTITION_TAG_BASE = 0xE00
QUEUE_COUNT = 8  # standard_metadata.priority is 3 bits; the launcher starts 8 queues
# The PDS packet types [feedback] queue moves: everything a receiver sends back and the
# sender's CONTROL packets (credit requests, closes), i.e. every non-data type.
FEEDBACK_PDS_TYPES = (PDS_ACK, PDS_ACK_CC, PDS_ACK_CCX, PDS_NACK, PDS_CONTROL, PDS_NACK_CCX)


@dataclass(frozen=True)
class Partition:
    id: int
    name: str
    members: tuple[tuple[str, int], ...]  # (switch, port)
    vlan: int | None = None
    tag: int = 0           # VID on fabric links; 0 = PARTITION_TAG_BASE + id
    queue: int | None = None  # standard_metadata.priority of its packets; None = 0

    @property
    def fabric_tag(self) -> int:
        """The VID this partition's packets carry between switches."""
        return self.tag or PARTITION_TAG_BASE + self.id


@dataclass(frozen=True)
class WatchEntry:
    src: str | None = None   # IPv4 prefix
    dst: str | None = None
    proto: int | None = None
    src_port: int | None = None
    dst_port: int | None = None


@dataclass(frozen=True)
class IntPolicy:
    enabled: bool = False
    instructions: int = INT_ALL_SUPPORTED
    hop_budget: int = 4
    domain_id: int = 1
    dscp: int = DSCP_INT
    collector: str | None = None
    report_port: int = REPORT_UDP_PORT
    inner_bytes: int = 64
    watchlist: tuple[WatchEntry, ...] = ()
    report_mode: str = "changes"  # control.controller.int_report_mode.REPORT_MODES


@dataclass(frozen=True)
class Thresholds:
    """A default depth for every port plus per-(switch, port) overrides."""

    default: int | None = None
    ports: dict[tuple[str, int], int] = field(default_factory=dict)

    def for_port(self, switch: str, port: int) -> int | None:
        return self.ports.get((switch, port), self.default)


@dataclass(frozen=True)
class TrimClass:
    dscp: int = DSCP_TRIMMABLE
    length: int = 64
    trimmed_dscp: int = DSCP_TRIMMED
    queue: int = 7


@dataclass(frozen=True)
class CreditBand:
    min_depth: int
    max_depth: int
    shift: int


@dataclass(frozen=True)
class CreditPolicy:
    meter_pps: int | None = None
    meter_burst: int = 64
    bands: tuple[CreditBand, ...] = ()


@dataclass(frozen=True)
class Policy:
    spray_default: str = "ecmp"
    spray_by_destination: dict[str, str] = field(default_factory=dict)
    partitions: tuple[Partition, ...] = ()
    int: IntPolicy = IntPolicy()
    ecn: Thresholds = Thresholds()
    trim: Thresholds = Thresholds()
    trim_classes: tuple[TrimClass, ...] = ()
    credit: CreditPolicy = CreditPolicy()
    spray_classes: dict[ClassKey, str] = field(default_factory=dict)
    feedback_queue: QueueClass | None = None   # [feedback] queue; None: the partition's
    # [trim] meter_burst: packets the virtual queue of a shaped port holds (its meter's
    # burst); None: the port's trim threshold.
    trim_meter_burst: Packets | None = None

    def spray_mode(self, destination: str) -> str:
        return self.spray_by_destination.get(destination, self.spray_default)

    def class_mode(self, partition: PartitionId, protocol: str) -> str | None:
        """The mode for ``protocol`` in ``partition``; None leaves it to the group's."""
        for key in ((partition, protocol), (None, protocol)):
            if key in self.spray_classes:
                return self.spray_classes[key]
        return CLASS_DEFAULTS.get(protocol)


def empty_policy() -> Policy:
    """Plain routing, ECMP everywhere, nothing else configured."""
    return Policy()


def load_policy(path: str, topo: Topology) -> Policy:
    """Read a policy file and check it against ``topo``; raises ConfigError listing
    every problem (file, field, reason)."""
    problems = ProblemList(path)
    top = Reader(load_document(path), "", problems)
    context = _Context(topo, problems)
    partitions = tuple(p for p in (_read_partition(Reader(t, f"partitions[{i}]", problems), context)
                                   for i, t in enumerate(top.table_list("partitions", required=False)))
                       if p is not None)
    _check_partitions(partitions, problems)
    spray_default, by_dest, spray_classes = _read_spraying(top, context, partitions)
    int_policy = _read_int(_sub(top, "int"), context)
    ecn = _read_thresholds(_sub(top, "ecn"), context)
    trim_reader = _sub(top, "trim")
    trim = _read_thresholds(trim_reader, context, extra=("classes", "meter_burst"))
    meter_burst = trim_reader.integer("meter_burst", 1, 2**32 - 1, required=False)
    classes = tuple(c for c in (_read_trim_class(Reader(t, f"trim.classes[{i}]", problems))
                                for i, t in enumerate(trim_reader.table_list("classes", required=False)))
                    if c is not None)
    credit = _read_credit(_sub(top, "credit"))
    feedback_queue = _read_feedback(_sub(top, "feedback"))
    _check_queues(partitions, classes, problems)
    _check_feedback_queue(partitions, feedback_queue, problems)
    top.reject_unknown()
    problems.raise_if_any()
    return Policy(spray_default, by_dest, partitions, int_policy, ecn, trim, classes, credit,
                  spray_classes, feedback_queue, meter_burst)


@dataclass
class _Context:
    topo: Topology
    problems: ProblemList

    def port_ref(self, where: str, text: object) -> tuple[str, int] | None:
        """A host name or SWITCH:PORT, resolved to (switch, port)."""
        if not isinstance(text, str):
            self.problems.add(where, f"must be a host name or SWITCH:PORT, not {text!r}")
            return None
        for host in self.topo.hosts:
            if host.name == text:
                return host.switch, host.port
        sw, sep, port = text.rpartition(":")
        if not sep or not (port.isascii() and port.isdigit()) or int(port) > MAX_PORT:
            self.problems.add(where, f"{text!r} is neither a host of the topology nor SWITCH:PORT")
            return None
        if sw not in self.topo.by_name:
            self.problems.add(where, f"no switch named {sw!r} in the topology")
            return None
        return sw, int(port)


    def link_peer(self, switch: str, port: int) -> str | None:
        """SWITCH:PORT at the other end of the link on (switch, port), if it is one."""
        for link in self.topo.links:
            for (sw, p), (other, q) in (((link.a_switch, link.a_port), (link.b_switch, link.b_port)),
                                        ((link.b_switch, link.b_port), (link.a_switch, link.a_port))):
                if (sw, p) == (switch, port):
                    return f"{other}:{q}"
        return None


def _sub(top: Reader, name: str) -> Reader:
    raw = top.raw(name, required=False)  # marks the field as known
    return Reader(raw if raw is not None else {}, name, top.problems)


def _read_spraying(top: Reader, ctx: _Context, partitions: tuple[Partition, ...]
                   ) -> tuple[str, dict[str, str], dict[ClassKey, str]]:
    r = _sub(top, "spraying")
    default = r.choice("default", SPRAY_MODES, required=False, default="ecmp") or "ecmp"
    by_dest: dict[str, str] = {}
    hosts = {h.name for h in ctx.topo.hosts}
    for i, t in enumerate(r.table_list("groups", required=False)):
        g = Reader(t, f"spraying.groups[{i}]", ctx.problems)
        dest = g.string("destination")
        mode = g.choice("mode", SPRAY_MODES)
        g.reject_unknown()
        if dest is not None and dest not in hosts:
            ctx.problems.add(f"spraying.groups[{i}].destination", f"no host named {dest!r} in the topology")
        elif dest is not None and dest in by_dest:
            ctx.problems.add(f"spraying.groups[{i}].destination", f"{dest!r} is given twice")
        elif dest is not None and mode is not None:
            by_dest[dest] = mode
    classes: dict[ClassKey, str] = {}
    for i, t in enumerate(r.table_list("classes", required=False)):
        c = Reader(t, f"spraying.classes[{i}]", ctx.problems)
        protocol = c.choice("protocol", PROTOCOL_CLASSES)
        mode = c.choice("mode", SPRAY_MODES)
        found, partition = _partition_ref(c, partitions)
        c.reject_unknown()
        if protocol is None or mode is None or not found:
            continue
        if (partition, protocol) in classes:
            ctx.problems.add(f"spraying.classes[{i}]", f"{protocol!r} in "
                             f"{'every partition' if partition is None else f'partition {partition}'}"
                             " is given twice")
        classes[(partition, protocol)] = mode
    r.reject_unknown()
    return default, by_dest, classes


def _partition_ref(r: Reader, partitions: tuple[Partition, ...]) -> tuple[bool, int | None]:
    """(valid, id) of the optional ``partition`` field: a partition's name or id, 0 the
    shared partition; absent = (True, None), every partition."""
    value = r.raw("partition", required=False)
    if value is None:
        return True, None
    for part in partitions:
        if value in (part.name, part.id) and not isinstance(value, bool):
            return True, part.id
    if value == 0 and not isinstance(value, bool):
        return True, 0
    r.problems.add(f"{r.where}.partition", f"{value!r} is not the name or id of a partition "
                   "(0 is the shared one)")
    return False, None


def _read_partition(r: Reader, ctx: _Context) -> Partition | None:
    pid = r.integer("id", 1, 255)
    name = r.string("name")
    raw = r.raw("members", required=True)
    members: list[tuple[str, int]] = []
    if raw is not None and not isinstance(raw, list):
        ctx.problems.add(f"{r.where}.members", "must be an array of host names or SWITCH:PORT")
    for i, item in enumerate(raw if isinstance(raw, list) else []):
        ref = ctx.port_ref(f"{r.where}.members[{i}]", item)
        if ref is None:
            continue
        peer = ctx.link_peer(*ref)
        if peer is not None:
            ctx.problems.add(f"{r.where}.members[{i}]", f"{ref[0]}:{ref[1]} is a link to {peer}: "
                             "members are host-facing ports (links carry partition tags)")
        else:
            members.append(ref)
    vlan = r.integer("vlan", 1, 4094, required=False)
    tag = r.integer("tag", 1, 4094, required=False)
    queue = r.integer("queue", 0, QUEUE_COUNT - 1, required=False)
    r.reject_unknown()
    if pid is None or name is None:
        return None
    return Partition(pid, name, tuple(members), vlan, tag or 0, queue)


def _check_partitions(partitions: tuple[Partition, ...], problems: ProblemList) -> None:
    ids: dict[int, int] = {}
    owner: dict[tuple[str, int], int] = {}
    vlans: dict[int, int] = {}
    tags: dict[int, int] = {}
    for i, part in enumerate(partitions):
        if part.fabric_tag in tags:
            j = tags[part.fabric_tag]
            problems.add(f"partitions[{i}].tag", f"tag {part.fabric_tag} is also the tag of "
                         f"partitions[{j}] ({_tag_origin(partitions[j])}): a switch could not "
                         "tell the two partitions apart on a fabric link")
        tags.setdefault(part.fabric_tag, i)
        if part.id in ids:
            problems.add(f"partitions[{i}].id", f"duplicate {part.id} (also partitions[{ids[part.id]}])")
        ids.setdefault(part.id, i)
        if part.vlan is not None:
            if part.vlan in vlans:
                problems.add(f"partitions[{i}].vlan", f"vlan {part.vlan} also used by partitions[{vlans[part.vlan]}]")
            vlans.setdefault(part.vlan, i)
        for member in part.members:
            if member in owner:
                problems.add(f"partitions[{i}].members",
                             f"{member[0]}:{member[1]} is already in partitions[{owner[member]}]")
            owner.setdefault(member, i)


def _tag_origin(part: Partition) -> str:
    return "given" if part.tag else f"the default {PARTITION_TAG_BASE} + id {part.id}"


def _check_queues(partitions: tuple[Partition, ...], trim_classes: tuple[TrimClass, ...],
                  problems: ProblemList) -> None:
    """Trimmed headers must drain before any data (strict priority, the higher queue
    first), so a partition's queue stays below every trim class's queue."""
    if not trim_classes:
        return
    lowest = min(range(len(trim_classes)), key=lambda k: trim_classes[k].queue)
    for i, part in enumerate(partitions):
        if part.queue is not None and part.queue >= trim_classes[lowest].queue:
            problems.add(f"partitions[{i}].queue",
                         f"{part.queue} is not below queue {trim_classes[lowest].queue} of "
                         f"trim.classes[{lowest}]: trimmed headers would wait behind this "
                         "partition's data")


def _read_feedback(r: Reader) -> int | None:
    queue = r.integer("queue", 0, QUEUE_COUNT - 1, required=False)
    r.reject_unknown()
    return queue


def _check_feedback_queue(partitions: tuple[Partition, ...], queue: int | None,
                          problems: ProblemList) -> None:
    """Feedback below a partition's queue would wait behind that partition's data,
    which is what the feedback queue is for avoiding."""
    if queue is None:
        return
    for i, part in enumerate(partitions):
        if part.queue is not None and part.queue > queue:
            problems.add("feedback.queue", f"{queue} is below queue {part.queue} of "
                         f"partitions[{i}]: that partition's feedback would wait behind "
                         "its data")


def _read_int(r: Reader, ctx: _Context) -> IntPolicy:
    enabled = bool(r.table) and _boolean(r, "enabled", default=True)
    instructions = r.integer("instructions", 0, 0xFFFF, required=False, default=INT_ALL_SUPPORTED)
    if instructions is not None and instructions & ~INT_ALL_SUPPORTED:
        ctx.problems.add("int.instructions", f"bits {instructions & ~INT_ALL_SUPPORTED:#06x} are not "
                         f"supported by the pipeline (supported: {INT_ALL_SUPPORTED:#06x})")
    hop_budget = r.integer("hop_budget", 1, 255, required=False, default=4)
    domain_id = r.integer("domain_id", 0, 0xFFFF, required=False, default=1)
    dscp = r.integer("dscp", 0, 63, required=False, default=DSCP_INT)
    collector = r.string("collector", required=False)
    report_port = r.integer("report_port", 1, 65535, required=False, default=REPORT_UDP_PORT)
    inner_bytes = r.integer("inner_bytes", 0, 128, required=False, default=64)
    report_mode = r.choice("report_mode", ("changes", "every_packet"), required=False,
                           default="changes")
    watch = []
    for i, t in enumerate(r.table_list("watchlist", required=False)):
        w = Reader(t, f"int.watchlist[{i}]", ctx.problems)
        watch.append(WatchEntry(w.ipv4_prefix("src", required=False), w.ipv4_prefix("dst", required=False),
                                w.integer("proto", 0, 255, required=False),
                                w.integer("src_port", 0, 65535, required=False),
                                w.integer("dst_port", 0, 65535, required=False)))
        w.reject_unknown()
    r.reject_unknown()
    if enabled:
        topo_collector = ctx.topo.collector
        if topo_collector is None:
            ctx.problems.add("int", "INT is enabled but the topology has no [collector]")
        elif collector is not None and collector != topo_collector.name:
            ctx.problems.add("int.collector", f"{collector!r} is not the topology's collector "
                             f"({topo_collector.name!r})")
        if not watch:
            ctx.problems.add("int.watchlist", "INT is enabled but no flow is watched")
    return IntPolicy(enabled, instructions or 0, hop_budget or 4, domain_id or 0,
                     DSCP_INT if dscp is None else dscp, collector,
                     report_port or REPORT_UDP_PORT, 64 if inner_bytes is None else inner_bytes,
                     tuple(watch), report_mode or "changes")


def _boolean(r: Reader, name: str, default: bool) -> bool:
    value = r.raw(name, required=False)
    if value is None:
        return default
    if not isinstance(value, bool):
        r.problems.add(f"{r.where}.{name}", f"must be true or false, not {value!r}")
        return default
    return value


def _read_thresholds(r: Reader, ctx: _Context, extra: tuple[str, ...] = ()) -> Thresholds:
    default = r.integer("threshold", 1, 2**32 - 1, required=False)
    ports: dict[tuple[str, int], int] = {}
    for i, t in enumerate(r.table_list("ports", required=False)):
        p = Reader(t, f"{r.where}.ports[{i}]", ctx.problems)
        ref = ctx.port_ref(f"{p.where}.port", p.string("port"))
        depth = p.integer("threshold", 1, 2**32 - 1)
        p.reject_unknown()
        if ref is not None and depth is not None:
            ports[ref] = depth
    for name in extra:
        r.raw(name, required=False)
    r.reject_unknown()
    return Thresholds(default, ports)


def _read_trim_class(r: Reader) -> TrimClass | None:
    dscp = r.integer("dscp", 0, 63, required=False, default=DSCP_TRIMMABLE)
    length = r.integer("length", 42, 0xFFFF, required=False, default=64)
    trimmed_dscp = r.integer("trimmed_dscp", 0, 63, required=False, default=DSCP_TRIMMED)
    queue = r.integer("queue", 0, 7, required=False, default=7)
    r.reject_unknown()
    if dscp is None or length is None or trimmed_dscp is None or queue is None:
        return None
    return TrimClass(dscp, length, trimmed_dscp, queue)


def _read_credit(r: Reader) -> CreditPolicy:
    pps = r.integer("meter_pps", 1, 2**32 - 1, required=False)
    burst = r.integer("meter_burst", 1, 2**32 - 1, required=False, default=64)
    bands = []
    for i, t in enumerate(r.table_list("bands", required=False)):
        b = Reader(t, f"credit.bands[{i}]", r.problems)
        low, high = b.integer("min_depth", 0, 2**32 - 1), b.integer("max_depth", 0, 2**32 - 1)
        shift = b.integer("shift", 0, 24)
        b.reject_unknown()
        if low is not None and high is not None and low > high:
            r.problems.add(f"credit.bands[{i}]", f"min_depth {low} > max_depth {high}")
        elif low is not None and high is not None and shift is not None:
            bands.append(CreditBand(low, high, shift))
    for i, band in enumerate(bands):
        for j, other in enumerate(bands[:i]):
            if band.min_depth <= other.max_depth and other.min_depth <= band.max_depth:
                r.problems.add(f"credit.bands[{i}]", f"depths overlap credit.bands[{j}]")
    r.reject_unknown()
    return CreditPolicy(pps, burst or 64, tuple(bands))
