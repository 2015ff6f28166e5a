"""One workload on a launched fabric: a receiver process per destination host (one
credit budget for all its flows), a sender per flow, started together.

Senders wait for "go" on stdin (endpoints.sender --wait-for-go) so that an incast is
an incast and not a queue of flows: start_sender, go and finish_sender (also used by
bench/fabric_transfer.py) run them as the launcher's ManagedProcess with a stdin pipe,
ready once they print "sender ready", stopped here if still running.
A flow that does not finish is reported, not raised: the table marks it incomplete.
The mixed case's TCP flows (control/experiment/tcp_flows.py) start with the same go().
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from control.experiment import tcp_flows
from control.experiment.tcp_flows import TcpResult
from control.launch import FabricNetwork, LaunchError, ManagedProcess

READY_S = 60.0
SENDER_READY = "sender ready"


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
    tcp: list[TcpResult] = field(default_factory=list)


def run_flows(net: FabricNetwork, flows: tuple[tuple[str, str], ...], nbytes: int, *,
              credit: bool, ev_mode: str, timeout: float, work: Path,
              tcp: tuple[tuple[str, str], ...] = (), tcp_bytes: int = 0) -> WorkloadResult:
    """Run every (src, dst) UEC flow and every ``tcp`` flow (``tcp_bytes`` each) at once;
    always stops what it started."""
    work.mkdir(parents=True, exist_ok=True)
    destinations = sorted({dst for _src, dst in flows})
    receivers: dict[str, tuple[ManagedProcess, Path]] = {}
    senders: list[ManagedProcess] = []
    tcp_receivers: list[ManagedProcess] = []
    tcp_senders: list[ManagedProcess] = []
    started = time.monotonic()
    try:
        for dst in destinations:
            receivers[dst] = _start_receiver(net, dst, sum(1 for f in flows if f[1] == dst),
                                             timeout, work)
        for _proc, _summary in receivers.values():
            _proc.wait_for_line("receiver ready", READY_S)
        if tcp:
            tcp_receivers = tcp_flows.start_receivers(net, tcp, timeout + 30, work.name)
            tcp_senders = tcp_flows.start_senders(net, tcp, tcp_bytes, timeout, work.name)
        for seed, (src, dst) in enumerate(flows, start=1):
            senders.append(start_sender(net, src, dst, nbytes, seed=seed, credit=credit,
                                        ev_mode=ev_mode, timeout=timeout,
                                        name=f"sender-{src}-{dst}-{work.name}"))
        started = go(senders + tcp_senders)
        finished = [finish_sender(sender, timeout + 30) for sender in senders]
        tcp_finished = [finish_sender(sender, timeout + 30) for sender in tcp_senders]
    except BaseException:
        for proc, _summary in receivers.values():   # never left to catch the next step's
            proc.stop()
        raise
    finally:
        for sender in senders + tcp_senders:
            sender.stop()
        for receiver in tcp_receivers:   # each exits once it answered its sender
            receiver.stop()
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
    tcp_results = [tcp_flows.result(src, dst, status, summary)
                   for (src, dst), (status, summary) in zip(tcp, tcp_finished)]
    return WorkloadResult(results, received, wall, tcp_results)


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


def start_sender(net: FabricNetwork, src: str, dst: str, nbytes: int, *, seed: int,
                 credit: bool, timeout: float, ev_mode: str | None = None,
                 name: str | None = None) -> ManagedProcess:
    """An endpoints.sender on ``src`` that opens its socket, says so and waits for go()."""
    argv = [sys.executable, "-m", "endpoints.sender", "--src", net.endpoints[src].ip,
            "--dst", net.endpoints[dst].ip, "--bytes", str(nbytes), "--seed", str(seed),
            "--timeout", str(timeout), "--credit", "on" if credit else "off", "--wait-for-go",
            *(["--ev-mode", ev_mode] if ev_mode else [])]
    return net.host_exec(src, argv, name=name or f"sender-{src}-{dst}-{seed}",
                         stdin=subprocess.PIPE)


def go(senders: list[ManagedProcess], timeout: float = READY_S) -> float:
    """Once every sender is ready, start them all; returns the time.monotonic() of the start.
    A sender that exits or stays silent raises LaunchError (with its output)."""
    for sender in senders:
        sender.wait_for_line(SENDER_READY, timeout)
    started = time.monotonic()
    for sender in senders:
        sender.send_line("go")
    return started


def finish_sender(sender: ManagedProcess, timeout: float) -> tuple[int, dict[str, Any]]:
    """Exit status and JSON summary (empty if none) of a sender, killed after ``timeout``."""
    try:
        status = sender.wait(timeout)
    except LaunchError:
        sender.kill()
        status = sender.popen.returncode
    lines = [line for line in sender.output.splitlines() if line.startswith("{")]
    return status, (json.loads(lines[-1]) if lines else {})


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
