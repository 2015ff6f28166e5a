"""Border failover on topologies/two_domains.toml over N runs (issue 15, item 4). Root.

One launched fabric, one controller per domain peering with the other; per run a UEC
transfer h1 (west) -> h3 (east) over the border the summaries chose (w-bd1, the lower
latency), the chosen border link cut mid-transfer, and three figures:

- repair: the west controller's own figure, from its link watch seeing the port down to
  every west switch holding routes over w-bd2 ("fabricctl link ... repaired in N ms");
- fabric: from the cut to the first packet sent on w-bd2's inter-domain port (interface
  counters polled every 2 ms), with a probe datagram h1 -> h3 every 5 ms beside the
  transfer: when the fabric carries traffic over the other border again;
- transfer: the same without the probe, the first packet being the transfer's own. It
  includes the sender's wait: the packets in flight on the cut link are lost, and once
  its window is spent it sends again at its retransmission timeout (floor 0.35 s,
  endpoints/), not when the fabric is repaired.

Each run is two transfers (with the probe, then without) per failure: ``link`` cuts
the chosen border link, ``switch`` kills the chosen border switch's process (w-bd1; its
interfaces stay up, so the west controller sees it only as a lost P4Runtime connection,
and east moves on west's summary; no "repaired" line then: the repair column is "-").
Between transfers the link is restored or the switch restarted, and the bench waits
until both controllers route over w-bd1 again.

    .venv/bin/python bench/federation_failover.py [--runs N] [--bytes N] [--failure link|switch|both]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from control.federation.failover import FAILURES, measure_failover, repair_ms
from control.launch import FabricNetwork, start_controllers
from lab.namespace import can_run
from lab.process import ManagedProcess
from lab.readiness import wait_until

ROOT = Path(__file__).resolve().parents[1]
TOPOLOGY = ROOT / "topologies/two_domains.toml"
POLICY = ROOT / "topologies/two_domains.policy.toml"
CHOSEN, OTHER = ("w-bd1", 2), ("w-bd2", 2)
PROBE_S = 0.005
BACK = {"west": "fabricctl border h3 via w-bd1:2 programmed",
        "east": "fabricctl border h1 via e-bd1:2 programmed"}


def wait_chosen_again(controllers: dict[str, ManagedProcess], times: int) -> None:
    """Until each controller has printed its route over the first border ``times`` times."""
    for name, line in BACK.items():
        process = controllers[name]
        wait_until(lambda: process.output.count(line) >= times,
                   f"{name} routing over its first border (time {times})", 60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bytes", type=int, default=1024 * 1024)
    parser.add_argument("--failure", choices=(*FAILURES, "both"), default="both")
    args = parser.parse_args(argv)
    failures = FAILURES if args.failure == "both" else (args.failure,)
    if not can_run():
        print("needs root and `ip netns`", file=sys.stderr)
        return 2
    series: dict[str, list[float]] = {}
    cuts = links = 0
    with tempfile.TemporaryDirectory(prefix="fed-failover-") as work, \
            FabricNetwork(TOPOLOGY, tag=f"bf{os.getpid()}") as net:
        controllers = start_controllers(net, POLICY)
        print(f"{'run':>4} {'failure':>8} {'series':>9} {'repair ms':>10} {'first packet ms':>16} "
              f"{'bytes ok':>9}")
        for run in range(1, args.runs + 1):
            for failure in failures:
                for label, probe in (("fabric", PROBE_S), ("transfer", None)):
                    cuts += 1
                    wait_chosen_again(controllers, cuts)
                    result = measure_failover(net, "h1", "h3", args.bytes,
                                              Path(work) / f"run{run}-{failure}-{label}", CHOSEN,
                                              OTHER, probe_interval=probe, failure=failure)
                    transfer = result.transfer
                    whole = transfer is not None and transfer.delivered_bytes == args.bytes \
                        and transfer.sender["sha256"] == transfer.delivered_sha256
                    shown_repair = "-"
                    if failure == "link":
                        links += 1
                        wait_until(lambda: len(repair_ms(controllers["west"].output, *CHOSEN)) >= links,
                                   "the west controller's repair line", 30)
                        repair = repair_ms(controllers["west"].output, *CHOSEN)[links - 1]
                        series.setdefault("link repair", []).append(repair)
                        shown_repair = f"{repair:.1f}"
                    first = result.to_first_sent_s
                    if first is not None:
                        series.setdefault(f"{failure} {label}", []).append(first * 1e3)
                    shown = "-" if first is None else f"{first * 1e3:.1f}"
                    print(f"{run:>4} {failure:>8} {label:>9} {shown_repair:>10} {shown:>16} "
                          f"{'yes' if whole else 'NO':>9}"
                          + (f"  ({'; '.join(result.notes)})" if result.notes else ""), flush=True)
                    if failure == "link":
                        net.set_link_up(*CHOSEN)
                    else:
                        net.restart_switch(CHOSEN[0])
        for label, values in series.items():
            print(f"{label} ms: median {statistics.median(values):.1f} ms, min {min(values):.1f}, "
                  f"max {max(values):.1f} over {len(values)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
