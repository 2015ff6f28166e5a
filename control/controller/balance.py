"""Adaptive spraying by balancing waits: move member weight, a unit or two at a time,
from the member whose path waits longest to the one that waits least, until their waits
are within a factor of each other.

Why not two levels (congested member 1, clear member 4) on absolute thresholds, as
before: such a policy cannot reach a split in between. On four_leaves with each leaf's
first uplink slowed to half rate mid-run (bench/adaptive_reaction.py, 5 runs) it moved a
fixed 1:4 split, overloading the fast member, which then looked congested in turn: 26
flaps over the 20 slowed ports, a median reaction of 4.5 s (14 RTTs); and an absolute
occupancy level fires on the standing queue a congested but symmetric fabric keeps at
the ECN threshold. This policy, same bench: at ratio 2, 1.1 s (3 RTTs) but 11 flaps,
15 moves before anything was slowed (on the uneven queues of the flows' start) and an FCT
6 % above plain entropy's; at ratio 3 (the default), 2.5 s (8 RTTs), 4 flaps over 16
ports, 7 moves before, and the FCT of plain entropy.

A member's wait is the hop latency INT reports for its queue (the worst queue of the
port: control/controller/weights.LatestOccupancy), summed along the member's path
(control/controller/fabric.member_path), and averaged over about ``smooth_s`` (one
report is one packet's wait). Waits compare members of different rates directly
(Little: wait = queue / drain rate), so equal waits mean each member carries what it
drains. Per group (switch, destination), at each step:

- imbalance: the longest wait is ``ratio`` times the shortest or more, and ``gap_us``
  longer, and some hop of the group holds ``low`` packets or more (a queue exists): one
  unit moves from the longest-waiting member (never below ``congested_weight``) to the
  shortest, two when the waits differ by twice the ratio (a link at half rate under an
  even split is such a case: the first move should count); at most once per ``step_s``
  (the queues need that long to answer a move), and only on evidence newer than the
  last move (with change-triggered reports a held sample is old news: acting on it
  again would overshoot);
- back: a move toward equal weights (the member given more weight now waits longer)
  needs only ``back_ratio``, so that a split the waits no longer justify does not stay:
  in a busy symmetric fabric a move on a transient imbalance would otherwise hold
  (nothing reaches the full ratio the other way) and leave one member the bottleneck;
  under a lasting rate difference the split then dithers by one unit around the one
  that evens the waits, instead of settling a unit past it;
- idle: no hop of the group held ``low`` packets for its hold time: one unit back
  toward equal, once per hold. The hold doubles (up to ``max_hold_s``) when an imbalance
  follows such a step within two holds (the slow link is still slow: the limit cycle a
  too-even split causes is damped), and is back at ``hold_s`` after a later one;
- otherwise the weights stay.

A group's weights always sum to ``clear_weight`` per member, so its size never changes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping

from control.controller.weights import PortKey, PortSample, WeightPolicy

GroupKey = tuple[str, str]                 # (switch, destination host)
MAX_UNITS = 2                              # per move, when one waits twice the ratio or more
MemberPaths = Mapping[int, list[PortKey]]  # member port -> the queues its traffic crosses


@dataclass
class _Group:
    weights: dict[int, int]
    moved_at: float | None = None          # the last imbalance move
    evidence: tuple = ()                   # the samples that move acted on
    idle_since: float | None = None
    returned_at: float | None = None       # the last step back toward equal
    hold_s: float = 0.0
    smooth: dict[int, float] = field(default_factory=dict)  # each member's smoothed wait
    smoothed_at: float | None = None


def member_wait(hops: list[PortKey], samples: Mapping[PortKey, PortSample]) -> float:
    """Microseconds a member's traffic waits along its path (hops with no latency: 0)."""
    return sum(samples[hop].latency_us or 0.0 for hop in hops if hop in samples)


@dataclass
class WaitBalancer:
    """The weights of every multipath group, stepped on a clock the caller gives."""

    policy: WeightPolicy
    _groups: dict[GroupKey, _Group] = field(default_factory=dict)

    def step(self, groups: Mapping[GroupKey, MemberPaths], samples: Mapping[PortKey, PortSample],
             now: float) -> dict[GroupKey, dict[int, int]]:
        """Each group's member weights after this step."""
        out = {}
        for key, paths in groups.items():
            group = self._groups.get(key)
            if group is None or set(group.weights) != set(paths):  # new, or its members changed
                group = _Group({port: self.policy.clear_weight for port in paths},
                               hold_s=self.policy.hold_s)
                self._groups[key] = group
            self._step_group(group, paths, samples, now)
            out[key] = dict(group.weights)
        return out

    def _step_group(self, group: _Group, paths: MemberPaths,
                    samples: Mapping[PortKey, PortSample], now: float) -> None:
        p = self.policy
        hops = sorted({hop for path in paths.values() for hop in path})
        queued = any((samples[hop].occupancy or 0.0) >= p.low for hop in hops if hop in samples)
        if not queued:
            group.idle_since = now if group.idle_since is None else group.idle_since
            if now - group.idle_since >= group.hold_s and (
                    group.returned_at is None or now - group.returned_at >= group.hold_s):
                if _move_toward_equal(group.weights):
                    group.returned_at = now
            return
        group.idle_since = None
        waits = self._smooth(group, {port: member_wait(path, samples) for port, path in paths.items()},
                             now)
        slow = max(waits, key=lambda port: (waits[port], port))
        fast = min(waits, key=lambda port: (waits[port], port))
        back = group.weights[slow] > group.weights[fast]   # the favoured member waits longer
        if waits[slow] < (p.back_ratio if back else p.ratio) * waits[fast] \
                or waits[slow] - waits[fast] < p.gap_us:
            return
        evidence = tuple(samples.get(hop) for hop in hops)
        if evidence == group.evidence:
            return                       # nothing new since the last move
        if group.moved_at is not None and now - group.moved_at < p.step_s:
            return
        strong = not back and waits[slow] >= 2 * p.ratio * waits[fast]
        units = min(group.weights[slow] - p.congested_weight, MAX_UNITS if strong else 1)
        if units <= 0:
            return
        group.weights[slow] -= units
        group.weights[fast] += units
        if group.returned_at is not None and not back:  # an imbalance right after a step back
            quick = now - group.returned_at < 2 * group.hold_s
            group.hold_s = min(group.hold_s * 2, p.max_hold_s) if quick else p.hold_s
            group.returned_at = None
        group.moved_at, group.evidence = now, evidence

    def _smooth(self, group: _Group, waits: dict[int, float], now: float) -> dict[int, float]:
        """Each member's wait averaged over about ``smooth_s`` (an exponential moving
        average of the held samples, weighted by time): one report is one packet's wait."""
        if group.smoothed_at is None or not group.smooth:
            group.smooth = dict(waits)
        else:
            keep = math.exp(-max(now - group.smoothed_at, 0.0) / self.policy.smooth_s)
            group.smooth = {port: keep * group.smooth.get(port, wait) + (1 - keep) * wait
                            for port, wait in waits.items()}
        group.smoothed_at = now
        return dict(group.smooth)


def _move_toward_equal(weights: dict[int, int]) -> bool:
    """One unit from the heaviest member to the lightest; False if already equal."""
    heavy = max(weights, key=lambda port: (weights[port], -port))
    light = min(weights, key=lambda port: (weights[port], port))
    if weights[heavy] - weights[light] <= 1:
        return False
    weights[heavy] -= 1
    weights[light] += 1
    return True
