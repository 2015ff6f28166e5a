"""A fast path for the two hot messages: table entries in Write and in Read.

p4runtime 1.4.1 pins protobuf 3.20, whose Python 3.11 build is the pure-Python runtime:
parsing one table-entry update costs about 250 µs, which caps writes near 3,000
entries per second.  This module reads and writes the protobuf wire format of
WriteRequest / TableEntry / ReadResponse directly:

* `parse_write_request` decodes a WriteRequest.  Table entries built only from the
  common fields become light views that answer the same attribute and
  HasField/WhichOneof questions the entity handlers ask of protobuf messages; any
  other update is parsed by protobuf, so behaviour never depends on the path taken.
* `TableEntryEncoder` serialises table entries for Read responses straight to bytes.

Field numbers come from p4/v1/p4runtime.proto (P4Runtime 1.4).
"""
from __future__ import annotations

from google.protobuf.message import DecodeError
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime.wire_views import (  # noqa: F401 - re-exported: the views' home
    FieldMatchView, ParamView, TableActionView, TableEntryView, UpdateView,
    WriteRequestView)

# -- primitive wire format -------------------------------------------------------------


class WireError(ValueError):
    """Bytes that are not a well-formed protobuf message."""


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    byte = buf[pos]
    if byte < 0x80:
        return byte, pos + 1
    # Unrolled to four bytes: every P4Info ID (a kind byte, then 24 bits) takes four.
    result = byte & 0x7F
    byte = buf[pos + 1]
    if byte < 0x80:
        return result | byte << 7, pos + 2
    result |= (byte & 0x7F) << 7
    byte = buf[pos + 2]
    if byte < 0x80:
        return result | byte << 14, pos + 3
    result |= (byte & 0x7F) << 14
    byte = buf[pos + 3]
    if byte < 0x80:
        return result | byte << 21, pos + 4
    result |= (byte & 0x7F) << 21
    shift = 28
    pos += 3
    while True:
        pos += 1
        byte = buf[pos]
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos + 1
        shift += 7
        if shift > 70:
            raise WireError("varint too long")


def _fields(buf: bytes, pos: int, end: int):
    """(field number, wire type, value) triples; value is an int for varints and a
    (start, end) pair for length-delimited fields."""
    value: int | tuple[int, int]
    try:
        while pos < end:
            key, pos = _varint(buf, pos)
            number, wire_type = key >> 3, key & 7
            if wire_type == 0:
                value, pos = _varint(buf, pos)
            elif wire_type == 2:
                length, pos = _varint(buf, pos)
                value = (pos, pos + length)
                pos += length
                if pos > end:
                    raise WireError("length-delimited field overruns its message")
            elif wire_type == 1:
                value, pos = int.from_bytes(buf[pos:pos + 8], "little"), pos + 8
            elif wire_type == 5:
                value, pos = int.from_bytes(buf[pos:pos + 4], "little"), pos + 4
            else:
                raise WireError(f"unsupported wire type {wire_type}")
            yield number, wire_type, value
    except IndexError:
        raise WireError("truncated message") from None


def message_fields(data: bytes) -> list[tuple[int, int, int | tuple[int, int]]]:
    """(field number, wire type, value) of every field of a serialized message; value
    is an int, or the (start, end) span of a length-delimited field.  WireError for
    bytes that are not a well-formed message."""
    return list(_fields(data, 0, len(data)))


def _signed64(value: int) -> int:
    return value - (1 << 64) if value >> 63 else value


def _encode_varint(value: int) -> bytes:
    if value < 0x80:
        return bytes((value,))
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _ld(number: int, payload: bytes) -> bytes:
    """A length-delimited field."""
    return _encode_varint(number << 3 | 2) + _encode_varint(len(payload)) + payload


def _vi(number: int, value: int) -> bytes:
    """A varint field (negative int32/int64 as two's complement, as protobuf does)."""
    if value < 0:
        value += 1 << 64
    return _encode_varint(number << 3) + _encode_varint(value)


# -- decoding ----------------------------------------------------------------------------

_MATCH_KINDS = {2: "exact", 3: "ternary", 4: "lpm", 6: "range", 7: "optional"}


class _Unsupported(Exception):
    """A field the fast path leaves to protobuf."""


# The decoders below read tags and lengths inline (one byte is the common case) rather
# than through `_fields`: a generator step per field is most of the cost of decoding a
# table entry.  Each keeps `_fields`' checks: a length-delimited field may not overrun
# its message, a varint may not run past it, and any field the views do not model
# (or a repeated singular message, which protobuf would merge) raises _Unsupported so
# that protobuf decodes the update instead.

