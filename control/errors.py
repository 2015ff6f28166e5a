"""The error a bad topology or policy file raises: which file, which field, and why.

Files are validated completely before any switch is touched, so the user learns every
problem with one run rather than one per run.
"""
from __future__ import annotations


class ConfigError(Exception):
    """One or more problems in a configuration file."""

    def __init__(self, path: str, problems: list[tuple[str, str]]):
        self.path = path
        self.problems = problems  # (field path, reason)
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(f"{self.path}: {field}: {reason}" for field, reason in self.problems)


class ProblemList:
    """Collects (field, reason) pairs while a file is checked, then raises them at once."""

    def __init__(self, path: str):
        self.path = path
        self.items: list[tuple[str, str]] = []

    def add(self, field: str, reason: str) -> None:
        self.items.append((field, reason))

    def raise_if_any(self) -> None:
        if self.items:
            raise ConfigError(self.path, list(self.items))
