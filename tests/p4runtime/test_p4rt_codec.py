"""The shared value codec: canonical bytestrings and the match-format rules."""
import pytest
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import codec

MT = p4info_pb2.MatchField


@pytest.mark.parametrize("value,width,expected", [
    (0, 8, b"\x00"), (0x63, 16, b"\x63"), (0x3064, 16, b"\x30\x64"),
    (0x63, 12, b"\x63"), ((1 << 48) - 1, 48, b"\xff" * 6), (1, 1, b"\x01"),
])
def test_encode_is_canonical(value, width, expected):
    assert codec.encode_int(value, width) == expected
    assert codec.is_canonical(expected)


@pytest.mark.parametrize("data,width,expected", [
    (b"\x63", 8, 0x63), (b"\x00\x63", 16, 0x63), (b"\x00\x00\x63", 12, 0x63),
    (b"\x00", 16, 0),
])
def test_decode_accepts_padded_strings(data, width, expected):
    assert codec.decode_int(data, width) == expected


@pytest.mark.parametrize("data,width", [
    (b"\x01\x63", 8), (b"", 8), (b"\x01\x00\x63", 16), (b"\x10\x63", 12),
    (b"\x00\x40\x63", 12),
])
def test_decode_rejects_out_of_range(data, width):
    with pytest.raises(codec.OutOfRangeError):
        codec.decode_int(data, width)


def test_encode_rejects_too_wide():
    with pytest.raises(codec.OutOfRangeError, match="does not fit in 9 bits"):
        codec.encode_int(512, 9)


def test_to_canonical():
    assert codec.to_canonical(b"\x00\x00\x05") == b"\x05"
    assert codec.to_canonical(b"\x00\x00") == b"\x00"


@pytest.mark.parametrize("text,width,value", [
    ("10.0.0.1", 32, 0x0A000001), ("aa:bb:cc:dd:ee:ff", 48, 0xAABBCCDDEEFF),
    ("2001:db8::1", 128, 0x20010DB8 << 96 | 1), ("0x1f", 9, 31), ("42", 16, 42),
])
def test_parse_value_friendly_forms(text, width, value):
    assert codec.parse_value(text, width) == value


def test_parse_value_errors_name_the_input():
    with pytest.raises(codec.CodecError, match="'zz'"):
        codec.parse_value("zz", 8)
    with pytest.raises(codec.OutOfRangeError):
        codec.parse_value("300", 8)


def test_format_value_styles():
    assert codec.format_value(0xAABBCCDDEEFF, 48) == "aa:bb:cc:dd:ee:ff"
    assert codec.format_value(0x0A000001, 32, "ipv4") == "10.0.0.1"
    assert codec.format_value(255, 9) == "0xff"


def _lpm(value: bytes, plen: int):
    fm = p4runtime_pb2.FieldMatch(field_id=1)
    fm.lpm.value, fm.lpm.prefix_len = value, plen
    return fm


def test_lpm_round_trip():
    match = codec.decode_field_match(_lpm(b"\x0a\x00\x00\x00", 8), MT.LPM, 32)
    assert match == codec.LpmMatch(0x0A000000, 8)
    assert codec.encode_field_match(1, match, 32) == _lpm(b"\x0a\x00\x00\x00", 8)
    assert codec.format_match(match, 32, "ipv4") == "10.0.0.0/8"


def test_lpm_rules():
    with pytest.raises(codec.InvalidMatchError, match="beyond prefix length"):
        codec.decode_field_match(_lpm(b"\x0a\x00\x00\x01", 8), MT.LPM, 32)
    with pytest.raises(codec.InvalidMatchError, match="must be omitted"):
        codec.decode_field_match(_lpm(b"\x00", 0), MT.LPM, 32)
    with pytest.raises(codec.InvalidMatchError, match="outside 1..32"):
        codec.decode_field_match(_lpm(b"\x00", 33), MT.LPM, 32)


def test_ternary_rules():
    fm = p4runtime_pb2.FieldMatch(field_id=1)
    fm.ternary.value, fm.ternary.mask = b"\x01", b"\xfc"
    with pytest.raises(codec.InvalidMatchError, match="outside mask"):
        codec.decode_field_match(fm, MT.TERNARY, 8)
    fm.ternary.value, fm.ternary.mask = b"\x00", b"\x00"
    with pytest.raises(codec.InvalidMatchError, match="must be omitted"):
        codec.decode_field_match(fm, MT.TERNARY, 8)


def test_range_rules():
    fm = p4runtime_pb2.FieldMatch(field_id=2)
    fm.range.low, fm.range.high = b"\x10", b"\x05"
    with pytest.raises(codec.InvalidMatchError, match="above high"):
        codec.decode_field_match(fm, MT.RANGE, 16)
    fm.range.low, fm.range.high = b"\x00", b"\xff\xff"
    with pytest.raises(codec.InvalidMatchError, match="full range"):
        codec.decode_field_match(fm, MT.RANGE, 16)


def test_kind_mismatch_is_invalid():
    fm = p4runtime_pb2.FieldMatch(field_id=1)
    fm.exact.value = b"\x01"
    with pytest.raises(codec.InvalidMatchError, match="is lpm but the request gives exact"):
        codec.decode_field_match(fm, MT.LPM, 32)


def test_wildcards_are_omitted_on_encode():
    for kind in (MT.LPM, MT.TERNARY, MT.RANGE, MT.OPTIONAL):
        assert codec.encode_field_match(1, codec.wildcard(kind, 16), 16) is None
    with pytest.raises(codec.InvalidMatchError):
        codec.wildcard(MT.EXACT, 16)


@pytest.mark.parametrize("text,kind,width,expected", [
    ("10.1.0.0/16", MT.LPM, 32, codec.LpmMatch(0x0A010000, 16)),
    ("0x00&&&0xfc", MT.TERNARY, 8, codec.TernaryMatch(0, 0xFC)),
    ("4790..4799", MT.RANGE, 16, codec.RangeMatch(4790, 4799)),
    ("17", MT.OPTIONAL, 8, codec.OptionalMatch(17)),
    ("*", MT.OPTIONAL, 8, codec.OptionalMatch(None)),
])
def test_parse_and_format_match_round_trip(text, kind, width, expected):
    match = codec.parse_match(text, kind, width)
    assert match == expected
    style = "ipv4" if width == 32 else "dec"
    assert codec.parse_match(codec.format_match(match, width, style), kind, width) == match
