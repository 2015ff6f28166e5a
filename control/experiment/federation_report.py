"""The report's "Federation" section and its terminal table: per domain, its collector's
per-hop latency and queue depth (that domain's hops only) and a row of what it saw; per
inter-domain path, the federated latency (the sum of the domains' summaries and the
border link) beside the end-to-end figure the senders measured.

Each domain's plot is drawn from a JSON file of the very samples it shows
(federation-<domain>.json beside the PNG), so what a plot holds can be checked.
"""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any, Mapping

from matplotlib.figure import Figure

from control.collector.plots import FIGSIZE_IN, finish_hop_axes, save_figure
from control.collector.store import Store
from control.experiment.federation import FederationOutcome
from control.experiment.federation_stats import DomainSummary, FederatedPath
from control.peering.summary import PathLatency

DOMAIN_HEADER = (f"{'domain':<8} {'id':>3} {'reported ids':>12} {'hops seen':<28} "
                 f"{'reports':>7} {'path p50':>9} {'path p99':>9}")
PATH_HEADER = (f"{'path':<28} {'src part':>9} {'link':>8} {'dst part':>9} {'sum p50':>9} "
               f"{'sum p99':>9} {'RTT/2':>9}")


def domain_plot_data(db: Path, names: Mapping[int, str]) -> dict[str, Any]:
    """Per INT node in the store ``db``: its name and (time, value) series of hop latency
    (µs) and queue occupancy (packets), time from the store's first report."""
    store = Store(str(db))
    try:
        span = store.received_span()
        start = span[0] if span else 0.0
        nodes = {}
        for node in store.nodes():
            samples = store.samples(node)
            nodes[str(node)] = {
                "name": names.get(node, str(node)),
                "latency": [[s.received - start, s.hop_latency] for s in samples
                            if s.hop_latency is not None],
                "queue": [[s.received - start, s.queue_occupancy] for s in samples
                          if s.queue_occupancy is not None]}
        return {"nodes": nodes}
    finally:
        store.close()


def plot_domain(domain: str, domain_id: int, data: dict[str, Any], path: Path) -> Path:
    """Hop latency (top) and queue occupancy (bottom) over time, one line per node."""
    figure = Figure(figsize=FIGSIZE_IN, layout="constrained")
    latency_ax, queue_ax = figure.subplots(2, 1, sharex=True)
    for node, series in sorted(data["nodes"].items(), key=lambda item: int(item[0])):
        label = f"{series['name']} (node {node})"
        if series["latency"]:
            latency_ax.plot(*zip(*series["latency"]), marker=".", linewidth=0.8, label=label)
        if series["queue"]:
            queue_ax.step(*zip(*series["queue"]), where="post", marker=".", linewidth=0.8,
                          label=label)
    figure.suptitle(f"domain {domain} (id {domain_id}): INT at its own hops, from its collector")
    finish_hop_axes(latency_ax, queue_ax, "time since the domain's first report (s)")
    return save_figure(figure, path)


def plot_paths(paths: list[FederatedPath], path: Path) -> Path:
    """Per taken path, a stacked bar of the summaries' sum (source part, border link,
    destination part; p50) beside the senders' RTT/2."""
    taken = [p for p in paths if p.taken]
    figure = Figure(figsize=(FIGSIZE_IN[0], 5.0), layout="constrained")
    ax = figure.subplots()
    xs = range(len(taken))
    width = 0.38
    src = [p.src_part.p50_us / 1e3 if p.src_part else 0.0 for p in taken]
    link = [p.link_us / 1e3 for p in taken]
    dst = [p.dst_part.p50_us / 1e3 if p.dst_part else 0.0 for p in taken]
    left = [x - width / 2 for x in xs]
    ax.bar(left, src, width, label="source domain to its border (INT p50)")
    emulated = all(p.link_emulated for p in taken)
    ax.bar(left, link, width, bottom=src, hatch="" if emulated else "//",
           label="border link (configured one way" + ("" if emulated else ", NOT emulated") + ")")
    ax.bar(left, dst, width, bottom=[a + b for a, b in zip(src, link)],
           label="destination domain from its border (INT p50)")
    ax.bar([x + width / 2 for x in xs], [(p.measured_us or 0.0) / 1e3 for p in taken], width,
           label="measured: sender RTT/2 (median)", color="tab:gray")
    ax.set_xticks(list(xs), [f"{p.src_domain}->{p.dst_domain}\n{p.src_border}/{p.dst_border}"
                             for p in taken], fontsize="small")
    ax.set_ylabel("one-way latency (ms)")
    ax.set_title("federated path latency: sum of the domains' summaries vs measured")
    ax.grid(True, axis="y", alpha=0.3)
    if taken:
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    else:
        ax.text(0.5, 0.5, "no path with reports in both domains", ha="center", va="center",
                transform=ax.transAxes)
    return save_figure(figure, path)


def _us(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.0f}us" if value < 10_000 else f"{value / 1e3:.1f}ms"


def _latency(latency: PathLatency | None, which: str) -> str:
    if latency is None:
        return "-"
    return _us(latency.p50_us if which == "p50" else latency.p99_us)


def format_domain(row: DomainSummary, names: Mapping[int, str]) -> str:
    reported = ",".join(str(d) for d in row.reported_ids) or "-"
    seen = ",".join(names.get(n, str(n)) for n in row.nodes) or "-"
    return (f"{row.domain:<8} {row.domain_id:>3} {reported:>12} {seen:<28} {row.reports:>7} "
            f"{_latency(row.latency, 'p50'):>9} {_latency(row.latency, 'p99'):>9}")


