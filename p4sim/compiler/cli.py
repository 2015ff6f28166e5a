"""``p4sim-compile``: the command line of p4c-bm2-ss for the p4sim compiler.

Exit codes: 0 success, 1 bad program (located error on stderr), 2 usage error,
3 internal compiler error.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from p4sim.compiler.errors import CompileError
from p4sim.compiler.p4info.errors import P4InfoError

EXIT_OK, EXIT_PROGRAM_ERROR, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
P4INFO_EXTENSIONS = (".txtpb", ".txt", ".bin", ".json")


class _UsageError(Exception):
    pass


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _argument_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(prog="p4sim-compile",
                        description="Compile a P4_16 v1model program to BMv2 JSON and P4Info.")
    p.add_argument("program", metavar="PROGRAM.p4")
    p.add_argument("--arch", default="v1model")
    p.add_argument("--target", default="bmv2")
    p.add_argument("--std", default="p4-16")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]")
    p.add_argument("-o", dest="output", metavar="OUT.json")
    p.add_argument("--p4runtime-files", dest="p4runtime_files", default="",
                   metavar="F1[,F2...]")
    p.add_argument("--p4runtime-format", dest="p4runtime_format", default=None)
    p.add_argument("--Wdisable", nargs="?", const="all", default=None)
    p.add_argument("--Wwarn", nargs="?", const="all", default=None)
    return p


def _defines(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        if not name:
            raise _UsageError(f"bad -D option '{item}'")
        out[name] = value if "=" in item else "1"
    return out


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _argument_parser().parse_args(argv)
        if args.arch != "v1model":
            raise _UsageError(f"unsupported architecture '{args.arch}' (only v1model)")
        defines = _defines(args.defines)
    except _UsageError as error:
        print(f"p4sim-compile: error: {error}", file=sys.stderr)
        print("usage: p4sim-compile [--arch v1model] [-I DIR]... [-D NAME[=VAL]]... "
              "[-o OUT.json] [--p4runtime-files F1[,F2...]] PROGRAM.p4", file=sys.stderr)
        return EXIT_USAGE
    output = args.output
    if output is None:
        output = os.path.splitext(os.path.basename(args.program))[0] + ".json"
    p4info_paths = [p for p in args.p4runtime_files.split(",") if p]
    bad = [p for p in p4info_paths if not p.endswith(P4INFO_EXTENSIONS)]
    if bad:
        print(f"p4sim-compile: error: cannot tell the P4Info format of '{bad[0]}' (use "
              f"{', '.join(P4INFO_EXTENSIONS)})", file=sys.stderr)
        return EXIT_USAGE
    try:
        from p4sim.compiler.driver import compile_program, write_outputs
        result = compile_program(args.program, args.include_dirs, defines)
        if args.Wdisable is None:
            for warning in result.warnings:
                print(warning.render(), file=sys.stderr)
        write_outputs(result, output, p4info_paths)
    except CompileError as error:
        print(error.render(), file=sys.stderr)
        return EXIT_PROGRAM_ERROR
    except P4InfoError as error:
        print(f"{args.program}: error: {error}", file=sys.stderr)
        return EXIT_PROGRAM_ERROR
    except Exception as error:  # noqa: BLE001 - any crash here is a compiler bug
        if os.environ.get("P4SIM_DEBUG") == "1":
            import traceback  # only here: its import is a noticeable share of start-up
            traceback.print_exc()
        print(f"internal compiler error: {type(error).__name__}: {error}\n"
              "This is a bug in p4sim-compile; please report it with the program that "
              "triggered it (set P4SIM_DEBUG=1 for a traceback).", file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
