"""Splitting P4 source text into tokens, with the file, line and column of each."""
from __future__ import annotations

import re

from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.tokens import (
    IDENT, INTEGER, KEYWORD, KEYWORDS, PUNCT, PUNCTUATORS, STRING, IntValue, Token,
)

_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD_TAIL_RE = re.compile(r"[A-Za-z0-9_]+")
# A sized literal (8w5, 4s3, 16w0xFF) or a plain one (42, 0x2A, 0b101, 0o17, 1_000).
_NUMBER_RE = re.compile(
    r"(?:(?P<width>[0-9]+)(?P<sign>[ws]))?"
    r"(?P<body>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|0[dD][0-9_]+|[0-9][0-9_]*)"
)
_BASES = {"x": 16, "b": 2, "o": 8, "d": 10}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


def parse_int_literal(text: str, span: SourceSpan) -> IntValue:
    """Decode the text of one integer literal (used for P4 and for ``#if``)."""
    match = _NUMBER_RE.fullmatch(text)
    if match is None:
        raise CompileError(span, f"malformed integer literal '{text}'")
    body = match.group("body").replace("_", "")
    if len(body) > 2 and body[0] == "0" and body[1].lower() in _BASES:
        digits, base = body[2:], _BASES[body[1].lower()]
    else:
        digits, base = body, 10
    if not digits:
        raise CompileError(span, f"malformed integer literal '{text}'")
    value = int(digits, base)
    if match.group("width") is None:
        return IntValue(value)
    width = int(match.group("width"))
    signed = match.group("sign") == "s"
    if width == 0 or (signed and width < 2):
        raise CompileError(span, f"invalid width {width} in integer literal '{text}'")
    return IntValue(value, width, signed)


class Lexer:
    """Tokenizes one file's text. Comments and backslash-newlines are whitespace."""

    def __init__(self, text: str, filename: str):
        self._text = text
        self._file = filename
        self._lines = text.split("\n")
        self._pos = 0
        self._line = 1
        self._line_start = 0

    def tokens(self) -> list[Token]:
        result: list[Token] = []
        at_line_start = True
        space_before = False
        text = self._text
        while True:
            newline_seen, spaced = self._skip_whitespace()
            at_line_start = at_line_start or newline_seen
            space_before = space_before or spaced or newline_seen
            if self._pos >= len(text):
                return result
            token = self._next_token()
            result.append(
                Token(token.kind, token.text, token.span, token.value, at_line_start, space_before)
            )
            at_line_start = False
            space_before = False

    # ---------------------------------------------------------------- helpers

    def _span(self, pos: int) -> SourceSpan:
        line_text = self._lines[self._line - 1] if self._line - 1 < len(self._lines) else ""
        return SourceSpan(self._file, self._line, pos - self._line_start + 1, line_text)

    def _newline_at(self, pos: int) -> None:
        self._line += 1
        self._line_start = pos + 1

    def _skip_whitespace(self) -> tuple[bool, bool]:
        """Skip blanks, comments and line continuations; report whether a (real) newline
        and whether any whitespace was crossed."""
        text = self._text
        newline = False
        spaced = False
        while self._pos < len(text):
            ch = text[self._pos]
            if ch == "\n":
                self._newline_at(self._pos)
                self._pos += 1
                newline = spaced = True
            elif ch in " \t\r\f\v":
                self._pos += 1
                spaced = True
            elif ch == "\\" and text.startswith("\n", self._pos + 1):
                self._newline_at(self._pos + 1)
                self._pos += 2
                spaced = True
            elif ch == "\\" and text.startswith("\r\n", self._pos + 1):
                self._newline_at(self._pos + 2)
                self._pos += 3
                spaced = True
            elif text.startswith("//", self._pos):
                end = text.find("\n", self._pos)
                self._pos = len(text) if end < 0 else end
                spaced = True
            elif text.startswith("/*", self._pos):
                start_span = self._span(self._pos)
                end = text.find("*/", self._pos + 2)
                if end < 0:
                    raise CompileError(start_span, "unterminated comment")
                for offset in range(self._pos, end):
                    if text[offset] == "\n":
                        self._newline_at(offset)
                        newline = True
                self._pos = end + 2
                spaced = True
            else:
                break
        return newline, spaced

    def _next_token(self) -> Token:
        text = self._text
        pos = self._pos
        span = self._span(pos)
        ch = text[pos]
        if ch.isdigit():
            match = _NUMBER_RE.match(text, pos)
            assert match is not None
            end = match.end()
            # A literal must not run straight into letters or digits ("12abc", "0x1G").
            tail = _WORD_TAIL_RE.match(text, end)
            if tail is not None:
                end = tail.end()
            literal = text[pos:end]
            self._pos = end
            return Token(INTEGER, literal, span, parse_int_literal(literal, span))
        if ch.isalpha() or ch == "_":
            match = _IDENT_RE.match(text, pos)
            assert match is not None
            word = match.group()
            self._pos = match.end()
            return Token(KEYWORD if word in KEYWORDS else IDENT, word, span)
        if ch == '"':
            return self._string(span)
        for punct in PUNCTUATORS:
            if text.startswith(punct, pos):
                self._pos = pos + len(punct)
                return Token(PUNCT, punct, span)
        raise CompileError(span, f"unexpected character {ch!r}")

    def _string(self, span: SourceSpan) -> Token:
        text = self._text
        pos = self._pos + 1
        chars: list[str] = []
        while True:
            if pos >= len(text) or text[pos] == "\n":
                raise CompileError(span, "unterminated string literal")
            ch = text[pos]
            if ch == '"':
                break
            if ch == "\\" and pos + 1 < len(text):
                nxt = text[pos + 1]
                if nxt == "\n":
                    self._newline_at(pos + 1)
                    pos += 2
                    continue
                chars.append(_ESCAPES.get(nxt, "\\" + nxt))
                pos += 2
                continue
            chars.append(ch)
            pos += 1
        raw = text[self._pos:pos + 1]
        self._pos = pos + 1
        return Token(STRING, raw, span, "".join(chars))


def tokenize(text: str, filename: str = "<input>") -> list[Token]:
    """All tokens of ``text``; directives are not interpreted here (see preprocessor)."""
    return Lexer(text, filename).tokens()
