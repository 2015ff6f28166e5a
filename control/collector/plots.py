"""PNG plots of the store: per node, hop latency and queue occupancy over time (one
line per ingress -> egress port pair), and how often each path was taken.

Rendered with matplotlib's Agg canvas on Figure objects, never pyplot: no display is
needed and no global figure state is shared between threads or collectors.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from control.collector.store import HopSample, Store

FIGSIZE_IN = (10.0, 6.0)
DPI = 100
PIXELS = (int(FIGSIZE_IN[0] * DPI), int(FIGSIZE_IN[1] * DPI))
"""Width and height of every PNG written here."""
WINDOW_S = 600.0
"""Plots show the last ten minutes of reports by default, so that redrawing them costs
the same after an hour as after a minute."""


def window_start(store: Store, window: float | None) -> tuple[float, float | None]:
    """(time zero of the x axis, earliest report to plot) for the last ``window``
    seconds of reports, or all of them if ``window`` is None."""
    span = store.received_span()
    if span is None:
        return 0.0, None
    first, last = span
    if window is None or last - window <= first:
        return first, None
    return last - window, last - window


def _show_port(port: int | None) -> str:
    return "?" if port is None else str(port)


def _port_label(ingress: int | None, egress: int | None) -> str:
    return f"port {_show_port(ingress)} -> {_show_port(egress)}"


def _node_name(node_id: int | None, names: Mapping[int, str] | None) -> str:
    if node_id is None:
        return "?"
    return (names or {}).get(node_id, str(node_id))


def _node_label(node_id: int, names: Mapping[int, str] | None) -> str:
    name = (names or {}).get(node_id)
    return f"{name} (node {node_id})" if name else f"node {node_id}"


def _by_ports(samples: list[HopSample]) -> dict[tuple[int | None, int | None], list[HopSample]]:
    groups: dict[tuple[int | None, int | None], list[HopSample]] = {}
    for sample in samples:
        groups.setdefault((sample.ingress_port, sample.egress_port), []).append(sample)
    return groups


def save_figure(figure: Figure, path: Path) -> Path:
    """Write a figure as PNG with the Agg canvas (headless), creating the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(figure)
    figure.savefig(path, dpi=DPI, format="png")
    return path


def plot_node(store: Store, node_id: int, path: Path | str,
              names: Mapping[int, str] | None = None, window: float | None = WINDOW_S) -> Path:
    """Hop latency (top) and queue occupancy (bottom) over time at one node."""
    start, since = window_start(store, window)
    figure = Figure(figsize=FIGSIZE_IN, layout="constrained")
    latency_ax, queue_ax = figure.subplots(2, 1, sharex=True)
    for (ingress, egress), samples in sorted(_by_ports(store.samples(node_id, since)).items(),
                                             key=lambda item: str(item[0])):
        label = _port_label(ingress, egress)
        latency = [(s.received - start, s.hop_latency) for s in samples if s.hop_latency is not None]
        queue = [(s.received - start, s.queue_occupancy) for s in samples
                 if s.queue_occupancy is not None]
        if latency:
            latency_ax.plot(*zip(*latency), marker=".", linewidth=1, label=label)
        if queue:
            queue_ax.step(*zip(*queue), where="post", marker=".", linewidth=1, label=label)
    figure.suptitle(f"INT at {_node_label(node_id, names)}")
    finish_hop_axes(latency_ax, queue_ax,
                    "time since the first report (s)" if since is None else
                    f"time (s), last {window:g} s of reports")
    return save_figure(figure, Path(path))


def finish_hop_axes(latency_ax: Any, queue_ax: Any, xlabel: str) -> None:
    """Labels, grid and legend (or "no samples") of a per-hop latency / queue figure."""
    latency_ax.set_ylabel("hop latency (µs)")
    queue_ax.set_ylabel("queue occupancy (packets)")
    queue_ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    queue_ax.set_xlabel(xlabel)
    for ax in (latency_ax, queue_ax):
        ax.grid(True, alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
        else:
            ax.text(0.5, 0.5, "no samples", ha="center", va="center", transform=ax.transAxes)


def plot_paths(store: Store, path: Path | str, names: Mapping[int, str] | None = None,
               limit: int = 20, window: float | None = WINDOW_S) -> Path:
    """Reports per port-level path, most used first: how traffic was sprayed over the
    fabric, parallel links included."""
    since = window_start(store, window)[1]
    counts = sorted(store.port_path_counts(since).items(), key=lambda item: (-item[1], str(item[0])))
    counts = counts[:limit]
    figure = Figure(figsize=FIGSIZE_IN, layout="constrained")
    ax = figure.subplots()

    def show(hops: tuple) -> str:
        return "  ->  ".join(f"{_node_name(node, names)} [{_show_port(i)}->{_show_port(e)}]"
                             for node, i, e in hops) or "(no hops)"

    ax.barh(range(len(counts)), [c for _, c in counts], height=0.6)
    ax.set_yticks(range(len(counts)), [show(hops) for hops, _ in counts], fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("reports")
    ax.set_title("INT paths taken, source first [ingress -> egress port]"
                 + ("" if since is None else f", last {window:g} s"))
    ax.grid(True, axis="x", alpha=0.3)
    if not counts:
        ax.text(0.5, 0.5, "no reports", ha="center", va="center", transform=ax.transAxes)
    return save_figure(figure, Path(path))


def write_plots(store: Store, directory: Path | str, names: Mapping[int, str] | None = None,
                window: float | None = WINDOW_S) -> list[Path]:
    """node-<id>.png for every node seen, and paths.png; returns the files written."""
    directory = Path(directory)
    written = [plot_node(store, node, directory / f"node-{node}.png", names, window)
               for node in store.nodes()]
    written.append(plot_paths(store, directory / "paths.png", names, window=window))
    return written


__all__ = ["DPI", "PIXELS", "WINDOW_S", "plot_node", "plot_paths", "window_start", "write_plots"]
