"""Compile-time benchmark: wall time of ``p4sim-compile`` per program, and of
``p4c-bm2-ss`` beside it: measured when it is on PATH, else the time recorded in
``tests/real_toolchain/project/SUMMARY.tsv`` (a ``p4c_seconds`` column) where there is
one, else "p4c: not recorded".

Programs: every top-level ``p4src/*.p4``, the reference programs and the corpus.
A program that fails to compile is reported and the run goes on. Programs slower than
the 0.3 s aim are flagged. ``--strict`` turns failures and slow ``p4src`` programs into
exit status 1.

Python byte-code: an installed compiler runs from cached byte-code (``__pycache__``),
but a shell with ``PYTHONDONTWRITEBYTECODE`` set recompiles every module of the compiler
at each start, which costs about 0.1 s. By default the bench times the installed case:
the compilers run with a byte-code cache of their own (``PYTHONPYCACHEPREFIX`` in a
temporary directory, warmed by one untimed run). ``--no-bytecode-cache`` times the
other case.

Run: ``.venv/bin/python bench/compile.py [--repeat N] [--strict] [--no-bytecode-cache]
[PROGRAM.p4 ...]``
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from p4sim.reference import reference_dir

REPO = Path(__file__).resolve().parent.parent
REFERENCE_P4 = reference_dir() / "p4"
AIM_SECONDS = 0.3
RECORDING_SUMMARY = REPO / "tests" / "real_toolchain" / "project" / "SUMMARY.tsv"
NOT_RECORDED = "p4c: not recorded"
TIMEOUT_SECONDS = 120.0


@dataclass(frozen=True)
class Outcome:
    """One compiler on one program: best wall time over the repeats, or why it failed."""

    seconds: float | None
    error: str | None = None

    def cell(self) -> str:
        if self.error is not None:
            return f"FAIL ({self.error})"
        assert self.seconds is not None
        flag = "  SLOW" if self.seconds > AIM_SECONDS else ""
        return f"{self.seconds:7.3f} s{flag}"


def default_programs() -> list[Path]:
    groups = [sorted((REPO / "p4src").glob("*.p4")),
              sorted(REFERENCE_P4.glob("*.p4")),
              sorted((REPO / "tests" / "corpus").glob("*.p4"))]
    return [program for group in groups for program in group]


def find_p4sim_compile() -> str | None:
    """The venv's console script first (the bench runs with the venv's python)."""
    beside_python = Path(sys.executable).parent / "p4sim-compile"
    if beside_python.exists():
        return str(beside_python)
    return shutil.which("p4sim-compile")


def compiler_environment(bytecode_cache: Path | None) -> dict[str, str]:
    """The environment the compilers run in: with a private byte-code cache, or with
    byte-code writing off (what a shell with PYTHONDONTWRITEBYTECODE gets)."""
    env = dict(os.environ)
    if bytecode_cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode_cache)
    return env


def compile_once(compiler: str, program: Path, out_dir: Path,
                 env: dict[str, str] | None = None) -> Outcome:
    stem = program.stem
    command = [compiler, "--arch", "v1model", "-o", str(out_dir / f"{stem}.json"),
               "--p4runtime-files", str(out_dir / f"{stem}.p4info.txtpb"), str(program)]
    start = time.perf_counter()
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS,
                                check=False, env=env)
    except subprocess.TimeoutExpired:
        return Outcome(None, f"timeout after {TIMEOUT_SECONDS:.0f} s")
    except OSError as error:
        return Outcome(None, f"cannot run {compiler}: {error.strerror}")
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        return Outcome(None, f"exit {result.returncode}: {failure_summary(result.stderr or result.stdout)}")
    return Outcome(elapsed)


def failure_summary(output: str) -> str:
    """The most telling line: the first located ``error:`` line, else the last line
    (the exception of a traceback)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if not lines:
        return "no message"
    located = [line for line in lines if "error:" in line]
    return (located[0] if located else lines[-1])[:100]


def startup_floor(compiler: str, repeat: int, env: dict[str, str] | None = None) -> Outcome:
    """Wall time of ``COMPILER --help``: process start and imports, the part of every
    row that does not depend on the program."""
    best: float | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            result = subprocess.run([compiler, "--help"], capture_output=True,
                                    timeout=TIMEOUT_SECONDS, check=False, env=env)
        except (OSError, subprocess.TimeoutExpired) as error:
            return Outcome(None, f"cannot run {compiler} --help: {error}")
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            return Outcome(None, f"{compiler} --help exited {result.returncode}")
        best = elapsed if best is None else min(best, elapsed)
    return Outcome(best)


