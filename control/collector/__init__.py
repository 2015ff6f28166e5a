"""Telemetry collector: receives Telemetry Report v2.0 over UDP, decodes and stores it."""
