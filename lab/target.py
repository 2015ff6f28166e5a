"""Target selection: TARGET, SWITCH and P4C read from the environment in one place.

``TARGET=p4sim`` (the default) selects the project's own p4sim-compile and p4sim-switch
(those beside this Python, i.e. the venv's, else on PATH); ``TARGET=bmv2`` selects
p4c-bm2-ss and simple_switch_grpc from PATH. ``P4C`` and ``SWITCH`` (as the Makefile
exports them) override either program; a value with a '/' is a path, taken relative to
the directory the variable was read in. A program that must run and cannot is refused
naming the variable that chose it.
"""
from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lab.errors import TargetError

TARGETS = ("p4sim", "bmv2")
DEFAULT_TARGET = "p4sim"
BMV2_COMPILER, BMV2_SWITCH = "p4c-bm2-ss", "simple_switch_grpc"
P4SIM_COMPILER, P4SIM_SWITCH = "p4sim-compile", "p4sim-switch"


@dataclass(frozen=True)
class Target:
    """The selected target: its name and the compiler and switch programs to run.

    ``compiler_from_env`` / ``switch_from_env``: whether P4C / SWITCH chose the program
    (rather than the target's default), for callers that treat an explicit choice apart.
    """

    name: str
    compiler: str
    switch: str
    compiler_from_env: bool = False
    switch_from_env: bool = False

    @classmethod
    def from_environment(cls, env: Mapping[str, str] | None = None, *,
                         name: str | None = None) -> "Target":
        """The target the environment selects (``os.environ`` unless ``env``);
        ``name`` (e.g. a --target flag) replaces TARGET. TargetError for an unknown one."""
        env = os.environ if env is None else env
        chosen = name if name is not None else (env.get("TARGET") or DEFAULT_TARGET)
        if chosen not in TARGETS:
            where = "the target" if name is not None else "TARGET"
            raise TargetError(f"{where}={chosen!r} is not a target: use "
                              + " or ".join(TARGETS))
        compiler, switch = _defaults(chosen)
        p4c, switch_env = env.get("P4C"), env.get("SWITCH")
        return cls(chosen, _program(p4c) if p4c else compiler,
                   _program(switch_env) if switch_env else switch,
                   compiler_from_env=bool(p4c), switch_from_env=bool(switch_env))

    @property
    def switch_is_bmv2(self) -> bool:
        """Whether the switch is one of BMv2's (simple_switch, simple_switch_grpc)."""
        return Path(self.switch).name.startswith("simple_switch")

    def require_switch(self) -> str:
        """The switch program as an absolute path; TargetError naming SWITCH or TARGET
        when it cannot run."""
        return self._require(self.switch, "SWITCH", self.switch_from_env)

    def require_compiler(self) -> str:
        """The compiler as an absolute path; TargetError naming P4C or TARGET."""
        return self._require(self.compiler, "P4C", self.compiler_from_env)

    def _require(self, program: str, variable: str, from_env: bool) -> str:
        path = executable_path(program)
        if path is not None:
            return path
        if from_env:
            raise TargetError(f"{variable}={program!r} is not an executable program "
                              f"(set {variable} to one, or unset it to use TARGET's)")
        hint = "run `make install`" if self.name == "p4sim" else "install BMv2 and p4c"
        raise TargetError(f"TARGET={self.name} runs {program!r}, which is not an executable "
                          f"program ({hint}, or set {variable})")


def executable_path(program: str) -> str | None:
    """The absolute path of ``program`` (a path, or a name on PATH) if it can run."""
    if os.sep in program:
        path = Path(program)
        return str(path.resolve()) if path.is_file() and os.access(path, os.X_OK) else None
    found = shutil.which(program)
    return os.path.abspath(found) if found else None


def _program(value: str) -> str:
    """A path (containing '/') made absolute now; a bare name kept for PATH."""
    return str(Path(value).resolve()) if os.sep in value else value


def _defaults(name: str) -> tuple[str, str]:
    if name == "bmv2":
        return BMV2_COMPILER, BMV2_SWITCH
    return _beside_python(P4SIM_COMPILER), _beside_python(P4SIM_SWITCH)


def _beside_python(program: str) -> str:
    """The venv's copy of one of our console scripts, else its name (for PATH)."""
    beside = Path(sys.executable).with_name(program)
    return str(beside) if beside.exists() else program
