"""Live mode: the real toolchain when this machine has it, never as a dependency.

The compiler is ``--p4c``, else ``$P4C``, else ``p4c-bm2-ss`` on PATH; the switch
``--switch``, else ``$SWITCH``, else ``simple_switch_grpc`` on PATH (the variables as
lab/target.py reads them, for every tool). The Makefile
exports P4C and SWITCH for TARGET=p4sim too, naming p4sim's own tools: comparing p4sim
with itself proves nothing, so from the environment those are ignored (an explicit
``--p4c``/``--switch`` is taken as given, which is how the harness itself is tested).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from lab.target import BMV2_COMPILER, BMV2_SWITCH, Target
from p4sim.conformance.recording import Recording

REAL_COMPILER, REAL_SWITCH = BMV2_COMPILER, BMV2_SWITCH
COMPILE_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Toolchain:
    """The live tools found (None: use the recording), and why each was or was not taken."""

    compiler: str | None
    switch: str | None
    notes: tuple[str, ...] = ()


def _pick(explicit: str | None, env_name: str, from_env: str | None,
          default: str) -> tuple[str | None, str]:
    if explicit:
        path = shutil.which(explicit)
        path = os.path.abspath(path) if path else None
        if path is None:
            raise FileNotFoundError(f"{explicit}: not an executable (given on the command line)")
        return path, f"{env_name.lower()}: {path} (given on the command line)"
    if from_env:
        path = shutil.which(from_env)
        if path is None:
            return None, f"${env_name}={from_env} is not an executable: using the recording"
        if Path(path).name.startswith("p4sim"):
            return None, f"${env_name}={from_env} is p4sim's own tool: using the recording"
        return path, f"{env_name.lower()}: {path} (from ${env_name})"
    path = shutil.which(default)
    if path is None:
        return None, f"no ${env_name} and no {default} on PATH: using the recording"
    return path, f"{env_name.lower()}: {path} (on PATH)"


def find_toolchain(compiler: str | None = None, switch: str | None = None) -> Toolchain:
    """What live mode will use (raises FileNotFoundError for a bad explicit choice)."""
    real = Target.from_environment(name="bmv2")  # only P4C / SWITCH matter here, not TARGET
    compiler_path, compiler_note = _pick(compiler, "P4C",
                                         real.compiler if real.compiler_from_env else None, REAL_COMPILER)
    switch_path, switch_note = _pick(switch, "SWITCH",
                                     real.switch if real.switch_from_env else None, REAL_SWITCH)
    return Toolchain(compiler_path, switch_path, (compiler_note, switch_note))


def compile_live(compiler: str, p4_path: str, name: str, workdir: Path,
                 include_dirs: list[str] | None = None) -> Recording:
    """Run the compiler as the recording did, into ``workdir`` shaped like a recording."""
    workdir.mkdir(parents=True, exist_ok=True)
    command = [compiler, "--arch", "v1model", *(f"-I{d}" for d in include_dirs or []),
               "-o", str(workdir / f"{name}.json"),
               "--p4runtime-files", str(workdir / f"{name}.p4info.txtpb"), p4_path]
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False,
                                timeout=COMPILE_TIMEOUT_S)
        rc, stderr = result.returncode, result.stderr + result.stdout
    except subprocess.TimeoutExpired:
        rc, stderr = 124, f"{compiler}: error: took more than {COMPILE_TIMEOUT_S:.0f} s on {p4_path}\n"
    (workdir / "p4c.rc").write_text(f"{rc}\n", encoding="utf-8")
    (workdir / "p4c.stderr").write_text(stderr, encoding="utf-8")
    return Recording(name, workdir, f"live {compiler}")
