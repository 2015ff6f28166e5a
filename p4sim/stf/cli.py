"""``p4sim-stf PROGRAM.p4 TEST.stf [--target p4sim|bmv2|bmv2-thrift] [--json PREBUILT.json
[--p4info PREBUILT.p4info.txtpb]] [--switch BINARY] [--p4c COMPILER]``.

Targets: ``p4sim`` runs the switch in this process; ``bmv2`` runs a
simple_switch_grpc-compatible switch ($SWITCH or --switch, default simple_switch_grpc;
p4sim-switch works too) in a private namespace and configures it over P4Runtime,
compiling with $P4C or --p4c (default p4sim-compile); ``bmv2-thrift`` runs BMv2's
``simple_switch`` through simple_switch_CLI (BMv2's only way to reach registers).

Exit status: 0 when every expectation is met and nothing unexpected came out, 1 when
the test fails (or the program does not compile), 2 when the test cannot run (bad
STF file, unreadable input, a missing binary).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from typing import Any

from google.protobuf import json_format, text_format
from google.protobuf.message import DecodeError
from p4.config.v1 import p4info_pb2

from control.p4rt.entities import load_p4info
from lab import target as lab_target

from p4sim.stf.commands import Expect, SendPacket
from p4sim.stf.compile import CompileFailed, chosen_compiler, compile_for_p4runtime, compile_program
from p4sim.stf.errors import StfError, TargetUnavailable
from p4sim.stf.pcap_ports import needs_files
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.runner import StfResult, run_statements, stf_ports
from p4sim.stf.stf_parser import parse_stf_file
from p4sim.stf.target import ProgramLoadFailed, Target

EXIT_PASS, EXIT_FAIL, EXIT_CANNOT_RUN = 0, 1, 2
TARGETS = ("p4sim", "bmv2", "bmv2-thrift")
DEFAULT_GRPC_SWITCH = lab_target.BMV2_SWITCH
P4INFO_SUFFIXES = (".p4info.txtpb", ".p4info.txt", ".p4info.bin", ".p4info.json")


def run_stf_test(p4_path: str, stf_path: str, target: str = "p4sim",
                 json_path: str | None = None, p4info_path: str | None = None,
                 switch: str | None = None, compiler: str | None = None) -> StfResult:
    """Compile (unless given JSON), run the STF file on the target, and judge it.

    ``p4info_path``, ``switch`` and ``compiler`` are for ``bmv2`` (defaults: the file
    beside the JSON, $SWITCH, $P4C). Raises StfError (bad STF file or input),
    CompileFailed, ProgramLoadFailed, TargetUnavailable or OSError.
    """
    statements = parse_stf_file(stf_path)
    if target == "bmv2":
        return _run_on_p4runtime(p4_path, statements, json_path, p4info_path, switch, compiler)
    program = _load_json(json_path) if json_path else compile_program(p4_path, target)
    info = ProgramInfo(program)
    switch_target = _make_target(target, program, info, stf_ports(statements))
    try:
        return run_statements(info, statements, switch_target)
    finally:
        switch_target.close()


def _run_on_p4runtime(p4_path: str, statements: list[Any], json_path: str | None,
                      p4info_path: str | None, switch: str | None, compiler: str | None) -> StfResult:
    from p4sim.stf.grpc_target import GrpcTarget
    # $SWITCH, else the bmv2 target's switch whatever TARGET says: --target bmv2 chose it.
    binary = switch or lab_target.Target.from_environment(name="bmv2").switch
    with tempfile.TemporaryDirectory(prefix="p4sim-stf-") as workdir:
        if json_path:
            with open(json_path, encoding="utf-8") as handle:
                json_text = handle.read()
            p4info_path = p4info_path or _p4info_beside(json_path)
        else:
            compiled = compile_for_p4runtime(p4_path, chosen_compiler(compiler), workdir)
            json_text, p4info_path = compiled.json_text, compiled.p4info_path
        program = _parse_json(json_text, json_path or "the compiler's JSON")
        info = ProgramInfo(program)
        packets = [(s.port, s.data) for s in statements if isinstance(s, SendPacket)]
        commands = sum(1 for s in statements if not isinstance(s, (SendPacket, Expect)))
        switch_target = GrpcTarget(json_text, _load_p4info(p4info_path), info, stf_ports(statements),
                                   binary, packets=packets, commands=commands,
                                   files=needs_files(statements))
        try:
            return run_statements(info, statements, switch_target)
        finally:
            switch_target.close()


def _make_target(target: str, program: dict[str, Any], info: ProgramInfo, ports: list[int]) -> Target:
    if target == "bmv2-thrift":
        from p4sim.stf.bmv2_target import Bmv2Target
        return Bmv2Target(program, ports)
    from p4sim.stf.p4sim_target import P4simTarget
    return P4simTarget(program, info)


def _load_json(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        return _parse_json(handle.read(), path)


def _parse_json(text: str, where: str) -> dict[str, Any]:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise StfError(None, f"{where}: not valid JSON: {exc}") from None


def _p4info_beside(json_path: str) -> str:
    """``X.p4info.txtpb`` (or .txt/.bin/.json) next to ``X.json``, as p4c names them."""
    stem = json_path[: -len(".json")] if json_path.endswith(".json") else json_path
    for suffix in P4INFO_SUFFIXES:
        if os.path.exists(stem + suffix):
            return stem + suffix
    raise StfError(None, f"{json_path}: --target bmv2 needs the program's P4Info too: pass "
                         f"--p4info FILE (none of {', '.join(os.path.basename(stem) + s for s in P4INFO_SUFFIXES)} "
                         "is beside the JSON)")


def _load_p4info(path: str) -> p4info_pb2.P4Info:
    """The P4Info file (any of p4c's --p4runtime-files formats); StfError if unreadable."""
    try:
        return load_p4info(path)
    except (text_format.ParseError, json_format.ParseError, DecodeError, UnicodeDecodeError) as exc:
        raise StfError(None, f"{path}: not a P4Info: {exc}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="p4sim-stf", description="Run a p4c STF test on p4sim or BMv2.")
    parser.add_argument("program", help="the P4 program (PROGRAM.p4)")
    parser.add_argument("stf", help="the STF test (TEST.stf)")
    parser.add_argument("--target", choices=TARGETS, default="p4sim",
                        help="p4sim: in this process; bmv2: $SWITCH (simple_switch_grpc or p4sim-switch) "
                             "over P4Runtime; bmv2-thrift: simple_switch through simple_switch_CLI")
    parser.add_argument("--json", metavar="PREBUILT.json", help="use this BMv2 JSON instead of compiling")
    parser.add_argument("--p4info", metavar="PREBUILT.p4info.txtpb",
                        help="--target bmv2 with --json: the P4Info (default: the file beside the JSON)")
    parser.add_argument("--switch", metavar="BINARY",
                        help=f"--target bmv2: the switch (default $SWITCH, else {DEFAULT_GRPC_SWITCH})")
    parser.add_argument("--p4c", metavar="COMPILER",
                        help="--target bmv2: the compiler (default $P4C, else p4sim-compile)")
    args = parser.parse_args(argv)
    try:
        result = run_stf_test(args.program, args.stf, args.target, args.json, args.p4info,
                              args.switch, args.p4c)
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
