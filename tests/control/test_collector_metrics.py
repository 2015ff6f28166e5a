"""The /metrics endpoint answers a real HTTP GET on loopback with Prometheus text whose
figures are those of the reports the receiver got over UDP, read back with
prometheus-client's own parser."""
import socket
import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from control.collector.metrics import MetricsServer
from control.collector.receiver import ReceiverStats, ReportReceiver
from control.collector.store import Store
from control.collector.synthetic import build_report
from wire_formats.layers import IntHop

AT2 = tuple(sorted({"node": "2", "ingress_port": "3", "egress_port": "1"}.items()))
AT1 = tuple(sorted({"node": "1", "ingress_port": "1", "egress_port": "4"}.items()))


def scrape(url: str) -> tuple[dict[str, str], dict[tuple[str, tuple], float]]:
    """Families' types by name, and every sample as (name, sorted labels) -> value."""
    with urllib.request.urlopen(url, timeout=5) as response:
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = response.read().decode()
    types, values = {}, {}
    for family in text_string_to_metric_families(text):
        types[family.name] = family.type
        for sample in family.samples:
            key = (sample.name, tuple(sorted(sample.labels.items())))
            assert key not in values, f"{key} exported twice"
            values[key] = sample.value
    return types, values


def hops(latency: int, queue: int) -> list[IntHop]:
    return [IntHop(node_id=2, ingress_port=3, egress_port=1, hop_latency=latency, queue_id=0,
                   queue_occupancy=queue),
            IntHop(node_id=1, ingress_port=1, egress_port=4, hop_latency=5, queue_id=0,
                   queue_occupancy=0xFFFFFF)]  # unavailable occupancy: not a sample


@pytest.fixture
def collector():
    store = Store()
    receiver = ReportReceiver(store, port=0)
    receiver.start()
    try:
        server = MetricsServer(store, receiver.stats, port=0)
        try:
            yield receiver, server
        finally:
            server.stop()
    finally:
        receiver.stop()
        store.close()


def test_metrics_over_http_reflect_the_reports(collector):
    receiver, server = collector
    assert server.address[0] == "127.0.0.1"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
        for seq, (latency, queue) in enumerate([(10, 4), (30, 8), (20, 0)]):
            tx.sendto(build_report(hops(latency, queue), seq=seq), receiver.address)
        tx.sendto(b"\x20junk", receiver.address)
    assert receiver.wait_for(3, timeout=5)
    types, values = scrape(server.url)
    assert types == {
        "int_collector_reports_received": "counter",
        "int_collector_reports_decoded": "counter",
        "int_collector_reports_malformed": "counter",
        "int_collector_reports_malformed_by_reason": "counter",
        "int_collector_reports_lost": "counter",
        "int_collector_store_errors": "counter",
        "int_hop_latency_microseconds": "summary",
        "int_hop_latency_max_microseconds": "gauge",
        "int_queue_occupancy_packets": "summary",
        "int_queue_occupancy_max_packets": "gauge",
        "int_path_reports": "counter",
    }  # the parser drops a counter family's _total; the samples keep it
    # the malformed datagram may still be on its way: the three good ones are counted
    assert values[("int_collector_reports_decoded_total", ())] == 3
    assert values[("int_collector_reports_received_total", ())] >= 3
    assert values[("int_collector_reports_lost_total", ())] == 0
    assert values[("int_hop_latency_microseconds_sum", AT2)] == 60
    assert values[("int_hop_latency_microseconds_count", AT2)] == 3
    assert values[("int_hop_latency_max_microseconds", AT2)] == 30
    assert values[("int_queue_occupancy_packets_sum", AT2)] == 12
    assert values[("int_queue_occupancy_packets_count", AT2)] == 3
    assert values[("int_queue_occupancy_max_packets", AT2)] == 8
    assert ("int_queue_occupancy_packets_count", AT1) not in values
    assert values[("int_hop_latency_microseconds_count", AT1)] == 3
    assert values[("int_path_reports_total", (("path", "1,2"),))] == 3


def test_malformed_reports_are_counted(collector):
    receiver, server = collector
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
        tx.sendto(b"\x20short", receiver.address)
        tx.sendto(build_report(hops(1, 1))[:15], receiver.address)
        tx.sendto(build_report(hops(1, 1)), receiver.address)
    # loopback keeps the order, and the receiver counts a datagram before it counts any
    # later one as decoded: once the good report is in, both bad ones are counted
    assert receiver.wait_for(1, timeout=5)
    _, values = scrape(server.url)
    assert values[("int_collector_reports_received_total", ())] == 3
    assert values[("int_collector_reports_malformed_total", ())] == 2
    assert values[("int_collector_reports_decoded_total", ())] == 1
    by_reason = {dict(labels)["reason"]: value for (name, labels), value in values.items()
                 if name == "int_collector_reports_malformed_by_reason_total"}
    assert sum(by_reason.values()) == 2


def test_servers_have_their_own_registries_and_no_process_metrics():
    """Two collectors in one process must not clash, nor export each other's figures."""
    stores, stats = [Store(), Store()], [ReceiverStats(), ReceiverStats()]
    stats[0].received = 7
    servers = [MetricsServer(store, s, port=0) for store, s in zip(stores, stats)]
    try:
        (types, first), (_, second) = (scrape(server.url) for server in servers)
        assert first[("int_collector_reports_received_total", ())] == 7
        assert second[("int_collector_reports_received_total", ())] == 0
        assert all(name.startswith("int_") for name in types)
    finally:
        for server in servers:
            server.stop()
        for store in stores:
            store.close()


def test_stop_frees_the_port():
    store = Store()
    server = MetricsServer(store, ReceiverStats(), port=0)
    host, port = server.address
    server.stop()
    store.close()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as again:
        again.bind((host, port))  # raises if the server still held it


def test_only_get_is_served(collector):
    _, server = collector
    request = urllib.request.Request(server.url, data=b"x", method="POST")
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(request, timeout=5)
    assert info.value.code == 405
