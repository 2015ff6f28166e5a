"""Writing P4Info files; the format follows each file's extension, as with p4c's
``--p4runtime-files``.

The text format is printed by p4sim itself (``message.to_text``), so the common case
(``.txtpb``) never imports protobuf; the binary and JSON formats are protobuf's own
serializations of that text parsed back into ``p4.config.v1.P4Info``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from p4sim.compiler.control_plane import ControlPlaneModel
from p4sim.compiler.p4info import message
from p4sim.compiler.p4info.builder import build_p4info_message
from p4sim.compiler.p4info.errors import P4InfoError

_TEXT_HEADER = ("# proto-file: p4/config/v1/p4info.proto\n"
                "# proto-message: p4.config.v1.P4Info\n\n")


class _Rendering:
    """One P4Info in the forms the writers need, each computed at most once."""

    def __init__(self, info: message.Message) -> None:
        self.text = message.to_text(info)
        self._proto: Any = None

    def proto(self) -> Any:
        if self._proto is None:
            from google.protobuf import text_format
            from p4.config.v1 import p4info_pb2
            self._proto = text_format.Parse(self.text, p4info_pb2.P4Info())
        return self._proto


def to_text(info: Any) -> bytes:
    """A P4Info text file's contents, header included, for a ``message.Message`` or a
    protobuf ``p4.config.v1.P4Info``."""
    if isinstance(info, message.Message):
        return (_TEXT_HEADER + message.to_text(info)).encode()
    from google.protobuf import text_format
    return (_TEXT_HEADER + text_format.MessageToString(info)).encode()


def _to_text(rendering: _Rendering) -> bytes:
    return (_TEXT_HEADER + rendering.text).encode()


def _to_binary(rendering: _Rendering) -> bytes:
    return rendering.proto().SerializeToString()


def _to_json(rendering: _Rendering) -> bytes:
    from google.protobuf import json_format
    return (json_format.MessageToJson(rendering.proto(), indent=2) + "\n").encode()


_FORMATS: Mapping[str, Callable[[_Rendering], bytes]] = MappingProxyType({
    ".txtpb": _to_text,
    ".txt": _to_text,
    ".bin": _to_binary,
    ".json": _to_json,
})


def serializer_for(path: str) -> Callable[[_Rendering], bytes]:
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
    rendering = _Rendering(build_p4info_message(model))
    for path, serialize in serializers:
        try:
            Path(path).write_bytes(serialize(rendering))
        except OSError as error:
            raise P4InfoError(f"{path}: cannot write P4Info: {error.strerror}") from error
