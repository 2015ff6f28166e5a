"""Plots are PNGs of the promised size, drawn from a real store."""
import struct

from control.collector.decode import decode_report
from control.collector.plots import PIXELS, plot_node, window_start, write_plots
from control.collector.store import Store
from control.collector.synthetic import build_report
from wire_formats.layers import IntHop

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def filled_store(tmp_path) -> Store:
    store = Store(str(tmp_path / "reports.sqlite"))
    for seq in range(40):
        egress = 1 + seq % 2  # sprayed over two uplinks
        hops = [IntHop(node_id=3, ingress_port=egress, egress_port=5, hop_latency=5 + seq % 3,
                       queue_id=0, queue_occupancy=seq % 4),
                IntHop(node_id=1, ingress_port=4, egress_port=egress, hop_latency=10 * egress + seq,
                       queue_id=0, queue_occupancy=seq % 7)]
        store.add(decode_report(build_report(hops, seq=seq)), received=1000.0 + seq * 0.05)
    return store


def test_write_plots_makes_one_png_per_node_and_a_path_chart(tmp_path):
    store = filled_store(tmp_path)
    written = write_plots(store, tmp_path / "plots", names={1: "leaf1", 3: "leaf2"})
    assert sorted(p.name for p in written) == ["node-1.png", "node-3.png", "paths.png"]
    for path in written:
        assert png_size(path) == PIXELS
        assert path.stat().st_size > 10_000  # axes, lines and text, not a blank canvas
    store.close()


def test_plot_of_a_node_without_samples_still_renders(tmp_path):
    store = Store()
    path = plot_node(store, 42, tmp_path / "empty.png")
    assert png_size(path) == PIXELS


def test_the_window_keeps_only_recent_reports(tmp_path):
    store = filled_store(tmp_path)  # 40 reports, 50 ms apart, from t=1000
    start, since = window_start(store, 0.5)
    assert since == start == 1000.0 + 39 * 0.05 - 0.5
    recent = store.samples(1, since)
    assert len(recent) == 11 and all(s.received >= since for s in recent)
    assert sum(store.port_path_counts(since).values()) == 11
    assert window_start(store, None) == (1000.0, None)
    assert window_start(store, 3600) == (1000.0, None)  # the window holds everything
    path = plot_node(store, 1, tmp_path / "recent.png", window=0.5)
    assert png_size(path) == PIXELS
    store.close()
