"""The compiler front end: P4 source text to AST (preprocess, lex, parse).

The bundled ``include`` directory (our own core.p4 and v1model.p4) is always searched
last for ``#include <...>``, so programs compile without ``-I``. Every error is a
CompileError located in the file that contains the bad text (included files too).

How some constructs come out of the parser (the AST is purely syntactic):

- ``error.X`` is ``Member(TypeNameExpression(ErrorType()), "X")``; ``E.A`` for an enum
  or ``HashAlgorithm.crc16`` is ``Member(Name("E"), "A")``.
- ``T(args)`` where ``T`` is a declared type is a ConstructorCall (instances, package
  arguments, ``implementation = action_profile(32)``); ``(T){f = 1}`` is a
  StructExpression with ``type`` set; ``-5`` is ``Unary("-", IntLiteral(5))``; a bare
  ``bit`` is ``bit<1>``.
- ``.NoAction`` is ``Name(top_level=True)`` in expressions and ``ActionRef(".NoAction")``
  in action lists, entries and default actions.
- A select case keyset is a ListExpression for a tuple and a single expression otherwise;
  a table entry's ``keyset`` is always a tuple. Masks and ranges are Binary ``&&&``/``..``;
  ``_`` is DontCare and ``default`` DefaultExpression.
- ``@pragma`` takes the rest of its line as ``body``; other annotations keep the raw text
  between their brackets as ``body`` and, when it parses, the expressions as ``args``.
- A Binary node's span is the span of its left operand (the start of the expression).
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
