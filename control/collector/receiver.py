"""UDP receiver: decode every datagram, store good reports, count and log bad ones.

A malformed or truncated report is never fatal; it is counted and logged with the
sender and the reason.
"""
from __future__ import annotations

import logging
import selectors
import socket
import threading
from dataclasses import dataclass, field

from control.collector.decode import ReportDecodeError, TelemetryReport, decode_report
from control.collector.store import Store

log = logging.getLogger(__name__)


@dataclass
class ReceiverStats:
    received: int = 0
    decoded: int = 0
    malformed: int = 0
    last_error: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


class ReportReceiver:
    """Listens on ``address`` (default loopback) and feeds ``store``."""

    def __init__(self, store: Store, host: str = "127.0.0.1", port: int = 32766):
        self.store = store
        self.stats = ReceiverStats()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.bind((host, port))
        self._sock.setblocking(False)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._decoded = threading.Condition()
        self.listeners: list = []  # callables(report), e.g. the demo's printer
        self.first_report: TelemetryReport | None = None

    @property
    def address(self) -> tuple[str, int]:
        return self._sock.getsockname()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="report-receiver", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join()
        self._sock.close()

    def handle(self, data: bytes, sender: tuple[str, int]) -> TelemetryReport | None:
        """Decode and store one datagram; returns the report, or None if malformed."""
        with self.stats.lock:
            self.stats.received += 1
        try:
            report = decode_report(data)
        except ReportDecodeError as exc:
            with self.stats.lock:
                self.stats.malformed += 1
                self.stats.last_error = str(exc)
            log.warning("malformed report from %s:%d (%d bytes): %s", *sender, len(data), exc)
            return None
        self.store.add(report)
        with self._decoded:
            if self.first_report is None:
                self.first_report = report
            self.stats.decoded += 1
            self._decoded.notify_all()
        for listener in self.listeners:
            listener(report)
        return report

    def wait_for(self, count: int, timeout: float) -> bool:
        """Block until ``count`` reports have been decoded or ``timeout`` passes."""
        with self._decoded:
            return self._decoded.wait_for(lambda: self.stats.decoded >= count, timeout)

    def _run(self) -> None:
        with selectors.DefaultSelector() as sel:
            sel.register(self._sock, selectors.EVENT_READ)
            while not self._stop.is_set():
                if not sel.select(timeout=0.2):
                    continue
                try:
                    data, sender = self._sock.recvfrom(65535)
                except BlockingIOError:
                    continue
                self.handle(data, sender)
