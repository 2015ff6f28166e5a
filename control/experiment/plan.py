"""What one experiment runs: workloads (who sends to whom), fabric settings (spraying
mode, trimming, partitions) and the steps that combine them, with link rates and sizes.

A step is one workload on one fabric setting with credit on or off. Steps that share a
setting run on one launched fabric, so a plan costs one launch per setting.

`make run` uses four_leaves (4 leaves x 2 spines, 8 hosts, links of 60 full-size
frames/s, about 67 data packets/s), the
largest fabric that fits the five-minute budget here. Measured on this 2-core machine
(2026-12-02, shared with other jobs): the default plan, 17 steps on 7 launches, took
242 s (load average 1.5 rising to 3.7 with the run's own six switches and up to 24
endpoint processes); a launch plus its first step (six switches programmed, the
8-flow permutation of 160 KB) 15-26 s, the all-to-all (12 flows of 24 KB) 9-11 s, an
incast (3 x 64 KB into a 50 packets/s last hop) 8-11 s, a launch plus a mixed step (4
UEC flows beside 4 TCP flows) 18 s. Beside other jobs at load average 11-13 the same
plan took 476 s and the sprayed permutation's FCT doubled (the CPU, not the links, was
then the limit): figures of a loaded machine are not the fabric's. leaf_spine
(``--topology leaf_spine``: 2 leaves, 4 hosts, 250 packets/s links) ran the same plan
in 247 s while other jobs drove the load average to 12.7 (its former 12-step plan:
about 130 s idle). The two slow-uplink steps (19 steps on 9 launches) add about 110 s
(2026-12-02, shared). With every leaf uplink draining in the switches' own queues
(``--switch-uplinks 50``, Plan.uplink_pps) the first 17 steps took 393 s at load average
3-8 (before the feedback queue class and the ECN 16 / trim 32 thresholds, trims
lengthened the permutations 2-4x; after them the sprayed permutation's p50 is 4.3-4.5 s
with 0-1 trims against tc's 2.05 s, 2.1x, the switch draining 50 packets/s against tc's
67, control packets and INT reports each taking a data slot there), so the default
leaves the main rows' queues to tc. Six Python switches on two cores keep the links the bottleneck only
at 60 full-size frames/s (bench/congestion.py: at 200 packets/s links the whole fabric
delivered about 560 packets/s).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

MODES = ("ecmp", "entropy", "round_robin", "adaptive")
"""The policy's [spraying] default values (control/policy.py SPRAY_MODES), plus adaptive:
entropy spraying whose member weights the controller moves away from ports INT reports
congested (fabricctl run --db on the collector's store, control/controller/weights.py)."""


@dataclass(frozen=True)
class Workload:
    name: str
    flows: tuple[tuple[str, str], ...]    # UEC flows: (source host, destination host)
    incast: bool = False                  # the destination's last hop is the bottleneck
    tcp: tuple[tuple[str, str], ...] = ()  # front-end TCP flows beside them (the mixed case)

    @property
    def mixed(self) -> bool:
        """Front-end TCP beside back-end UEC: the source leaves' uplinks are the bottleneck."""
        return bool(self.tcp)


@dataclass(frozen=True)
class Workloads:
    """The workloads of one topology, by role."""
    permutation: Workload
    shuffle: Workload
    incast: Workload
    mixed: Workload


def _all_to_all(hosts: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((a, b) for a in hosts for b in hosts if a != b)


# topologies/leaf_spine.toml: h1, h2 on leaf1; h3, h4 on leaf2.
PERMUTATION = Workload("permutation", (("h1", "h3"), ("h2", "h4"), ("h3", "h1"), ("h4", "h2")))
INCAST = Workload("incast 3:1", (("h1", "h3"), ("h2", "h3"), ("h4", "h3")), incast=True)
SHUFFLE = Workload("all-to-all", _all_to_all(("h1", "h2", "h3", "h4")))
# Back-end UEC h1 <-> h3 and front-end TCP h2 <-> h4: on each leaf one host of each
# partition, so both cross the same uplinks in both directions.
MIXED = Workload("mixed", (("h1", "h3"), ("h3", "h1")), tcp=(("h2", "h4"), ("h4", "h2")))
LEAF_SPINE = Workloads(PERMUTATION, SHUFFLE, INCAST, MIXED)

# topologies/four_leaves.toml: h(2k-1), h(2k) on leaf k. As bench/congestion.py: every
# host to its peer on the next leaf; one host per leaf in the all-to-all (12 flows; all
# 8 would be 56 sender processes) and in the incast into h1; the mixed case's back end
# is each leaf's first host, its front end each leaf's second, both a ring over the leaves.
_RING = ("h1", "h3", "h5", "h7")
_SECOND = ("h2", "h4", "h6", "h8")
FOUR_LEAVES = Workloads(
    Workload("permutation", tuple((f"h{i}", f"h{(i + 1) % 8 + 1}") for i in range(1, 9))),
    Workload("all-to-all", _all_to_all(_RING)),
    Workload("incast 3:1", (("h3", "h1"), ("h5", "h1"), ("h7", "h1")), incast=True),
    Workload("mixed", tuple(zip(_RING, _RING[1:] + _RING[:1])),
             tcp=tuple(zip(_SECOND, _SECOND[1:] + _SECOND[:1]))))
WORKLOADS = {"leaf_spine": LEAF_SPINE, "four_leaves": FOUR_LEAVES}


@dataclass(frozen=True)
class Partitions:
    """The mixed case's two partitions (control/policy.py [[partitions]]): the back end
    (the UEC hosts) and the front end (the TCP hosts), in different queue classes
    (``queues``: the back end's drains first, strict priority) or in the same one."""
    backend: tuple[str, ...]
    frontend: tuple[str, ...]
    queues: bool

    BACKEND_QUEUE = 6     # below the trim class's 7; with --priority-queues 8, 7 drains first
    FRONTEND_QUEUE = 1

    @property
    def label(self) -> str:
        return "partition queues" if self.queues else "one queue"


def partitions_of(workload: Workload, queues: bool) -> Partitions:
    """Back end = the hosts of the workload's UEC flows, front end = those of its TCP."""
    def hosts(flows: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
        return tuple(sorted({host for flow in flows for host in flow}))
    return Partitions(hosts(workload.flows), hosts(workload.tcp), queues)


@dataclass(frozen=True)
class Setting:
    """What the controller programs: spraying mode, whether ports trim, and the mixed
    case's partitions (None: one shared tenant).

    A partitioned setting programs neither ECN nor trimming: both read the port's whole
    queue depth (enq_qdepth / deq_qdepth count every priority queue of the port, on BMv2
    as on p4sim), so the front end's standing TCP queue in the low class would mark and
    trim every back-end packet in the high class too, and the comparison would measure
    that rather than the queue classes."""
    mode: str
    trim: bool = True
    partitions: Partitions | None = None
    slow_uplink: bool = False   # each leaf's first uplink slower (Plan.slow_uplink_rates)

    @property
    def label(self) -> str:
        if self.partitions is not None:
            return f"{self.mode}, {self.partitions.label}"
        return (self.mode + ("" if self.trim else ", no trim")
                + (", one slow uplink" if self.slow_uplink else ""))


@dataclass(frozen=True)
class Step:
    setting: Setting
    workload: Workload
    bytes_per_flow: int
    credit: bool = True
    tcp_bytes_per_flow: int = 0     # each TCP flow of a mixed workload

    @property
    def label(self) -> str:
        return f"{self.setting.label}{'' if self.credit else ', credit off'}"


@dataclass(frozen=True)
class Federation:
    """The two-domain demo `make run` ends with (control/experiment/federation.py): a few
    UEC transfers across the border each way on topologies/<topology>.toml, launched with
    its <topology>.policy.toml, one controller and one collector per domain. Measured on
    this 2-core machine (2026-12-02, shared): launch, four transfers of 32 KB, the stores
    read and the plots drawn took 12 s at load average 6 and 37 s at 10-14 (other jobs).
    FEDERATION=off (python -m control.experiment --no-federation) skips it."""
    topology: str = "two_domains"
    transfers: tuple[tuple[str, str], ...] = (("h1", "h3"), ("h2", "h4"), ("h3", "h1"),
                                              ("h4", "h2"))
    bytes_per_transfer: int = 32 * 1024
    timeout_s: float = 60.0


@dataclass(frozen=True)
class Plan:
    """Rates set the time scale (SCALES per topology): on leaf_spine at 250 packets/s a
    leaf-spine link takes 4 ms per packet, slow enough that four Python switches on two
    cores keep up (at 500 packets/s a pinned ECMP link peaked at 320 packets/s: the
    fabric, not the link, was the limit); the incast's last hop at 150 packets/s is what
    its three flows share. On four_leaves, six switches, 60 packets/s (17 ms a packet)
    and a 50 packets/s incast hop. The field defaults are leaf_spine's (the tests' plans).

    ``capture``: the one setting whose launch writes per-port pcaps (every packet every
    switch port received and sent while that fabric was up), None for none; one setting
    and ``pcap_cap_bytes`` per file keep the captures small however long the run. The
    plans capture round robin: its INT stacks alternate between the spines, its incast
    trims (NACKs, credits, reports: every header the dissector knows).

    The mixed case slows every leaf uplink its flows cross to ``mixed_pps`` in the
    switch's own egress queue (below ``link_pps``, so the queue builds inside the switch,
    where the partitions' queue classes are served by strict priority, not in tc after
    it). simple_switch_grpc cannot change its queues at run time, so there the uplinks
    are shaped by tc instead and the two queue variants see the same FIFO.

    ``uplink_pps`` does the same for every other setting (all four modes alike, so that
    ECMP, entropy, round robin and adaptive cross the same bottleneck): every leaf uplink
    drains at that rate in the switch's own queue, so the queues a permutation or an
    all-to-all builds are where INT sees them and adaptive spraying can move away from
    them (behind tc's link queue they are invisible to it). None (the default plans'):
    tc's links only.

    A symmetric permutation loads every uplink alike, so there is no better member for
    adaptive spraying to move to. A ``slow_uplink`` setting is where it can gain: its
    leaf uplinks drain in the switch's queue at ``slow_uplink_rates`` = (every uplink,
    each leaf's first uplink), the first at half the others' rate in the default plans,
    so an even split wastes the fast member while weights that follow the queues do
    not."""

    steps: tuple[Step, ...]
    link_pps: float = 250.0          # every leaf-spine link, each direction (tc)
    bottleneck_pps: float = 150.0    # the incast receiver's last hop
    flow_timeout_s: float = 60.0     # a sender gives up after this (the row: incomplete)
    capture: Setting | None = None
    pcap_cap_bytes: int = 4_000_000   # a longer capture keeps its first packets
    mixed_pps: float = 200.0         # the mixed case's leaf uplinks, in the switch's own queue
    topology: str = "leaf_spine"     # topologies/<topology>.toml; workloads name its hosts
    federation: Federation | None = None   # the two-domain demo after the fabric's steps
    uplink_pps: float | None = None  # unpartitioned settings' leaf uplinks, in the switch's queue
    # a slow_uplink setting's (every leaf uplink, each leaf's first uplink), in the switch's queue
    slow_uplink_rates: tuple[float, float] | None = None

    def settings(self) -> list[Setting]:
        """Each fabric setting once, in first-use order."""
        return list(dict.fromkeys(step.setting for step in self.steps))


def _modes(workload: Workload, nbytes: int) -> list[Step]:
    return [Step(Setting(mode), workload, nbytes) for mode in MODES]


def _slow_uplink_steps(workload: Workload, nbytes: int) -> list[Step]:
    """``workload`` with one slow uplink per leaf, under entropy and adaptive spraying."""
    return [Step(Setting(mode, slow_uplink=True), workload, nbytes)
            for mode in ("entropy", "adaptive")]


def _incast_variants(incast: Workload, nbytes: int) -> list[Step]:
    """Credits on/off and trimming on/off for the incast, under entropy spraying."""
    sprayed, untrimmed = Setting("entropy"), Setting("entropy", trim=False)
    return [Step(sprayed, incast, nbytes, credit=False), Step(untrimmed, incast, nbytes),
            Step(untrimmed, incast, nbytes, credit=False)]


def mixed_steps(workload: Workload, nbytes: int, tcp_bytes: int, mode: str = "entropy") -> list[Step]:
    """The mixed case with and without partition queues."""
    return [Step(Setting(mode, trim=False, partitions=partitions_of(workload, queues)), workload,
                 nbytes, tcp_bytes_per_flow=tcp_bytes) for queues in (True, False)]


@dataclass(frozen=True)
class Scale:
    """One topology's rates (Plan's fields of the same names) and the default run's
    bytes per flow: what keeps its links, not its switches, the bottleneck."""
    link_pps: float
    bottleneck_pps: float
    mixed_pps: float
    slow_rows_pps: float   # the slow-uplink rows' uplinks (the first at half), in the switch
    permutation: int
    shuffle: int
    incast: int
    mixed: int
    mixed_tcp: int


SCALES = {"leaf_spine": Scale(250.0, 150.0, 200.0, 200.0, 256 * 1024, 48 * 1024, 128 * 1024,
                              128 * 1024, 256 * 1024),
          # four_leaves.toml's own 60 packets/s links and bench/congestion.py's 50 packets/s
          # incast hop: six switches and up to 24 endpoint processes on two cores.
          "four_leaves": Scale(60.0, 50.0, 50.0, 50.0, 160 * 1024, 24 * 1024, 64 * 1024,
                               48 * 1024, 96 * 1024)}
DEFAULT_TOPOLOGY = "four_leaves"   # `make run`; the module docstring says why


def _slow_rates(pps: float) -> tuple[float, float]:
    return (pps, pps / 2)


def default_plan(topology: str = DEFAULT_TOPOLOGY) -> Plan:
    """`make run`: the three workloads under the four modes, the incast's credit and trim
    variants, the mixed case with and without partition queues, and the permutation with
    one slow uplink per leaf under entropy and adaptive spraying."""
    work, size = WORKLOADS[topology], SCALES[topology]
    return Plan(tuple(_modes(work.permutation, size.permutation) + _modes(work.shuffle, size.shuffle)
                      + _modes(work.incast, size.incast) + _incast_variants(work.incast, size.incast)
                      + mixed_steps(work.mixed, size.mixed, size.mixed_tcp)
                      + _slow_uplink_steps(work.permutation, size.permutation)),
                link_pps=size.link_pps, bottleneck_pps=size.bottleneck_pps,
                mixed_pps=size.mixed_pps, capture=Setting("round_robin"), topology=topology,
                federation=Federation(), slow_uplink_rates=_slow_rates(size.slow_rows_pps))


def full_plan(topology: str = DEFAULT_TOPOLOGY) -> Plan:
    """EXPERIMENT=full: flows four times larger and every workload under every (mode,
    trim, credit), plus the mixed case."""
    work, size = WORKLOADS[topology], SCALES[topology]
    steps = [Step(Setting(mode, trim), workload, 4 * nbytes, credit)
             for mode in MODES for trim in (True, False)
             for workload, nbytes in ((work.permutation, size.permutation),
                                      (work.shuffle, size.shuffle), (work.incast, size.incast))
             for credit in (True, False)]
    steps += mixed_steps(work.mixed, 4 * size.mixed, 4 * size.mixed_tcp)
    return Plan(tuple(steps), link_pps=size.link_pps, bottleneck_pps=size.bottleneck_pps,
                mixed_pps=size.mixed_pps, flow_timeout_s=180.0, capture=Setting("round_robin"),
                pcap_cap_bytes=2_000_000, topology=topology,   # 2 MB a file at most
                federation=Federation())


def only(plan: Plan, workloads: tuple[str, ...] = (), modes: tuple[str, ...] = ()) -> Plan:
    """``plan`` with only the steps of the named workloads and modes (empty: all), for a
    quick measurement of a few rows; the federation demo is kept only if nothing is
    filtered."""
    steps = tuple(s for s in plan.steps
                  if (not workloads or s.workload.name in workloads)
                  and (not modes or s.setting.mode in modes))
    if not steps:
        raise ValueError(f"no step of {plan.topology} matches workloads {workloads} "
                         f"and modes {modes}")
    capture = plan.capture if plan.capture in {s.setting for s in steps} else None
    federation = plan.federation if not (workloads or modes) else None
    return dataclasses.replace(plan, steps=steps, capture=capture, federation=federation)


def minimal_plan(nbytes: int = 96 * 1024) -> Plan:
    """The integration test's: the permutation under ECMP and round-robin spraying."""
    return Plan((Step(Setting("ecmp"), PERMUTATION, nbytes),
                 Step(Setting("round_robin"), PERMUTATION, nbytes)), flow_timeout_s=40.0,
                capture=Setting("round_robin"))


def mixed_plan(nbytes: int = 64 * 1024, tcp_bytes: int = 128 * 1024) -> Plan:
    """The mixed case alone, with and without partition queues (its integration test)."""
    return Plan(tuple(mixed_steps(MIXED, nbytes, tcp_bytes)), flow_timeout_s=40.0)


def federation_plan(nbytes: int = 16 * 1024) -> Plan:
    """The two-domain demo alone, small transfers (its integration test)."""
    return Plan((), federation=Federation(bytes_per_transfer=nbytes, timeout_s=40.0))
