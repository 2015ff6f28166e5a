"""The P4Runtime value codec shared by the switch's server and the controller.

P4Runtime carries every P4 integer as a big-endian bytestring.  Senders must use the
canonical (shortest) form so that what is read back equals what was written; receivers
accept any length as long as the value fits the P4Info bitwidth (spec section
"Bytestrings"), and reject an empty string or a value that does not fit with
OUT_OF_RANGE.  Match fields add per-kind rules ("Match Format"): a don't-care match is
omitted, LPM host bits and ternary bits outside the mask must be zero, a range must not
be inverted.  Violations of those rules are INVALID_ARGUMENT.

The two error classes below carry that distinction so each side can map it to its own
error type without string matching.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Union

from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

MatchType = p4info_pb2.MatchField.MatchType


class CodecError(ValueError):
    """A value that cannot be encoded or decoded."""


class OutOfRangeError(CodecError):
    """A bytestring that is empty or holds a value wider than its field (OUT_OF_RANGE)."""


class InvalidMatchError(CodecError):
    """A match field that breaks the P4Runtime match-format rules (INVALID_ARGUMENT)."""


# --- integers <-> bytestrings ---------------------------------------------------------

def encode_int(value: int, bitwidth: int, what: str = "value") -> bytes:
    """Canonical bytestring of an unsigned value: shortest big-endian, 0 is b'\\x00'."""
    if value < 0 or value >> bitwidth:
        raise OutOfRangeError(f"{what} {value:#x} does not fit in {bitwidth} bits")
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")


def decode_int(data: bytes, bitwidth: int, what: str = "value") -> int:
    """Value of a received bytestring; any length is accepted if the value fits."""
    if not data:
        raise OutOfRangeError(f"{what} is an empty bytestring")
    value = int.from_bytes(data, "big")
    if value >> bitwidth:
        raise OutOfRangeError(
            f"{what} 0x{data.hex()} does not fit in {bitwidth} bits")
    return value


def _decode_part(data: bytes, bitwidth: int, name: str, part: str) -> int:
    """decode_int for a named part of a match field; the message is built only on error
    (this runs for every field of every entry written)."""
    value = int.from_bytes(data, "big")
    if not data or value >> bitwidth:
        decode_int(data, bitwidth, f"'{name}' {part}")
    return value


def is_canonical(data: bytes) -> bool:
    """True when a bytestring has no superfluous leading zero byte."""
    return len(data) == 1 or (len(data) > 1 and data[0] != 0)


def to_canonical(data: bytes) -> bytes:
    """Strip superfluous leading zero bytes, keeping one byte for zero."""
    stripped = data.lstrip(b"\x00")
    return stripped if stripped else b"\x00"


# --- friendly text <-> integers ---------------------------------------------------------

def parse_value(text: str, bitwidth: int) -> int:
    """Parse '10.0.0.1', 'aa:bb:cc:dd:ee:ff', '2001:db8::1', '0x1f', '0b101' or '42'."""
    text = text.strip()
    try:
        if bitwidth == 32 and text.count(".") == 3:
            return int(ipaddress.IPv4Address(text))
        if bitwidth == 48 and text.count(":") == 5 and "::" not in text:
            octets = text.split(":")
            if any(not 1 <= len(o) <= 2 for o in octets):
                raise ValueError(text)
            return int("".join(o.zfill(2) for o in octets), 16)
        if bitwidth == 128 and ":" in text:
            return int(ipaddress.IPv6Address(text))
        value = int(text, 0)
    except ValueError:
        raise CodecError(f"cannot parse {text!r} as a {bitwidth}-bit value") from None
    if value < 0 or value >> bitwidth:
        raise OutOfRangeError(f"{text!r} does not fit in {bitwidth} bits")
    return value


def format_value(value: int, bitwidth: int, style: str = "auto") -> str:
    """Text for a value; 'auto' shows 48-bit values as MAC and 128-bit ones as IPv6."""
    if style == "auto":
        style = {48: "mac", 128: "ipv6"}.get(bitwidth, "hex")
    if style == "mac":
        raw = value.to_bytes(6, "big")
        return ":".join(f"{b:02x}" for b in raw)
    if style == "ipv4":
        return str(ipaddress.IPv4Address(value))
    if style == "ipv6":
        return str(ipaddress.IPv6Address(value))
    if style == "dec":
        return str(value)
    if style == "hex":
        return hex(value)
    raise CodecError(f"unknown format style {style!r}")


# --- match values ------------------------------------------------------------------------

@dataclass(frozen=True)
class ExactMatch:
    value: int


@dataclass(frozen=True)
class LpmMatch:
    value: int
    prefix_len: int


@dataclass(frozen=True)
class TernaryMatch:
    value: int
    mask: int


@dataclass(frozen=True)
class RangeMatch:
    low: int
    high: int


@dataclass(frozen=True)
class OptionalMatch:
    value: int | None  # None: wildcard


Match = Union[ExactMatch, LpmMatch, TernaryMatch, RangeMatch, OptionalMatch]

# Plain ints: protobuf's enum wrapper resolves MatchType.X through __getattr__,
# which costs more than the comparison on the per-entry write path.
EXACT, LPM, TERNARY, RANGE, OPTIONAL = (MatchType.Value(name) for name in (
    "EXACT", "LPM", "TERNARY", "RANGE", "OPTIONAL"))

_KIND_NAMES = {
    EXACT: "exact",
    LPM: "lpm",
    TERNARY: "ternary",
    RANGE: "range",
    OPTIONAL: "optional",
}


def kind_name(kind: int) -> str:
    """Lower-case name of a P4Info match type ('exact', 'lpm', ...)."""
    return _KIND_NAMES.get(kind, f"match type {kind}")


def wildcard(kind: int, bitwidth: int) -> Match:
    """The don't-care match of a kind (what an omitted FieldMatch stands for)."""
    if kind == LPM:
        return LpmMatch(0, 0)
    if kind == TERNARY:
        return TernaryMatch(0, 0)
    if kind == RANGE:
        return RangeMatch(0, (1 << bitwidth) - 1)
    if kind == OPTIONAL:
        return OptionalMatch(None)
    raise InvalidMatchError(f"an {kind_name(kind)} match field cannot be omitted")


