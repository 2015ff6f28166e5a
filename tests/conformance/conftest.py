"""The p4sim-diff tests compare with the in-repository recording only, whatever this
machine has installed: $P4C/$SWITCH naming p4sim's own tools turn live mode off."""
from __future__ import annotations

import pytest

from diff_helpers import BIN


@pytest.fixture(autouse=True)
def recording_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("P4C", str(BIN / "p4sim-compile"))
    monkeypatch.setenv("SWITCH", str(BIN / "p4sim-switch"))