def _field_match(buf: bytes, pos: int, end: int) -> FieldMatchView:
    fm = FieldMatchView()
    kind = None
    while pos < end:
        tag = buf[pos]
        pos += 1
        if tag == 0x08:                                     # field_id
            value = buf[pos]
            if value < 0x80:
                pos += 1
            else:
                value, pos = _varint(buf, pos)
            fm.field_id = value
            continue
        number = tag >> 3
        if tag & 7 != 2 or number not in _MATCH_KINDS or kind is not None:
            raise _Unsupported()
        length = buf[pos]
        if length < 0x80:
            pos += 1
        else:
            length, pos = _varint(buf, pos)
        stop = pos + length
        if stop > end:
            raise WireError("length-delimited field overruns its message")
        kind = fm.kind = _MATCH_KINDS[number]
        while pos < stop:
            sub = buf[pos]
            pos += 1
            if sub == 0x0A or sub == 0x12:                  # value / low, mask / high
                length = buf[pos]
                if length < 0x80:
                    pos += 1
                else:
                    length, pos = _varint(buf, pos)
                if pos + length > stop:
                    raise WireError("length-delimited field overruns its message")
                if sub == 0x0A:
                    fm.value = buf[pos:pos + length]
                else:
                    fm.mask = buf[pos:pos + length]
                pos += length
            elif sub == 0x10:                               # prefix_len
                value = buf[pos]
                if value < 0x80:
                    pos += 1
                else:
                    value, pos = _varint(buf, pos)
                fm.prefix_len = value - (1 << 64) if number == 4 and value >> 63 else value
            else:
                raise _Unsupported()
        if pos != stop:
            raise WireError("truncated message")
    if pos != end:
        raise WireError("truncated message")
    return fm


def _action(buf: bytes, pos: int, end: int, action: TableActionView) -> None:
    params: list = []               # param_id, value, param_id, value, ...
    action.param_data = params
    while pos < end:
        tag = buf[pos]
        pos += 1
        if tag == 0x08:                                     # action_id
            value = buf[pos]
            if value < 0x80:
                pos += 1
            else:
                value, pos = _varint(buf, pos)
            action.action_id = value
        elif tag == 0x22:                                   # params
            length = buf[pos]
            if length < 0x80:
                pos += 1
            else:
                length, pos = _varint(buf, pos)
            stop = pos + length
            if stop > end:
                raise WireError("length-delimited field overruns its message")
            # What every client sends: a one-byte param_id, then a short value.
            if length >= 4 and buf[pos] == 0x10 and buf[pos + 2] == 0x1A:
                param_id, size = buf[pos + 1], buf[pos + 3]
                if param_id < 0x80 and size < 0x80 and pos + 4 + size == stop:
                    params.append(param_id)
                    params.append(buf[pos + 4:stop])
                    pos = stop
                    continue
            param_id, data = 0, b""
            while pos < stop:
                sub = buf[pos]
                pos += 1
                if sub == 0x10:                             # param_id
                    value = buf[pos]
                    if value < 0x80:
                        pos += 1
                    else:
                        value, pos = _varint(buf, pos)
                    param_id = value
                elif sub == 0x1A:                           # value
                    length = buf[pos]
                    if length < 0x80:
                        pos += 1
                    else:
                        length, pos = _varint(buf, pos)
                    if pos + length > stop:
                        raise WireError("length-delimited field overruns its message")
                    data = buf[pos:pos + length]
                    pos += length
                else:
                    raise _Unsupported()
            if pos != stop:
                raise WireError("truncated message")
            params.append(param_id)
            params.append(data)
        else:
            raise _Unsupported()
    if pos != end:
        raise WireError("truncated message")


def _table_action(buf: bytes, pos: int, end: int) -> TableActionView:
    table_action = TableActionView()
    while pos < end:
        if table_action.kind is not None:
            raise _Unsupported()
        tag = buf[pos]
        pos += 1
        if tag == 0x0A:                                     # action
            length = buf[pos]
            if length < 0x80:
                pos += 1
            else:
                length, pos = _varint(buf, pos)
            stop = pos + length
            if stop > end:
                raise WireError("length-delimited field overruns its message")
            table_action.kind = "action"
            _action(buf, pos, stop, table_action)
            pos = stop
        elif tag == 0x10 or tag == 0x18:                    # member / group id
            value = buf[pos]
            if value < 0x80:
                pos += 1
            else:
                value, pos = _varint(buf, pos)
            if tag == 0x10:
                table_action.kind = "action_profile_member_id"
                table_action.action_profile_member_id = value
            else:
                table_action.kind = "action_profile_group_id"
                table_action.action_profile_group_id = value
        else:
            raise _Unsupported()
    if pos != end:
        raise WireError("truncated message")
    return table_action


