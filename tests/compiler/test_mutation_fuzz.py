"""Mutation fuzzing of the whole compiler: real programs (the reference programs, the
corpus, the fabric) with tokens deleted, duplicated, swapped or replaced, statements
dropped or the text truncated must either compile (BMv2 JSON and P4Info included) or
fail with a located CompileError; anything else is an internal compiler error, which
the CLI reports with exit code 3.

Seeds are fixed, so a failure names a seed that reproduces it; each seed has a time
budget so the whole file stays well under 20 s on a loaded machine.
"""
from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from p4sim.compiler.driver import compile_program
from p4sim.compiler.errors import CompileError
from p4sim.compiler.p4info import build_p4info
from p4sim.reference import reference_dir

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((reference_dir() / "p4").glob("*.p4")) \
    + sorted((REPO / "tests" / "corpus").glob("*.p4")) + [REPO / "p4src" / "fabric.p4"]
MUTANTS_PER_SEED = 80
SECONDS_PER_SEED = 3.0
# Replacement numbers: boundaries and absurd sizes (widths, stack sizes, shifts).
NUMBERS = ("0", "1", "7", "32", "64", "128", "65536", "4294967296", "1w1", "8w0",
           "0x1FFFFFFFF")
# Whitespace and comments stay as they are; words, numbers and punctuation are tokens.
_PIECE = re.compile(r"\s+|//[^\n]*|/\*.*?\*/|\w+|.", re.S)


def _tokens(pieces: list[str]) -> list[int]:
    return [i for i, p in enumerate(pieces) if not p.isspace() and not p.startswith(("//", "/*"))]


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One random edit of ``text``; returns the new text and what was done."""
    pieces = [m.group() for m in _PIECE.finditer(text)]
    tokens = _tokens(pieces)
    if not tokens:
        return text, "nothing to mutate"
    i = rng.choice(tokens)
    op = rng.choice(("delete", "duplicate", "swap", "replace", "truncate", "word", "word",
                     "number", "statement"))
    if op == "delete":
        pieces[i] = ""
    elif op == "duplicate":
        pieces[i] = f"{pieces[i]} {pieces[i]}"
    elif op == "swap":
        j = tokens[min(tokens.index(i) + 1, len(tokens) - 1)]
        pieces[i], pieces[j] = pieces[j], pieces[i]
    elif op == "replace":
        pieces[i] = pieces[rng.choice(tokens)]
    elif op == "truncate":
        pieces = pieces[:i]
    elif op == "word":  # keeps the syntax, breaks names and types
        words = [j for j in tokens if pieces[j][0].isalpha() or pieces[j][0] == "_"]
        pieces[rng.choice(words)] = pieces[rng.choice(words)]
    elif op == "number":
        numbers = [j for j in tokens if pieces[j][0].isdigit()] or [i]
        pieces[rng.choice(numbers)] = rng.choice(NUMBERS)
    else:  # drop one statement or declaration: from one ';'/'}' to the next
        ends = [j for j in tokens if pieces[j] in (";", "}")]
        if len(ends) > 1:
            k = rng.randrange(len(ends) - 1)
            pieces[ends[k] + 1:ends[k + 1] + 1] = []
    return "".join(pieces), op


def compile_mutant(original: Path, text: str, workdir: Path) -> str:
    """Compile ``text`` as if it were ``original`` (its quoted includes still resolve);
    "ok" or "error" for the acceptable outcomes; any other exception propagates."""
    path = workdir / original.name
    path.write_text(text)
    try:
        result = compile_program(str(path), [str(original.parent)])
        build_p4info(result.control_plane)
        result.json_text()
    except CompileError as error:
        assert error.span.line >= 1, f"unlocated error: {error.render()}"
        return "error"
    return "ok"


@pytest.mark.parametrize("seed", range(4))
def test_mutants_compile_or_fail_with_a_located_error(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    deadline = time.monotonic() + SECONDS_PER_SEED
    outcomes = {"ok": 0, "error": 0}
    for case in range(MUTANTS_PER_SEED):
        if time.monotonic() > deadline and case >= 20:
            break
        original = rng.choice(PROGRAMS)
        text = original.read_text()
        edits = []
        for _ in range(rng.randint(1, 3)):
            text, op = mutate(text, rng)
            edits.append(op)
        try:
            outcomes[compile_mutant(original, text, tmp_path)] += 1
        except Exception as crash:  # noqa: BLE001 - exactly what this test looks for
            raise AssertionError(f"seed {seed}, case {case}: {original.name} after {edits}: "
                                 f"{type(crash).__name__}: {crash}") from crash
    assert outcomes["error"] > 0  # the mutations do break programs


def test_the_command_line_turns_bad_mutants_into_exit_1_without_a_traceback(
        tmp_path: Path) -> None:
    rng = random.Random(99)
    original = REPO / "tests" / "corpus" / "025_actions.p4"
    for _ in range(2):
        text = original.read_text()
        while True:
            text, _ = mutate(text, rng)
            path = tmp_path / original.name
            path.write_text(text)
            try:
                compile_program(str(path))
            except CompileError:
                break
        result = subprocess.run(
            [sys.executable, "-m", "p4sim.compiler.cli", "-o", str(tmp_path / "out.json"),
             str(path)], capture_output=True, text=True, timeout=60, check=False)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr
        assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: ", result.stderr)
