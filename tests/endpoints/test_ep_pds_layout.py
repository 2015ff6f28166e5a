"""The PDS codecs take their field positions from HeaderLayout (one mechanism for the
collector's and the endpoints' headers): variants picked by ConditionalFields, selector
fields kept out of encoding, and layouts scapy would not build refused."""
from __future__ import annotations

import pytest
from scapy.fields import BitField, ConditionalField, LEShortField, ShortField, StrField
from scapy.packet import Packet

from wire_formats.layers import CC_TYPE_CREDIT, CC_TYPE_NSCC, UecAckCC
from wire_formats.layout import HeaderLayout, LayoutError
from wire_formats.pds_codec import HeaderCodec


def test_conditional_fields_follow_the_fixed_variant():
    credit = HeaderLayout.of(UecAckCC, cc_type=CC_TYPE_CREDIT)
    nscc = HeaderLayout.of(UecAckCC, cc_type=CC_TYPE_NSCC)
    assert credit.size == nscc.size == 32
    assert "credit" in credit.names and "service_time" not in credit.names
    assert "service_time" in nscc.names and "credit" not in nscc.names
    assert credit.names[-1] == nscc.names[-1] == "ooo_count"   # fields after them still read
    raw = bytes(UecAckCC(cc_type=CC_TYPE_CREDIT, credit=0xABCDEF, ooo_count=7))
    values = credit.unpack(raw)
    assert values[credit.index("credit")] == 0xABCDEF and values[credit.index("ooo_count")] == 7


def test_codec_slots_are_the_layouts_and_match_scapy():
    codec = HeaderCodec(UecAckCC, cc_type=CC_TYPE_CREDIT)
    layout = HeaderLayout.of(UecAckCC, cc_type=CC_TYPE_CREDIT)
    assert codec.length == layout.size
    assert set(codec.field_names) == set(layout.names) - {"cc_type"}
    encoded = codec.encode(credit=5000, sack_bitmap=(1 << 64) - 1, ooo_count=3)
    assert encoded == bytes(UecAckCC(cc_type=CC_TYPE_CREDIT, credit=5000,
                                     sack_bitmap=(1 << 64) - 1, ooo_count=3))
    decoded = codec.decode(encoded)
    assert (decoded.cc_type, decoded.credit, decoded.ooo_count) == (CC_TYPE_CREDIT, 5000, 3)


def test_a_field_that_selects_the_variant_is_not_encodable_unless_fixed():
    codec = HeaderCodec(UecAckCC)   # cc_type left at its default (NSCC)
    assert "cc_type" not in codec.field_names and "service_time" in codec.field_names
    with pytest.raises(KeyError, match="no field 'cc_type'"):
        codec.encode(cc_type=CC_TYPE_CREDIT)


class _LittleEndian(Packet):
    name = "le"
    fields_desc = [ShortField("a", 0), LEShortField("b", 0)]


class _Variable(Packet):
    name = "variable"
    fields_desc = [ShortField("a", 0), StrField("rest", b"xy")]


class _SwappedShortField(ShortField):
    """Builds its two bytes swapped: a field scapy places elsewhere than its width says."""

    def addfield(self, pkt, s, val):
        return s + self.i2m(pkt, val).to_bytes(2, "little")


class _Swapped(Packet):
    name = "swapped"
    fields_desc = [BitField("flag", 0, 8), _SwappedShortField("value", 0)]


class _OnlyIfFlag(Packet):
    name = "only-if-flag"
    fields_desc = [BitField("flag", 0, 8),
                   ConditionalField(ShortField("extra", 0), lambda pkt: pkt.flag == 1)]


def test_layouts_the_codecs_cannot_read_are_refused_with_the_field():
    with pytest.raises(LayoutError, match=r"_LittleEndian\.b: struct format '<H'"):
        HeaderLayout.of(_LittleEndian)
    with pytest.raises(LayoutError, match="scapy builds 4 bytes, its fixed fields span 2"):
        HeaderCodec(_Variable)
    with pytest.raises(LayoutError, match="_Swapped: scapy builds the fields elsewhere"):
        HeaderCodec(_Swapped)


def test_a_conditional_field_is_in_only_for_its_variant():
    assert HeaderLayout.of(_OnlyIfFlag).names == ("flag",)
    assert HeaderLayout.of(_OnlyIfFlag, flag=1).names == ("flag", "extra")
    with_extra = HeaderCodec(_OnlyIfFlag, flag=1)
    assert with_extra.encode(extra=0x1234) == bytes(_OnlyIfFlag(flag=1, extra=0x1234))
    assert HeaderCodec(_OnlyIfFlag).field_names == ()   # flag picks the variant
