"""Reach a TCP server on 127.0.0.1 inside a network namespace from this process.

gRPC's client opens its sockets on its own internal threads, which stay in the
namespace they were born in, so a channel cannot simply be created "inside" another
namespace. Instead a Unix socket (a file path, which namespaces do not separate)
accepts here and each connection is joined byte for byte to a TCP connection opened
inside the namespace with Netns.tcp_connect.
"""
from __future__ import annotations

import os
import selectors
import socket
import threading

from lab.namespace import Netns

POLL_S = 0.1  # how soon the relay thread sees close()
CHUNK = 1 << 16


class NamespaceRelay:
    """``unix:PATH`` here -> ``127.0.0.1:port`` in ``namespace``; a context manager."""

    def __init__(self, namespace: Netns, port: int, path: str) -> None:
        self.path = path
        self._namespace = namespace
        self._port = port
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(path)
        self._listener.listen(8)
        self._peers: dict[socket.socket, socket.socket] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"relay-{port}")
        self._thread.start()

    @property
    def address(self) -> str:
        """The gRPC target string for this relay."""
        return f"unix:{self.path}"

    def _run(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self._listener, selectors.EVENT_READ)
            while not self._stop.is_set():
                for key, _events in selector.select(POLL_S):
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    if sock is self._listener:
                        self._accept(selector)
                    else:
                        self._forward(selector, sock)
            for sock in list(self._peers):
                sock.close()
            self._peers.clear()

    def _accept(self, selector: selectors.BaseSelector) -> None:
        client, _address = self._listener.accept()
        try:
            upstream = self._namespace.tcp_connect(self._port)
        except OSError:
            client.close()  # the client sees a refused connection and retries
            return
        self._peers[client] = upstream
        self._peers[upstream] = client
        selector.register(client, selectors.EVENT_READ)
        selector.register(upstream, selectors.EVENT_READ)

    def _forward(self, selector: selectors.BaseSelector, sock: socket.socket) -> None:
        peer = self._peers.get(sock)
        if peer is None:
            return
        try:
            data = sock.recv(CHUNK)
            if data:
                peer.sendall(data)
                return
        except OSError:
            pass
        for end in (sock, peer):  # one side closed: close the pair
            selector.unregister(end)
            self._peers.pop(end, None)
            end.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._listener.close()
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

    def __enter__(self) -> "NamespaceRelay":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