def measure(compiler: str, program: Path, repeat: int,
            env: dict[str, str] | None = None) -> Outcome:
    if not program.is_file():
        return Outcome(None, "no such file")
    best: float | None = None
    with tempfile.TemporaryDirectory(prefix="bench-compile-") as tmp:
        for _ in range(repeat):
            outcome = compile_once(compiler, program, Path(tmp), env)
            if outcome.error is not None:
                return outcome
            assert outcome.seconds is not None
            best = outcome.seconds if best is None else min(best, outcome.seconds)
    return Outcome(best)


def recorded_p4c_seconds(summary: Path = RECORDING_SUMMARY) -> dict[str, float]:
    """Program stem -> p4c's compile time in the real-toolchain recording, for the rows
    that have one (none when the recording has no ``p4c_seconds`` column)."""
    if not summary.is_file():
        return {}
    lines = [line.split("\t") for line in summary.read_text().splitlines() if line]
    if not lines or "p4c_seconds" not in lines[0]:
        return {}
    name_at, seconds_at = lines[0].index("name"), lines[0].index("p4c_seconds")
    out: dict[str, float] = {}
    for row in lines[1:]:
        try:
            out[row[name_at]] = float(row[seconds_at])
        except (IndexError, ValueError):
            continue  # "-" or a short row: not recorded for that program
    return out


def recorded_cell(program: Path, recorded: dict[str, float]) -> str:
    seconds = recorded.get(program.stem)
    return NOT_RECORDED if seconds is None else f"{seconds:7.3f} s (recorded)"


def display_name(program: Path) -> str:
    try:
        return str(program.resolve().relative_to(REPO))
    except ValueError:
        return str(program)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*", type=Path,
                        help="programs to time (default: p4src, reference and corpus)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per program; the best is reported (default 3)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 if a program fails or a p4src program is slow")
    parser.add_argument("--no-bytecode-cache", dest="bytecode_cache", action="store_false",
                        help="run p4sim-compile without cached byte-code (every module "
                        "recompiled at each start)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    programs = args.programs or default_programs()
    p4sim = find_p4sim_compile()
    p4c = shutil.which("p4c-bm2-ss")
    if p4sim is None:
        print("p4sim-compile not found (run `make install`)", file=sys.stderr)
        return 1
    if not programs:
        print("no programs to compile")
        return 0

    with tempfile.TemporaryDirectory(prefix="bench-compile-pycache-") as cache:
        env = compiler_environment(Path(cache) if args.bytecode_cache else None)
        if args.bytecode_cache:
            with tempfile.TemporaryDirectory(prefix="bench-compile-warm-") as warm:
                compile_once(p4sim, programs[0], Path(warm), env)  # fills the cache
        print("byte-code: " + ("cached (as installed)" if args.bytecode_cache
                               else "not cached (PYTHONDONTWRITEBYTECODE=1)"))
        return run_table(args, programs, p4sim, p4c, env)


def run_table(args: argparse.Namespace, programs: list[Path], p4sim: str, p4c: str | None,
              env: dict[str, str]) -> int:
    floor = startup_floor(p4sim, args.repeat, env)
    print(f"start-up floor (p4sim-compile --help): {floor.cell().strip()}")
    if p4c:
        print(f"start-up floor (p4c-bm2-ss --help): {startup_floor(p4c, args.repeat).cell().strip()}")
    width = max(len(display_name(p)) for p in programs)
    header = f"{'program':<{width}}  {'p4sim-compile':<24}"
    recorded = {} if p4c else recorded_p4c_seconds()
    header += "  p4c-bm2-ss" if p4c else "  p4c-bm2-ss (not on PATH: recorded times)"
    print(header)
    print("-" * len(header))
    failures = slow = 0
    p4src = (REPO / "p4src").resolve()
    for program in programs:
        ours = measure(p4sim, program, args.repeat, env)
        row = f"{display_name(program):<{width}}  {ours.cell():<24}"
        if p4c:
            row += f"  {measure(p4c, program, args.repeat).cell()}"
        else:
            row += f"  {recorded_cell(program, recorded)}"
        print(row, flush=True)
        failures += ours.error is not None
        if ours.seconds is not None and ours.seconds > AIM_SECONDS \
                and program.resolve().parent == p4src:
            slow += 1
    timed = len(programs) - failures
    print(f"\n{timed}/{len(programs)} compiled; {failures} failed; "
          f"{slow} p4src program(s) over the {AIM_SECONDS} s aim")
    return 1 if args.strict and (failures or slow) else 0


if __name__ == "__main__":
    sys.exit(main())
