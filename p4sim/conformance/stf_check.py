"""Comparisons 3 and 4: one STF test, run on p4sim-switch with p4c's JSON and with
p4sim's, and p4sim's verdict against BMv2's."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p4sim.conformance.bmv2_log import (Fact, run_facts, recorded_facts, stale_facts,
                                        unsupported_commands)
from p4sim.conformance.outcome import Comparison, judged, not_comparable
from p4sim.conformance.recording import BMV2_FAIL, BMV2_PASS, BMV2_UNSUPPORTED, Recording
from p4sim.stf import commands as c
from p4sim.stf.observe import Observation
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.runner import StfResult, run_statements
from p4sim.stf.target import ProgramLoadFailed

RUNS = "p4c-JSON vs p4sim-JSON run"
VERDICT = "STF vs BMv2"


@dataclass
class Run:
    """An STF run, or why it could not happen (the program did not load)."""

    result: StfResult | None
    failure: str | None = None


def run_on_p4sim(program: dict[str, Any], statements: list[c.Command]) -> Run:
    """The STF statements on an in-process p4sim switch, observing everything."""
    from p4sim.stf.p4sim_target import P4simTarget
    info = ProgramInfo(program)
    try:
        target = P4simTarget(program, info)
    except ProgramLoadFailed as exc:
        return Run(None, str(exc))
    try:
        return Run(run_statements(info, statements, target, observe=True))
    finally:
        target.close()


def compare_runs(p4c_run: Run, p4sim_run: Run, source: str, statements: list[c.Command]) -> Comparison:
    """Packets out per port byte for byte, and every extern cell at the end.

    Nibbles the STF file leaves open (``*``: timestamps, queue delays) are not
    compared: they differ between any two runs, even of one JSON."""
    if p4c_run.result is None or p4sim_run.result is None:
        details = [f"{side}'s JSON did not load on p4sim-switch: {run.failure}"
                   for side, run in (("p4c", p4c_run), ("p4sim", p4sim_run)) if run.result is None]
        return judged(RUNS, source, details)
    theirs, ours = p4c_run.result.observed, p4sim_run.result.observed
    assert theirs is not None and ours is not None  # run_on_p4sim observes
    return judged(RUNS, source, _packet_differences(theirs, ours, _open_nibbles(statements))
                  + _state_differences(theirs, ours))


def _open_nibbles(statements: list[c.Command]) -> dict[int, list[set[int]]]:
    """Per port, per expected packet: the nibble offsets its pattern leaves open."""
    opened: dict[int, list[set[int]]] = {}
    for s in statements:
        if isinstance(s, c.Expect):
            pattern = s.pattern or ""
            opened.setdefault(s.port, []).append({i for i, ch in enumerate(pattern) if ch == "*"})
    return opened


def _packet_differences(theirs: Observation, ours: Observation,
                        opened: dict[int, list[set[int]]]) -> list[str]:
    details = []
    a, b = theirs.by_port(), ours.by_port()
    for port in sorted(set(a) | set(b)):
        left, right = a.get(port, []), b.get(port, [])
        if len(left) != len(right):
            details.append(f"port {port}: p4c's JSON sent {len(left)} packet(s) vs p4sim's {len(right)}")
        masks = opened.get(port, [])
        for index in range(max(len(left), len(right))):
            x = _hex(left[index]) if index < len(left) else None
            y = _hex(right[index]) if index < len(right) else None
            where = _first_difference(x, y, masks[index] if index < len(masks) else set())
            if where is not None:
                details.append(f"port {port} packet #{index}{where}: "
                               f"p4c's JSON {x or 'nothing'} vs p4sim's {y or 'nothing'}")
    return details


def _first_difference(x: str | None, y: str | None, ignored: set[int]) -> str | None:
    """None when equal outside the ignored nibbles, else where they first differ."""
    if x is None or y is None:
        return ""
    for offset, (p, q) in enumerate(zip(x, y)):
        if p != q and offset not in ignored:
            return f" (first difference at byte {offset // 2})"
    return None if len(x) == len(y) else f" (lengths {len(x) // 2} vs {len(y) // 2} bytes)"


def _hex(data: bytes) -> str:
    return data.hex().upper()


def _state_differences(theirs: Observation, ours: Observation) -> list[str]:
    details = []
    for key in sorted(set(theirs.state) | set(ours.state)):
        missing = "absent"
        x, y = theirs.state.get(key, missing), ours.state.get(key, missing)
        if x != y:
            details.append(f"{key}: p4c's JSON {x} vs p4sim's {y}")
    return details


def compare_recorded_verdict(real: Recording, ours: Run, statements: list[c.Command]) -> Comparison:
    """p4sim's STF verdict (p4sim's JSON) against the recorded BMv2 one."""
    rc = real.bmv2_stf_rc
    if rc is None:
        return not_comparable(VERDICT, real.source, f"no BMv2 STF result recorded in {real.directory}")
    log = real.bmv2_stf_log
    if rc == BMV2_UNSUPPORTED:
        commands = "; ".join(unsupported_commands(log)) or "(not named in the log)"
        return not_comparable(VERDICT, real.source, "unsupported-by-runner: the recording's BMv2 "
                              f"runner could not run: {commands}")
    if rc not in (BMV2_PASS, BMV2_FAIL):
        return not_comparable(VERDICT, real.source, f"bmv2-stf.rc is {rc}, not 0/1/3")
    theirs = recorded_facts(log) if rc == BMV2_FAIL else []
    if rc == BMV2_FAIL and not theirs:
        theirs = [Fact("other", None, text="FAIL (the log names no failure)")]
    comparison = compare_facts(theirs, ours, real.source)
    stale = stale_facts(theirs, statements)
    if stale:
        comparison.notes.append("the recording expects packets the STF file no longer does, so it "
                                "was made with another version of the test (request a new "
                                "recording): " + "; ".join(f.render() for f in stale))
    return comparison


def compare_facts(theirs: list[Fact], ours: Run, source: str) -> Comparison:
    """Equal when both pass or both fail with the same facts."""
    if ours.result is None:
        return judged(VERDICT, source, [f"p4sim: FAIL, its JSON did not load: {ours.failure}"])
    mine = run_facts(ours.result)
    if not theirs and not mine:
        return judged(VERDICT, source, [])
    verdicts = f"BMv2 {'FAIL' if theirs else 'PASS'}, p4sim {'FAIL' if mine else 'PASS'}"
    only_bmv2 = [f for f in theirs if f not in mine]
    only_p4sim = [f for f in mine if f not in theirs]
    if not only_bmv2 and not only_p4sim:
        return judged(VERDICT, source, [], [f"both fail the same way ({len(mine)} failure(s))"])
    return judged(VERDICT, source, [f"verdict: {verdicts}"]
                  + [f"  only BMv2: {f.render()}" for f in only_bmv2]
                  + [f"  only p4sim: {f.render()}" for f in only_p4sim])


def live_bmv2_facts(real: Recording, p4_path: str, stf_path: str, switch_binary: str) -> list[Fact]:
    """Run the STF file now on a simple_switch_grpc-compatible switch (p4sim-stf's
    ``bmv2`` target) with the live compiler's JSON and P4Info: its failure facts.
    Raises what ``run_stf_test`` raises (TargetUnavailable, ProgramLoadFailed, ...)."""
    from p4sim.stf.cli import run_stf_test
    return run_facts(run_stf_test(p4_path, stf_path, "bmv2", json_path=str(real.json_path),
                                  p4info_path=str(real.p4info_path), switch=switch_binary))
