"""Draws each lab's figure (labs/<lab>/figure.png): ``python -m labs.figures``.

The PNGs are committed; rerun this after changing a figure's numbers.
"""
from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the file-only backend)
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from labs.catalog import LABS_DIR  # noqa: E402

UPLINKS = (2, 3, 4, 5)


def spraying() -> Figure:
    """Eight packets of one flow: ECMP puts all on one uplink, spraying two on each."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3), sharey=True)
    for ax, counts, title in ((left, (8, 0, 0, 0), "ECMP: the flow hashes to one uplink"),
                              (right, (2, 2, 2, 2), "spraying: each packet takes the next")):
        ax.bar([str(p) for p in UPLINKS], counts, color="#4477aa")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("uplink (egress port)")
    left.set_ylabel("packets of one flow (of 8)")
    fig.tight_layout()
    return fig


def ecn() -> Figure:
    """A queue that grows past its threshold: ECN-capable packets above it are marked."""
    depth = [0, 1, 3, 6, 9, 12, 14, 15, 13, 10, 7, 4, 2, 1, 0]
    threshold = 8
    fig, ax = plt.subplots(figsize=(8, 3))
    ax.plot(range(len(depth)), depth, marker="o", color="#4477aa", label="queue depth a packet meets")
    ax.axhline(threshold, color="#cc6677", linestyle="--", label="threshold of the port")
    marked = [(t, d) for t, d in enumerate(depth) if d >= threshold]
    ax.scatter([t for t, _ in marked], [d for _, d in marked], s=120, facecolors="none",
               edgecolors="#cc6677", linewidths=2, label="ECT packet leaves marked CE (ECN = 11)")
    ax.set_xlabel("packet")
    ax.set_ylabel("packets queued")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    return fig


def _packet(ax: Axes, y: float, parts: list[tuple[str, int, str]], cut: int | None = None) -> None:
    x = 0
    for label, size, colour in parts:
        ax.add_patch(Rectangle((x, y), size, 0.6, facecolor=colour, edgecolor="black"))
        ax.text(x + size / 2, y + 0.3, label, ha="center", va="center", fontsize=8)
        x += size
    if cut is not None:
        ax.axvline(cut, color="#cc6677", linestyle="--")
        ax.text(cut + 1, y + 0.75, f"cut at {cut} bytes", color="#cc6677", fontsize=8)


def trimming() -> Figure:
    """A 106-byte trimmable packet and what leaves a congested port: its first 64 bytes."""
    fig, ax = plt.subplots(figsize=(8, 2.6))
    headers = [("Eth 14", 14, "#ddcc77"), ("IPv4 20\nDSCP 10", 20, "#88ccee"), ("UDP 8", 8, "#44aa99")]
    _packet(ax, 1.2, [*headers, ("payload 64", 64, "#eeeeee")], cut=64)
    _packet(ax, 0.2, [("Eth 14", 14, "#ddcc77"), ("IPv4 20\nDSCP 11, len 50", 20, "#88ccee"),
                      ("UDP 8\nlen 30", 8, "#44aa99"), ("22", 22, "#eeeeee")])
    ax.text(108, 1.5, "arrives", va="center", fontsize=9)
    ax.text(66, 0.5, "leaves (trimmed)", va="center", fontsize=9)
    ax.set_xlim(0, 125)
    ax.set_ylim(0, 2.2)
    ax.set_yticks([])
    ax.set_xlabel("bytes from the start of the frame")
    fig.tight_layout()
    return fig


def _box(ax: Axes, x: float, y: float, text: str, colour: str) -> None:
    ax.add_patch(Rectangle((x, y), 2.2, 0.8, facecolor=colour, edgecolor="black"))
    ax.text(x + 1.1, y + 0.4, text, ha="center", va="center", fontsize=8)


def partitions() -> Figure:
    """Two tenants on one switch: own ports, a shared port, and a leak stopped at egress."""
    fig, ax = plt.subplots(figsize=(8, 3.2))
    tenant_a, tenant_b, shared = "#88ccee", "#ddcc77", "#dddddd"
    _box(ax, 0, 2.4, "tenant A\n(port 1, partition 1)", tenant_a)
    _box(ax, 0, 0.4, "tenant B\n(port 3, partition 2)", tenant_b)
    ax.add_patch(Rectangle((3.6, 0.2), 2.0, 3.2, facecolor="white", edgecolor="black"))
    ax.text(4.6, 1.8, "switch:\nroutes per\npartition;\negress port\nchecks it", ha="center",
            va="center", fontsize=8)
    _box(ax, 7, 2.8, "A's server (port 2)", tenant_a)
    _box(ax, 7, 1.5, "storage (port 5, shared)", shared)
    _box(ax, 7, 0.2, "B's server (port 4)", tenant_b)
    arrows = [((2.2, 2.9), (7, 3.2), "black"), ((2.2, 2.7), (7, 1.9), "black"),
              ((2.2, 0.8), (7, 1.8), "black"), ((2.2, 0.6), (7, 0.6), "black"),
              ((2.2, 2.5), (6.9, 0.9), "#cc6677")]
    for start, end, colour in arrows:
        ax.annotate("", xy=end, xytext=start, arrowprops={"arrowstyle": "->", "color": colour})
    ax.text(6.2, 3.2, "10.0.2.1", fontsize=8)
    ax.text(6.2, 0.7, "10.0.2.1", fontsize=8)
    ax.text(5.7, 1.15, "A's wrong route: dropped", color="#cc6677", fontsize=8)
    ax.set_xlim(0, 9.4)
    ax.set_ylim(0, 3.8)
    ax.axis("off")
    fig.tight_layout()
    return fig


def telemetry() -> Figure:
    """The packet grows by one 4-byte record per switch, the newest in front."""
    fig, ax = plt.subplots(figsize=(8, 2.8))
    headers = [("Eth+IPv4+UDP 42", 42, "#dddddd"), ("shim 4", 4, "#ddcc77")]
    data = ("data", 12, "#eeeeee")
    _packet(ax, 2.2, [*headers, data])
    _packet(ax, 1.2, [*headers, ("s5", 4, "#88ccee"), data])
    _packet(ax, 0.2, [*headers, ("s7", 4, "#44aa99"), ("s5", 4, "#88ccee"), data])
    for y, text in ((2.5, "sent (0 records)"), (1.5, "after switch 5"), (0.5, "after switch 7")):
        ax.text(68, y, text, va="center", fontsize=9)
    ax.set_xlim(0, 90)
    ax.set_ylim(0, 3)
    ax.set_yticks([])
    ax.set_xlabel("bytes from the start of the frame")
    fig.tight_layout()
    return fig


def credits() -> Figure:
    """The credit a switch lets through, by the depth of the busy port's data queue."""
    fig, ax = plt.subplots(figsize=(8, 3))
    bands = [(0, 10, 0), (10, 20, 1), (20, 40, 2), (40, 60, 3)]  # depth from, to, shift
    for low, high, shift in bands:
        ax.hlines(4096 >> shift, low, high, color="#4477aa", linewidth=3)
        ax.text((low + high) / 2, (4096 >> shift) + 150, f">> {shift}" if shift else "no band: unchanged", ha="center", fontsize=8)
    ax.set_xlabel("data queue depth of the port the credit arrived on (packets)")
    ax.set_ylabel("credit passed on (bytes)")
    ax.set_title("a receiver grants 4096 bytes; each band of credit_bands shifts it further", fontsize=10)
    ax.set_ylim(0, 4800)
    fig.tight_layout()
    return fig


FIGURES = {"spraying": spraying, "ecn": ecn, "trimming": trimming, "partitions": partitions,
           "int": telemetry, "credits": credits}


def main() -> None:
    for lab, draw in FIGURES.items():
        fig = draw()
        path = os.path.join(LABS_DIR, lab, "figure.png")
        fig.savefig(path, dpi=100)
        plt.close(fig)
        print(f"wrote {os.path.relpath(path)}")


if __name__ == "__main__":
    main()
