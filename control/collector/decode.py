"""Telemetry Report v2.0 bytes to a plain record, with the project's layers.

``decode_report`` is the fast decoder (layouts derived from control/layers.py); the
scapy dissection it must always agree with is ``decode_report_scapy``. Anything that
does not decode raises ReportDecodeError with the reason, so the receiver can count and
log it without ever stopping.
"""
from __future__ import annotations

from control.collector.fast_decode import decode_report_fast
from control.collector.report import FlowKey, ReportDecodeError, TelemetryReport, describe
from control.collector.scapy_decode import (GROUP_BYTES, INDIVIDUAL_BYTES,
                                            INT_REPORT_FIXED_BYTES, decode_report_scapy)

decode_report = decode_report_fast

__all__ = ["FlowKey", "GROUP_BYTES", "INDIVIDUAL_BYTES", "INT_REPORT_FIXED_BYTES",
           "ReportDecodeError", "TelemetryReport", "decode_report", "decode_report_fast",
           "decode_report_scapy", "describe"]
