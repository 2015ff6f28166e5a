"""report.html and its PNGs: spine-link load per mode, FCT CDFs, incast goodput with
and without credits and trimming, the mixed case (back-end UEC FCT and front-end TCP
goodput, with and without partition queues), and per-hop latency / queue depth from
the INT reports each fabric's collector stored.

Figures are drawn on matplotlib Figure objects with the Agg canvas, like
control/collector/plots.py (whose per-node INT plot is reused here): no pyplot state.
The per-port pcaps of the captured fabric are linked with how to decode them with
tools/wireshark/p4fabric.lua. A run with the two-domain demo ends with its "Federation"
section (control/experiment/federation_report.py).
"""
from __future__ import annotations

import html
from pathlib import Path
from typing import Mapping

from matplotlib.figure import Figure

from control.collector.plots import plot_node, save_figure
from control.collector.store import Store
from control.experiment.federation import FederationOutcome
from control.experiment.federation_report import federation_section
from control.experiment.pcaps import Capture, summary
from control.experiment.metrics import Row
from control.experiment.plan import Plan
from control.experiment.table import HEADER, format_row, format_table
from control.launch import ROOT

FIGSIZE = (10.0, 5.0)
DISSECTOR = ROOT / "tools/wireshark/p4fabric.lua"


def _by_workload(rows: list[Row]) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(row.workload, []).append(row)
    return groups


def plot_link_load(rows: list[Row], path: Path) -> Path:
    """Packets per directed leaf-spine link, one panel per workload, a bar per mode."""
    groups = _by_workload(rows)
    figure = Figure(figsize=(FIGSIZE[0], 3.6 * max(1, len(groups))), layout="constrained")
    axes = figure.subplots(max(1, len(groups)), 1, squeeze=False)[:, 0]
    for ax, (workload, mine) in zip(axes, groups.items()):
        links = sorted({link for row in mine for link in row.link_packets})
        width = 0.8 / max(1, len(mine))
        for i, row in enumerate(mine):
            ax.bar([x + i * width for x in range(len(links))],
                   [row.link_packets.get(link, 0) for link in links], width, label=row.mode)
        crowded = len(links) > 8     # four leaves: 16 links, labels slanted to stay apart
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(links))], links, fontsize="small",
                      rotation=35 if crowded else 0, ha="right" if crowded else "center")
        ax.set_ylabel("packets sent")
        ax.set_title(f"{workload}: load on each leaf-spine link")
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize="small")
    return save_figure(figure, path)


def plot_fct_cdf(rows: list[Row], path: Path) -> Path:
    """Flow completion time CDF per mode, one panel per workload."""
    groups = _by_workload(rows)
    figure = Figure(figsize=(FIGSIZE[0], 3.2 * max(1, len(groups))), layout="constrained")
    axes = figure.subplots(max(1, len(groups)), 1, squeeze=False)[:, 0]
    for ax, (workload, mine) in zip(axes, groups.items()):
        for row in mine:
            if row.fcts:
                xs = sorted(row.fcts)
                ax.step(xs, [(i + 1) / len(xs) for i in range(len(xs))], where="post",
                        marker=".", label=f"{row.mode} ({row.completed}/{row.flows})")
        ax.set_xlabel("flow completion time (s)")
        ax.set_ylabel("fraction of flows")
        ax.set_ylim(0, 1.05)
        ax.set_title(f"{workload}: FCT CDF")
        ax.grid(True, alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="small")
    return save_figure(figure, path)


