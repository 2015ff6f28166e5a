"""Every comparison for one program (and its STF test), against each source of the real
toolchain's behaviour: the live tools when found, the recording when there is one."""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from p4sim.conformance import compile_check, stf_check
from p4sim.conformance.live import Toolchain, compile_live
from p4sim.conformance.outcome import Comparison, failed, judged, not_comparable
from p4sim.conformance.p4info_diff import P4InfoParseError, diff_p4info, parse_p4info
from p4sim.conformance.p4sim_build import P4simBuild, build
from p4sim.conformance.recording import Recording, RecordingError, find_recording
from p4sim.stf import commands as c
from p4sim.stf.errors import StfError
from p4sim.stf.stf_parser import parse_stf_file

ACCEPT, WARNINGS, P4INFO = "accept/reject", "warnings", "P4Info"
ASPECTS = (ACCEPT, WARNINGS, P4INFO, stf_check.RUNS, stf_check.VERDICT)


@dataclass
class ProgramReport:
    """One program's comparisons (each naming its source); ``notes`` say what could not
    be compared at all and why."""

    name: str
    program: str
    stf: str | None
    comparisons: list[Comparison] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def of(self, aspect: str) -> list[Comparison]:
        return [x for x in self.comparisons if x.aspect == aspect]

    @property
    def equal(self) -> bool:
        """Everything compared is equal."""
        return all(x.equal for x in self.comparisons if x.compared)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "program": self.program, "stf": self.stf,
                "equal": self.equal, "notes": list(self.notes),
                "comparisons": [x.to_dict() for x in self.comparisons]}


def check_program(p4_path: str, stf_path: str | None, recorded: Path | None,
                  toolchain: Toolchain, name: str | None = None) -> ProgramReport:
    """Compare p4sim with the live toolchain and/or the recording of ``name``."""
    name = name or Path(p4_path).stem
    report = ProgramReport(name, p4_path, stf_path)
    ours = build(p4_path)
    statements, stf_problem = _statements(stf_path)
    our_run = stf_check.run_on_p4sim(ours.bmv2_json, statements) \
        if ours.accepted and ours.bmv2_json is not None and statements is not None else None
    with tempfile.TemporaryDirectory(prefix="p4sim-diff-") as workdir:
        sources = []
        if toolchain.compiler:
            sources.append(compile_live(toolchain.compiler, p4_path, name, Path(workdir)))
        try:
            sources.append(find_recording(name, recorded))
        except RecordingError as exc:
            report.notes.append(str(exc) + (": compared live only" if sources else ": nothing compared"))
        for real in sources:
            try:
                _compare_with(report, real, ours, statements, stf_problem, our_run, toolchain)
            except RecordingError as exc:
                report.comparisons.append(failed("recording", real.source, str(exc)))
    return report


def _statements(stf_path: str | None) -> tuple[list[c.Command] | None, str | None]:
    if stf_path is None:
        return None, "no STF test"
    try:
        return parse_stf_file(stf_path), None
    except StfError as exc:
        return None, f"the STF test cannot run: {exc}"
    except OSError as exc:
        return None, f"{stf_path}: cannot read: {exc.strerror}"


def _compare_with(report: ProgramReport, real: Recording, ours: P4simBuild,
                  statements: list[c.Command] | None, stf_problem: str | None,
                  our_run: stf_check.Run | None, toolchain: Toolchain) -> None:
    add = report.comparisons.append
    add(compile_check.compare_verdict(real, ours))
    add(compile_check.compare_warnings(real, ours))
    both_accept = real.p4c_rc == 0 and ours.accepted
    why_not = (None if both_accept else
               "p4c rejects the program" if real.p4c_rc != 0 and ours.accepted else
               "p4sim rejects the program" if real.p4c_rc == 0 else "both reject the program")
    add(_compare_p4info(real, ours) if why_not is None else not_comparable(P4INFO, real.source, why_not))
    stf_aspects = (stf_check.RUNS, stf_check.VERDICT)
    if statements is None or our_run is None:
        reason = stf_problem or why_not or "p4sim's build gave no JSON"
        for aspect in stf_aspects:
            add(not_comparable(aspect, real.source, reason))
        return
    p4c_json = real.bmv2_json()
    if p4c_json is None:
        add(failed(stf_check.RUNS, real.source, f"{real.json_path}: missing (p4c accepted the program)"))
    else:
        add(stf_check.compare_runs(stf_check.run_on_p4sim(p4c_json, statements), our_run, real.source,
                                   statements))
    if real.source.startswith("live"):
        add(_live_verdict(real, report, our_run, toolchain))
    else:
        add(stf_check.compare_recorded_verdict(real, our_run, statements))


def _compare_p4info(real: Recording, ours: P4simBuild) -> Comparison:
    text = real.p4info_text()
    if text is None:
        return failed(P4INFO, real.source, f"{real.p4info_path}: missing (p4c accepted the program)")
    try:
        theirs = parse_p4info(text, str(real.p4info_path))
        mine = parse_p4info(ours.p4info_text or "", "p4sim's P4Info")
    except P4InfoParseError as exc:
        return failed(P4INFO, real.source, str(exc))
    details, notes = diff_p4info(theirs, mine)
    return judged(P4INFO, real.source, details, notes)


def _live_verdict(real: Recording, report: ProgramReport, our_run: stf_check.Run,
                  toolchain: Toolchain) -> Comparison:
    """The STF test on the live switch with the live compiler's output, against p4sim's run."""
    source = f"live {toolchain.switch}" if toolchain.switch else "live"
    if toolchain.switch is None:
        return not_comparable(stf_check.VERDICT, source, "no live switch (see --switch/$SWITCH): "
                              "the recorded BMv2 verdict is compared instead")
    if not real.json_path.is_file() or not real.p4info_path.is_file():
        return failed(stf_check.VERDICT, source, f"the live compiler wrote no {real.json_path.name} "
                      f"and {real.p4info_path.name} in {real.directory}")
    from p4sim.stf.compile import CompileFailed
    from p4sim.stf.errors import TargetUnavailable
    from p4sim.stf.target import ProgramLoadFailed
    assert report.stf is not None  # the caller has statements
    try:
        facts = stf_check.live_bmv2_facts(real, report.program, report.stf, toolchain.switch)
    except TargetUnavailable as exc:
        return not_comparable(stf_check.VERDICT, source, f"cannot run {toolchain.switch}: {exc}")
    except (ProgramLoadFailed, CompileFailed, StfError, OSError) as exc:
        return failed(stf_check.VERDICT, source, f"{toolchain.switch} could not run the test: {exc}")
    return stf_check.compare_facts(facts, our_run, source)
