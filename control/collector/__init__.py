"""Telemetry collector: receives Telemetry Report v2.0 over UDP, decodes and stores it.

- conformance.py: ``check_datagram``, the Telemetry Report v2.0 rules every datagram
  must meet; ``MalformedReport.reason`` names the rule broken (``REASONS``)
- decode.py: ``decode_reports`` / ``decode_report`` (fast; layouts from
  wire_formats/layers.py) and the scapy dissection they always agree with
- sequence.py: ``SequenceTracker``, reports lost by sequence-number gaps
- store.py: ``Store``, SQLite (WAL for files), running per-port aggregates
- receiver.py: ``ReportReceiver``, UDP in a thread, malformed reports counted (by
  reason) and logged, lost ones counted
- metrics.py: ``MetricsServer`` (prometheus-client, own registry) and ``FabricMetrics``,
  Prometheus text on loopback
- plots.py: ``write_plots`` and friends, PNGs of latency, occupancy and paths
- __main__.py: ``python -m control.collector`` (prints "collector ready")
"""
