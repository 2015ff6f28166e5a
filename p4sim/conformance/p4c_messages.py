"""Read p4c's diagnostics: ``FILE(LINE): [--Werror=KIND] error: ...`` and the same with
``warning:``, sometimes without a location (``[--Wwarn=KIND] warning: ...``); also
p4sim-compile's ``FILE:LINE:COL: error: ...``."""
from __future__ import annotations

import re
from dataclasses import dataclass

_DIAGNOSTIC = re.compile(r"^(?:(?P<file>[^\s(]+)\((?P<line>\d+)\):\s*)?(?:\[[^\]]*\]\s*)?"
                         r"(?P<kind>error|warning):\s*(?P<message>.*)$")
# p4sim-compile's form (FILE:LINE:COL: error: ...), for a live compiler that is p4sim's own
_LOCATED = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):\d+:\s*(?P<kind>error|warning):\s*(?P<message>.*)$")


@dataclass(frozen=True)
class Diagnostic:
    kind: str  # error or warning
    file: str | None
    line: int | None
    message: str

    def where(self) -> str:
        return f"{self.file}({self.line})" if self.file else "(no location)"


def diagnostics(stderr: str) -> list[Diagnostic]:
    """Each diagnostic's first line (the source excerpt and carets that follow are skipped)."""
    found = []
    for text in stderr.splitlines():
        match = _DIAGNOSTIC.match(text.strip()) or _LOCATED.match(text.strip())
        if match:
            line = match.group("line")
            found.append(Diagnostic(match.group("kind"), match.group("file"),
                                    int(line) if line else None, match.group("message")))
    return found


def warnings(stderr: str) -> list[Diagnostic]:
    return [d for d in diagnostics(stderr) if d.kind == "warning"]


def errors(stderr: str) -> list[Diagnostic]:
    return [d for d in diagnostics(stderr) if d.kind == "error"]
