"""Splitting P4 source text into tokens, with the file, line and column of each."""
from __future__ import annotations

import re

from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.limits import MAX_WIDTH
from p4sim.compiler.tokens import (
    IDENT, INTEGER, KEYWORD, KEYWORDS, OTHER, PUNCT, PUNCTUATORS, STRING, IntValue, Token,
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
    if width > MAX_WIDTH:
        raise CompileError(span, f"width {width} of integer literal '{text}' is too large: "
                           f"the compiler supports widths up to {MAX_WIDTH}, as p4c does")
    return IntValue(value, width, signed)


_TOKEN_RE = re.compile(
    r"(?P<blank>[ \t\r\f\v]+)?"  # whitespace is folded into the match that follows it
    r"(?:(?P<word>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<line_comment>//[^\n]*)"
    r"|(?P<block_comment>/\*.*?\*/)"
    r"|(?P<open_comment>/\*)"
    r"|(?P<punct>" + "|".join(re.escape(p) for p in PUNCTUATORS if p != "\\") + ")"
    r"|(?P<newline>\n)"
    r"|(?P<number>[0-9][A-Za-z0-9_]*)"
    r'|(?P<string>"(?:[^"\\]|\\.)*")'  # may span lines, as in SAI's @entry_restriction
    r'|(?P<open_string>")'
    r"|(?P<continuation>\\\r?\n)"
    r"|(?P<backslash>\\)"
    r"|(?P<end>\Z)"
    r"|(?P<bad>.))",
    re.DOTALL,
)
_STRING_ESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)


def _unescape(match: re.Match[str]) -> str:
    char = match.group(1)
    return "" if char == "\n" else _ESCAPES.get(char, "\\" + char)


class Lexer:
    """Tokenizes one file's text. Comments and backslash-newlines are whitespace.

    One regular expression matches a token together with the whitespace before it, so
    the loop runs once per token; it is the hottest loop of the compiler."""

    def __init__(self, text: str, filename: str, lenient: bool = False):
        self._text = text
        self._file = filename
        # as cpp in assembler mode (p4c's preprocessor): a lone quote or a stray
        # character is a token of its own, an error only if it reaches the parser
        self._lenient = lenient
        self._lines = [line.rstrip("\r") for line in text.split("\n")]

    def tokens(self) -> list[Token]:
        text, filename, lines = self._text, self._file, self._lines
        result: list[Token] = []
        append = result.append
        line, line_start, line_text = 1, 0, lines[0]
        at_line_start, space_before = True, False
        for match in _TOKEN_RE.finditer(text):
            kind = match.lastgroup
            assert kind is not None  # every alternative of _TOKEN_RE is a named group
            start = match.start(kind)
            if start != match.start():
                space_before = True
            if kind == "word" or kind == "punct":
                word = match.group(kind)
                if kind == "punct":
                    token_kind = PUNCT
                else:
                    token_kind = KEYWORD if word in KEYWORDS else IDENT
                span = SourceSpan(filename, line, start - line_start + 1, line_text)
                append(Token(token_kind, word, span, None, at_line_start, space_before))
                at_line_start = space_before = False
            elif kind == "newline":
                line += 1
                line_start = start + 1
                line_text = lines[line - 1]
                at_line_start = space_before = True
            elif kind == "number" or kind == "string" or kind == "backslash":
                raw = match.group(kind)
                span = SourceSpan(filename, line, start - line_start + 1, line_text)
                if kind == "number":
                    append(Token(INTEGER, raw, span, parse_int_literal(raw, span),
                                 at_line_start, space_before))
                elif kind == "string":
                    value = _STRING_ESCAPE_RE.sub(_unescape, raw[1:-1])
                    append(Token(STRING, raw, span, value, at_line_start, space_before))
                else:
                    append(Token(PUNCT, raw, span, None, at_line_start, space_before))
                at_line_start = space_before = False
                if kind == "string" and "\n" in raw:  # backslash-newline continuations
                    line += raw.count("\n")
                    line_start = start + raw.rfind("\n") + 1
                    line_text = lines[line - 1]
            elif kind == "end":
                break
            elif kind in ("open_comment", "open_string", "bad"):
                span = SourceSpan(filename, line, start - line_start + 1, line_text)
                if kind != "open_comment" and self._lenient:
                    append(Token(OTHER, text[start], span, None, at_line_start, space_before))
                    at_line_start = space_before = False
                    continue
                if kind == "open_comment":
                    raise CompileError(span, "unterminated comment")
                if kind == "open_string":
                    raise CompileError(span, "unterminated string literal")
                raise CompileError(span, f"unexpected character {text[start]!r}")
            else:  # comments and continuations: whitespace, perhaps spanning lines
                space_before = True
                raw = match.group(kind)
                newlines = raw.count("\n")
                if newlines:
                    line += newlines
                    line_start = start + raw.rfind("\n") + 1
                    line_text = lines[line - 1]
                    if kind == "block_comment":
                        at_line_start = True
        return result


def tokenize(text: str, filename: str = "<input>", lenient: bool = False) -> list[Token]:
    """All tokens of ``text``; directives are not interpreted here (see preprocessor)."""
    return Lexer(text, filename, lenient).tokens()


def stray_token_error(token: Token) -> CompileError:
    """The error for an OTHER token that reached the program (see Lexer's lenient)."""
    if token.text == '"':
        return CompileError(token.span, "unterminated string literal")
    return CompileError(token.span, f"unexpected character {token.text!r}")
