"""IdleTimeoutNotification for entries of tables with support_timeout.

A background thread asks each such table which entries have not been hit for their
TTL and tells the primary controller, once per idle period: an entry is reported again
only after a packet has hit it and it has gone idle anew.
"""
from __future__ import annotations

import threading
import time
from typing import Callable

from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import translate

POLL_SECONDS = 0.05


class IdleTimeoutMonitor:
    def __init__(self, get_state: Callable, lock: threading.RLock,
                 send: Callable[[p4runtime_pb2.StreamMessageResponse], None]):
        self._get_state = get_state
        self._lock = lock
        self._send = send
        self._stop = threading.Event()
        self._reported: dict[tuple[str, int], float] = {}   # entry -> report time
        self._state = None
        self._thread = threading.Thread(target=self._run, name="p4rt-idle", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            message = self.poll()
            if message is not None:
                self._send(message)

    def poll(self) -> p4runtime_pb2.StreamMessageResponse | None:
        """One sweep: the notification to send, if any entry expired."""
        with self._lock:
            state = self._get_state()
            if state is None:
                return None
            if state is not self._state:
                self._state, self._reported = state, {}
            now = time.monotonic()
            reported: dict[tuple[str, int], float] = {}
            note = p4runtime_pb2.IdleTimeoutNotification()
            for info in state.index.tables.values():
                if not info.supports_timeout:
                    continue
                table = state.runtime.tables.get(info.name)
                if table is None:
                    continue
                for handle in table.idle_entries():
                    key = (info.name, handle)
                    when = self._reported.get(key)
                    if when is not None and \
                            table.time_since_hit_ms(handle) / 1000 >= now - when:
                        reported[key] = when      # not hit since it was reported
                        continue
                    reported[key] = now
                    view = table.get_entry(handle)
                    entry = note.table_entry.add(table_id=info.id)
                    translate.encode_match_key(info, view.keys, entry.match)
                    entry.priority = translate.from_switch_priority(view.priority)
                    extras = state.entry_extras.get((info.name, handle))
                    if extras is not None:
                        entry.controller_metadata = extras.controller_metadata
                        entry.metadata = extras.metadata
                        entry.idle_timeout_ns = extras.idle_timeout_ns
            self._reported = reported
            if not note.table_entry:
                return None
            note.timestamp = time.time_ns()
            return p4runtime_pb2.StreamMessageResponse(idle_timeout_notification=note)