def _table_entry(buf: bytes, pos: int, end: int) -> TableEntryView:
    entry = TableEntryView()
    match: list[FieldMatchView] = []
    entry.match = match
    while pos < end:
        tag = buf[pos]
        pos += 1
        wire_type = tag & 7
        if tag >= 0x80 or wire_type not in (0, 2):
            raise _Unsupported()
        if wire_type == 0:
            value = buf[pos]
            if value < 0x80:
                pos += 1
            else:
                value, pos = _varint(buf, pos)
            if tag == 0x08:
                entry.table_id = value
            elif tag == 0x20:
                entry.priority = _signed64(value)
            elif tag == 0x28:
                entry.controller_metadata = value
            elif tag == 0x40:
                entry.is_default_action = bool(value)
            elif tag == 0x48 and value == 0:
                pass
            else:
                raise _Unsupported()
            continue
        length = buf[pos]
        if length < 0x80:
            pos += 1
        else:
            length, pos = _varint(buf, pos)
        stop = pos + length
        if stop > end:
            raise WireError("length-delimited field overruns its message")
        if tag == 0x12:
            match.append(_field_match(buf, pos, stop))
        elif tag == 0x1A:
            if entry.has_action:
                raise _Unsupported()      # a second action: protobuf merges the two
            entry.has_action = True
            entry.action = _table_action(buf, pos, stop)
        elif tag == 0x5A:
            entry.metadata = buf[pos:stop]
        else:
            raise _Unsupported()
        pos = stop
    if pos != end:
        raise WireError("truncated message")
    return entry


def _only_field(buf: bytes, pos: int, end: int, tag: int) -> tuple[int, int]:
    """(start, end) of a message's one length-delimited field `tag`; _Unsupported
    when the message holds anything else."""
    if pos >= end or buf[pos] != tag:
        raise _Unsupported()
    pos += 1
    length = buf[pos]
    if length < 0x80:
        pos += 1
    else:
        length, pos = _varint(buf, pos)
    if pos + length != end:
        if pos + length > end:
            raise WireError("length-delimited field overruns its message")
        raise _Unsupported()
    return pos, end


def _update(buf: bytes, pos: int, end: int) -> UpdateView:
    kind, entity_span = 0, None
    try:
        while pos < end:
            tag = buf[pos]
            pos += 1
            if tag == 0x08:                                 # type
                kind = buf[pos]
                if kind < 0x80:
                    pos += 1
                else:
                    kind, pos = _varint(buf, pos)
            elif tag == 0x12 and entity_span is None:       # entity
                length = buf[pos]
                if length < 0x80:
                    pos += 1
                else:
                    length, pos = _varint(buf, pos)
                if pos + length > end:
                    raise WireError("length-delimited field overruns its message")
                entity_span = (pos, pos + length)
                pos += length
            else:
                raise _Unsupported()
        if pos != end:
            raise WireError("truncated message")
        if entity_span is None:
            raise _Unsupported()
        entry_start, entry_end = _only_field(buf, *entity_span, 0x12)
        update = UpdateView()
        update.type = kind
        update.table_entry = _table_entry(buf, entry_start, entry_end)
        return update
    except IndexError:
        raise WireError("truncated message") from None


def parse_write_request(data: bytes) -> WriteRequestView | p4runtime_pb2.WriteRequest:
    """Decode a serialized WriteRequest: a WriteRequestView with fast views for plain
    table entries, or the protobuf message if the request has fields this module
    does not know (newer clients).  Raises WireError for malformed bytes."""
    try:
        return _write_request(data)
    except _Unsupported:
        pass
    except (DecodeError, ValueError, RecursionError) as exc:  # protobuf refused a part
        raise WireError(str(exc)) from None    # (bad UTF-8 is a UnicodeDecodeError)
    try:
        return p4runtime_pb2.WriteRequest.FromString(data)
    except (DecodeError, ValueError, RecursionError) as exc:
        raise WireError(str(exc)) from None


