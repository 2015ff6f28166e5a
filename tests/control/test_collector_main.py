"""`python -m control.collector` as a process: ready line, reports over UDP, metrics
over HTTP, malformed ones logged, clean exit on SIGTERM and SIGINT, plots on exit."""
import queue
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from control.collector.synthetic import build_report
from wire_formats.layers import IntHop

HOPS = [IntHop(node_id=2, ingress_port=3, egress_port=1, hop_latency=40, queue_id=0,
               queue_occupancy=7),
        IntHop(node_id=1, ingress_port=1, egress_port=3, hop_latency=10, queue_id=0,
               queue_occupancy=2)]


class Collector:
    """The collector process, with its stdout read line by line in a thread."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "control.collector", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_for_line(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            assert line is not None, f"collector exited before {text!r}: {self.proc.stderr.read()}"
            self.seen.append(line)

    def find(self, pattern: str) -> re.Match:
        for line in self.seen:
            match = re.search(pattern, line)
            if match:
                return match
        raise AssertionError(f"no line matches {pattern!r} in {self.seen}")

    def stop(self, signum: int, timeout: float = 30) -> tuple[int, str, str]:
        self.proc.send_signal(signum)
        returncode = self.proc.wait(timeout)
        while (line := self.lines.get(timeout=timeout)) is not None:
            self.seen.append(line)
        return returncode, "\n".join(self.seen), self.proc.stderr.read()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def metric(url: str, name: str) -> float:
    with urllib.request.urlopen(url, timeout=5) as response:
        for line in response.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    raise AssertionError(f"{name} not exported")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_collector_process_end_to_end(tmp_path, signum):
    db, plots = tmp_path / "reports.sqlite", tmp_path / "plots"
    collector = Collector("--bind", "127.0.0.1", "--port", "0", "--db", str(db),
                          "--metrics-port", "0", "--plots", str(plots), "--plot-interval", "0")
    try:
        collector.wait_for_line("collector ready")
        port = int(collector.find(r"reports on udp 127\.0\.0\.1:(\d+)").group(1))
        url = collector.find(r"metrics on (http://127\.0\.0\.1:\d+/metrics)").group(1)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
            tx.sendto(b"\x20not a report", ("127.0.0.1", port))
            for seq in range(5):
                tx.sendto(build_report(HOPS, seq=seq), ("127.0.0.1", port))
            tx.sendto(build_report(HOPS)[:17], ("127.0.0.1", port))
        deadline = time.monotonic() + 10
        while metric(url, "int_collector_reports_received_total") < 7:
            assert time.monotonic() < deadline, "the collector did not count all 7 datagrams"
        assert metric(url, "int_collector_reports_decoded_total") == 5
        assert metric(url, "int_collector_reports_malformed_total") == 2
        returncode, out, err = collector.stop(signum)
    finally:
        collector.kill()
    assert returncode == 0, err
    assert "5 decoded, 2 malformed" in out
    assert err.count("malformed report from 127.0.0.1") == 2
    assert sorted(p.name for p in plots.iterdir()) == ["node-1.png", "node-2.png", "paths.png"]
    reader = sqlite3.connect(f"file:{db}?mode=ro", uri=True)  # as fabricctl reads it
    try:
        assert reader.execute("SELECT COUNT(*) FROM reports").fetchone()[0] == 5
    finally:
        reader.close()


def test_an_address_it_cannot_bind_is_one_clear_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "control.collector", "--bind", "192.0.2.1",
                             "--db", str(tmp_path / "r.sqlite")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "cannot receive reports on udp 192.0.2.1:32766" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_busy_metrics_port_is_one_clear_line(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "control.collector", "--bind", "127.0.0.1",
                                 "--port", "0", "--db", str(tmp_path / "r.sqlite"),
                                 "--metrics-port", str(port)],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert f"cannot serve metrics on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr and "collector ready" not in result.stdout
