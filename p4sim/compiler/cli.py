"""``p4sim-compile``: the command line of p4c-bm2-ss for the p4sim compiler.

Every option of p4c-bm2-ss's --help is accepted with its syntax (``--Wdisable`` and
``--disable-annotations`` take a value only as ``--X=VALUE``, ``-O`` only attached,
``-O2``), and also p4c's ``--p4v 14|16``.  Options p4sim cannot act on (compiler
debugging, pass lists, IR dumps, ``-O``...) are ignored with one note each on stderr.

Exit codes: 0 success, 1 bad program (located error on stderr), 2 usage error,
3 internal compiler error.
"""
from __future__ import annotations

import argparse
import gc
import os
import re
import sys
from typing import Sequence

from p4sim.compiler.errors import CompileError
from p4sim.compiler.p4info.errors import P4InfoError
from p4sim.version import package_version

EXIT_OK, EXIT_PROGRAM_ERROR, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
P4INFO_EXTENSIONS = (".txtpb", ".txt", ".bin", ".json")
USAGE = ("usage: p4sim-compile [--arch v1model] [-I DIR]... [-D NAME[=VAL]]... [-U NAME]... "
         "[-E | -M] [-o OUT.json] [--p4runtime-files F1[,F2...]] PROGRAM.p4")
# Options whose value is optional and, as in p4c, only given attached (--X=VALUE).
OPTIONAL_VALUE = ("--Wdisable", "--Winfo", "--Wwarn", "--Werror", "--disable-annotations")
# dest -> why it has no effect on p4sim.
NO_EFFECT = {
    "disable_annotations": "p4sim does not ignore annotations by name",
    "log_files": "p4sim has no per-file compiler logs",
    "verbose": "p4sim has no compiler debugging output",
    "top4": "p4sim has no named passes to dump after",
    "dump": "p4sim has no named passes to dump after",
    "parser_inline_opt": "p4sim inlines subparsers its own way",
    "no_emit_includes": "p4sim has no compiler debugging output",
    "exclude_frontend_passes": "p4sim has no named passes",
    "list_frontend_passes": "p4sim has no named passes",
    "exclude_midend_passes": "p4sim has no named passes",
    "list_midend_passes": "p4sim has no named passes",
    "to_json": "p4sim has no IR to dump",
    "from_json": "p4sim has no IR to read back; it compiles PROGRAM.p4",
    "ndebug": "p4sim's BMv2 JSON is the same in both modes",
    "test_json": "p4sim has no IR to dump",
    "p4runtime_entries_file": "p4sim writes no static-entries WriteRequest",
    "p4runtime_entries_files": "p4sim writes no static-entries WriteRequest",
    "loops_unroll": "p4sim does not unroll parser loops",
    "optimize": "p4sim has no optimization levels",
    "emit_externs": "p4sim emits no user externs",
    "missing_headers_ok": "p4sim reports a missing header as an error",
}


