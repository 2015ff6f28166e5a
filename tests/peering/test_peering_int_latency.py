"""A border's in-domain path latency from the collector's store: p50/p99 of per-report
hop-latency sums."""
from __future__ import annotations

import pytest

from control.collector.aggregates import LATENCY_UNAVAILABLE
from control.collector.report import TelemetryReport
from control.collector.store import Store
from control.peering.int_latency import border_latency, nearest_rank, path_latency_sums
from control.peering.summary import PathLatency
from wire_formats.layers import IntHop

def _report(seq: int, *hops: tuple[int, int | None]) -> TelemetryReport:
    """hops as (node, latency) from the source; the report carries them sink first."""
    wire = tuple(IntHop(node_id=n, ingress_port=1, egress_port=2, hop_latency=lat)
                 for n, lat in reversed(hops))
    return TelemetryReport(wire[0].node_id or 0, 0, seq, 1, 0, False, False, wire, None)


@pytest.fixture
def store_path(tmp_path):
    path = str(tmp_path / "west.sqlite")
    store = Store(path)
    # 10 reports leaf(1) -> border(2): sums 110..200; one via border 3; one unusable.
    for i in range(10):
        store.add(_report(i, (1, 10 * (i + 1)), (2, 100)), received=10.0 + i)
    store.add(_report(20, (1, 5), (3, 7)), received=30.0)
    store.add(_report(21, (1, LATENCY_UNAVAILABLE), (2, 100)), received=31.0)
    store.add(_report(22, (1, None), (2, 100)), received=32.0)
    store.close()
    return path


def test_the_sums_are_per_report_through_the_border(store_path):
    assert path_latency_sums(store_path, 2) == [110, 120, 130, 140, 150, 160, 170, 180, 190, 200]
    assert path_latency_sums(store_path, 3) == [12]
    assert path_latency_sums(store_path, 2, since=15.0) == [160, 170, 180, 190, 200]
    assert path_latency_sums(store_path, 9) == []


def test_border_latency_is_p50_and_p99_of_the_sums(store_path):
    assert border_latency(store_path, 2) == PathLatency(150, 200, 10, "int")
    assert border_latency(store_path, 3) == PathLatency(12, 12, 1, "int")
    assert border_latency(store_path, 9) is None


def test_no_store_yet_means_no_figure(tmp_path):
    assert border_latency(str(tmp_path / "absent.sqlite"), 2) is None


def test_nearest_rank_is_always_a_seen_value():
    values = list(range(1, 101))
    assert nearest_rank(values, 0.5) == 50 and nearest_rank(values, 0.99) == 99
    assert nearest_rank([7], 0.99) == 7 and nearest_rank([3, 1, 2], 1.0) == 3
    with pytest.raises(ValueError):
        nearest_rank([], 0.5)
    with pytest.raises(ValueError):
        nearest_rank([1], 0.0)
