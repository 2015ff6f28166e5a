"""UDP receiver: decode every datagram, store good reports, count and log bad ones.

A malformed or truncated report is never fatal; it is counted (per class of fault, see
conformance.REASONS) and logged with the sender and the reason (the first few in full, then at most one line a second, so a
flood of junk cannot flood the log). Datagrams that arrive together are stored in one
transaction.
"""
from __future__ import annotations

import logging
import selectors
import socket
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Collection

from control.collector.decode import (DEFAULT_INT_DSCPS, MalformedReport, ReportDecodeError,
                                      TelemetryReport, decode_reports)
from control.collector.sequence import SequenceTracker
from control.collector.store import Store
from wire_formats.layers import REPORT_UDP_PORT

log = logging.getLogger(__name__)

BATCH = 256  # datagrams read before one store transaction
LOGGED_IN_FULL = 10


@dataclass
class ReceiverStats:
    received: int = 0
    decoded: int = 0
    malformed: int = 0
    store_errors: int = 0  # decoded reports the store refused (disk full...), dropped
    # malformed datagrams per class of fault (conformance.REASONS, or "decoder")
    malformed_by_reason: Counter[str] = field(default_factory=Counter)
    lost: int = 0  # reports missing from the sequence numbers of their sender
    last_error: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


class MalformedLog:
    """Logs malformed reports: the first ``in_full`` each, then one summary a second."""

    def __init__(self, in_full: int = LOGGED_IN_FULL, interval: float = 1.0):
        self._in_full = in_full
        self._interval = interval
        self._logged = 0
        self._suppressed = 0
        self._next = 0.0

    def note(self, sender: tuple[str, int], size: int, reason: str) -> None:
        now = time.monotonic()
        if self._logged < self._in_full or now >= self._next:
            extra = f" ({self._suppressed} more malformed not logged)" if self._suppressed else ""
            log.warning("malformed report from %s:%d (%d bytes): %s%s",
                        sender[0], sender[1], size, reason, extra)
            self._logged += 1
            self._suppressed = 0
            self._next = now + self._interval
        else:
            self._suppressed += 1


class ReportReceiver:
    """Listens on ``host``:``port`` (default loopback) and feeds ``store``."""

    def __init__(self, store: Store, host: str = "127.0.0.1", port: int = REPORT_UDP_PORT,
                 int_dscps: Collection[int] = DEFAULT_INT_DSCPS):
        self.store = store
        self.int_dscps = frozenset(int_dscps)
        self._sequence = SequenceTracker()
        self.stats = ReceiverStats()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self._sock.bind((host, port))
        self._sock.setblocking(False)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._decoded = threading.Condition()
        self._malformed_log = MalformedLog()
        self.listeners: list[Callable[[TelemetryReport], None]] = []  # e.g. the demo's printer
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
        """Decode and store one datagram; returns its first report, or None if
        malformed."""
        reports = self._handle_batch([(data, sender)])
        return reports[0] if reports else None

    def wait_for(self, count: int, timeout: float) -> bool:
        """Block until ``count`` reports have been decoded or ``timeout`` passes."""
        with self._decoded:
            return self._decoded.wait_for(lambda: self.stats.decoded >= count, timeout)

    def _handle_batch(self, datagrams: list[tuple[bytes, tuple[str, int]]]) -> list[TelemetryReport]:
        reports: list[TelemetryReport] = []
        reasons: Counter[str] = Counter()
        last_error = ""
        for data, sender in datagrams:
            try:
                reports.extend(decode_reports(data, self.int_dscps))
            except MalformedReport as exc:
                reasons[exc.reason] += 1
                last_error = str(exc)
                self._malformed_log.note(sender, len(data), last_error)
            except ReportDecodeError as exc:
                reasons["decoder"] += 1
                last_error = str(exc)
                self._malformed_log.note(sender, len(data), last_error)
            except Exception as exc:  # noqa: BLE001 - a decoder bug must not stop the collector
                reasons["decoder"] += 1
                last_error = f"decoder failure: {exc!r}"
                log.exception("decoder failure on %d bytes from %s:%d: %s", len(data),
                              sender[0], sender[1], data.hex())
        lost = sum(self._sequence.note(r.node_id, r.hw_id, r.seq_no) for r in reports)
        malformed = sum(reasons.values())
        refused = 0
        if reports:
            try:
                self.store.add_many(reports)
            except sqlite3.Error as exc:
                log.error("store refused %d reports: %s", len(reports), exc)
                refused = len(reports)
        with self._decoded:
            if self.first_report is None and reports:
                self.first_report = reports[0]
            with self.stats.lock:  # every count at once, after the store has the reports
                self.stats.received += len(datagrams)
                self.stats.decoded += len(reports)
                self.stats.store_errors += refused
                self.stats.malformed += malformed
                self.stats.malformed_by_reason.update(reasons)
                self.stats.lost += lost
                if malformed:
                    self.stats.last_error = last_error
            self._decoded.notify_all()
        for report in reports:
            for listener in self.listeners:
                listener(report)
        return reports

    def _drain(self) -> list[tuple[bytes, tuple[str, int]]]:
        datagrams: list[tuple[bytes, tuple[str, int]]] = []
        while len(datagrams) < BATCH:
            try:
                datagrams.append(self._sock.recvfrom(65535))
            except BlockingIOError:
                break
        return datagrams

    def _run(self) -> None:
        with selectors.DefaultSelector() as sel:
            sel.register(self._sock, selectors.EVENT_READ)
            while not self._stop.is_set():
                if not sel.select(timeout=0.2):
                    continue
                datagrams = self._drain()
                if datagrams:
                    self._handle_batch(datagrams)
