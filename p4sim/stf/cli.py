"""``p4sim-stf PROGRAM.p4 TEST.stf [--target p4sim|bmv2] [--json PREBUILT.json]``.

Exit status: 0 when every expectation is met and nothing unexpected came out, 1 when
the test fails (or the program does not compile), 2 when the test cannot run (bad
STF file, unreadable input, a missing BMv2 binary).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from p4sim.stf.compile import CompileFailed, compile_program
from p4sim.stf.errors import StfError, TargetUnavailable
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.runner import StfResult, run_statements, stf_ports
from p4sim.stf.stf_parser import parse_stf_file
from p4sim.stf.target import ProgramLoadFailed, Target

EXIT_PASS, EXIT_FAIL, EXIT_CANNOT_RUN = 0, 1, 2


def run_stf_test(p4_path: str, stf_path: str, target: str = "p4sim",
                 json_path: str | None = None) -> StfResult:
    """Compile (unless given JSON), run the STF file on the target, and judge it.

    Raises StfError (bad STF file), CompileFailed, ProgramLoadFailed, TargetUnavailable
    or OSError.
    """
    statements = parse_stf_file(stf_path)
    program = _load_json(json_path) if json_path else compile_program(p4_path, target)
    info = ProgramInfo(program)
    switch = _make_target(target, program, info, stf_ports(statements))
    try:
        return run_statements(info, statements, switch)
    finally:
        switch.close()


def _make_target(target: str, program: dict[str, Any], info: ProgramInfo, ports: list[int]) -> Target:
    if target == "bmv2":
        from p4sim.stf.bmv2_target import Bmv2Target
        return Bmv2Target(program, ports)
    from p4sim.stf.p4sim_target import P4simTarget
    return P4simTarget(program, info)


def _load_json(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        try:
            return json.load(handle)
        except json.JSONDecodeError as exc:
            raise StfError(None, f"{path}: not valid JSON: {exc}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="p4sim-stf", description="Run a p4c STF test on p4sim or BMv2.")
    parser.add_argument("program", help="the P4 program (PROGRAM.p4)")
    parser.add_argument("stf", help="the STF test (TEST.stf)")
    parser.add_argument("--target", choices=("p4sim", "bmv2"), default="p4sim")
    parser.add_argument("--json", metavar="PREBUILT.json", help="use this BMv2 JSON instead of compiling")
    args = parser.parse_args(argv)
    try:
        result = run_stf_test(args.program, args.stf, args.target, args.json)
    except StfError as exc:
        print(exc, file=sys.stderr)
        return EXIT_CANNOT_RUN
    except TargetUnavailable as exc:
        print(f"p4sim-stf: cannot run on {args.target}: {exc}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    except OSError as exc:
        print(f"p4sim-stf: {exc}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    except (CompileFailed, ProgramLoadFailed) as exc:
        print(f"p4sim-stf: FAIL: {exc}", file=sys.stderr)
        return EXIT_FAIL
    print(result.report)
    return EXIT_PASS if result.passed else EXIT_FAIL


if __name__ == "__main__":
    sys.exit(main())
