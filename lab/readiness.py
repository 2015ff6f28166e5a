"""Waiting for readiness with a deadline, never sleeping for luck.

A condition is polled (every POLL_S) until it holds; past the deadline NotReady says
what was awaited and for how long, with whatever ``context`` adds (a log tail). An
``abort`` callback raises as soon as waiting longer is pointless (the process that
should become ready has exited).
"""
from __future__ import annotations

import socket
import time
from collections.abc import Callable

from lab.errors import NotReady

POLL_S = 0.05


def wait_until(condition: Callable[[], bool], what: str, timeout: float, *,
               abort: Callable[[], None] | None = None,
               context: Callable[[], str] | None = None) -> None:
    """Return once ``condition()`` holds; NotReady("not WHAT within N s") after
    ``timeout`` seconds. ``abort()`` is called between polls and may raise."""
    deadline = time.monotonic() + timeout
    while not condition():
        if abort is not None:
            abort()
        if time.monotonic() >= deadline:
            detail = context() if context is not None else ""
            raise NotReady(f"not {what} within {timeout:g} s" + (f":\n{detail}" if detail else ""))
        time.sleep(POLL_S)  # polling a condition, with a deadline


def tcp_accepts(host: str, port: int, timeout: float = 1.0) -> bool:
    """Whether host:port accepts a TCP connection now (in the calling thread's network
    namespace)."""
    with socket.socket() as sock:
        sock.settimeout(timeout)
        return sock.connect_ex((host, port)) == 0


def wait_for_tcp(host: str, port: int, timeout: float, *,
                 abort: Callable[[], None] | None = None,
                 context: Callable[[], str] | None = None) -> None:
    """Until host:port accepts a TCP connection (what works for servers that print no
    ready line, as simple_switch_grpc)."""
    wait_until(lambda: tcp_accepts(host, port, 0.5), f"accepting TCP connections on {host}:{port}",
               timeout, abort=abort, context=context)


def wait_for_grpc(address: str, timeout: float) -> None:
    """Until a gRPC channel to ``address`` (host:port or unix:PATH) is ready: the
    server answers HTTP/2, not merely accepts TCP."""
    import grpc  # here: importing grpc costs a third of a second that most callers never need

    with grpc.insecure_channel(address) as channel:
        try:
            grpc.channel_ready_future(channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise NotReady(f"no gRPC server ready at {address} within {timeout:g} s") from None
