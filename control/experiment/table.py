"""The terminal table: one row per (workload, mode)."""
from __future__ import annotations

from control.experiment.metrics import Row
from control.experiment.plan import Plan

HEADER = (f"{'workload':<12} {'mode':<32} {'flows':>7} {'spine pps max/mean':>18} "
          f"{'max/mean':>8} {'FCT p50':>8} {'FCT p99':>8} {'Mb/s':>6} {'drops':>6} "
          f"{'trims':>6} {'retx':>5}")


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}s"


def format_row(row: Row) -> str:
    done = f"{row.completed}/{row.flows}" + ("" if row.complete else "!")
    ratio = "-" if row.imbalance is None else f"{row.imbalance:.2f}"
    line = (f"{row.workload:<12} {row.mode:<32} {done:>7} "
            f"{f'{row.load_max_pps:.0f}/{row.load_mean_pps:.0f}':>18} {ratio:>8} "
            f"{_seconds(row.fct_p50_s):>8} {_seconds(row.fct_p99_s):>8} {row.goodput_mbps:>6.2f} "
            f"{row.drops:>6} {row.trims:>6} {row.retransmissions:>5}")
    return line + (f"  incomplete: {row.error}" if row.error else
                   ("  incomplete" if not row.complete else ""))


def format_table(rows: list[Row], plan: Plan) -> str:
    """The whole table with a caption naming the time scale."""
    caption = (f"leaf_spine (2 leaves x 2 spines, 4 hosts), leaf-spine links at "
               f"{plan.link_pps:.0f} packets/s each way, incast last hop at "
               f"{plan.bottleneck_pps:.0f} packets/s ({1000 / plan.link_pps:.0f} ms and "
               f"{1000 / plan.bottleneck_pps:.1f} ms per packet); 1200-byte payloads")
    return "\n".join([caption, HEADER, *(format_row(row) for row in rows)])
