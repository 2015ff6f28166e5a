"""P4Runtime errors and the one table-error-to-status mapping.

Every failure inside the server is a `P4RuntimeError` carrying the gRPC status code the
specification prescribes.  `from_table_error` is the single place where the switch's
`TableErrorCode` values turn into status codes, and `from_codec_error` does the same for
the value codec.
"""
from __future__ import annotations

import grpc
from google.rpc import code_pb2, status_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import codec

Code = grpc.StatusCode


class P4RuntimeError(Exception):
    """A request or update that failed with a P4Runtime status code."""

    def __init__(self, code: grpc.StatusCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code.name}: {self.message}"


# TableErrorCode member name -> status code.  Keyed by name so that an enum member the
# switch adds later falls back to UNKNOWN instead of breaking the import.
_TABLE_ERROR_STATUS = {
    "TABLE_FULL": Code.RESOURCE_EXHAUSTED,
    "INVALID_HANDLE": Code.NOT_FOUND,
    "ENTRY_NOT_FOUND": Code.NOT_FOUND,
    "DUPLICATE_ENTRY": Code.ALREADY_EXISTS,
    "BAD_MATCH_KEY": Code.INVALID_ARGUMENT,
    "INVALID_ACTION_NAME": Code.INVALID_ARGUMENT,
    "BAD_ACTION_DATA": Code.INVALID_ARGUMENT,
    "INVALID_MBR_HANDLE": Code.NOT_FOUND,
    "MBR_STILL_USED": Code.FAILED_PRECONDITION,
    "MBR_ALREADY_IN_GRP": Code.ALREADY_EXISTS,
    "MBR_NOT_IN_GRP": Code.NOT_FOUND,
    "INVALID_GRP_HANDLE": Code.NOT_FOUND,
    "GRP_STILL_USED": Code.FAILED_PRECONDITION,
    "EMPTY_GRP": Code.FAILED_PRECONDITION,
    "DEFAULT_ACTION_IS_CONST": Code.PERMISSION_DENIED,
    "DEFAULT_ENTRY_IS_CONST": Code.PERMISSION_DENIED,
    "IMMUTABLE_TABLE_ENTRY": Code.PERMISSION_DENIED,
    "WRONG_TABLE_TYPE": Code.INVALID_ARGUMENT,
    "INVALID_TABLE_NAME": Code.NOT_FOUND,
    "COUNTERS_DISABLED": Code.INVALID_ARGUMENT,
    "METERS_DISABLED": Code.INVALID_ARGUMENT,
    "AGEING_DISABLED": Code.INVALID_ARGUMENT,
    "INVALID_INDEX": Code.OUT_OF_RANGE,
    "INVALID_METER_OPERATION": Code.INVALID_ARGUMENT,
    "NO_DEFAULT_ENTRY": Code.NOT_FOUND,
    "UNSUPPORTED": Code.UNIMPLEMENTED,
    "ERROR": Code.INTERNAL,
}


def status_for_table_error(code_name: str) -> grpc.StatusCode:
    """Status code for a TableErrorCode member name."""
    return _TABLE_ERROR_STATUS.get(code_name, Code.UNKNOWN)


def from_table_error(exc: Exception, subject: str = "") -> P4RuntimeError:
    """Translate the switch's TableError (code, message) into a P4RuntimeError;
    `subject` names the object in P4Runtime terms when the switch's handle would not."""
    code = getattr(exc, "code", None)
    name = getattr(code, "name", str(code))
    message = getattr(exc, "message", None) or str(exc)
    if subject:
        readable = {"MBR_STILL_USED": "is still used by a group or table entry",
                    "GRP_STILL_USED": "is still used by a table entry"}.get(name, message)
        message = f"{subject} {readable}"
    return P4RuntimeError(status_for_table_error(name), message)


def from_codec_error(exc: codec.CodecError) -> P4RuntimeError:
    """OUT_OF_RANGE for bytestrings that do not fit, INVALID_ARGUMENT otherwise."""
    if isinstance(exc, codec.OutOfRangeError):
        return P4RuntimeError(Code.OUT_OF_RANGE, str(exc))
    return P4RuntimeError(Code.INVALID_ARGUMENT, str(exc))


def invalid(message: str) -> P4RuntimeError:
    return P4RuntimeError(Code.INVALID_ARGUMENT, message)


def not_found(message: str) -> P4RuntimeError:
    return P4RuntimeError(Code.NOT_FOUND, message)


def rpc_code(code: grpc.StatusCode) -> int:
    """google.rpc.Code number of a grpc.StatusCode."""
    return code.value[0]


def p4_error(error: P4RuntimeError | None) -> p4runtime_pb2.Error:
    """The per-update p4.v1.Error (canonical_code OK for a successful update)."""
    if error is None:
        return p4runtime_pb2.Error(canonical_code=code_pb2.OK)
    return p4runtime_pb2.Error(canonical_code=rpc_code(error.code), message=error.message)


def batch_status(errors: list[P4RuntimeError | None]) -> status_pb2.Status:
    """google.rpc.Status for a Write batch in which some update failed: UNKNOWN plus one
    Any-packed p4.v1.Error per update, in request order."""
    failed = sum(1 for e in errors if e is not None)
    status = status_pb2.Status(
        code=code_pb2.UNKNOWN,
        message=f"{failed} of {len(errors)} updates failed")
    for error in errors:
        status.details.add().Pack(p4_error(error))
    return status