def is_wildcard(match: Match, bitwidth: int) -> bool:
    """True for the don't-care form, which P4Runtime messages omit."""
    if isinstance(match, LpmMatch):
        return match.prefix_len == 0
    if isinstance(match, TernaryMatch):
        return match.mask == 0
    if isinstance(match, RangeMatch):
        return match.low == 0 and match.high == (1 << bitwidth) - 1
    if isinstance(match, OptionalMatch):
        return match.value is None
    return False


def decode_field_match(fm: p4runtime_pb2.FieldMatch, kind: int, bitwidth: int,
                       name: str = "field") -> Match:
    """Check one received FieldMatch against its P4Info match field and decode it."""
    which = fm.WhichOneof("field_match_type")
    expected = kind_name(kind)
    if which != expected:
        raise InvalidMatchError(
            f"match field '{name}' is {expected} but the request gives {which or 'nothing'}")
    if kind == EXACT:
        return ExactMatch(_decode_part(fm.exact.value, bitwidth, name, "value"))
    if kind == LPM:
        plen = fm.lpm.prefix_len
        if plen <= 0 or plen > bitwidth:
            if plen == 0:
                raise InvalidMatchError(
                    f"'{name}': prefix length 0 is a don't-care match and must be omitted")
            raise InvalidMatchError(
                f"'{name}': prefix length {plen} is outside 1..{bitwidth}")
        value = _decode_part(fm.lpm.value, bitwidth, name, "value")
        host_bits = (1 << (bitwidth - plen)) - 1
        if value & host_bits:
            raise InvalidMatchError(
                f"'{name}': value {value:#x} has bits set beyond prefix length {plen}")
        return LpmMatch(value, plen)
    if kind == TERNARY:
        value = _decode_part(fm.ternary.value, bitwidth, name, "value")
        mask = _decode_part(fm.ternary.mask, bitwidth, name, "mask")
        if mask == 0:
            raise InvalidMatchError(
                f"'{name}': mask 0 is a don't-care match and must be omitted")
        if value & ~mask:
            raise InvalidMatchError(
                f"'{name}': value {value:#x} has bits outside mask {mask:#x}")
        return TernaryMatch(value, mask)
    if kind == RANGE:
        low = _decode_part(fm.range.low, bitwidth, name, "low")
        high = _decode_part(fm.range.high, bitwidth, name, "high")
        if low > high:
            raise InvalidMatchError(f"'{name}': range low {low} is above high {high}")
        if low == 0 and high == (1 << bitwidth) - 1:
            raise InvalidMatchError(
                f"'{name}': the full range is a don't-care match and must be omitted")
        return RangeMatch(low, high)
    if kind == OPTIONAL:
        return OptionalMatch(_decode_part(fm.optional.value, bitwidth, name, "value"))
    raise InvalidMatchError(f"match field '{name}' has unsupported match type {kind}")


