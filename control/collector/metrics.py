"""Prometheus export of the collector: text exposition format 0.0.4 on
http://127.0.0.1:<port>/metrics, so Grafana users can chart the fabric's telemetry.

Loopback only: the endpoint has no authentication, so it is never bound elsewhere;
Prometheus on another machine reaches it through its own tunnel or agent.
"""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Mapping, Sequence

from control.collector.receiver import ReceiverStats
from control.collector.store import Store

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LOOPBACK = "127.0.0.1"


def escape_label(value: object) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(**labels: object) -> str:
    parts = [f'{name}="{escape_label("" if v is None else v)}"' for name, v in labels.items()]
    return "{" + ",".join(parts) + "}" if parts else ""


class Exposition:
    """Builds one exposition: each metric family's HELP and TYPE once, then its samples."""

    def __init__(self) -> None:
        self._lines: list[str] = []

    def family(self, name: str, kind: str, help_text: str,
               samples: Sequence[tuple[str, Mapping[str, object], float]]) -> None:
        """``samples``: (suffix such as "" or "_sum", labels, value)."""
        self._lines.append(f"# HELP {name} {help_text}")
        self._lines.append(f"# TYPE {name} {kind}")
        for suffix, labels, value in samples:
            self._lines.append(f"{name}{suffix}{_labels(**labels)} {_number(value)}")

    def text(self) -> str:
        return "\n".join(self._lines) + "\n"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def render_metrics(store: Store, stats: ReceiverStats) -> str:
    """The whole /metrics page from the receiver's counters and the store's aggregates."""
    with stats.lock:
        received, decoded, malformed = stats.received, stats.decoded, stats.malformed
        store_errors, lost = stats.store_errors, stats.lost
        by_reason = dict(stats.malformed_by_reason)
    out = Exposition()
    out.family("int_collector_reports_received_total", "counter",
               "Telemetry report datagrams received.", [("", {}, received)])
    out.family("int_collector_reports_decoded_total", "counter",
               "Telemetry reports decoded and stored.", [("", {}, decoded)])
    out.family("int_collector_reports_malformed_total", "counter",
               "Datagrams refused as malformed or truncated reports.", [("", {}, malformed)])
    out.family("int_collector_reports_malformed_by_reason_total", "counter",
               "Datagrams refused, by the Telemetry Report v2.0 rule they break.",
               [("", {"reason": reason}, count) for reason, count in sorted(by_reason.items())])
    out.family("int_collector_reports_lost_total", "counter",
               "Reports missing from their sender's sequence numbers.", [("", {}, lost)])
    out.family("int_collector_store_errors_total", "counter",
               "Decoded reports lost because the store refused them.", [("", {}, store_errors)])
    ports = store.port_stats()
    latency, latency_max, queue, queue_max = [], [], [], []
    for p in ports:
        labels = {"node": p.node_id, "ingress_port": p.ingress_port, "egress_port": p.egress_port}
        if p.latency_samples:
            latency += [("_sum", labels, p.latency_sum), ("_count", labels, p.latency_samples)]
            latency_max.append(("", labels, p.latency_max))
        if p.queue_samples:
            queue += [("_sum", labels, p.queue_sum), ("_count", labels, p.queue_samples)]
            queue_max.append(("", labels, p.queue_max))
    out.family("int_hop_latency_microseconds", "summary",
               "Per-hop latency (dequeue minus enqueue time) reported by INT.", latency)
    out.family("int_hop_latency_max_microseconds", "gauge",
               "Largest per-hop latency reported by INT.", latency_max)
    out.family("int_queue_occupancy_packets", "summary",
               "Egress queue occupancy at dequeue reported by INT.", queue)
    out.family("int_queue_occupancy_max_packets", "gauge",
               "Largest egress queue occupancy reported by INT.", queue_max)
    out.family("int_path_reports_total", "counter",
               "Reports per path (node IDs from the INT source to the sink).",
               [("", {"path": path}, count) for path, count in store.path_counts().items()])
    return out.text()


class MetricsServer:
    """Serves ``render()`` at /metrics on 127.0.0.1 from a background thread."""

    def __init__(self, render: Callable[[], str], port: int = 0):
        self._render = render
        self._httpd = ThreadingHTTPServer((LOOPBACK, port), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def address(self) -> tuple[str, int]:
        host, port = self._httpd.server_address[:2]
        return str(host), int(port)

    @property
    def url(self) -> str:
        host, port = self.address
        return f"http://{host}:{port}/metrics"

    def start(self) -> None:
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="metrics-http",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread:
            self._httpd.shutdown()  # returns once serve_forever has, so only when it runs
            self._thread.join()
        self._httpd.server_close()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        render = self._render

        class MetricsHandler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                if self.path.split("?", 1)[0] != "/metrics":
                    self.send_error(404, "only /metrics is served here")
                    return
                body = render().encode()
                self.send_response(200)
                self.send_header("Content-Type", CONTENT_TYPE)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                """Scrapes every few seconds are not news."""

        return MetricsHandler


__all__ = ["CONTENT_TYPE", "MetricsServer", "escape_label", "render_metrics"]
