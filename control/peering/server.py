"""The peering API a domain controller serves (docs/federation-api.md), HTTP/JSON on
loopback, on the standard library's threading HTTP server.

    GET /v1/summary                  this domain's summary
    GET /v1/peers                    the peers' summaries held, with age and expiry
    GET /v1/peers/<domain>/summary   one peer's held summary
    PUT /v1/peers/<domain>/summary   a peer pushes its summary

Loopback only, as the collector's /metrics: the API has no authentication and no TLS, so
a controller on another machine reaches it through a tunnel of its operator's choosing.
Nothing served names a switch address or opens any path to a switch: the server holds
summaries, nothing else.
"""
from __future__ import annotations

import ipaddress
import json
import logging
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from control.peering.peers import PeerState, PeerTable, PushRefused
from control.peering.summary import (KnownPartitions, Summary, SummaryError, from_json,
                                     to_dict, to_json)

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
API_PREFIX = "/v1"
MAX_BODY_BYTES = 1 << 20      # a summary of the largest allowed size fits well within
JSON_TYPE = "application/json"
POLL_S = 0.05                 # how soon close() stops the serving thread
_PEER_SUMMARY = re.compile(r"^/v1/peers/([A-Za-z0-9][A-Za-z0-9_.-]{0,63})/summary$")


class ApiError(Exception):
    """An answer other than success: HTTP status, reason and, for a refused summary,
    every (field, reason)."""

    def __init__(self, status: int, reason: str, problems: list[tuple[str, str]] | None = None,
                 allow: str | None = None):
        self.status = status
        self.reason = reason
        self.problems = problems or []
        self.allow = allow
        super().__init__(reason)

    def body(self) -> dict[str, Any]:
        return {"error": {"status": self.status, "reason": self.reason,
                          "problems": [{"field": f, "reason": r} for f, r in self.problems]}}


class PeeringServer:
    """Serves ``domain``'s summary and takes its peers' pushes into ``peers``."""

    def __init__(self, domain: str, peers: PeerTable, known: KnownPartitions | None = None,
                 host: str = LOOPBACK, port: int = 0):
        if not ipaddress.ip_address(host).is_loopback:
            raise ValueError(f"host {host!r}: the peering API is served on loopback only "
                             "(no authentication, no TLS)")
        self.domain = domain
        self.peers = peers
        self.known = known
        self._lock = threading.Lock()
        self._summary_json: str | None = None
        self._http = _Http((host, port), _Handler, self)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}"

    def set_summary(self, summary: Summary) -> None:
        """Publish ``summary`` on GET /v1/summary (checked first: SummaryError)."""
        if summary.domain != self.domain:
            raise ValueError(f"summary of domain {summary.domain!r} set on the server of "
                             f"{self.domain!r}")
        text = to_json(summary, self.known)
        with self._lock:
            self._summary_json = text

    def summary_json(self) -> str | None:
        with self._lock:
            return self._summary_json

    def start(self) -> "PeeringServer":
        self._thread = threading.Thread(target=self._http.serve_forever, args=(POLL_S,),
                                        name="peering-api", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        if self._thread is not None:
            self._http.shutdown()
            self._thread.join(timeout=10)
            self._thread = None
        self._http.server_close()

    def __enter__(self) -> "PeeringServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the API, independent of HTTP plumbing ------------------------------------------

    def get(self, path: str) -> Any:
        if path == f"{API_PREFIX}/summary":
            text = self.summary_json()
            if text is None:
                raise ApiError(503, f"domain {self.domain!r} has no summary yet")
            return json.loads(text)
        if path == f"{API_PREFIX}/peers":
            return {"domain": self.domain, "ttl_s": self.peers.ttl_s,
                    "peers": [_peer_entry(s) for s in self.peers.states()]}
        match = _PEER_SUMMARY.match(path)
        if match:
            peer = match.group(1)
            if peer not in self.peers.peers:
                raise ApiError(404, f"{peer!r} is not a configured peer")
            state = self.peers.state(peer)
            if state.summary is None:
                raise ApiError(404, f"no summary from {peer!r} yet")
            return _peer_entry(state)
        raise ApiError(404, f"{path}: no such resource")

    def put(self, path: str, content_type: str | None, body: bytes) -> Any:
        match = _PEER_SUMMARY.match(path)
        if match is None:
            raise ApiError(404, f"{path}: no such resource")
        peer = match.group(1)
        if peer not in self.peers.peers:
            raise ApiError(403, f"{peer!r} is not a configured peer of domain {self.domain!r}")
        if (content_type or "").split(";")[0].strip().lower() != JSON_TYPE:
            raise ApiError(415, f"Content-Type must be {JSON_TYPE}, not {content_type!r}")
        try:
            summary = from_json(body, self.known, source=f"summary pushed as {peer}")
        except SummaryError as exc:
            raise ApiError(400, f"summary refused: {len(exc.problems)} problem(s)",
                           exc.problems) from None
        try:
            self.peers.accept(peer, summary)
        except PushRefused as exc:
            raise ApiError(exc.status, exc.reason) from None
        log.info("summary of %s serial %d accepted", peer, summary.serial)
        return {"domain": peer, "serial": summary.serial, "accepted": True}


def _peer_entry(state: PeerState) -> dict[str, Any]:
    return {"domain": state.domain, "domain_id": state.domain_id,
            "received": state.summary is not None, "age_s": state.age_s,
            "expired": state.expired,
            "summary": to_dict(state.summary) if state.summary is not None else None}


class _Http(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler],
                 api: PeeringServer):
        self.api = api
        super().__init__(address, handler)