class _UsageError(Exception):
    pass


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _argument_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(prog="p4sim-compile", allow_abbrev=False,
                        description="Compile a P4_16 v1model program to BMv2 JSON and "
                                    "P4Info, as p4c-bm2-ss does.  Options marked "
                                    "'no effect' are accepted and ignored, with a note.")
    p.add_argument("program", nargs="?", metavar="PROGRAM.p4")
    p.add_argument("--version", action="store_true", help="print the compiler version")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="include path")
    p.add_argument("-D", dest="macros", action="append", default=[], metavar="NAME[=VAL]",
                   type=lambda v: ("D", v), help="define a macro")
    p.add_argument("-U", dest="macros", action="append", metavar="NAME",
                   type=lambda v: ("U", v), help="undefine a macro")
    p.add_argument("-E", dest="preprocess_only", action="store_true",
                   help="preprocess only; print the program on stdout")
    p.add_argument("-M", dest="deps_only", action="store_true",
                   help="print a make dependency rule only")
    p.add_argument("-MD", dest="deps_side", action="store_true",
                   help="write a make dependency rule to a file too (-MF, else OUT.d)")
    p.add_argument("-MF", dest="deps_file", metavar="FILE",
                   help="the file for the dependency rule")
    p.add_argument("-MG", dest="missing_headers_ok", action="store_true", default=None,
                   help="no effect on p4sim")
    p.add_argument("-MP", dest="deps_phony", action="store_true",
                   help="add a phony target per dependency")
    p.add_argument("-MT", dest="deps_targets", action="append", default=[], metavar="TARGET",
                   type=lambda v: (v, False), help="target of the dependency rule")
    p.add_argument("-MQ", dest="deps_targets", action="append", metavar="TARGET",
                   type=lambda v: (v, True), help="like -MT, quoting make's special characters")
    p.add_argument("--std", choices=("p4-14", "p4-16"), default="p4-16")
    p.add_argument("--p4v", choices=("14", "16"), default=None,
                   help="p4c's older spelling of --std (14 or 16)")
    p.add_argument("--nocpp", action="store_true",
                   help="do not preprocess (the file is preprocessed already)")
    p.add_argument("--disable-annotations", nargs="?", const="", default=None,
                   metavar="A[,A...]", help="no effect on p4sim")
    for flag, text in (("--Wdisable", "disable all warnings (a named diagnostic: no effect)"),
                       ("--Winfo", "named diagnostics: no effect"),
                       ("--Wwarn", "named diagnostics: no effect (p4sim has no info messages)"),
                       ("--Werror", "treat all warnings as errors (a named diagnostic: "
                                    "no effect)")):
        p.add_argument(flag, action="append", nargs="?", const="", default=[],
                       metavar="DIAGNOSTIC", help=text)
    p.add_argument("--maxErrorCount", dest="max_error_count", type=int, default=None,
                   metavar="N", help="p4sim stops at the first error")
    p.add_argument("-T", dest="log_files", action="append", default=None, metavar="LOGLEVEL",
                   help="no effect on p4sim")
    p.add_argument("-v", dest="verbose", action="count", default=None, help="no effect on p4sim")
    p.add_argument("--top4", metavar="PASS[,PASS]", help="no effect on p4sim")
    p.add_argument("--dump", metavar="FOLDER", help="no effect on p4sim")
    p.add_argument("--parser-inline-opt", action="store_true", default=None,
                   help="no effect on p4sim")
    p.add_argument("--doNotEmitIncludes", dest="no_emit_includes", metavar="CONDITION",
                   help="no effect on p4sim")
    p.add_argument("--excludeFrontendPasses", dest="exclude_frontend_passes",
                   metavar="PASS[,PASS]", help="no effect on p4sim")
    p.add_argument("--listFrontendPasses", dest="list_frontend_passes", action="store_true",
                   default=None, help="no effect on p4sim (no passes to list)")
    p.add_argument("--excludeMidendPasses", dest="exclude_midend_passes",
                   metavar="PASS[,PASS]", help="no effect on p4sim")
    p.add_argument("--toJSON", dest="to_json", metavar="FILE", help="no effect on p4sim")
    p.add_argument("--ndebug", action="store_true", default=None, help="no effect on p4sim")
    p.add_argument("--testJson", dest="test_json", action="store_true", default=None,
                   help="no effect on p4sim")
    p.add_argument("--pp", metavar="FILE", help="pretty-print the program to FILE")
    p.add_argument("--p4runtime-file", dest="p4runtime_file", metavar="FILE",
                   help="P4Info to FILE in --p4runtime-format (deprecated)")
    p.add_argument("--p4runtime-entries-file", dest="p4runtime_entries_file", metavar="FILE",
                   help="no effect on p4sim")
    p.add_argument("--p4runtime-files", dest="p4runtime_files", default="",
                   metavar="F1[,F2...]", help="P4Info files, format from the suffix")
    p.add_argument("--p4runtime-entries-files", dest="p4runtime_entries_files",
                   metavar="F1[,F2...]", help="no effect on p4sim")
    p.add_argument("--p4runtime-format", dest="p4runtime_format", default="binary",
                   choices=("binary", "json", "text"),
                   help="format for --p4runtime-file (deprecated; default binary)")
    p.add_argument("--target", default="bmv2")
    p.add_argument("--arch", default="v1model")
    p.add_argument("--loopsUnroll", dest="loops_unroll", action="store_true", default=None,
                   help="no effect on p4sim")
    p.add_argument("--p4sim-optimize", dest="optimize", default=None, help=argparse.SUPPRESS)
    p.add_argument("--emit-externs", action="store_true", default=None, help="no effect on p4sim")
    p.add_argument("-o", dest="output", metavar="OUT.json")
    p.add_argument("--fromJSON", dest="from_json", metavar="FILE", help="no effect on p4sim")
    p.add_argument("--listMidendPasses", dest="list_midend_passes", action="store_true",
                   default=None, help="no effect on p4sim (no passes to list)")
    p.epilog = "-O[LEVEL]: optimization level (no effect on p4sim)."
    return p


def _normalize(argv: Sequence[str]) -> list[str]:
    """p4c's syntax in argparse's terms: a bare ``--Wdisable`` (no ``=``) has no value,
    and ``-O``/``-O2`` is an option with an attached, optional level."""
    out = []
    for word in argv:
        if word in OPTIONAL_VALUE:
            out.append(word + "=")
        elif re.fullmatch(r"-O\d*", word):
            out.append("--p4sim-optimize=" + (word[2:] or "1"))
        else:
            out.append(word)
    return out


def _defines(items: list[tuple[str, str]]) -> dict[str, str]:
    """-D and -U in command-line order (a later -U NAME removes an earlier -D NAME)."""
    out: dict[str, str] = {}
    for kind, item in items:
        name, _, value = item.partition("=")
        if not name or (kind == "U" and "=" in item):
            raise _UsageError(f"bad -{kind} option '{item}'")
        if kind == "U":
            out.pop(name, None)
        else:
            out[name] = value if "=" in item else "1"
    return out


def _make_quote(target: str) -> str:
    """-MQ: quote the characters make treats specially, as cpp does."""
    return target.replace("$", "$$").replace(" ", "\\ ").replace("#", "\\#")


