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


class ConfigErrors(ConfigError):
    """Problems in several inputs at once (topology, policy, environment), so one
    refusal lists them all; each line still names its own file."""

    def __init__(self, errors: list[ConfigError]):
        self.errors = list(errors)
        problems = [problem for error in self.errors for problem in error.problems]
        super().__init__(", ".join(error.path for error in self.errors), problems)

    def render(self) -> str:
        return "\n".join(error.render() for error in self.errors)


def raise_all(errors: list[ConfigError]) -> None:
    """Raise the one error, or all of them together; nothing if the list is empty."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ConfigErrors(errors)


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
