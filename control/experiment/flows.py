"""One workload on a launched fabric: a receiver process per destination host (one
credit budget for all its flows), a sender per flow, started together.

Senders wait for "go" on stdin (endpoints.sender --wait-for-go) so that an incast is
an incast and not a queue of flows; they are plain child processes for that reason
(the launcher's ManagedProcess has no stdin) and are killed here if still running.
A flow that does not finish is reported, not raised: the table marks it incomplete.
"""
from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from control.launch import ROOT, FabricNetwork, LaunchError, ManagedProcess

READY_S = 60.0


@dataclass
class FlowResult:
    src: str
    dst: str
    complete: bool
    fct_s: float | None
    sender: dict[str, Any] = field(default_factory=dict)


@dataclass
class WorkloadResult:
    flows: list[FlowResult]
    received: list[dict[str, Any]]     # each receiver's summary
    wall_s: float


def run_flows(net: FabricNetwork, flows: tuple[tuple[str, str], ...], nbytes: int, *,
              credit: bool, ev_mode: str, timeout: float, work: Path) -> WorkloadResult:
    """Run every (src, dst) flow at once; always stops what it started."""
    work.mkdir(parents=True, exist_ok=True)
    destinations = sorted({dst for _src, dst in flows})
    receivers: dict[str, tuple[ManagedProcess, Path]] = {}
    senders: list[subprocess.Popen] = []
    started = time.monotonic()
    try:
        for dst in destinations:
            receivers[dst] = _start_receiver(net, dst, sum(1 for f in flows if f[1] == dst),
                                             timeout, work)
        for _proc, _summary in receivers.values():
            _proc.wait_for_line("receiver ready", READY_S)
        senders = [_start_sender(net, src, dst, nbytes, seed, credit, ev_mode, timeout)
                   for seed, (src, dst) in enumerate(flows, start=1)]
        for sender in senders:
            _wait_ready(sender)
        started = time.monotonic()
        for sender in senders:
            assert sender.stdin is not None
            sender.stdin.write("go\n")
            sender.stdin.flush()
        finished = [_finish(sender, timeout + 30) for sender in senders]
    except BaseException:
        for proc, _summary in receivers.values():   # never left to catch the next step's
            proc.stop()
        raise
    finally:
        for sender in senders:
            if sender.poll() is None:
                sender.kill()
                sender.wait(10)
    wall = time.monotonic() - started
    # A receiver whose senders all succeeded exits by itself; one waiting for a flow
    # whose sender gave up is stopped after a short grace.
    grace = 30.0 if all(status == 0 for status, _s in finished) else 3.0
    received = [_receiver_summary(proc, summary, grace) for proc, summary in receivers.values()]
    results = []
    for (src, dst), (status, summary) in zip(flows, finished):
        ok = status == 0 and bool(summary.get("complete")) and _delivered(
            received, net.endpoints[src].ip, summary)
        results.append(FlowResult(src, dst, ok, summary.get("fct_s") if ok else None, summary))
    return WorkloadResult(results, received, wall)


def _start_receiver(net: FabricNetwork, dst: str, count: int, timeout: float,
                    work: Path) -> tuple[ManagedProcess, Path]:
    out_dir = work / f"{dst}-flows"
    out_dir.mkdir(exist_ok=True)
    summary = work / f"{dst}-receiver.json"
    summary.unlink(missing_ok=True)
    proc = net.host_exec(dst, [sys.executable, "-m", "endpoints.receiver", "--bind",
                               net.endpoints[dst].ip, "--flows", str(count), "--out-dir",
                               str(out_dir), "--summary", str(summary),
                               "--timeout", str(timeout + 30)],
                         name=f"receiver-{dst}-{work.name}")
    return proc, summary


def _start_sender(net: FabricNetwork, src: str, dst: str, nbytes: int, seed: int,
                  credit: bool, ev_mode: str, timeout: float) -> subprocess.Popen:
    argv = ["ip", "netns", "exec", net.namespace_of(src), sys.executable, "-m",
            "endpoints.sender", "--src", net.endpoints[src].ip, "--dst", net.endpoints[dst].ip,
            "--bytes", str(nbytes), "--seed", str(seed), "--timeout", str(timeout),
            "--ev-mode", ev_mode, "--credit", "on" if credit else "off", "--wait-for-go"]
    return subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_ready(sender: subprocess.Popen) -> None:
    assert sender.stdout is not None
    ready, _w, _x = select.select([sender.stdout], [], [], READY_S)
    line = sender.stdout.readline() if ready else ""
    if not line.startswith("sender ready"):
        sender.kill()
        _out, err = sender.communicate(timeout=10)
        raise LaunchError(f"sender did not start: {line!r} {err[-2000:]}")


def _finish(sender: subprocess.Popen, timeout: float) -> tuple[int, dict[str, Any]]:
    try:
        out, _err = sender.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        sender.kill()
        out, _err = sender.communicate(timeout=10)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    return sender.returncode, (json.loads(lines[-1]) if lines else {})


def _receiver_summary(proc: ManagedProcess, summary: Path, grace: float) -> dict[str, Any]:
    """The receiver exits once its flows closed; one that waits for a lost flow is
    stopped (SIGTERM makes it write its summary anyway)."""
    try:
        proc.wait(grace)
    except LaunchError:
        pass
    proc.stop()
    try:
        return dict(json.loads(summary.read_text()))
    except (OSError, ValueError):
        return {}


def _delivered(received: list[dict[str, Any]], src_ip: str, sent: dict[str, Any]) -> bool:
    """The receiver holds this flow's bytes, whole (same sha256 as sent)."""
    return any(flow.get("peer") == src_ip and flow.get("pdcid") == sent.get("pdcid")
               and flow.get("sha256") == sent.get("sha256") and flow.get("complete")
               for summary in received for flow in summary.get("flows", []))
