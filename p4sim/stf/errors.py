"""Errors of the STF runner, each located in the STF file where possible."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StfLocation:
    """A line and column of an STF file (1-based)."""

    path: str
    line: int
    column: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class StfError(Exception):
    """A bad STF file, or a command that does not fit the program it tests."""

    def __init__(self, location: StfLocation | None, message: str) -> None:
        super().__init__(message)
        self.location = location
        self.message = message

    def __str__(self) -> str:
        if self.location is None:
            return f"error: {self.message}"
        return f"{self.location}: error: {self.message}"


class TargetUnavailable(Exception):
    """The chosen target cannot run here (a binary is missing, no privileges)."""
