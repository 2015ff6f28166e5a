"""The leaf-spine fabric experiment (`make run`): what spraying, credits, trimming,
partitions and INT buy, measured on real switches with rate-limited links.

``python -m control.experiment`` (root) launches topologies/four_leaves.toml (or
``--topology leaf_spine``) with its leaf-spine links shaped (a topology copy with
``rate_pps``, plus a telemetry collector), runs each workload (permutation, all-to-all,
3:1 incast) under each mode (ECMP, entropy, round robin, adaptive INT-driven weights),
the incast with credits and trimming off, and the mixed case (front-end kernel TCP
beside back-end UEC, with and without partition queues); prints one table row per
(workload, mode) and writes report.html with its PNGs, and the per-port pcaps of one
fabric (the plan's ``capture``) in pcaps/<switch>/ for tools/wireshark/p4fabric.lua.
After the fabric's steps, `make run` runs the two-domain demo (federation.py:
topologies/two_domains.toml, a controller and a collector per domain, transfers across
the border each way) and the report ends with its "Federation" section (per-domain INT
plots, the federated path latency); FEDERATION=off skips it.
The Python API is run_experiment(plan, out_dir); plan.py's docstring says why four
leaves and how long it takes.
"""
from control.experiment.plan import (Plan, default_plan, federation_plan, full_plan, minimal_plan,
                                     mixed_plan)
from control.experiment.runner import run_experiment

__all__ = ["Plan", "default_plan", "federation_plan", "full_plan", "minimal_plan", "mixed_plan",
           "run_experiment"]