def format_path(path: FederatedPath) -> str:
    name = f"{path.src_domain}->{path.dst_domain} {path.src_border}/{path.dst_border}"
    link = _us(path.link_us) + ("" if path.link_emulated else "*")
    return (f"{name:<28} {_latency(path.src_part, 'p50'):>9} {link:>8} "
            f"{_latency(path.dst_part, 'p50'):>9} {_us(path.total_p50_us):>9} "
            f"{_us(path.total_p99_us):>9} {_us(path.measured_us):>9}")


def names_of(outcome: FederationOutcome) -> dict[int, str]:
    return {s.node_id: s.name for s in outcome.topology.switches}


def _caption(outcome: FederationOutcome) -> str:
    done = sum(t.complete for t in outcome.transfers)
    sizes = sorted({t.nbytes for t in outcome.transfers})
    return (f"federation: {len(outcome.topology.domains)} domains, "
            f"{len(outcome.topology.interdomain_links)} border links; {done}/"
            f"{len(outcome.transfers)} transfers of {'/'.join(str(s // 1024) for s in sizes)} KB "
            f"complete" + (f"; fabric failed: {outcome.error}" if outcome.error else ""))


def _link_note(outcome: FederationOutcome) -> str:
    if outcome.latency_emulated:
        return "border-link latency emulated with tc netem (the sums include it as configured)"
    return ("* border-link latency NOT emulated (this kernel has no netem): the links run at "
            "their rate only; the sums add the configured latency, the measured RTT/2 does not "
            "contain it")


def format_federation(outcome: FederationOutcome) -> str:
    """The terminal table: a row per domain, a row per inter-domain path."""
    names = names_of(outcome)
    lines = [_caption(outcome), DOMAIN_HEADER, *(format_domain(r, names) for r in outcome.domains),
             PATH_HEADER, *(format_path(p) for p in outcome.paths), _link_note(outcome)]
    lines += [f"incomplete: {t.src} -> {t.dst}: {t.error}" for t in outcome.transfers
              if not t.complete]
    return "\n".join(lines)


def write_federation_figures(outcome: FederationOutcome, out: Path) -> list[tuple[str, Path]]:
    """federation-<domain>.png (and .json, its data) per domain, federation-paths.png."""
    names = names_of(outcome)
    written = []
    for row in outcome.domains:
        data = domain_plot_data(outcome.dbs[row.domain], names)
        data.update(domain=row.domain, domain_id=row.domain_id)
        (out / f"federation-{row.domain}.json").write_text(json.dumps(data) + "\n")
        written.append((f"domain {row.domain}: per-hop latency and queue depth (its hops only)",
                        plot_domain(row.domain, row.domain_id, data,
                                    out / f"federation-{row.domain}.png")))
    if outcome.paths:
        written.append(("federated path latency",
                        plot_paths(outcome.paths, out / "federation-paths.png")))
    return written


def federation_section(outcome: FederationOutcome, out: Path) -> list[str]:
    """HTML: the section's text, both tables and its figures (written into ``out``)."""
    figures = write_federation_figures(outcome, out)
    names = names_of(outcome)
    domains = "\n".join([DOMAIN_HEADER, *(format_domain(r, names) for r in outcome.domains)])
    paths = "\n".join([PATH_HEADER, *(format_path(p) for p in outcome.paths)])
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in outcome.notes)
    body = [
        "<h2 id=\"federation\">Federation</h2>",
        f"<p>{html.escape(_caption(outcome))}. topologies/two_domains.toml: domains west "
        "and east, one controller and one collector each; INT is sunk at each border "
        "(reported to its own domain's collector with its domain id) and sourced again "
        "toward the next domain, so each collector sees only its own domain's hops.</p>",
        "<p>Per domain: its configured id, the <code>domain_id</code> its collector decoded "
        "from the Telemetry Reports, the INT nodes it saw, its reports and the p50/p99 of "
        "their path latency (the sum of the hop latencies in one report).</p>",
        "<pre>" + html.escape(domains) + "</pre>",
        "<p>Per inter-domain path (direction and border link): the source domain's INT "
        "latency to its border (p50), the border link's configured one-way latency, the "
        "destination domain's from its border (p50), their sum at p50 and p99 (the sum of "
        "the domains' summaries, as a peer adds them, not a per-packet figure), beside what "
        "the senders measured end to end: half their smoothed RTT, median over that "
        "direction's transfers. RTT/2 also holds the host links and the Python endpoints' "
        "own time, which INT hop latency does not. Once the peers' summaries rank a border "
        "first, each controller routes the other domain over it alone "
        "(control/controller/border_routes.py); before that both borders may carry "
        "traffic. A dash: no reports via that border.</p>",
        "<pre>" + html.escape(paths) + "</pre>",
        f"<p><strong>{html.escape(_link_note(outcome))}.</strong></p>"]
    if notes:
        body.append(f"<p>The launch noted:</p><ul>{notes}</ul>")
    body += [f"<h3>{html.escape(title)}</h3><img src=\"{path.name}\" alt=\"{html.escape(title)}\">"
             for title, path in figures]
    return body


__all__ = ["DOMAIN_HEADER", "PATH_HEADER", "domain_plot_data", "federation_section",
           "format_federation", "plot_domain", "plot_paths", "write_federation_figures"]
