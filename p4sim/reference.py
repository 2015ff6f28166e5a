"""Where the shared reference material (p4c's outputs, STF tests, ID vectors) lives.

It sits outside the repository, in the workplace's ``shared/reference``: beside the
clone (CI lays a copy of shared/ next to it) or at /work/shared. Tests and benchmarks
ask here instead of hard-coding a path; ``P4SIM_REFERENCE_DIR`` overrides both.
"""
from __future__ import annotations

import os
from pathlib import Path

_REPO = Path(__file__).resolve().parents[1]
_CANDIDATES = (_REPO.parent / "shared" / "reference", Path("/work/shared/reference"))


def reference_dir() -> Path:
    """The reference directory; the first candidate that exists (or the env override)."""
    override = os.environ.get("P4SIM_REFERENCE_DIR")
    if override:
        return Path(override)
    for candidate in _CANDIDATES:
        if candidate.is_dir():
            return candidate
    return _CANDIDATES[-1]
