"""Comparison 1: does p4sim accept and reject what p4c does, with the error at the same
place, and warn as often?"""
from __future__ import annotations

from pathlib import Path

from p4sim.conformance import p4c_messages
from p4sim.conformance.outcome import Comparison, judged
from p4sim.conformance.p4sim_build import P4simBuild
from p4sim.conformance.recording import Recording


def _verdict(accepted: bool) -> str:
    return "accepts" if accepted else "rejects"


def compare_verdict(real: Recording, ours: P4simBuild) -> Comparison:
    """Accept/reject and, when both reject, the file and line of the first error."""
    p4c_accepts = real.p4c_rc == 0
    details = []
    if p4c_accepts != ours.accepted:
        details.append(f"verdict: p4c {_verdict(p4c_accepts)} (exit {real.p4c_rc}) vs p4sim "
                       f"{_verdict(ours.accepted)}")
        if not ours.accepted:
            details.extend(f"  p4sim: {line}" for line in ours.errors[0].splitlines()[:3])
        else:
            details.extend(f"  p4c: {e.where()}: error: {e.message}"
                           for e in p4c_messages.errors(real.p4c_stderr)[:3])
    elif not p4c_accepts:
        details.extend(_location_difference(real, ours))
    return judged("accept/reject", real.source, details)


def _location_difference(real: Recording, ours: P4simBuild) -> list[str]:
    p4c_errors = [e for e in p4c_messages.errors(real.p4c_stderr) if e.file]
    if not p4c_errors or ours.error_location is None:
        return []  # one side gives no location: nothing to compare
    first = p4c_errors[0]
    ours_file, ours_line = ours.error_location
    if Path(first.file or "").name == Path(ours_file).name and first.line == ours_line:
        return []
    return [f"first error location: p4c {first.where()} vs p4sim {ours_file}:{ours_line}",
            f"  p4c: error: {first.message}",
            f"  p4sim: {ours.errors[0].splitlines()[0]}"]


def compare_warnings(real: Recording, ours: P4simBuild) -> Comparison:
    """How many warnings each prints (p4sim-compile, like p4c, prints them on stderr)."""
    p4c_warnings = p4c_messages.warnings(real.p4c_stderr)
    details = []
    if len(p4c_warnings) != len(ours.warnings):
        details.append(f"warnings: p4c {len(p4c_warnings)} vs p4sim {len(ours.warnings)}")
        details.extend(f"  p4c: {w.where()}: warning: {w.message}" for w in p4c_warnings)
        details.extend(f"  p4sim: {w}" for w in ours.warnings)
    return judged("warnings", real.source, details)
