"""p4sim prints P4Info text itself (no protobuf import on the common path); the text
must be exactly what protobuf's text_format prints for the same message."""
from __future__ import annotations

from pathlib import Path

import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2

from p4sim.compiler.driver import compile_program
from p4sim.compiler.p4info.builder import build_p4info_message
from p4sim.compiler.p4info.message import Message, to_text
from p4sim.compiler.p4info.schema import MESSAGES, ActionScope, MatchType
from p4sim.reference import reference_dir

REPO = Path(__file__).resolve().parents[3]
PROGRAMS = sorted((reference_dir() / "p4").glob("*.p4")) \
    + sorted((REPO / "tests" / "corpus").glob("*.p4")) + [REPO / "p4src" / "fabric.p4"]


def protobuf_text(text: str) -> str:
    return text_format.MessageToString(text_format.Parse(text, p4info_pb2.P4Info()))


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_p4info_text_matches_protobuf(program: Path) -> None:
    text = to_text(build_p4info_message(compile_program(str(program)).control_plane))
    assert text == protobuf_text(text)


def test_strings_are_escaped_as_protobuf_escapes_them() -> None:
    odd = 'quote" apostrophe\' backslash\\ tab\t newline\n cr\r bell\x07 del\x7f é €'
    ours = Message("P4Info")
    table = ours.tables.add()
    table.preamble.name = odd
    table.preamble.annotations.extend([odd, "@x"])
    theirs = p4info_pb2.P4Info()
    other = theirs.tables.add()
    other.preamble.name = odd
    other.preamble.annotations.extend([odd, "@x"])
    assert to_text(ours) == text_format.MessageToString(theirs)


def test_presence_rules_match_protobuf() -> None:
    ours = Message("P4Info")
    ours.type_info.SetInParent()  # empty but present
    ours.pkg_info.arch = ""  # assigned its default: present, prints as empty
    field = ours.tables.add().match_fields.add()
    field.bitwidth = 0  # proto3 scalar at its default: not printed
    field.match_type = MatchType.UNSPECIFIED  # oneof member: printed even at 0
    ref = ours.tables[0].action_refs.add()
    ref.scope = ActionScope.DEFAULT_ONLY
    ours.type_info.structs["s"].members.add().type_spec.bitstring.bit.bitwidth = 3
    theirs = p4info_pb2.P4Info()
    theirs.type_info.SetInParent()
    theirs.pkg_info.arch = ""
    other = theirs.tables.add().match_fields.add()
    other.bitwidth = 0
    other.match_type = p4info_pb2.MatchField.UNSPECIFIED
    theirs.tables[0].action_refs.add().scope = p4info_pb2.ActionRef.DEFAULT_ONLY
    theirs.type_info.structs["s"].members.add().type_spec.bitstring.bit.bitwidth = 3
    assert to_text(ours) == text_format.MessageToString(theirs)


def test_schema_numbers_and_enums_agree_with_the_proto() -> None:
    proto_names = {"ActionParam": "Action.Param", "PacketMetadata":
                   "ControllerPacketMetadata.Metadata", "P4StructMember":
                   "P4StructTypeSpec.Member", "P4HeaderMember": "P4HeaderTypeSpec.Member",
                   "P4SerializableEnumMember":
                   "P4SerializableEnumTypeSpec.Member", "P4EnumMember": "P4EnumTypeSpec.Member",
                   "SdnString":
                   "P4NewTypeTranslation.SdnString"}
    pool = p4info_pb2.DESCRIPTOR.pool
    for name, fields in MESSAGES.items():
        descriptor = pool.FindMessageTypeByName("p4.config.v1." + proto_names.get(name, name))
        for field in fields:
            proto_field = descriptor.fields_by_name[field.name]
            assert proto_field.number == field.number, (name, field.name)
            if isinstance(field.kind, type):
                proto_values = {v.name: v.number for v in proto_field.enum_type.values}
                assert {m.name: int(m) for m in field.kind} == proto_values


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(AttributeError, match="no field 'nmae'"):
        Message("Preamble").nmae = "x"
