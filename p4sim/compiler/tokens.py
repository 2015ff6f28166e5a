"""Tokens shared by the lexer, the preprocessor and the parser."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from p4sim.compiler.errors import SourceSpan

# Token kinds.
IDENT = "IDENT"
KEYWORD = "KEYWORD"
INTEGER = "INTEGER"
STRING = "STRING"
PUNCT = "PUNCT"
# a character cpp passes through that no P4 token starts with: a lone quote, a stray
# character (only the preprocessor sees these; one left in live code is an error)
OTHER = "OTHER"
EOF = "EOF"

# Words the parser never accepts as names of variables, fields or types. Words such as
# ``apply``, ``state``, ``key``, ``actions``, ``entries``, ``priority`` and ``type`` stay
# identifiers because real programs use them as field and method names
# (``standard_metadata_t.priority``, ``t.apply()``); the parser recognises them by text.
KEYWORDS = frozenset(
    """abstract action bit bool const control default else enum error exit extern false
    header header_union if in inout int match_kind out package parser return select
    string struct switch table transition true tuple typedef value_set varbit void""".split()
)

# Longest first, so that the lexer can take the first match. ``>>`` is deliberately
# absent: two adjacent ``>`` tokens are joined by the parser when they mean a shift,
# because ``>>`` also closes nested type arguments (``register<bit<8>>``).
PUNCTUATORS = (
    "&&&", "|+|", "|-|",
    "<<", "<=", ">=", "==", "!=", "&&", "||", "++", "..",
    "{", "}", "(", ")", "[", "]", "<", ">", ";", ":", ",", ".", "=", "+", "-", "*",
    "/", "%", "&", "|", "^", "~", "!", "?", "@", "#", "\\",
)


class Token(NamedTuple):
    """One token. ``at_line_start`` marks the first token of a source line (the
    preprocessor needs it to find directives); ``space_before`` records whether
    whitespace preceded it (to join ``> >`` correctly and to rebuild raw text).
    A NamedTuple (immutable, and cheap to create: a program has tens of thousands)."""

    kind: str
    text: str
    span: SourceSpan
    value: object = None  # int for INTEGER (see IntValue), str for STRING
    at_line_start: bool = False
    space_before: bool = False

    def relocated(self, span: SourceSpan) -> "Token":
        """This token as produced by a macro expansion at ``span`` (built directly:
        NamedTuple._replace costs three times as much, and macros make thousands)."""
        return _new_token(Token, (self[0], self[1], span, self[3], self[4], self[5]))

    def is_punct(self, text: str) -> bool:
        return self.kind == PUNCT and self.text == text

    def is_keyword(self, text: str) -> bool:
        return self.kind == KEYWORD and self.text == text


_new_token = tuple.__new__


@dataclass(frozen=True)
class IntValue:
    """The value of an integer literal: ``8w5`` -> IntValue(5, 8, False)."""

    value: int
    width: int | None = None
    signed: bool = False
