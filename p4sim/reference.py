"""Where the recorded behaviour of the real toolchain lives: ``tests/real_toolchain/``.

The recordings (p4c's outputs, BMv2's STF verdicts, ID vectors) are copied into the
repository so that the tests carry their own evidence; nothing outside the clone is read.
``P4SIM_REFERENCE_DIR`` points the harnesses at another recording of the same shape (a
freshly refreshed one, say) without copying it in first.
"""
from __future__ import annotations

import os
from pathlib import Path

IN_REPOSITORY = Path(__file__).resolve().parents[1] / "tests" / "real_toolchain"


def reference_dir() -> Path:
    """The recording to use: ``P4SIM_REFERENCE_DIR`` when set, else the repository's copy."""
    override = os.environ.get("P4SIM_REFERENCE_DIR")
    return Path(override) if override else IN_REPOSITORY