def _write_request(data: bytes) -> WriteRequestView:
    request = WriteRequestView()
    updates = request.updates
    pos, end = 0, len(data)
    try:
        while pos < end:
            tag = data[pos]
            if tag == 0x22:                                 # updates, the bulk
                length = data[pos + 1]
                if length < 0x80:
                    pos += 2
                else:
                    length, pos = _varint(data, pos + 1)
                stop = pos + length
                if stop > end:
                    raise WireError("length-delimited field overruns its message")
                try:
                    updates.append(_update(data, pos, stop))
                except _Unsupported:
                    updates.append(p4runtime_pb2.Update.FromString(data[pos:stop]))
                pos = stop
                continue
            for number, wire_type, value in _fields(data, pos, _field_end(data, pos)):
                if number == 1 and wire_type == 0:
                    request.device_id = value
                elif number == 3 and wire_type == 2:
                    request.election_id = p4runtime_pb2.Uint128.FromString(
                        data[value[0]:value[1]])
                elif number == 5 and wire_type == 0:
                    request.atomicity = value
                elif number == 6 and wire_type == 2:
                    request.role = data[value[0]:value[1]].decode("utf-8")
                elif number == 2 and wire_type == 0:
                    pass   # role_id: deprecated
                else:
                    raise _Unsupported()
            pos = _field_end(data, pos)
    except IndexError:
        raise WireError("truncated message") from None
    return request


def _field_end(buf: bytes, pos: int) -> int:
    """Where the field starting at `pos` ends (WireError if it overruns the buffer)."""
    key, pos = _varint(buf, pos)
    wire_type = key & 7
    if wire_type == 0:
        return _varint(buf, pos)[1]
    if wire_type == 2:
        length, pos = _varint(buf, pos)
        pos += length
    elif wire_type == 1:
        pos += 8
    elif wire_type == 5:
        pos += 4
    else:
        raise WireError(f"unsupported wire type {wire_type}")
    if pos > len(buf):
        raise WireError("truncated message")
    return pos


# -- encoding ----------------------------------------------------------------------------

def _bytes_of(value: int) -> bytes:
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")


def encode_field_match(field_id: int, kind: str, a: bytes, b: bytes | int | None = None
                       ) -> bytes:
    """FieldMatch bytes; `a`/`b` are value/mask, value/prefix_len or low/high."""
    if kind == "exact":
        body = _ld(1, a)
        number = 2
    elif kind == "lpm":
        assert isinstance(b, int)  # the prefix length
        body, number = _ld(1, a) + _vi(2, b), 4
    elif kind == "ternary":
        assert b is not None and not isinstance(b, int)  # the mask
        body, number = _ld(1, a) + _ld(2, b), 3
    elif kind == "range":
        assert b is not None and not isinstance(b, int)  # the high end
        body, number = _ld(1, a) + _ld(2, b), 6
    else:
        body, number = _ld(1, a), 7
    return _vi(1, field_id) + _ld(number, body)


def encode_action(action_id: int, params: list[tuple[int, int]]) -> bytes:
    """Action bytes from (param_id, value) pairs, values canonical."""
    body = _vi(1, action_id)
    for param_id, value in params:
        body += _ld(4, _vi(2, param_id) + _ld(3, _bytes_of(value)))
    return body


def encode_table_entry(table_id: int, matches: list[bytes], action: bytes | None,
                       member_id: int = 0, group_id: int = 0, priority: int = 0,
                       controller_metadata: int = 0, metadata: bytes = b"",
                       is_const: bool = False, idle_timeout_ns: int = 0) -> bytes:
    """TableEntry bytes, fields in field-number order as protobuf writes them."""
    out = _vi(1, table_id)
    for fm in matches:
        out += _ld(2, fm)
    if action is not None:
        out += _ld(3, _ld(1, action))
    elif member_id:
        out += _ld(3, _vi(2, member_id))
    elif group_id:
        out += _ld(3, _vi(3, group_id))
    if priority:
        out += _vi(4, priority)
    if controller_metadata:
        out += _vi(5, controller_metadata)
    if idle_timeout_ns:
        out += _vi(9, idle_timeout_ns)
    if metadata:
        out += _ld(11, metadata)
    if is_const:
        out += _vi(13, 1)
    return out


def entity_with_table_entry(entry: bytes) -> bytes:
    """Entity bytes wrapping TableEntry bytes (Entity.table_entry is field 2)."""
    return _ld(2, entry)


def read_response(entities: list[bytes]) -> bytes:
    """ReadResponse bytes from Entity bytes (ReadResponse.entities is field 1)."""
    return b"".join(_ld(1, e) for e in entities)


def split_read_response(data: bytes) -> list[bytes]:
    """The serialized Entities of a serialized ReadResponse (for clients that count or
    decode lazily)."""
    return [data[start:end] for number, wire_type, (start, end)
            in _fields(data, 0, len(data)) if number == 1 and wire_type == 2]
