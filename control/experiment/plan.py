"""What one experiment runs: workloads (who sends to whom), fabric settings (spraying
mode, trimming) and the steps that combine them, with link rates and sizes.

A step is one workload on one fabric setting with credit on or off. Steps that share a
setting run on one launched fabric, so a plan costs one launch per setting.
"""
from __future__ import annotations

from dataclasses import dataclass

MODES = ("ecmp", "entropy", "round_robin")
"""The policy's [spraying] default values (control/policy.py SPRAY_MODES)."""


@dataclass(frozen=True)
class Workload:
    name: str
    flows: tuple[tuple[str, str], ...]    # (source host, destination host)
    incast: bool = False                  # the destination's last hop is the bottleneck


PERMUTATION = Workload("permutation", (("h1", "h3"), ("h2", "h4"), ("h3", "h1"), ("h4", "h2")))
INCAST = Workload("incast 3:1", (("h1", "h3"), ("h2", "h3"), ("h4", "h3")), incast=True)
SHUFFLE = Workload("all-to-all", tuple((a, b) for a in ("h1", "h2", "h3", "h4")
                                       for b in ("h1", "h2", "h3", "h4") if a != b))


@dataclass(frozen=True)
class Setting:
    """What the controller programs: spraying mode and whether ports trim."""
    mode: str
    trim: bool = True

    @property
    def label(self) -> str:
        return self.mode + ("" if self.trim else ", no trim")


@dataclass(frozen=True)
class Step:
    setting: Setting
    workload: Workload
    bytes_per_flow: int
    credit: bool = True

    @property
    def label(self) -> str:
        return f"{self.setting.label}{'' if self.credit else ', credit off'}"


@dataclass(frozen=True)
class Plan:
    """Rates set the time scale: at 250 packets/s a leaf-spine link takes 4 ms per
    packet, slow enough that four Python switches on two cores keep up (at 500 packets/s
    a pinned ECMP link peaked at 320 packets/s: the fabric, not the link, was the limit);
    the incast's last hop at 150 packets/s is what its three flows share.

    ``capture``: the one setting whose launch writes per-port pcaps (every packet every
    switch port received and sent while that fabric was up), None for none; one setting
    and ``pcap_cap_bytes`` per file keep the captures small however long the run. The
    plans capture round robin: its INT stacks alternate between the spines, its incast
    trims (NACKs, credits, reports: every header the dissector knows)."""

    steps: tuple[Step, ...]
    link_pps: float = 250.0          # every leaf-spine link, each direction (tc)
    bottleneck_pps: float = 150.0    # the incast receiver's last hop
    flow_timeout_s: float = 60.0     # a sender gives up after this (the row: incomplete)
    capture: Setting | None = None
    pcap_cap_bytes: int = 4_000_000   # a longer capture keeps its first packets

    def settings(self) -> list[Setting]:
        """Each fabric setting once, in first-use order."""
        return list(dict.fromkeys(step.setting for step in self.steps))


def _modes(workload: Workload, nbytes: int) -> list[Step]:
    return [Step(Setting(mode), workload, nbytes) for mode in MODES]


def _incast_variants(nbytes: int) -> list[Step]:
    """Credits on/off and trimming on/off for the incast, under entropy spraying."""
    sprayed, untrimmed = Setting("entropy"), Setting("entropy", trim=False)
    return [Step(sprayed, INCAST, nbytes, credit=False), Step(untrimmed, INCAST, nbytes),
            Step(untrimmed, INCAST, nbytes, credit=False)]


def default_plan() -> Plan:
    """`make run`: the three workloads under the three modes plus the incast's credit and
    trim variants; a few minutes on two cores."""
    return Plan(tuple(_modes(PERMUTATION, 256 * 1024) + _modes(SHUFFLE, 48 * 1024)
                      + _modes(INCAST, 128 * 1024) + _incast_variants(128 * 1024)),
                capture=Setting("round_robin"))


def full_plan() -> Plan:
    """EXPERIMENT=full: larger flows and every workload under every (mode, trim, credit)."""
    steps = [Step(Setting(mode, trim), workload, nbytes, credit)
             for mode in MODES for trim in (True, False)
             for workload, nbytes in ((PERMUTATION, 1024 * 1024), (SHUFFLE, 192 * 1024),
                                      (INCAST, 512 * 1024))
             for credit in (True, False)]
    return Plan(tuple(steps), flow_timeout_s=180.0, capture=Setting("round_robin"),
                pcap_cap_bytes=2_000_000)   # 26 files: at most 52 MB


def minimal_plan(nbytes: int = 96 * 1024) -> Plan:
    """The integration test's: the permutation under ECMP and round-robin spraying."""
    return Plan((Step(Setting("ecmp"), PERMUTATION, nbytes),
                 Step(Setting("round_robin"), PERMUTATION, nbytes)), flow_timeout_s=40.0,
                capture=Setting("round_robin"))
