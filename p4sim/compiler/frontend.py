"""The compiler front end: P4 source text to AST (preprocess, lex, parse).

The bundled ``include`` directory (our own core.p4 and v1model.p4) is always searched
last for ``#include <...>``, so programs compile without ``-I``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.parser import parse_tokens
from p4sim.compiler.preprocessor import Preprocessor

BUNDLED_INCLUDE_DIR = str(Path(__file__).resolve().parent / "include")


def _preprocessor(include_dirs: Sequence[str], defines: Mapping[str, str] | None) -> Preprocessor:
    pre = Preprocessor(include_dirs=(*include_dirs, BUNDLED_INCLUDE_DIR))
    for name, value in (defines or {}).items():
        pre.define_from_command_line(name, value)
    return pre


def parse_program(
    path: str, include_dirs: Sequence[str] = (), defines: Mapping[str, str] | None = None
) -> ast.Program:
    """Parse the P4 program in ``path``; raises CompileError for any bad input."""
    pre = _preprocessor(include_dirs, defines)
    try:
        tokens = pre.process_file(path)
    except OSError as exc:
        raise CompileError(SourceSpan(path, 0, 0), f"cannot read '{path}': {exc.strerror}") from None
    return parse_tokens(tokens)


def parse_text(
    text: str, filename: str = "<input>", include_dirs: Sequence[str] = (),
    defines: Mapping[str, str] | None = None,
) -> ast.Program:
    """Parse P4 source given as a string (``filename`` is used in error locations)."""
    return parse_tokens(_preprocessor(include_dirs, defines).process_text(text, filename))
