"""Shared by the p4sim-diff tests: run the CLI in-process, copy a recording to alter it."""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from p4sim.conformance.cli import main
from p4sim.reference import reference_dir

BIN = Path(os.path.abspath(sys.executable)).parent  # the venv's bin (not resolved: a symlink)
REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "corpus"
RECORDED = reference_dir() / "project"


def run_diff(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    """p4sim-diff ARGS --json: (exit code, the parsed report)."""
    capsys.readouterr()
    code = main([*args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def comparison(report: dict[str, Any], aspect: str, source_prefix: str = "recorded") -> dict[str, Any]:
    """The one comparison of ``aspect`` made against a source starting with ``source_prefix``."""
    (program,) = report["programs"]
    found = [c for c in program["comparisons"]
             if c["aspect"] == aspect and c["source"].startswith(source_prefix)]
    assert len(found) == 1, f"{aspect} from {source_prefix}: {program['comparisons']}"
    return found[0]


def copy_recording(name: str, into: Path) -> Path:
    """A private copy of ``name``'s recording, safe to alter."""
    target = into / name
    shutil.copytree(RECORDED / name, target)
    return target
