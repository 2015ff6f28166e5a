"""Source locations and the one error type every compiler stage raises.

A bad program must never reach the user as a Python traceback: every stage raises
CompileError with the span of the offending text, and the CLI prints it as
``file:line:col: error: message`` followed by the source line and a caret.
"""
from __future__ import annotations

from typing import NamedTuple


class SourceSpan(NamedTuple):
    """Where a piece of text came from, after preprocessing (original file and line).

    A NamedTuple rather than a frozen dataclass: the lexer makes one per token, and a
    tuple is several times cheaper to create."""

    file: str
    line: int  # 1-based
    col: int  # 1-based
    source_line: str = ""  # the full text of that line, for the caret display

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = SourceSpan("<builtin>", 0, 0)


class CompileError(Exception):
    """A problem in the user's program (syntax, name, type, width, unsupported)."""

    def __init__(self, span: SourceSpan | None, message: str, notes: tuple[str, ...] = ()):
        super().__init__(message)
        self.span = span or NO_SPAN
        self.message = message
        self.notes = notes

    def render(self) -> str:
        """The user-facing text: location, message, the source line and a caret."""
        lines = [f"{self.span}: error: {self.message}"]
        if self.span.source_line:
            text = self.span.source_line.rstrip("\n").expandtabs(1)
            lines.append(text)
            lines.append(" " * max(self.span.col - 1, 0) + "^")
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


class CompileWarning:
    """A diagnostic that does not stop compilation."""

    def __init__(self, span: SourceSpan | None, message: str):
        self.span = span or NO_SPAN
        self.message = message

    def render(self) -> str:
        return f"{self.span}: warning: {self.message}"