def encode_field_match(field_id: int, match: Match,
                       bitwidth: int) -> p4runtime_pb2.FieldMatch | None:
    """Canonical FieldMatch of a match value, or None for a don't-care match."""
    if is_wildcard(match, bitwidth):
        return None
    fm = p4runtime_pb2.FieldMatch(field_id=field_id)
    if isinstance(match, ExactMatch):
        fm.exact.value = encode_int(match.value, bitwidth)
    elif isinstance(match, LpmMatch):
        fm.lpm.value = encode_int(match.value, bitwidth)
        fm.lpm.prefix_len = match.prefix_len
    elif isinstance(match, TernaryMatch):
        fm.ternary.value = encode_int(match.value, bitwidth)
        fm.ternary.mask = encode_int(match.mask, bitwidth)
    elif isinstance(match, RangeMatch):
        fm.range.low = encode_int(match.low, bitwidth)
        fm.range.high = encode_int(match.high, bitwidth)
    elif isinstance(match, OptionalMatch):
        assert match.value is not None  # None is the wildcard, handled above
        fm.optional.value = encode_int(match.value, bitwidth)
    else:
        raise CodecError(f"not a match value: {match!r}")
    return fm


def format_match(match: Match, bitwidth: int, style: str = "auto") -> str:
    """Text such as '10.0.0.0/8', '0x0&&&0xfc', '4790..4799' or '*' for don't care."""
    if is_wildcard(match, bitwidth):
        return "*"
    if isinstance(match, ExactMatch):
        return format_value(match.value, bitwidth, style)
    if isinstance(match, LpmMatch):
        return f"{format_value(match.value, bitwidth, style)}/{match.prefix_len}"
    if isinstance(match, TernaryMatch):
        return (f"{format_value(match.value, bitwidth, style)}&&&"
                f"{format_value(match.mask, bitwidth, style)}")
    if isinstance(match, RangeMatch):
        return (f"{format_value(match.low, bitwidth, style)}.."
                f"{format_value(match.high, bitwidth, style)}")
    if isinstance(match, OptionalMatch):
        assert match.value is not None  # None is the wildcard, handled above
        return format_value(match.value, bitwidth, style)
    raise CodecError(f"not a match value: {match!r}")


def parse_match(text: str, kind: int, bitwidth: int) -> Match:
    """Parse the text forms format_match produces, for the given P4Info match type."""
    text = text.strip()
    if text == "*":
        return wildcard(kind, bitwidth)
    if kind == EXACT:
        return ExactMatch(parse_value(text, bitwidth))
    if kind == OPTIONAL:
        return OptionalMatch(parse_value(text, bitwidth))
    if kind == LPM:
        value_text, _, plen_text = text.partition("/")
        value = parse_value(value_text, bitwidth)
        plen = int(plen_text) if plen_text else bitwidth
        if not 0 <= plen <= bitwidth:
            raise InvalidMatchError(f"prefix length {plen} is outside 0..{bitwidth}")
        host_bits = (1 << (bitwidth - plen)) - 1
        return LpmMatch(value & ~host_bits, plen)
    if kind == TERNARY:
        value_text, sep, mask_text = text.partition("&&&")
        value = parse_value(value_text, bitwidth)
        mask = parse_value(mask_text, bitwidth) if sep else (1 << bitwidth) - 1
        return TernaryMatch(value & mask, mask)
    if kind == RANGE:
        low_text, sep, high_text = text.partition("..")
        if not sep:
            raise CodecError(f"range {text!r} needs the form LOW..HIGH")
        low, high = parse_value(low_text, bitwidth), parse_value(high_text, bitwidth)
        if low > high:
            raise InvalidMatchError(f"range {text!r}: low is above high")
        return RangeMatch(low, high)
    raise CodecError(f"unsupported match type {kind}")
