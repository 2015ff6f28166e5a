"""python -m control.experiment [--full] [--topology NAME] [--out DIR] [--no-federation]
[--workload NAME ...] [--mode MODE ...] [--switch-uplinks PPS] (root): the leaf-spine experiment,
then the two-domain federation demo.

--workload / --mode keep only those steps (e.g. ``--workload permutation --mode entropy
--mode adaptive``: two launches, no federation demo), for a quick measurement.
--switch-uplinks PPS drains every leaf uplink at PPS packets/s in the switch's own queue
(plan.Plan.uplink_pps; below the link rate the queues then build where INT and adaptive
spraying see them, not in tc after the switch), to compare.

EXPERIMENT=full in the environment is the same as --full, FEDERATION=off the same as
--no-federation (the Makefile passes the environment on).
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

from control.experiment.plan import (DEFAULT_TOPOLOGY, MODES, WORKLOADS, default_plan,
                                     full_plan, only)
from control.experiment.runner import run_experiment
from control.launch import ROOT
from lab.namespace import can_run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m control.experiment",
                                     description="spraying, credits, trimming and INT on a "
                                                 "rate-limited leaf-spine fabric")
    parser.add_argument("--full", action="store_true", default=os.environ.get("EXPERIMENT") == "full",
                        help="the full matrix (also EXPERIMENT=full)")
    parser.add_argument("--topology", choices=sorted(WORKLOADS), default=DEFAULT_TOPOLOGY,
                        help="the fabric (topologies/NAME.toml; default %(default)s)")
    parser.add_argument("--out", type=Path, default=ROOT / "build/experiment",
                        help="output directory (default build/experiment)")
    parser.add_argument("--no-federation", action="store_true",
                        default=os.environ.get("FEDERATION") == "off",
                        help="skip the two-domain demo after the fabric's report "
                             "(also FEDERATION=off)")
    parser.add_argument("--workload", action="append", default=[],
                        choices=sorted({w.name for ws in WORKLOADS.values()
                                        for w in (ws.permutation, ws.shuffle, ws.incast,
                                                  ws.mixed)}),
                        help="only this workload's steps (repeatable)")
    parser.add_argument("--mode", action="append", default=[], choices=MODES,
                        help="only this spraying mode's steps (repeatable)")
    parser.add_argument("--switch-uplinks", type=float, metavar="PPS",
                        help="drain every leaf uplink at PPS packets/s in the switch's own "
                             "queue (default: tc's links only)")
    args = parser.parse_args(argv)
    if not can_run():
        print("control.experiment: needs root and `ip netns`", file=sys.stderr)
        return 1
    if not (ROOT / "build/fabric.json").exists():
        print("control.experiment: build/fabric.json missing; run `make build`", file=sys.stderr)
        return 1
    plan = full_plan(args.topology) if args.full else default_plan(args.topology)
    if args.workload or args.mode:
        plan = only(plan, tuple(args.workload), tuple(args.mode))
    if args.switch_uplinks is not None:
        if not 0 < args.switch_uplinks < plan.link_pps:
            parser.error(f"--switch-uplinks {args.switch_uplinks:g}: must be above 0 and below "
                         f"the links' {plan.link_pps:g} packets/s")
        plan = dataclasses.replace(plan, uplink_pps=args.switch_uplinks)
    if args.no_federation:
        plan = dataclasses.replace(plan, federation=None)
    outcome = run_experiment(plan, args.out)
    demo_ok = outcome.federation is None or not outcome.federation.error
    return 0 if outcome.rows and demo_ok else 1


if __name__ == "__main__":
    sys.exit(main())
