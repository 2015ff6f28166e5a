"""Writing P4Info files; the format follows each file's extension, as with p4c's
``--p4runtime-files``."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

from google.protobuf import json_format, text_format
from p4.config.v1 import p4info_pb2

from p4sim.compiler.control_plane import ControlPlaneModel
from p4sim.compiler.p4info.builder import build_p4info
from p4sim.compiler.p4info.errors import P4InfoError

_TEXT_HEADER = ("# proto-file: p4/config/v1/p4info.proto\n"
                "# proto-message: p4.config.v1.P4Info\n\n")


def to_text(info: p4info_pb2.P4Info) -> bytes:
    return (_TEXT_HEADER + text_format.MessageToString(info)).encode()


def to_binary(info: p4info_pb2.P4Info) -> bytes:
    return info.SerializeToString()


def to_json(info: p4info_pb2.P4Info) -> bytes:
    return (json_format.MessageToJson(info, indent=2) + "\n").encode()


_FORMATS: Mapping[str, Callable[[p4info_pb2.P4Info], bytes]] = MappingProxyType({
    ".txtpb": to_text,
    ".txt": to_text,
    ".bin": to_binary,
    ".json": to_json,
})


def serializer_for(path: str) -> Callable[[p4info_pb2.P4Info], bytes]:
    """The serializer an output path asks for; a clear error for anything else."""
    suffix = Path(path).suffix.lower()
    try:
        return _FORMATS[suffix]
    except KeyError:
        raise P4InfoError(
            f"{path}: cannot tell the P4Info format from the extension "
            f"'{suffix or '(none)'}'; use one of {', '.join(_FORMATS)}") from None


def write_p4info(model: ControlPlaneModel, paths: Sequence[str]) -> None:
    """Build the model's P4Info once and write it to every path (checked up front, so
    a bad extension writes nothing)."""
    serializers = [(path, serializer_for(path)) for path in paths]
    if not serializers:
        return
    info = build_p4info(model)
    for path, serialize in serializers:
        try:
            Path(path).write_bytes(serialize(info))
        except OSError as error:
            raise P4InfoError(f"{path}: cannot write P4Info: {error.strerror}") from error
