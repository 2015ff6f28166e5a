"""``p4sim-diff``: compare p4sim with the real toolchain, program by program.

    p4sim-diff PROGRAM.p4 [--stf X.stf] [--recorded DIR]
    p4sim-diff --corpus tests/corpus [--recorded tests/real_toolchain/project]

Exit status: 0 when everything compared is equal, 1 when something differs, 2 when
the inputs are unusable (no such program, bad options).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from p4sim.conformance.live import Toolchain, find_toolchain
from p4sim.conformance.outcome import failed
from p4sim.conformance.program_check import ProgramReport, check_program
from p4sim.conformance.recording import default_recordings
from p4sim.conformance.report import render_json, render_text

EXIT_EQUAL, EXIT_DIFFER, EXIT_USAGE = 0, 1, 2
FABRIC = Path(__file__).resolve().parents[2] / "p4src" / "fabric.p4"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="p4sim-diff", description=(
        "Compare p4sim (compiler, switch) with the real toolchain: live when installed, "
        "else its recording."))
    p.add_argument("program", nargs="?", metavar="PROGRAM.p4")
    p.add_argument("--stf", metavar="X.stf", help="the program's STF test (default: X.stf beside it)")
    p.add_argument("--corpus", metavar="DIR",
                   help="every DIR/*.p4 (with DIR/*.stf), plus p4src/fabric.p4")
    p.add_argument("--no-fabric", action="store_true", help="with --corpus: leave p4src/fabric.p4 out")
    p.add_argument("--recorded", metavar="DIR", type=Path,
                   help=f"the recording (a folder of <name>/ folders, or one program's folder; "
                        f"default {default_recordings()})")
    p.add_argument("--p4c", metavar="COMPILER",
                   help="compile live with this p4c-bm2-ss-compatible compiler")
    p.add_argument("--switch", metavar="SWITCH", help="run STF live on this simple_switch_grpc")
    p.add_argument("--json", action="store_true", help="print a machine-readable report")
    p.add_argument("-v", "--verbose", action="store_true", help="full diffs and notes")
    return p


def _programs(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    """(program, STF or None) pairs; raises FileNotFoundError naming what is missing."""
    if args.corpus:
        corpus = Path(args.corpus)
        if not corpus.is_dir():
            raise FileNotFoundError(f"--corpus {corpus}: not a directory")
        found = sorted(corpus.glob("*.p4"))
        if not found:
            raise FileNotFoundError(f"--corpus {corpus}: no .p4 files")
        if not args.no_fabric and FABRIC.is_file():
            found.append(FABRIC)
        return [(str(p), _beside(p)) for p in found]
    program = Path(args.program)
    if not program.is_file():
        raise FileNotFoundError(f"{program}: no such program")
    stf = args.stf or _beside(program)
    if stf and not Path(stf).is_file():
        raise FileNotFoundError(f"--stf {stf}: no such file")
    return [(str(program), stf)]


def _beside(program: Path) -> str | None:
    """The program's STF test: X.stf next to X.p4, when there is one."""
    stf = program.with_suffix(".stf")
    return str(stf) if stf.is_file() else None


def _checked(program: str, stf: str | None, recorded: Path | None,
             toolchain: Toolchain) -> ProgramReport:
    """One program's report; a crash of p4sim while checking it is reported as such
    (with its type and message) instead of ending a batch run."""
    try:
        return check_program(program, stf, recorded, toolchain)
    except Exception as exc:  # noqa: BLE001 - p4sim crashing on a program is a finding
        report = ProgramReport(Path(program).stem, program, stf)
        report.comparisons.append(failed("harness", "p4sim", f"p4sim crashed while checking "
                                         f"{program}: {type(exc).__name__}: {exc}"))
        return report


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if bool(args.program) == bool(args.corpus):
        parser.print_usage(sys.stderr)
        print("p4sim-diff: error: give either PROGRAM.p4 or --corpus DIR", file=sys.stderr)
        return EXIT_USAGE
    try:
        programs = _programs(args)
        toolchain = find_toolchain(args.p4c, args.switch)
    except FileNotFoundError as exc:
        print(f"p4sim-diff: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    recorded = args.recorded
    sources = list(toolchain.notes) + [f"recording: {recorded or default_recordings()}"]
    reports: list[ProgramReport] = []
    for number, (program, stf) in enumerate(programs, 1):
        if len(programs) > 1:
            print(f"[{number}/{len(programs)}] {Path(program).stem}", file=sys.stderr, flush=True)
        reports.append(_checked(program, stf, recorded, toolchain))
    print(render_json(reports, sources) if args.json else render_text(reports, sources, args.verbose))
    return EXIT_EQUAL if all(r.equal for r in reports) else EXIT_DIFFER


if __name__ == "__main__":
    sys.exit(main())