def _dependency_rule(args: argparse.Namespace, files: list[str]) -> str:
    targets = [(_make_quote(t) if quoted else t) for t, quoted in args.deps_targets]
    if not targets:
        targets = [os.path.splitext(os.path.basename(args.program))[0] + ".o"]
    lines = [f"{' '.join(targets)}: {' '.join(files)}"]
    if args.deps_phony:
        lines += [f"\n{name}:" for name in files[1:]]
    return "\n".join(lines) + "\n"


def _notes(args: argparse.Namespace) -> list[str]:
    lines = []
    for dest, why in NO_EFFECT.items():
        if getattr(args, dest) not in (None, False):
            if dest == "optimize":
                flag = "-O"
            else:
                flag = next(a.option_strings[0] for a in _argument_parser()._actions
                            if a.dest == dest)
            lines.append(f"p4sim-compile: note: {flag} has no effect on p4sim ({why})")
    for flag, values in (("--Wdisable", args.Wdisable), ("--Winfo", args.Winfo),
                         ("--Wwarn", args.Wwarn), ("--Werror", args.Werror)):
        named = sorted({v for v in values if v})
        if named:
            lines.append(f"p4sim-compile: note: {flag}={','.join(named)} has no effect on "
                         f"p4sim (its warnings carry no p4c diagnostic names)")
    if args.p4runtime_files and args.p4runtime_file:
        lines.append("p4sim-compile: note: --p4runtime-file and --p4runtime-files: "
                     "both are written")
    return lines


def _version() -> str:
    return f"p4sim-compile\nVersion {package_version()} (p4sim; p4c-bm2-ss command line)"


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # a process of its own (not a caller's): one short run building a
        # large acyclic tree, which the cyclic collector would walk over and over for
        # nothing (about 5% of fabric.p4's compile)
        gc.freeze()
        gc.set_threshold(100_000, 20, 20)
    try:
        args = _argument_parser().parse_args(_normalize(sys.argv[1:] if argv is None else argv))
        if args.version:
            print(_version())
            return EXIT_OK
        for line in _notes(args):
            print(line, file=sys.stderr)
        if args.list_frontend_passes or args.list_midend_passes:
            return EXIT_OK
        if args.program is None:
            raise _UsageError("no PROGRAM.p4 given")
        if args.std == "p4-14" or args.p4v == "14":
            raise _UsageError("P4_14 programs are not supported (only --std p4-16)")
        if args.arch != "v1model":
            raise _UsageError(f"unsupported architecture '{args.arch}' (only v1model)")
        if args.max_error_count is not None and args.max_error_count < 0:
            raise _UsageError("--maxErrorCount must not be negative")
        defines = _defines(args.macros)
    except _UsageError as error:
        print(f"p4sim-compile: error: {error}", file=sys.stderr)
        print(USAGE, file=sys.stderr)
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
    warnings_off = "" in args.Wdisable
    warnings_are_errors = "" in args.Werror and not warnings_off
    try:
        from p4sim.compiler import driver
        if args.preprocess_only or args.deps_only or args.deps_side:
            text, files = driver.preprocess_source(args.program, args.include_dirs, defines)
            if args.deps_only or args.deps_side:
                rule = _dependency_rule(args, files)
                deps_file = args.deps_file
                if deps_file is None and args.deps_side and not args.deps_only:
                    deps_file = os.path.splitext(output)[0] + ".d"
                if deps_file:
                    with open(deps_file, "w", encoding="utf-8") as out:
                        out.write(rule)
                else:
                    sys.stdout.write(rule)
            if args.preprocess_only and not args.deps_only:
                sys.stdout.write(text)
            if args.preprocess_only or args.deps_only:
                return EXIT_OK
        if args.pp:
            from p4sim.compiler.unparse import unparse
            tree = driver.parse_source(args.program, args.include_dirs, defines,
                                       not args.nocpp)
            with open(args.pp, "w", encoding="utf-8") as out:
                out.write(unparse(tree) + "\n")
        result = driver.compile_program(args.program, args.include_dirs, defines,
                                        preprocess=not args.nocpp)
        if not warnings_off:
            for warning in result.warnings:
                text = warning.render()
                if warnings_are_errors:
                    text = text.replace(": warning: ", ": error: ", 1)
                print(text, file=sys.stderr)
        if warnings_are_errors and result.warnings:
            return EXIT_PROGRAM_ERROR
        driver.write_outputs(result, output, p4info_paths)
        if args.p4runtime_file:
            driver.write_p4info_as(result, args.p4runtime_file, args.p4runtime_format)
    except CompileError as error:
        print(error.render(), file=sys.stderr)
        return EXIT_PROGRAM_ERROR
    except P4InfoError as error:
        print(f"{args.program}: error: {error}", file=sys.stderr)
        return EXIT_PROGRAM_ERROR
    except OSError as error:
        print(f"p4sim-compile: error: {error.filename}: {error.strerror}", file=sys.stderr)
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
