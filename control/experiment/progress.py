"""The experiment's progress line: which step of how many, and the time so far."""
from __future__ import annotations

import time
from typing import TextIO


class Progress:
    """One line per step on ``stream``: which of how many, and the time so far."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total, self.done, self.stream = total, 0, stream
        self.started = time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def step(self, what: str) -> None:
        self.done += 1
        print(f"[{self.done}/{self.total} {self.elapsed():5.0f} s] {what}", file=self.stream,
              flush=True)

    def note(self, what: str) -> None:
        print(f"[{self.done}/{self.total} {self.elapsed():5.0f} s] {what}", file=self.stream,
              flush=True)
