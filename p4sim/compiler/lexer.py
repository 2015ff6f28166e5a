"""Splitting P4 source text into tokens, with the file, line and column of each."""
from __future__ import annotations

import re

from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.tokens import (
    IDENT, INTEGER, KEYWORD, KEYWORDS, PUNCT, PUNCTUATORS, STRING, IntValue, Token,
)

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


_TOKEN_RE = re.compile(
    r"(?P<blank>[ \t\r\f\v]+)"
    r"|(?P<newline>\n)"
    r"|(?P<continuation>\\\r?\n)"
    r"|(?P<line_comment>//[^\n]*)"
    r"|(?P<block_comment>/\*)"
    r"|(?P<number>[0-9][A-Za-z0-9_]*)"
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<string>\")"
    r"|(?P<punct>" + "|".join(re.escape(p) for p in PUNCTUATORS) + ")"
)


class Lexer:
    """Tokenizes one file's text. Comments and backslash-newlines are whitespace."""

    def __init__(self, text: str, filename: str):
        self._text = text
        self._file = filename
        self._lines = [line.rstrip("\r") for line in text.split("\n")]
        self._line = 1
        self._line_start = 0

    def tokens(self) -> list[Token]:
        text = self._text
        result: list[Token] = []
        at_line_start = True
        space_before = False
        pos = 0
        match_at = _TOKEN_RE.match
        while pos < len(text):
            match = match_at(text, pos)
            if match is None:
                raise CompileError(self._span(pos), f"unexpected character {text[pos]!r}")
            kind = match.lastgroup
            end = match.end()
            if kind == "blank" or kind == "line_comment":
                space_before = True
            elif kind == "newline":
                self._line += 1
                self._line_start = end
                at_line_start = space_before = True
            elif kind == "continuation":
                self._line += 1
                self._line_start = end
                space_before = True
            elif kind == "block_comment":
                close = text.find("*/", end)
                if close < 0:
                    raise CompileError(self._span(pos), "unterminated comment")
                newlines = text.count("\n", pos, close)
                if newlines:
                    self._line += newlines
                    self._line_start = text.rfind("\n", pos, close) + 1
                    at_line_start = True
                end = close + 2
                space_before = True
            else:
                span = self._span(pos)
                if kind == "number":
                    literal = match.group()
                    token = Token(INTEGER, literal, span, parse_int_literal(literal, span),
                                  at_line_start, space_before)
                elif kind == "word":
                    word = match.group()
                    token = Token(KEYWORD if word in KEYWORDS else IDENT, word, span, None,
                                  at_line_start, space_before)
                elif kind == "string":
                    raw, value, end = self._string(pos, span)
                    token = Token(STRING, raw, span, value, at_line_start, space_before)
                else:
                    token = Token(PUNCT, match.group(), span, None, at_line_start, space_before)
                result.append(token)
                at_line_start = space_before = False
            pos = end
        return result

    def _span(self, pos: int) -> SourceSpan:
        index = self._line - 1
        line_text = self._lines[index] if index < len(self._lines) else ""
        return SourceSpan(self._file, self._line, pos - self._line_start + 1, line_text)

    def _string(self, start: int, span: SourceSpan) -> tuple[str, str, int]:
        """The raw text, the value and the end offset of the string literal at start."""
        text = self._text
        pos = start + 1
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
                    self._line += 1
                    self._line_start = pos + 2
                    pos += 2
                    continue
                chars.append(_ESCAPES.get(nxt, "\\" + nxt))
                pos += 2
                continue
            chars.append(ch)
            pos += 1
        return text[start:pos + 1], "".join(chars), pos + 1


def tokenize(text: str, filename: str = "<input>") -> list[Token]:
    """All tokens of ``text``; directives are not interpreted here (see preprocessor)."""
    return Lexer(text, filename).tokens()
