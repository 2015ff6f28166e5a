"""Compile the program under test with p4sim-compile or p4c-bm2-ss (a subprocess)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

from p4sim.stf.errors import TargetUnavailable

COMPILE_TIMEOUT_S = 120.0


class CompileFailed(Exception):
    """The compiler rejected the program (or crashed); the message holds its output."""


def compiler_command(target: str) -> list[str]:
    """The compiler for a target: our own next to this Python, or p4c-bm2-ss from PATH."""
    if target == "bmv2":
        path = shutil.which("p4c-bm2-ss")
        if path is None:
            raise TargetUnavailable("--target bmv2 needs p4c-bm2-ss on PATH to compile "
                                    "(not found; pass --json PREBUILT.json instead)")
        return [path]
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
        try:
            result = subprocess.run([*command, "-o", out, p4_path], capture_output=True, text=True,
                                    timeout=COMPILE_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            raise CompileFailed(f"{command[0]} took more than {COMPILE_TIMEOUT_S:.0f} s") from None
        if result.returncode != 0 or not os.path.exists(out):
            output = (result.stderr + result.stdout).strip()
            raise CompileFailed(f"{os.path.basename(command[0])} failed (exit {result.returncode}) "
                                f"on {p4_path}:\n{output}")
        with open(out, encoding="utf-8") as handle:
            return json.load(handle)