class _Handler(BaseHTTPRequestHandler):
    server: _Http
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer(lambda: self.server.api.get(self._path()))

    def do_PUT(self) -> None:
        self._answer(lambda: self.server.api.put(self._path(), self.headers.get("Content-Type"),
                                                 self._body()))

    def do_POST(self) -> None:
        self._not_allowed()

    def do_DELETE(self) -> None:
        self._not_allowed()

    def do_PATCH(self) -> None:
        self._not_allowed()

    def _not_allowed(self) -> None:
        def refuse() -> Any:
            path = self._path()
            allow = "GET, PUT" if _PEER_SUMMARY.match(path) else "GET"
            raise ApiError(405, f"{self.command} is not allowed on {path}", allow=allow)
        self._drain()
        self._answer(refuse)

    def _path(self) -> str:
        return self.path.split("?", 1)[0]

    def _body(self) -> bytes:
        length = self.headers.get("Content-Length")
        if length is None:
            self.close_connection = True  # whatever body follows cannot be framed
            raise ApiError(411, "Content-Length is required")
        if not length.isdigit():
            self.close_connection = True
            raise ApiError(400, f"Content-Length {length!r} is not a number")
        if int(length) > MAX_BODY_BYTES:
            self.close_connection = True
            raise ApiError(413, f"body of {length} bytes is more than {MAX_BODY_BYTES}")
        return self.rfile.read(int(length))

    def _drain(self) -> None:
        length = self.headers.get("Content-Length", "0")
        if length.isdigit() and int(length) <= MAX_BODY_BYTES:
            self.rfile.read(int(length))
        else:
            self.close_connection = True

    def _answer(self, action: Callable[[], Any]) -> None:
        try:
            status, body, allow = 200, action(), None
        except ApiError as exc:
            status, body, allow = exc.status, exc.body(), exc.allow
        except Exception:  # a bug of ours: say so, keep serving
            log.exception("peering API %s %s failed", self.command, self.path)
            error = ApiError(500, "internal error (see the controller's log)")
            status, body, allow = 500, error.body(), None
        data = json.dumps(body, sort_keys=True).encode()
        self.send_response(status, HTTPStatus(status).phrase)
        self.send_header("Content-Type", JSON_TYPE)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if allow:
            self.send_header("Allow", allow)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        log.debug("peering API %s: " + format, self.address_string(), *args)


__all__ = ["API_PREFIX", "ApiError", "LOOPBACK", "MAX_BODY_BYTES", "PeeringServer"]
