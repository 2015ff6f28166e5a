"""The SQLite store: running aggregates that survive a reopen, unavailable INT values
left out of statistics, port-level paths, and readers in other processes' style."""
import sqlite3

from control.collector.decode import decode_report
from control.collector.store import Store
from control.collector.synthetic import build_report
from wire_formats.layers import INT_UNAVAILABLE, IntHop


def sprayed(seq: int) -> list[IntHop]:
    uplink = 1 + seq % 2
    return [IntHop(node_id=3, ingress_port=uplink, egress_port=5, hop_latency=seq,
                   queue_id=0, queue_occupancy=seq % 3),
            IntHop(node_id=1, ingress_port=4, egress_port=uplink, hop_latency=100 + seq,
                   queue_id=None, queue_occupancy=None)]  # queue word all ones on the wire


def fill(store: Store, count: int) -> None:
    store.add_many([decode_report(build_report(sprayed(seq), seq=seq)) for seq in range(count)],
                   received=500.0)


def test_aggregates_skip_unavailable_values_and_survive_a_reopen(tmp_path):
    path = str(tmp_path / "r.sqlite")
    store = Store(path)
    fill(store, 10)
    live = {s.key: s for s in store.port_stats()}
    assert live[(3, 1, 5)].latency_samples == 5 and live[(3, 1, 5)].latency_max == 8
    assert live[(3, 2, 5)].queue_sum == sum(seq % 3 for seq in range(1, 10, 2))
    assert live[(1, 4, 1)].queue_samples == 0 and live[(1, 4, 1)].latency_sum == sum(
        100 + seq for seq in range(0, 10, 2))
    paths = store.path_counts()
    store.close()
    reopened = Store(path)
    assert {s.key: s for s in reopened.port_stats()} == live
    assert reopened.path_counts() == paths == {"1,3": 10}
    fill(reopened, 2)
    assert {s.key: s for s in reopened.port_stats()}[(3, 1, 5)].latency_samples == 6
    reopened.close()


def test_samples_report_unavailable_as_none():
    store = Store()
    hop = IntHop(node_id=7, ingress_port=1, egress_port=2, hop_latency=INT_UNAVAILABLE,
                 queue_id=0, queue_occupancy=3)
    store.add(decode_report(build_report([hop])), received=1.0)
    (sample,) = store.samples(7)
    assert (sample.hop_latency, sample.queue_occupancy) == (None, 3)
    assert store.port_stats()[0].latency_samples == 0


def test_port_paths_tell_parallel_links_apart():
    store = Store()
    fill(store, 6)
    assert store.port_path_counts() == {((1, 4, 1), (3, 1, 5)): 3, ((1, 4, 2), (3, 2, 5)): 3}
    assert store.nodes() == [1, 3]


def test_a_read_only_reader_sees_reports_while_the_collector_writes(tmp_path):
    path = tmp_path / "r.sqlite"
    store = Store(str(path))
    fill(store, 3)
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    try:
        assert reader.execute("SELECT COUNT(*) FROM hops").fetchone()[0] == 6
        fill(store, 2)
        assert reader.execute("SELECT COUNT(*) FROM reports").fetchone()[0] == 5
    finally:
        reader.close()
        store.close()
