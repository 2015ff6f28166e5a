"""Telemetry collector: receives Telemetry Report v2.0 over UDP, decodes and stores it.

- decode.py: ``decode_report`` (fast; layouts from control/layers.py) and
  ``decode_report_scapy`` (the reference dissection it always agrees with)
- store.py: ``Store``, SQLite (WAL for files), running per-port aggregates
- receiver.py: ``ReportReceiver``, UDP in a thread, malformed reports counted and logged
- metrics.py: ``MetricsServer`` / ``render_metrics``, Prometheus text on loopback
- plots.py: ``write_plots`` and friends, PNGs of latency, occupancy and paths
- __main__.py: ``python -m control.collector`` (prints "collector ready")
"""
