"""The peering API from the calling side (docs/federation-api.md), on urllib.

A controller pushes its own summary to each peer (``push``, or ``push_to_peers`` for all
of them) and may read a peer's published summary (``summary``). What comes back is
checked as strictly as what a server takes: a peer's summary is a peer's input.
"""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any, Mapping

from control.peering.summary import KnownPartitions, Summary, from_json, to_json

DEFAULT_TIMEOUT_S = 5.0


class PeeringError(Exception):
    """A refused or failed call: ``status`` is the HTTP status (None: the peer could not
    be reached), ``reason`` the server's, ``problems`` its (field, reason) list."""

    def __init__(self, url: str, status: int | None, reason: str,
                 problems: list[tuple[str, str]] | None = None):
        self.url = url
        self.status = status
        self.reason = reason
        self.problems = problems or []
        lines = [f"{url}: {status if status is not None else 'unreachable'}: {reason}"]
        lines += [f"  {field}: {why}" for field, why in self.problems]
        super().__init__("\n".join(lines))


class PeeringClient:
    """Calls one peer's API at ``url`` (e.g. ``http://127.0.0.1:8750``)."""

    def __init__(self, url: str, known: KnownPartitions | None = None,
                 timeout_s: float = DEFAULT_TIMEOUT_S):
        self.url = url.rstrip("/")
        self.known = known
        self.timeout_s = timeout_s

    def summary(self) -> Summary:
        """The peer's own summary (GET /v1/summary), checked."""
        return self._summary(self._call("GET", "/v1/summary")[1], "/v1/summary")

    def peers(self) -> dict[str, Any]:
        """What the peer holds of its own peers (GET /v1/peers), as the JSON says it."""
        _, body = self._call("GET", "/v1/peers")
        return json.loads(body)

    def push(self, as_domain: str, summary: Summary) -> dict[str, Any]:
        """PUT ``summary`` as domain ``as_domain``'s; the server's answer on success."""
        path = f"/v1/peers/{as_domain}/summary"
        _, body = self._call("PUT", path, to_json(summary, self.known).encode())
        return json.loads(body)

    def _summary(self, body: bytes, path: str) -> Summary:
        return from_json(body, self.known, source=f"{self.url}{path}")

    def _call(self, method: str, path: str, data: bytes | None = None) -> tuple[int, bytes]:
        url = f"{self.url}{path}"
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as exc:
            raise _refusal(url, exc) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise PeeringError(url, None, str(reason)) from None


def _refusal(url: str, exc: urllib.error.HTTPError) -> PeeringError:
    try:
        error = json.loads(exc.read())["error"]
        problems = [(p["field"], p["reason"]) for p in error.get("problems", [])]
        return PeeringError(url, exc.code, str(error["reason"]), problems)
    except (ValueError, KeyError, TypeError):
        return PeeringError(url, exc.code, str(exc.reason))


def push_to_peers(as_domain: str, summary: Summary, peers: Mapping[str, str],
                  known: KnownPartitions | None = None,
                  timeout_s: float = DEFAULT_TIMEOUT_S) -> dict[str, PeeringError | None]:
    """Push ``summary`` to every peer (name -> API url), in name order; per peer None
    (accepted) or the PeeringError. One peer's failure does not stop the others."""
    outcome: dict[str, PeeringError | None] = {}
    for name in sorted(peers):
        try:
            PeeringClient(peers[name], known, timeout_s).push(as_domain, summary)
            outcome[name] = None
        except PeeringError as exc:
            outcome[name] = exc
    return outcome


__all__ = ["DEFAULT_TIMEOUT_S", "PeeringClient", "PeeringError", "push_to_peers"]
