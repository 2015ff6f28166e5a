"""A P4Info message under construction, and its protobuf text format.

``Message`` is set the way protobuf's generated classes are (``m.preamble.id = 1``,
``m.tables.add()``, ``m.annotations.extend(...)``, ``m.type_info.structs["s"]``,
``SetInParent()``, ``CopyFrom()``) for the fields ``schema.MESSAGES`` declares, so the
builder reads like ordinary protobuf code; ``to_text`` prints it exactly as
``google.protobuf.text_format.MessageToString`` does.
"""
from __future__ import annotations

from typing import Any

from p4sim.compiler.p4info.schema import MESSAGES, Field

# Keyed by Field.kind (a name or an IntEnum class); the enums default to 0.
_DEFAULTS: dict[object, object] = {"string": "", "bytes": b"", "int": 0, "bool": False}


class Message:
    __slots__ = ("_type", "_fields", "_values", "_touched")

    def __init__(self, type_name: str) -> None:
        object.__setattr__(self, "_type", type_name)
        object.__setattr__(self, "_fields", {f.name: f for f in MESSAGES[type_name]})
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_touched", False)

    def _field(self, name: str) -> Field:
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(f"P4Info message {self._type} has no field '{name}' "
                                 "(or p4sim's schema does not declare it)") from None

    def __getattr__(self, name: str) -> Any:
        field = self._field(name)
        values = self._values
        if name not in values:
            if field.kind == "map":
                values[name] = _MessageMap(field.of)
            elif field.repeated:
                values[name] = _Repeated(field.of if field.kind == "message" else "")
            elif field.kind == "message":
                values[name] = Message(field.of)
            else:
                return _DEFAULTS.get(field.kind, 0)
        return values[name]

    def __setattr__(self, name: str, value: Any) -> None:
        field = self._field(name)
        if field.kind in ("message", "map") or field.repeated:
            raise AttributeError(f"cannot assign to {self._type}.{name}; set its fields")
        self._values[name] = value
        object.__setattr__(self, "_touched", True)

    def SetInParent(self) -> None:  # noqa: N802 - protobuf's name
        """Mark the message present even if empty (as ``type_info {}``)."""
        object.__setattr__(self, "_touched", True)

    def CopyFrom(self, other: "Message") -> None:  # noqa: N802 - protobuf's name
        if other._type != self._type:
            raise TypeError(f"cannot copy a {other._type} into a {self._type}")
        self._values.clear()
        for field in MESSAGES[self._type]:
            if field.name in other._values:
                if field.kind == "message" or field.kind == "map" or field.repeated:
                    raise NotImplementedError("CopyFrom copies scalar fields only")
                self._values[field.name] = other._values[field.name]
        object.__setattr__(self, "_touched", True)


class _Repeated(list):
    """A repeated field; ``add()`` appends a new element to a repeated message field."""

    def __init__(self, item_type: str) -> None:
        super().__init__()
        self.item_type = item_type

    def add(self) -> Message:
        if not self.item_type:
            raise TypeError("add() is for repeated message fields; use append()")
        item = Message(self.item_type)
        self.append(item)
        return item


class _MessageMap(dict):
    """A ``map<string, Message>`` field: a missing key gets a new, present message."""

    def __init__(self, value_type: str) -> None:
        super().__init__()
        self.value_type = value_type

    def __missing__(self, key: str) -> Message:
        value = self[key] = Message(self.value_type)
        return value


def to_text(message: Message) -> str:
    """The protobuf text format of ``message``."""
    lines: list[str] = []
    _print(message, "", lines)
    return "".join(lines)


def _print(message: Message, indent: str, out: list[str]) -> None:
    values = message._values
    for field in MESSAGES[message._type]:
        if field.name not in values:
            continue
        value = values[field.name]
        if field.kind == "map":
            for key in sorted(value):
                out.append(f"{indent}{field.name} {{\n{indent}  key: {_quote(key)}\n")
                _print_message("value", value[key], indent + "  ", out, always=True)
                out.append(f"{indent}}}\n")
        elif field.kind == "message":
            for item in (value if field.repeated else (value,)):
                _print_message(field.name, item, indent, out, always=field.repeated)
        elif field.repeated:
            out.extend(f"{indent}{field.name}: {_scalar(field, item)}\n" for item in value)
        elif field.oneof or value != _DEFAULTS.get(field.kind, 0):
            out.append(f"{indent}{field.name}: {_scalar(field, value)}\n")


def _print_message(name: str, message: Message, indent: str, out: list[str],
                   always: bool) -> None:
    """A sub-message is printed when it is set: assigned to, marked with SetInParent,
    or holding something printable (protobuf's presence, as far as the builder uses
    it); repeated elements and map values always are."""
    inner: list[str] = []
    _print(message, indent + "  ", inner)
    if inner or always or message._touched:
        out.append(f"{indent}{name} {{\n")
        out.extend(inner)
        out.append(f"{indent}}}\n")


def _scalar(field: Field, value: Any) -> str:
    if field.kind == "string":
        return _quote(value)
    if field.kind == "bytes":
        return '"' + "".join(_BYTE_TEXT_TABLE[b] for b in value) + '"'
    if field.kind == "bool":
        return "true" if value else "false"
    if field.kind == "int":
        return str(int(value))
    enum = field.kind
    try:
        return enum(value).name  # type: ignore[operator]
    except ValueError:
        return str(int(value))


# protobuf's CEscape on the UTF-8 bytes: printable ASCII as is, six C escapes, the
# other bytes in octal.
_BYTE_TEXT = [f"\\{b:03o}" for b in range(32)] + [chr(b) for b in range(32, 127)] \
    + [f"\\{b:03o}" for b in range(127, 256)]
for _byte, _text in ((ord("\n"), "\\n"), (ord("\r"), "\\r"), (ord("\t"), "\\t"),
                     (ord('"'), '\\"'), (ord("'"), "\\'"), (ord("\\"), "\\\\")):
    _BYTE_TEXT[_byte] = _text
_BYTE_TEXT_TABLE = tuple(_BYTE_TEXT)
del _byte, _text, _BYTE_TEXT


def _quote(text: str) -> str:
    return '"' + "".join(_BYTE_TEXT_TABLE[b] for b in text.encode("utf-8")) + '"'
