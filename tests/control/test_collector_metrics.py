"""The /metrics endpoint answers a real HTTP GET on loopback with Prometheus text whose
figures are those of the reports the receiver got over UDP."""
import re
import socket
import urllib.error
import urllib.request

import pytest

from control.collector.metrics import CONTENT_TYPE, MetricsServer, escape_label, render_metrics
from control.collector.receiver import ReportReceiver
from control.collector.store import Store
from control.collector.synthetic import build_report
from control.layers import IntHop

SAMPLE = re.compile(r'^([a-z_]+)(\{[^}]*\})? (\S+)$')


def parse(text: str) -> dict[str, float]:
    """'name{labels}' -> value; checks every line is a comment or a well-formed sample."""
    values, typed = {}, set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
            continue
        if line.startswith("# HELP "):
            continue
        match = SAMPLE.match(line)
        assert match, f"not a sample line: {line!r}"
        name = match.group(1)
        assert any(name == t or name.startswith(t + "_") for t in typed), f"{name} has no TYPE"
        values[name + (match.group(2) or "")] = float(match.group(3))
    return values


def hops(latency: int, queue: int) -> list[IntHop]:
    return [IntHop(node_id=2, ingress_port=3, egress_port=1, hop_latency=latency, queue_id=0,
                   queue_occupancy=queue),
            IntHop(node_id=1, ingress_port=1, egress_port=4, hop_latency=5, queue_id=0,
                   queue_occupancy=0xFFFFFF)]  # unavailable occupancy: not a sample


@pytest.fixture
def collector():
    store = Store()
    receiver = ReportReceiver(store, port=0)
    server = MetricsServer(lambda: render_metrics(store, receiver.stats), port=0)
    receiver.start()
    server.start()
    try:
        yield receiver, server
    finally:
        server.stop()
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
    with urllib.request.urlopen(server.url, timeout=5) as response:
        assert response.headers["Content-Type"] == CONTENT_TYPE
        values = parse(response.read().decode())
    # the malformed datagram may still be on its way: the three good ones are counted
    assert values["int_collector_reports_decoded_total"] == 3
    assert values["int_collector_reports_received_total"] >= 3
    at2 = '{node="2",ingress_port="3",egress_port="1"}'
    at1 = '{node="1",ingress_port="1",egress_port="4"}'
    assert values["int_hop_latency_microseconds_sum" + at2] == 60
    assert values["int_hop_latency_microseconds_count" + at2] == 3
    assert values["int_hop_latency_max_microseconds" + at2] == 30
    assert values["int_queue_occupancy_packets_sum" + at2] == 12
    assert values["int_queue_occupancy_max_packets" + at2] == 8
    assert "int_queue_occupancy_packets_count" + at1 not in values
    assert values["int_hop_latency_microseconds_count" + at1] == 3
    assert values['int_path_reports_total{path="1,2"}'] == 3


def test_malformed_reports_are_counted(collector):
    receiver, server = collector
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
        tx.sendto(b"\x20short", receiver.address)
        tx.sendto(build_report(hops(1, 1))[:15], receiver.address)
        tx.sendto(build_report(hops(1, 1)), receiver.address)
    # loopback keeps the order, and the receiver counts a datagram before it counts any
    # later one as decoded: once the good report is in, both bad ones are counted
    assert receiver.wait_for(1, timeout=5)
    with urllib.request.urlopen(server.url, timeout=5) as response:
        values = parse(response.read().decode())
    assert values["int_collector_reports_received_total"] == 3
    assert values["int_collector_reports_malformed_total"] == 2
    assert values["int_collector_reports_decoded_total"] == 1


def test_other_paths_are_404(collector):
    _, server = collector
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(server.url.replace("/metrics", "/"), timeout=5)
    assert info.value.code == 404


def test_label_values_are_escaped():
    assert escape_label('a"b\\c\nd') == 'a\\"b\\\\c\\nd'
