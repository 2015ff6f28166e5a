"""One run of a `make run` plan for the experiment's integration tests: what it printed,
its progress lines, its outcome and the topology it ran on. Root, `ip netns` and
build/fabric.* are required: the tests fail, not skip, without them."""
from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from pathlib import Path

from control.experiment.plan import Plan
from control.experiment.runner import Outcome, run_experiment
from control.launch import ROOT
from control.topology import Topology, load_topology
from lab.namespace import can_run


@dataclass
class ExperimentRun:
    plan: Plan
    outcome: Outcome
    table: str       # what the run printed on stdout
    progress: str    # its progress lines
    out: Path
    topology: Topology


def run_plan(plan: Plan, out: Path, topology: Path | str) -> ExperimentRun:
    """Run ``plan`` into ``out``; ``topology`` (may lie under ``out``) is read afterwards."""
    assert can_run(), "needs root and `ip netns`"
    assert (ROOT / "build/fabric.json").exists(), "build/fabric.json missing: run `make build`"
    stdout, progress = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout):
        outcome = run_experiment(plan, out, stream=progress)
    return ExperimentRun(plan, outcome, stdout.getvalue(), progress.getvalue(), out,
                         load_topology(str(topology)))
