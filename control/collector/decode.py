"""Telemetry Report v2.0 bytes to plain records, with the project's layers.

``decode_reports`` / ``decode_report`` are the fast decoder (layouts derived from
wire_formats/layers.py); the scapy dissection it must always agree with is
``decode_reports_scapy``. Both check the datagram against the specification first
(conformance.py): anything that breaks it raises MalformedReport, a ReportDecodeError
with the reason's class, so the receiver can count and log it without ever stopping.
"""
from __future__ import annotations

from control.collector.conformance import REASONS, MalformedReport
from control.collector.fast_decode import decode_report_fast, decode_reports_fast
from control.collector.report import (DEFAULT_INT_DSCPS, FlowKey, ReportDecodeError,
                                      TelemetryReport, describe)
from control.collector.scapy_decode import (GROUP_BYTES, INDIVIDUAL_BYTES,
                                            INT_REPORT_FIXED_BYTES, decode_report_scapy,
                                            decode_reports_scapy)

decode_report = decode_report_fast
decode_reports = decode_reports_fast

__all__ = ["DEFAULT_INT_DSCPS", "FlowKey", "GROUP_BYTES", "INDIVIDUAL_BYTES",
           "INT_REPORT_FIXED_BYTES", "MalformedReport", "REASONS", "ReportDecodeError",
           "TelemetryReport", "decode_report", "decode_report_fast", "decode_report_scapy",
           "decode_reports", "decode_reports_fast", "decode_reports_scapy", "describe"]
