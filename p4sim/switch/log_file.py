"""The switch's --log-file: a logging handler with BMv2's rotation and --log-flush.

Like BMv2's spdlog rotating sink, ``switch.log`` rotates to ``switch.1.log``,
``switch.2.log``... (at most ``max_files`` of them) once it would grow past
``max_bytes``.  Without ``flush_each`` the file is written through a buffer and
flushed when the handler closes; with it, after every message.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path


def rotated_name(path: str | Path, index: int) -> Path:
    """``dir/switch.log``, 2 -> ``dir/switch.2.log`` (spdlog's naming)."""
    path = Path(path)
    return path.with_name(f"{path.stem}.{index}{path.suffix}")


class LogFile(logging.Handler):
    """Appends formatted records to one file, rotating it by size."""

    def __init__(self, path: str | Path, max_bytes: int = 5 * 1024 * 1024,
                 max_files: int = 3, flush_each: bool = False) -> None:
        super().__init__()
        self.path = Path(path)
        self.max_bytes = max_bytes
        self.max_files = max_files
        self.flush_each = flush_each
        self._stream = open(self.path, "a", encoding="utf-8")
        self._size = self._stream.tell()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record) + "\n"
            size = len(text.encode("utf-8", "replace"))
            if self.max_bytes > 0 and self._size and self._size + size > self.max_bytes:
                self._rotate()
            self._stream.write(text)
            self._size += size
            if self.flush_each:
                self._stream.flush()
        except Exception:  # noqa: BLE001 - logging must never raise into the switch
            self.handleError(record)

    def _rotate(self) -> None:
        self._stream.close()
        if self.max_files > 0:
            for index in range(self.max_files - 1, 0, -1):
                older = rotated_name(self.path, index)
                if older.exists():
                    os.replace(older, rotated_name(self.path, index + 1))
            os.replace(self.path, rotated_name(self.path, 1))
        self._stream = open(self.path, "w", encoding="utf-8")
        self._size = 0

    def flush(self) -> None:
        with self.lock:  # type: ignore[union-attr]
            if not self._stream.closed:
                self._stream.flush()

    def close(self) -> None:
        with self.lock:  # type: ignore[union-attr]
            if not self._stream.closed:
                self._stream.close()
        super().close()
