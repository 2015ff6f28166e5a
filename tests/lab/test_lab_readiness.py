"""lab.readiness against real servers (and their absence)."""
from __future__ import annotations

import socket
from concurrent import futures

import grpc
import pytest

from lab.errors import NotReady
from lab.readiness import tcp_accepts, wait_for_grpc, wait_for_tcp, wait_until


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_wait_until_returns_once_the_condition_holds() -> None:
    polls = iter([False, False, True])
    wait_until(lambda: next(polls), "ready", 30)
    with pytest.raises(StopIteration):
        next(polls)


def test_abort_stops_waiting_at_once() -> None:
    def abort() -> None:
        raise RuntimeError("the process exited")
    with pytest.raises(RuntimeError, match="the process exited"):
        wait_until(lambda: False, "ready", 600, abort=abort)


def test_tcp_port_listening_and_not() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        wait_for_tcp("127.0.0.1", port, 30)
        assert tcp_accepts("127.0.0.1", port)
    closed = free_port()
    with pytest.raises(NotReady, match=rf"not accepting TCP connections on 127.0.0.1:{closed} "
                                       rf"within 0.2 s:\nnothing listens"):
        wait_for_tcp("127.0.0.1", closed, 0.2, context=lambda: "nothing listens")


def test_grpc_server_ready_and_not() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=1))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        wait_for_grpc(f"127.0.0.1:{port}", 30)
    finally:
        server.stop(None)
    closed = free_port()
    with pytest.raises(NotReady, match=f"no gRPC server ready at 127.0.0.1:{closed} within 0.3 s"):
        wait_for_grpc(f"127.0.0.1:{closed}", 0.3)
