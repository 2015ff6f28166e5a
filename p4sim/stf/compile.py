"""Compile the program under test with p4sim-compile or p4c-bm2-ss (a subprocess).

The P4Runtime targets need the P4Info too: ``compile_for_p4runtime`` asks the compiler
for both files in one run (``--p4runtime-files``, which both compilers take).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

from p4sim.stf.errors import TargetUnavailable

COMPILE_TIMEOUT_S = 120.0


class CompileFailed(Exception):
    """The compiler rejected the program (or crashed); the message holds its output."""


def compiler_command(target: str) -> list[str]:
    """The compiler for a target: our own next to this Python, or p4c-bm2-ss from PATH."""
    if target == "bmv2-thrift":
        path = shutil.which("p4c-bm2-ss")
        if path is None:
            raise TargetUnavailable("--target bmv2-thrift needs p4c-bm2-ss on PATH to compile "
                                    "(not found; pass --json PREBUILT.json instead)")
        return [path]
    return own_compiler()


def chosen_compiler(compiler: str | None) -> list[str]:
    """The P4Runtime targets' compiler: ``compiler`` (a name on PATH or a path), else
    $P4C as the Makefile exports it, else p4sim-compile."""
    chosen = compiler or os.environ.get("P4C")
    if not chosen:
        return own_compiler()
    path = shutil.which(chosen)
    if path is None:
        source = "--p4c" if compiler else "$P4C"
        raise TargetUnavailable(f"compiler {chosen!r} ({source}) is not an executable on PATH "
                                "(pass --json PREBUILT.json and --p4info PREBUILT.p4info.txtpb instead)")
    return [path]


@dataclass(frozen=True)
class CompiledProgram:
    """What a P4Runtime switch is given: the BMv2 JSON (as the compiler wrote it) and
    the P4Info file."""

    json_text: str
    p4info_path: str

    @property
    def program(self) -> dict[str, Any]:
        return json.loads(self.json_text)


def compile_for_p4runtime(p4_path: str, command: list[str], workdir: str) -> CompiledProgram:
    """BMv2 JSON and P4Info (text) of ``p4_path``, written under ``workdir``."""
    out = os.path.join(workdir, "program.json")
    p4info = os.path.join(workdir, "program.p4info.txtpb")
    _run_compiler(command, ["-o", out, "--p4runtime-files", p4info, p4_path], p4_path)
    if not os.path.exists(out) or not os.path.exists(p4info):
        raise CompileFailed(f"{os.path.basename(command[0])} wrote no {out} or {p4info} for {p4_path}")
    with open(out, encoding="utf-8") as handle:
        return CompiledProgram(handle.read(), p4info)


def _run_compiler(command: list[str], args: list[str], p4_path: str) -> None:
    try:
        result = subprocess.run([*command, *args], capture_output=True, text=True,
                                timeout=COMPILE_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise CompileFailed(f"{command[0]} took more than {COMPILE_TIMEOUT_S:.0f} s") from None
    if result.returncode != 0:
        output = (result.stderr + result.stdout).strip()
        raise CompileFailed(f"{os.path.basename(command[0])} failed (exit {result.returncode}) "
                            f"on {p4_path}:\n{output}")


def own_compiler() -> list[str]:
    """p4sim-compile: next to this Python, else on PATH, else through this Python."""
    beside_python = os.path.join(os.path.dirname(sys.executable), "p4sim-compile")
    if os.access(beside_python, os.X_OK):
        return [beside_python]
    path = shutil.which("p4sim-compile")
    if path is not None:
        return [path]
    return [sys.executable, "-c", "import sys; from p4sim.compiler.cli import main; sys.exit(main())"]


def compile_program(p4_path: str, target: str) -> dict[str, Any]:
    """BMv2 JSON for ``p4_path``; raises CompileFailed with the compiler's output."""
    command = compiler_command(target)
    with tempfile.TemporaryDirectory(prefix="p4sim-stf-") as workdir:
        out = os.path.join(workdir, "program.json")
        _run_compiler(command, ["-o", out, p4_path], p4_path)
        if not os.path.exists(out):
            raise CompileFailed(f"{os.path.basename(command[0])} wrote no {out} for {p4_path}")
        with open(out, encoding="utf-8") as handle:
            return json.load(handle)
