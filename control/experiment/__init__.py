"""The leaf-spine fabric experiment (`make run`): what spraying, credits, trimming and
INT buy, measured on real switches with rate-limited links.

``python -m control.experiment`` (root) launches topologies/leaf_spine.toml with its
leaf-spine links shaped (a topology copy with ``rate_pps``, plus a telemetry collector),
runs each workload under each mode, prints one table row per (workload, mode) and writes
report.html with its PNGs, and the per-port pcaps of one fabric (the plan's ``capture``)
in pcaps/<switch>/ for tools/wireshark/p4fabric.lua. The Python API is
run_experiment(plan, out_dir).

Two leaves, not four: the default run already takes three minutes with four switches
and up to sixteen endpoint processes on two cores (load average above 5); six switches
would pass the five-minute budget and make the CPU, not the links, the bottleneck.
"""
from control.experiment.plan import Plan, default_plan, full_plan, minimal_plan
from control.experiment.runner import run_experiment

__all__ = ["Plan", "default_plan", "full_plan", "minimal_plan", "run_experiment"]
