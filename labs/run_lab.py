"""``python -m labs.run_lab LAB [--solution] [--target p4sim|bmv2] [--verbose]``.

Compiles the lab's exercise (or solution), runs each of its packet tests and says in
plain words what passed, what failed and what to try next. Exit status 0 when every
test passes, 1 when one fails or the program does not compile, 2 for an unknown lab
or a target that cannot run.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import TextIO

from p4sim.stf.cli import run_stf_test
from p4sim.stf.compile import COMPILE_TIMEOUT_S, CompileFailed, chosen_compiler
from p4sim.stf.errors import StfError, TargetUnavailable
from p4sim.stf.target import ProgramLoadFailed
from lab.errors import TargetError
from lab.target import Target

from labs.catalog import Lab, LabTest, UnknownLab, find_lab, lab_names

EXIT_PASS, EXIT_FAIL, EXIT_CANNOT_RUN = 0, 1, 2
TARGETS = ("p4sim", "bmv2")
_SHOWN_PROBLEMS = 2  # failed expectations of a test shown without --verbose


@dataclass(frozen=True)
class LabOutcome:
    test: LabTest
    passed: bool
    report: str


def compile_lab(program: str, workdir: str) -> tuple[str, str, str]:
    """JSON path, P4Info path and compiler warnings of ``program`` ($P4C or
    p4sim-compile); CompileFailed with the compiler's messages."""
    target = Target.from_environment(name="p4sim")  # the compiler only: $P4C, else ours
    command = chosen_compiler(target.compiler if target.compiler_from_env else None)
    json_path = os.path.join(workdir, "program.json")
    p4info_path = os.path.join(workdir, "program.p4info.txtpb")
    try:
        result = subprocess.run([*command, "-o", json_path, "--p4runtime-files", p4info_path, program],
                                capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise CompileFailed(f"{command[0]} took more than {COMPILE_TIMEOUT_S:.0f} s on {program}") from None
    messages = (result.stderr + result.stdout).strip()
    if result.returncode != 0 or not os.path.exists(json_path):
        raise CompileFailed(messages or f"{command[0]} failed (exit {result.returncode})")
    return json_path, p4info_path, messages


def run_tests(lab: Lab, json_path: str, p4info_path: str, program: str, target: str) -> list[LabOutcome]:
    """Each packet test of the lab against the compiled program."""
    outcomes = []
    for test in lab.tests():
        try:
            result = run_stf_test(program, test.path, target, json_path=json_path, p4info_path=p4info_path)
            outcomes.append(LabOutcome(test, result.passed, result.report))
        except (StfError, ProgramLoadFailed) as exc:
            outcomes.append(LabOutcome(test, False, str(exc)))
    return outcomes


def short_report(report: str) -> list[str]:
    """The first failed expectations of an STF report, the count of the others and
    its summary line: enough to see what went wrong without a screenful of hex."""
    blocks: list[list[str]] = []
    for line in report.splitlines():
        if line.startswith(" ") and blocks:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    summary = blocks.pop() if blocks and blocks[-1][0].startswith(("PASS", "FAIL")) else []
    problems = [b for b in blocks if not b[0].endswith(": ok")]
    shown = [line for block in problems[:_SHOWN_PROBLEMS] for line in block]
    if len(problems) > _SHOWN_PROBLEMS:
        shown.append(f"... and {len(problems) - _SHOWN_PROBLEMS} more (--verbose shows every packet)")
    return shown + summary


def describe(lab: Lab, solution: bool, outcomes: list[LabOutcome], out: TextIO, verbose: bool) -> None:
    """The plain-words summary a student reads."""
    which = "solution" if solution else "exercise"
    for outcome in outcomes:
        mark = "PASS" if outcome.passed else "FAIL"
        print(f"  {mark}  {outcome.test.name}: {outcome.test.title}", file=out)
        if not outcome.passed:
            print(f"        hint: {outcome.test.hint}", file=out)
            for line in outcome.report.splitlines() if verbose else short_report(outcome.report):
                print(f"        | {line}", file=out)
    passed = sum(o.passed for o in outcomes)
    print(f"\n{passed} of {len(outcomes)} tests passed on the {which} of lab {lab.name}.", file=out)
    if passed == len(outcomes):
        if solution:
            print("The solution works. Now try the exercise: make lab LAB=" + lab.name, file=out)
        else:
            print(f"Well done: every test passes. Compare your program with labs/{lab.name}/solution.p4, "
                  f"then try the ideas under 'Going further' in labs/{lab.name}/README.md.", file=out)
    else:
        first = next(o for o in outcomes if not o.passed)
        print(f"Next: edit labs/{lab.name}/{which}.p4 (the TODOs), starting with what "
              f"{first.test.name} checks, then run this again.", file=out)


def run_lab(name: str, solution: bool = False, target: str = "p4sim", out: TextIO = sys.stdout,
            verbose: bool = False) -> int:
    """Compile and test one lab, print the summary; returns the exit status."""
    try:
        lab = find_lab(name)
    except UnknownLab as exc:
        print(f"run_lab: {exc}", file=out)
        return EXIT_CANNOT_RUN
    program = lab.program(solution)
    print(f"Lab {lab.name}: compiling {os.path.relpath(program)} and running "
          f"{len(lab.tests())} packet tests on {target}", file=out)
    with tempfile.TemporaryDirectory(prefix=f"lab-{lab.name}-") as workdir:
        try:
            json_path, p4info_path, warnings = compile_lab(program, workdir)
        except CompileFailed as exc:
            print(f"The program does not compile:\n{exc}\nNext: fix the first error above "
                  f"(file:line says where), then run this again.", file=out)
            return EXIT_FAIL
        except TargetUnavailable as exc:
            print(f"run_lab: cannot compile: {exc}", file=out)
            return EXIT_CANNOT_RUN
        if warnings:
            print(f"The compiler said:\n{warnings}", file=out)
        try:
            outcomes = run_tests(lab, json_path, p4info_path, program, target)
        except TargetUnavailable as exc:
            print(f"run_lab: cannot run on {target}: {exc}", file=out)
            return EXIT_CANNOT_RUN
    describe(lab, solution, outcomes, out, verbose)
    return EXIT_PASS if all(o.passed for o in outcomes) else EXIT_FAIL


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m labs.run_lab",
                                     description="Compile one lab and run its packet tests.")
    parser.add_argument("lab", nargs="?", help="the lab's name (a folder of labs/); none: list the labs")
    parser.add_argument("--solution", action="store_true", help="test solution.p4 instead of exercise.p4")
    parser.add_argument("--target", choices=TARGETS,
                        help="p4sim: in this process; bmv2: $SWITCH over P4Runtime "
                             "(default: $TARGET, else p4sim)")
    parser.add_argument("--verbose", action="store_true", help="show every packet of a failing test")
    args = parser.parse_args(argv)
    try:
        target = args.target or Target.from_environment().name
    except TargetError as exc:
        print(f"run_lab: {exc}")
        return EXIT_CANNOT_RUN
    if not args.lab:
        print(f"Which lab? The labs are: {', '.join(lab_names())}. Run one with: make lab LAB=NAME "
              "(add SOLUTION=1 for its solution).")
        return EXIT_CANNOT_RUN
    return run_lab(args.lab, args.solution, target, verbose=args.verbose)


if __name__ == "__main__":
    sys.exit(main())
