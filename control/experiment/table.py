"""The terminal table: one row per (workload, mode). "tier max/mean" is the worse tier's
max/mean over every used leaf-spine link (how much each leaf sends counts too); "leaf
max/mean" the worst source leaf's over its own uplinks (spraying's own balance: see
control/experiment/metrics.py). The last two columns are the mixed
case's front-end TCP (goodput of its flows together, kernel retransmissions; "-" where a
step has no TCP); the others are UEC's."""
from __future__ import annotations

from control.experiment.fabric import topology_file
from control.experiment.metrics import Row
from control.experiment.plan import Plan
from control.topology import load_topology

HEADER = (f"{'workload':<12} {'mode':<32} {'flows':>7} {'spine pps max/mean':>18} "
          f"{'tier max/mean':>13} {'leaf max/mean':>13} {'FCT p50':>8} {'FCT p99':>8} {'Mb/s':>6} {'drops':>6} "
          f"{'trims':>6} {'retx':>5} {'TCP Mb/s':>8} {'TCP retx':>8}")


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}s"


def _tcp(row: Row) -> tuple[str, str]:
    if row.tcp_goodput_mbps is None:
        return "-", "-"
    flag = "" if row.tcp_completed == row.tcp_flows else "!"
    return f"{row.tcp_goodput_mbps:.2f}{flag}", str(row.tcp_retransmissions)


def format_row(row: Row) -> str:
    done = f"{row.completed}/{row.flows}" + ("" if row.complete else "!")
    ratio = "-" if row.imbalance is None else f"{row.imbalance:.2f}"
    leaf = "-" if row.leaf_imbalance is None else f"{row.leaf_imbalance:.2f}"
    tcp_mbps, tcp_retx = _tcp(row)
    line = (f"{row.workload:<12} {row.mode:<32} {done:>7} "
            f"{f'{row.load_max_pps:.0f}/{row.load_mean_pps:.0f}':>18} {ratio:>13} {leaf:>13} "
            f"{_seconds(row.fct_p50_s):>8} {_seconds(row.fct_p99_s):>8} {row.goodput_mbps:>6.2f} "
            f"{row.drops:>6} {row.trims:>6} {row.retransmissions:>5} {tcp_mbps:>8} {tcp_retx:>8}")
    return line + (f"  incomplete: {row.error}" if row.error else
                   ("  incomplete" if not row.complete else ""))


def format_table(rows: list[Row], plan: Plan) -> str:
    """The whole table with a caption naming the time scale."""
    topology = load_topology(str(topology_file(plan.topology)))
    leaves = sum(1 for s in topology.switches if s.role == "leaf")
    caption = (f"{plan.topology} ({leaves} leaves x {len(topology.switches) - leaves} spines, "
               f"{len(topology.hosts)} hosts), leaf-spine links at "
               f"{plan.link_pps:.0f} packets/s each way, incast last hop at "
               f"{plan.bottleneck_pps:.0f} packets/s ({1000 / plan.link_pps:.0f} ms and "
               f"{1000 / plan.bottleneck_pps:.1f} ms per packet); 1200-byte payloads")
    if plan.uplink_pps is not None:
        caption += (f"; leaf uplinks at {plan.uplink_pps:.0f} packets/s in the switch's queue")
    if any(step.setting.slow_uplink for step in plan.steps) and plan.slow_uplink_rates:
        every, first = plan.slow_uplink_rates
        caption += (f"; one slow uplink: leaf uplinks at {every:.0f} packets/s in the "
                    f"switch's queue, each leaf's first at {first:.0f}")
    if any(step.workload.mixed for step in plan.steps):
        caption += (f"; mixed: back-end UEC beside front-end TCP, uplinks at "
                    f"{plan.mixed_pps:.0f} packets/s in the switch's queue, no ECN or trimming")
    return "\n".join([caption, HEADER, *(format_row(row) for row in rows)])
