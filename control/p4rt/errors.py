"""The controller's one domain exception, decoding per-update P4Runtime errors."""
from __future__ import annotations

import grpc
from google.rpc import status_pb2
from p4.v1 import p4runtime_pb2


class P4RuntimeError(Exception):
    """A failed RPC; for Write, ``errors`` lists (update index, code name, message) for
    every update that failed, in request order."""

    def __init__(self, rpc: str, code: grpc.StatusCode, details: str,
                 errors: list[tuple[int, str, str]] | None = None):
        self.rpc = rpc
        self.code = code
        self.details = details
        self.errors = errors or []
        lines = [f"{rpc} failed: {code.name}: {details}"]
        lines += [f"  update {i}: {name}: {msg}" for i, name, msg in self.errors]
        super().__init__("\n".join(lines))


def from_rpc_error(rpc: str, err: grpc.RpcError) -> P4RuntimeError:
    """Decode the p4.v1.Error entries packed into the status details, if any."""
    errors: list[tuple[int, str, str]] = []
    for key, value in (err.trailing_metadata() or ()):
        if key != "grpc-status-details-bin":
            continue
        status = status_pb2.Status.FromString(value)
        for index, detail in enumerate(status.details):
            p4_error = p4runtime_pb2.Error()
            if detail.Unpack(p4_error) and p4_error.canonical_code != grpc.StatusCode.OK.value[0]:
                name = _code_name(p4_error.canonical_code)
                errors.append((index, name, p4_error.message))
    return P4RuntimeError(rpc, err.code(), err.details() or "", errors)


def _code_name(code: int) -> str:
    for status in grpc.StatusCode:
        if status.value[0] == code:
            return status.name
    return str(code)
