"""One comparison's result, in a form both the text and the JSON report print."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

EQUAL, DIFFER, NOT_COMPARABLE, ERROR = "equal", "differ", "not-comparable", "error"


@dataclass
class Comparison:
    """``aspect`` compared against ``source`` (where the real toolchain's side came from:
    ``recorded DIR`` or ``live TOOL``); ``details`` say what differs, where, both values;
    ``notes`` are observations that do not make it differ."""

    aspect: str
    status: str
    source: str
    details: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def equal(self) -> bool:
        return self.status == EQUAL

    @property
    def compared(self) -> bool:
        return self.status != NOT_COMPARABLE

    def to_dict(self) -> dict[str, Any]:
        return {"aspect": self.aspect, "status": self.status, "source": self.source,
                "details": list(self.details), "notes": list(self.notes)}


def judged(aspect: str, source: str, details: list[str], notes: list[str] | None = None) -> Comparison:
    """EQUAL when nothing differs, else DIFFER with the details."""
    return Comparison(aspect, DIFFER if details else EQUAL, source, details, notes or [])


def not_comparable(aspect: str, source: str, why: str) -> Comparison:
    return Comparison(aspect, NOT_COMPARABLE, source, [why])


def failed(aspect: str, source: str, why: str) -> Comparison:
    """The comparison could not be made because an input is broken (counts as unequal)."""
    return Comparison(aspect, ERROR, source, [why])
