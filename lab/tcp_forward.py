"""A loopback port out here relaying to a TCP server inside a namespace, for clients
that open their own sockets on their own threads (gRPC's), which cannot be moved into
the namespace."""
from __future__ import annotations

import socket
import threading
from collections.abc import Callable


class TcpForward:
    """Listens on 127.0.0.1 (an ephemeral port, ``address``) and relays each accepted
    connection, both ways, to a fresh one made by ``connect``."""

    def __init__(self, connect: Callable[[], socket.socket]) -> None:
        self._connect = connect
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.address = "127.0.0.1:%d" % self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, name="tcp-forward", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _addr = self._listener.accept()
            except OSError:              # closed
                return
            try:
                server = self._connect()
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._closed:
                    client.close()
                    server.close()
                    return
                self._sockets += [client, server]
            for src, dst in ((client, server), (server, client)):
                threading.Thread(target=_pump, args=(src, dst), name="tcp-forward-pump",
                                 daemon=True).start()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            sockets, self._sockets = self._sockets, []
        self._listener.close()
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass                     # already disconnected
            sock.close()


def _pump(src: socket.socket, dst: socket.socket) -> None:
    """Copy src to dst until src ends; then end dst's sending side."""
    try:
        while True:
            data = src.recv(1 << 16)
            if not data:
                break
            dst.sendall(data)
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass                             # either side closed: nothing left to relay
