"""One managed child process: started, its output kept (and logged), waited on until a
readiness condition holds, given stdin lines, and stopped by its PID.

stdout (and stderr, merged or kept apart) is read all along by reader threads, so a
full pipe never blocks the child, and callers wait for a ready line or a condition
with a deadline instead of sleeping. Errors carry the output tail, to say why.
"""
from __future__ import annotations

import io
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TextIO

from lab.errors import NotReady, ProcessError
from lab.readiness import wait_until

TAIL_LINES = 30


class ManagedProcess:
    """A child process; a context manager that stops it on exit.

    ``log_path``: where its output also goes (appended), or None. ``separate_stderr``:
    keep stderr apart (``stderr``) as well as in ``output``; otherwise it is merged
    into stdout. Other keyword arguments go to subprocess.Popen (stdin defaults to
    /dev/null; ``stdin=subprocess.PIPE`` for send_line).
    """

    def __init__(self, name: str, argv: list[str], log_path: Path | None = None, *,
                 separate_stderr: bool = False, **popen: Any) -> None:
        popen.setdefault("stdin", subprocess.DEVNULL)
        process = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE if separate_stderr else subprocess.STDOUT,
                                   **popen)
        self._attach(name, process, log_path)

    def _attach(self, name: str, process: subprocess.Popen, log_path: Path | None) -> None:
        """Start keeping the output of ``process`` (started with stdout=PIPE)."""
        self.name = name
        self.popen = process
        self.argv = [str(arg) for arg in process.args] if isinstance(process.args, (list, tuple)) \
            else [str(process.args)]
        self.log_path = log_path
        self._lines: list[str] = []
        self._stderr_lines: list[str] = []
        self._changed = threading.Condition()
        self._log: TextIO | None = open(log_path, "a", encoding="utf-8") if log_path else None
        streams = [(process.stdout, False), (process.stderr, True)]
        self._readers = [threading.Thread(target=self._read, args=(stream, is_stderr),
                                          name=f"out-{name}", daemon=True)
                         for stream, is_stderr in streams if stream is not None]
        for reader in self._readers:
            reader.start()

    @property
    def pid(self) -> int:
        return self.popen.pid

    def _read(self, stream: IO[Any], is_stderr: bool) -> None:
        for raw in stream:  # bytes or str lines, whichever way the pipe was opened
            line = raw.decode(errors="replace") if isinstance(raw, bytes) else raw
            with self._changed:
                if self._log is not None:
                    self._log.write(line)
                    self._log.flush()
                self._lines.append(line.rstrip("\n"))
                if is_stderr:
                    self._stderr_lines.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def _reading(self) -> bool:
        return any(reader.is_alive() for reader in self._readers)

    @property
    def output(self) -> str:
        """Everything it printed so far (stdout and stderr)."""
        with self._changed:
            return "\n".join(self._lines)

    @property
    def stderr(self) -> str:
        """What it printed on stderr (with separate_stderr), else all its output."""
        with self._changed:
            return "\n".join(self._stderr_lines if self.popen.stderr is not None else self._lines)

    def tail(self, lines: int = TAIL_LINES) -> str:
        with self._changed:
            return "\n".join(self._lines[-lines:])

    # -- readiness ---------------------------------------------------------------------
    def wait_for_line(self, text: str, timeout: float) -> str:
        """The first output line containing ``text``; ProcessError if the process ends
        first, NotReady once the deadline passes (both with the output tail)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for line in self._lines:
                    if text in line:
                        return line
                if not self._reading():  # its output ended: it exits (or has)
                    raise ProcessError(f"{self.name} exited (status {self._status_soon()}) before "
                                       f"printing {text!r}:\n{self._tail_locked()}")
                now = time.monotonic()
                if now >= deadline:
                    raise NotReady(f"{self.name} did not print {text!r} within {timeout:g} s:\n"
                                   f"{self._tail_locked()}")
                self._changed.wait(deadline - now)

    def _status_soon(self) -> int | None:
        """The exit status of a process whose output just ended (None if it lives on)."""
        try:
            return self.popen.wait(5)
        except subprocess.TimeoutExpired:
            return None

    def _tail_locked(self) -> str:
        return "\n".join(self._lines[-TAIL_LINES:])

    def wait_until(self, condition: Callable[[], bool], what: str, timeout: float) -> None:
        """Return once ``condition()`` holds (e.g. its port accepts); ProcessError if the
        process exits first, NotReady after ``timeout`` (both with the output tail)."""
        def abort() -> None:
            if self.popen.poll() is not None:
                for reader in self._readers:
                    reader.join(5)
                raise ProcessError(f"{self.name} exited (status {self.popen.returncode}) before "
                                   f"{what}:\n{self.tail()}")
        try:
            wait_until(condition, what, timeout, abort=abort, context=self.tail)
        except NotReady as exc:
            raise NotReady(f"{self.name}: {exc}") from None

    # -- talking to it, stopping it ----------------------------------------------------
    def send_line(self, text: str) -> None:
        """Write one line to its stdin (started with stdin=subprocess.PIPE), e.g. the
        "go" that starts synchronised senders."""
        stdin = self.popen.stdin
        if stdin is None:
            raise ProcessError(f"{self.name}: started without stdin=subprocess.PIPE")
        if isinstance(stdin, io.TextIOBase):
            stdin.write(text + "\n")
        else:
            stdin.write((text + "\n").encode())
        stdin.flush()

    def wait(self, timeout: float) -> int:
        """Its exit status; ProcessError if it still runs after ``timeout`` (it keeps
        running)."""
        try:
            status = self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            raise ProcessError(f"{self.name} still running after {timeout:g} s:\n{self.tail()}") from None
        for reader in self._readers:
            reader.join(5)
        return status

    def running(self) -> bool:
        return self.popen.poll() is None

    def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM to its PID, then SIGKILL after ``timeout``; never raises for a gone
        process. Returns the exit status."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout)
        self._finish()
        return self.popen.returncode

    def kill(self) -> None:
        """SIGKILL: a crash, as far as anyone watching can tell."""
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait(10)
        for reader in self._readers:
            reader.join(5)

    def _finish(self) -> None:
        for reader in self._readers:
            reader.join(5)
        with self._changed:
            if self._log is not None:
                self._log.close()
                self._log = None
        if self.popen.stdin is not None:
            try:
                self.popen.stdin.close()
            except OSError:
                pass  # the child is gone: nothing to flush to

    def __enter__(self) -> "ManagedProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
