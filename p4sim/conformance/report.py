"""The report: one row per program, what differs (where, both values), and the figures."""
from __future__ import annotations

import json
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from p4sim.conformance.outcome import DIFFER, EQUAL, ERROR, NOT_COMPARABLE
from p4sim.conformance.program_check import ACCEPT, ASPECTS, P4INFO, WARNINGS, ProgramReport
from p4sim.conformance.stf_check import RUNS, VERDICT

BRIEF_DETAILS = 6  # per comparison without -v
FIGURES = ((P4INFO, "programs whose P4Info equals p4c's"),
           (VERDICT, "STF files whose results equal the BMv2 results"),
           (RUNS, "p4c-JSON vs p4sim-JSON runs identical"),
           (ACCEPT, "accept/reject agreement"),
           (WARNINGS, "warning counts equal"))
_CELL = MappingProxyType({EQUAL: "equal", DIFFER: "DIFFER", NOT_COMPARABLE: "n/c", ERROR: "ERROR"})
_HEADINGS = MappingProxyType({ACCEPT: "accept", WARNINGS: "warnings", P4INFO: "P4Info", RUNS: "runs",
                              VERDICT: "BMv2"})


@dataclass(frozen=True)
class Figure:
    aspect: str
    label: str
    equal: list[str]
    differ: list[str]
    not_comparable: list[str]

    @property
    def compared(self) -> int:
        return len(self.equal) + len(self.differ)

    def render(self) -> str:
        text = f"{self.label}: {len(self.equal)}/{self.compared}"
        if self.differ:
            text += f"  (differ: {', '.join(self.differ)})"
        if self.not_comparable:
            text += f"  [{len(self.not_comparable)} not comparable]"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {"aspect": self.aspect, "label": self.label, "equal": len(self.equal),
                "compared": self.compared, "differ": self.differ,
                "not_comparable": self.not_comparable}


def aspect_status(report: ProgramReport, aspect: str) -> str:
    """A program's status for one aspect over all its sources: differ if any source
    differs (or errs), equal if all compared ones are, else not comparable."""
    compared = [x for x in report.of(aspect) if x.compared]
    if not compared:
        return NOT_COMPARABLE
    return EQUAL if all(x.equal for x in compared) else DIFFER


def figures(reports: list[ProgramReport]) -> list[Figure]:
    result = []
    for aspect, label in FIGURES:
        by_status: dict[str, list[str]] = {EQUAL: [], DIFFER: [], NOT_COMPARABLE: []}
        for report in reports:
            by_status[aspect_status(report, aspect)].append(report.name)
        result.append(Figure(aspect, label, by_status[EQUAL], by_status[DIFFER],
                             by_status[NOT_COMPARABLE]))
    return result


def render_row(report: ProgramReport, width: int) -> str:
    cells = []
    for aspect in ASPECTS:
        statuses = {x.status for x in report.of(aspect)}
        status = ERROR if ERROR in statuses else aspect_status(report, aspect)
        cells.append(f"{_CELL[status]:<8}")
    row = f"{report.name:<{width}} " + " ".join(cells).rstrip()
    broken = sorted({x.aspect for x in report.comparisons if x.aspect not in ASPECTS})
    return row + (f"  ERROR in {', '.join(broken)}" if broken else "")


def render_header(width: int) -> str:
    return f"{'program':<{width}} " + " ".join(f"{_HEADINGS[a]:<8}" for a in ASPECTS).rstrip()


def render_details(report: ProgramReport, verbose: bool) -> list[str]:
    """What differs, per comparison and source; with ``verbose`` everything, notes too."""
    lines = [f"  note: {note}" for note in report.notes]
    for comparison in report.comparisons:
        if not verbose and (comparison.equal or not comparison.compared):
            continue
        lines.append(f"  {comparison.aspect} [{comparison.source}]: {comparison.status}")
        details = comparison.details if verbose else comparison.details[:BRIEF_DETAILS]
        lines.extend(f"    {d}" for d in details)
        if len(details) < len(comparison.details):
            lines.append(f"    ... {len(comparison.details) - len(details)} more (-v shows all)")
        if verbose or comparison.status == DIFFER:
            lines.extend(f"    note: {n}" for n in comparison.notes)
    return lines


def render_text(reports: list[ProgramReport], sources: list[str], verbose: bool) -> str:
    width = max([len("program")] + [len(r.name) for r in reports])
    lines = [f"real toolchain: {s}" for s in sources]
    lines.append(render_header(width))
    for report in reports:
        lines.append(render_row(report, width))
        lines.extend(render_details(report, verbose))
    lines.append("")
    lines.extend(f.render() for f in figures(reports))
    return "\n".join(lines)


def render_json(reports: list[ProgramReport], sources: list[str]) -> str:
    return json.dumps({"sources": sources,
                       "figures": [f.to_dict() for f in figures(reports)],
                       "programs": [r.to_dict() for r in reports]}, indent=2)