def plot_incast(rows: list[Row], path: Path) -> Path:
    """Incast goodput per setting (credit on/off, trimming on/off), with trims and drops."""
    mine = [row for row in rows if row.workload.startswith("incast")]
    figure = Figure(figsize=FIGSIZE, layout="constrained")
    ax = figure.subplots()
    bars = ax.bar(range(len(mine)), [row.goodput_mbps for row in mine], 0.6)
    for bar, row in zip(bars, mine):
        ax.annotate(f"{row.completed}/{row.flows} done\n{row.trims} trims, {row.drops} drops",
                    (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center",
                    va="bottom", fontsize="small")
    ax.set_xticks(range(len(mine)), [row.mode for row in mine], fontsize="small", rotation=15)
    ax.set_ylabel("goodput (Mb/s, all flows)")
    ax.margins(y=0.2)   # room for the annotations under the title
    ax.set_title("3:1 incast: goodput with and without credits and trimming")
    ax.grid(True, axis="y", alpha=0.3)
    if not mine:
        ax.text(0.5, 0.5, "no incast in this run", ha="center", va="center",
                transform=ax.transAxes)
    return save_figure(figure, path)


def mixed_rows(rows: list[Row]) -> list[Row]:
    """The mixed case's rows (those with front-end TCP)."""
    return [row for row in rows if row.tcp_goodput_mbps is not None]


def plot_mixed(rows: list[Row], path: Path) -> Path:
    """Per mixed variant: back-end UEC FCT p50 and p99 (left) beside front-end TCP
    goodput (right)."""
    mine = mixed_rows(rows)
    figure = Figure(figsize=FIGSIZE, layout="constrained")
    left, right = figure.subplots(1, 2)
    xs = range(len(mine))
    width = 0.38
    left.bar([x - width / 2 for x in xs], [row.fct_p50_s or 0.0 for row in mine], width,
             label="p50")
    left.bar([x + width / 2 for x in xs], [row.fct_p99_s or 0.0 for row in mine], width,
             label="p99")
    left.set_ylabel("UEC flow completion time (s)")
    left.set_title("back end: UEC FCT")
    bars = right.bar(xs, [row.tcp_goodput_mbps or 0.0 for row in mine], 0.6, color="tab:green")
    for bar, row in zip(bars, mine):
        right.annotate(f"{row.tcp_completed}/{row.tcp_flows} done\n{row.tcp_retransmissions} retx",
                       (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center",
                       va="bottom", fontsize="small")
    right.set_ylabel("TCP goodput (Mb/s, all flows)")
    right.set_title("front end: TCP goodput")
    right.margins(y=0.2)
    for ax in (left, right):
        ax.set_xticks(list(xs), [row.mode for row in mine], fontsize="small")
        ax.grid(True, axis="y", alpha=0.3)
        if not mine:
            ax.text(0.5, 0.5, "no mixed case in this run", ha="center", va="center",
                    transform=ax.transAxes)
    if mine:
        left.legend(fontsize="small")
    return save_figure(figure, path)


def mixed_section(rows: list[Row]) -> list[str]:
    """HTML: the mixed case's figures per variant, in words and a table."""
    mine = mixed_rows(rows)
    if not mine:
        return []
    cells = "".join(
        f"<tr><td>{html.escape(row.mode)}</td><td>{row.completed}/{row.flows}</td>"
        f"<td>{_fct(row.fct_p50_s)}</td><td>{_fct(row.fct_p99_s)}</td>"
        f"<td>{row.tcp_completed}/{row.tcp_flows}</td><td>{row.tcp_goodput_mbps or 0.0:.2f}</td>"
        f"<td>{row.tcp_retransmissions}</td></tr>" for row in mine)
    return ["<h2>Mixed case: front-end TCP beside back-end UEC</h2>",
            "<p>Back-end UEC flows and front-end TCP flows (the kernel's TCP in the host "
            "namespaces) share the leaf uplinks, each in its own partition. With partition "
            "queues the back end's class drains first (strict priority); with one queue both "
            "wait in the same FIFO.</p>",
            "<table><tr><th>case</th><th>UEC flows</th><th>UEC FCT p50</th><th>UEC FCT p99</th>"
            "<th>TCP flows</th><th>TCP goodput (Mb/s)</th><th>TCP retx</th></tr>" + cells
            + "</table>"]


def _fct(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} s"


def plot_int(dbs: dict[str, Path], out: Path, names: Mapping[int, str]) -> list[tuple[str, Path]]:
    """Per fabric setting, the INT per-hop latency and queue depth at the busiest node
    (most hops reported; the incast receiver's leaf when there is an incast)."""
    written = []
    for index, (label, db) in enumerate(dbs.items()):
        if not db.exists():
            continue
        store = Store(str(db))
        try:
            summaries = store.hop_summaries()
            if not summaries:
                continue
            busiest = max(summaries, key=lambda s: (s.max_queue, s.samples)).node_id
            path = plot_node(store, busiest, out / f"int-{index}.png", names, window=None)
            written.append((label, path))
        finally:
            store.close()
    return written


def _size(nbytes: int) -> str:
    return f"{nbytes} B" if nbytes < 10_000 else f"{nbytes / 1e3:,.0f} kB"


def pcap_section(captures: list[Capture], out: Path, plan: Plan) -> list[str]:
    """HTML: what was captured, how to open it with the dissector, a link per file."""
    if not captures:
        return []
    steps = [s for s in plan.steps if s.setting == plan.capture]
    example = max(captures, key=lambda c: c.size).path   # a busy port: INT inside
    what = html.escape(", ".join(f"{s.workload.name} ({s.label})" for s in steps))
    rows = "".join(
        f"<tr><td>{html.escape(c.switch)}</td><td>{c.port}</td><td>{c.direction}</td>"
        f"<td><a href=\"{html.escape(c.path.relative_to(out).as_posix())}\">"
        f"{html.escape(c.path.name)}</a></td><td>{c.packets:,}"
        + (f" (first of {c.written:,})" if c.cut else "") + f"</td><td>{_size(c.size)}</td></tr>"
        for c in captures)
    return [
        "<h2>Packet captures</h2>",
        f"<p>Every packet each switch port received (<code>_in</code>) and sent "
        f"(<code>_out</code>) while the {html.escape(plan.capture.label if plan.capture else '')} "
        f"fabric was up, i.e. during {what}: {html.escape(summary(captures, plan.pcap_cap_bytes))}. "
        f"Only that fabric is captured, and a file is cut at "
        f"{plan.pcap_cap_bytes / 1e6:.1f} MB, to keep the captures small.</p>",
        "<p>Open one with the fabric's dissector (UEC PDS headers, INT-MD shim and hop stack, "
        "Telemetry Reports with their inner packets):</p>",
        "<pre>" + html.escape(
            f"wireshark -X lua_script:{DISSECTOR} {example}\n"
            f"tshark -X lua_script:{DISSECTOR} -r {example} -V\n"
            f"tshark -X lua_script:{DISSECTOR} -r {example} -Y int.hop.node_id -T fields "
            f"-e frame.number -e int.hop.node_id -e int.hop.hop_latency") + "</pre>",
        "<p>or copy <code>tools/wireshark/p4fabric.lua</code> into "
        "<code>~/.local/lib/wireshark/plugins/</code> to load it every time "
        "(see tools/wireshark/README.md).</p>",
        "<table><tr><th>switch</th><th>port</th><th>direction</th><th>file</th>"
        "<th>packets</th><th>size</th></tr>" + rows + "</table>"]


def write_report(rows: list[Row], dbs: dict[str, Path], out: Path, plan: Plan,
                 names: Mapping[int, str], captures: list[Capture] | None = None,
                 federation: FederationOutcome | None = None) -> Path:
    """Every PNG, then report.html referencing them and the pcaps (relative paths);
    ``names``: INT node id -> switch name; ``federation``: the two-domain demo's section."""
    figures = [("Spine-link load per mode", plot_link_load(rows, out / "link-load.png")),
               ("Flow completion times", plot_fct_cdf(rows, out / "fct-cdf.png")),
               ("Incast goodput, credits and trimming", plot_incast(rows, out / "incast.png"))]
    if mixed_rows(rows):
        figures.append(("Mixed case: UEC FCT and TCP goodput, with and without partition queues",
                        plot_mixed(rows, out / "mixed.png")))
    figures += [(f"INT per-hop latency and queue depth: {label}", path)
                for label, path in plot_int(dbs, out, names)]
    caption = format_table(rows, plan).splitlines()[0]
    body = [f"<h1>p4sim leaf-spine experiment</h1><p>{html.escape(caption)}</p>",
            "<pre>" + html.escape("\n".join([HEADER, *(format_row(r) for r in rows)])) + "</pre>",
            "<p>spine pps: packets per second sent on the leaf-spine links the data crosses "
            "(max and mean over those links). tier max/mean: the worse tier's (uplinks, "
            "downlinks) max/mean over those links, which also counts how much each leaf "
            "sends; leaf max/mean: the worst source leaf's max/mean over its own uplinks, "
            "spraying's own balance; 1.00 = evenly spread. Drops: data "
            "packets sent but never arrived; trims: packets the switches cut to headers. "
            "TCP Mb/s and TCP retx: the mixed case's front-end TCP flows (the other columns "
            "are UEC's).</p>"]
    body += mixed_section(rows)
    body += [f"<h2>{html.escape(title)}</h2><img src=\"{path.name}\" alt=\"{html.escape(title)}\">"
             for title, path in figures]
    body += pcap_section(captures or [], out, plan)
    if federation is not None:
        body += federation_section(federation, out)
    report = out / "report.html"
    report.write_text("<!doctype html><html><head><meta charset=\"utf-8\"><title>p4sim "
                      "experiment</title></head><body>" + "\n".join(body) + "</body></html>\n")
    return report
