"""The mixed case's front-end TCP flows on a launched fabric: a control/experiment/tcp_bulk
receiver and sender per flow, in the hosts' namespaces, started with the UEC senders by
flows.go() (the TCP sender connects first, then says "sender ready").

Each flow listens on its own port (FIRST_PORT + its index), so two flows into one host
never meet at one listener.
"""
from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

from control.experiment.tcp_bulk import READY
from control.launch import FabricNetwork, ManagedProcess

FIRST_PORT = 5201


@dataclass
class TcpResult:
    src: str
    dst: str
    complete: bool       # every byte arrived, same count and SHA-256 as sent
    elapsed_s: float | None
    summary: dict[str, Any] = field(default_factory=dict)


def start_receivers(net: FabricNetwork, flows: tuple[tuple[str, str], ...], timeout: float,
                    tag: str) -> list[ManagedProcess]:
    """A listening receiver per flow; returns once every one is listening."""
    receivers = [net.host_exec(dst, [sys.executable, "-m", "control.experiment.tcp_bulk", "recv",
                                     "--bind", net.endpoints[dst].ip, "--port", str(FIRST_PORT + i),
                                     "--timeout", str(timeout)],
                               name=f"tcp-receiver-{dst}-{i}-{tag}")
                 for i, (_src, dst) in enumerate(flows)]
    for receiver in receivers:
        receiver.wait_for_line(READY, timeout)
    return receivers


def start_senders(net: FabricNetwork, flows: tuple[tuple[str, str], ...], nbytes: int,
                  timeout: float, tag: str) -> list[ManagedProcess]:
    """A sender per flow that connects, says "sender ready" and waits for go()."""
    return [net.host_exec(src, [sys.executable, "-m", "control.experiment.tcp_bulk", "send",
                                "--src", net.endpoints[src].ip, "--dst", net.endpoints[dst].ip,
                                "--port", str(FIRST_PORT + i), "--bytes", str(nbytes),
                                "--seed", str(1000 + i), "--timeout", str(timeout),
                                "--wait-for-go"],
                          name=f"tcp-sender-{src}-{dst}-{i}-{tag}", stdin=subprocess.PIPE)
            for i, (src, dst) in enumerate(flows)]


def result(src: str, dst: str, status: int, summary: dict[str, Any]) -> TcpResult:
    """One flow's outcome from its sender's exit status and JSON summary."""
    ok = status == 0 and bool(summary.get("complete"))
    return TcpResult(src, dst, ok, summary.get("elapsed_s") if ok else None, summary)
