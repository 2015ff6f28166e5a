"""Prometheus export of the collector on prometheus-client: text exposition served on
http://127.0.0.1:<port>/metrics, so Grafana users can chart the fabric's telemetry.

Figures are read from the store and the receiver's counters at each scrape by a custom
collector, so nothing is counted twice. Each server has its own registry: no global
one, and no process or platform metrics, which say nothing about the fabric.

Loopback only: the endpoint has no authentication, so it is never bound elsewhere;
Prometheus on another machine reaches it through its own tunnel or agent.
"""
from __future__ import annotations

from typing import Iterator

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    Metric,
    SummaryMetricFamily,
)

from control.collector.receiver import ReceiverStats
from control.collector.store import Store

LOOPBACK = "127.0.0.1"
PORT_LABELS = ("node", "ingress_port", "egress_port")


def _counter(name: str, help_text: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, help_text, value=value)


def _label(value: object) -> str:
    return "" if value is None else str(value)


class FabricMetrics:
    """A prometheus-client collector yielding the receiver's counters and the store's
    per-port aggregates and path counts, as they are at the scrape."""

    def __init__(self, store: Store, stats: ReceiverStats):
        self._store = store
        self._stats = stats

    def collect(self) -> Iterator[Metric]:
        stats = self._stats
        with stats.lock:
            received, decoded, malformed = stats.received, stats.decoded, stats.malformed
            store_errors, lost = stats.store_errors, stats.lost
            by_reason = dict(stats.malformed_by_reason)
        yield _counter("int_collector_reports_received_total",
                       "Telemetry report datagrams received.", received)
        yield _counter("int_collector_reports_decoded_total",
                       "Telemetry reports decoded and stored.", decoded)
        yield _counter("int_collector_reports_malformed_total",
                       "Datagrams refused as malformed or truncated reports.", malformed)
        reasons = CounterMetricFamily(
            "int_collector_reports_malformed_by_reason_total",
            "Datagrams refused, by the Telemetry Report v2.0 rule they break.",
            labels=["reason"])
        for reason, count in sorted(by_reason.items()):
            reasons.add_metric([reason], count)
        yield reasons
        yield _counter("int_collector_reports_lost_total",
                       "Reports missing from their sender's sequence numbers.", lost)
        yield _counter("int_collector_store_errors_total",
                       "Decoded reports lost because the store refused them.", store_errors)
        yield from self._port_families()
        paths = CounterMetricFamily(
            "int_path_reports_total",
            "Reports per path (node IDs from the INT source to the sink).", labels=["path"])
        for path, count in self._store.path_counts().items():
            paths.add_metric([path], count)
        yield paths

    def _port_families(self) -> Iterator[Metric]:
        labels = list(PORT_LABELS)
        latency = SummaryMetricFamily(
            "int_hop_latency_microseconds",
            "Per-hop latency (dequeue minus enqueue time) reported by INT.", labels=labels)
        latency_max = GaugeMetricFamily(
            "int_hop_latency_max_microseconds", "Largest per-hop latency reported by INT.",
            labels=labels)
        queue = SummaryMetricFamily(
            "int_queue_occupancy_packets", "Egress queue occupancy at dequeue reported by INT.",
            labels=labels)
        queue_max = GaugeMetricFamily(
            "int_queue_occupancy_max_packets", "Largest egress queue occupancy reported by INT.",
            labels=labels)
        for p in self._store.port_stats():
            values = [_label(p.node_id), _label(p.ingress_port), _label(p.egress_port)]
            if p.latency_samples:
                latency.add_metric(values, count_value=p.latency_samples, sum_value=p.latency_sum)
                latency_max.add_metric(values, p.latency_max)
            if p.queue_samples:
                queue.add_metric(values, count_value=p.queue_samples, sum_value=p.queue_sum)
                queue_max.add_metric(values, p.queue_max)
        yield from (latency, latency_max, queue, queue_max)


class MetricsServer:
    """prometheus-client's HTTP server on 127.0.0.1, serving one ``FabricMetrics``
    from a registry of its own. Binds and serves on construction (so a busy port raises
    ``OSError`` there); ``stop`` shuts it down and frees the port."""

    def __init__(self, store: Store, stats: ReceiverStats, port: int = 0):
        self.registry = CollectorRegistry()
        self.registry.register(FabricMetrics(store, stats))
        self._httpd, self._thread = start_http_server(port, LOOPBACK, registry=self.registry)

    @property
    def address(self) -> tuple[str, int]:
        host, port = self._httpd.server_address[:2]
        return str(host), int(port)

    @property
    def url(self) -> str:
        host, port = self.address
        return f"http://{host}:{port}/metrics"

    def stop(self) -> None:
        self._httpd.shutdown()  # returns once serve_forever has
        self._thread.join()
        self._httpd.server_close()


__all__ = ["FabricMetrics", "MetricsServer"]
