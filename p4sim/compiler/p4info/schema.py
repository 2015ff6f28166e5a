"""The part of ``p4/config/v1/p4info.proto`` (P4Runtime 1.4) that p4sim writes: message
fields with their numbers (text format prints fields in number order) and the enums.

With it, P4Info is built and printed in the protobuf text format without importing
protobuf, whose pure-Python import was a fifth of a compile's time. The test
``test_text_format`` checks the printed text against protobuf's own printer.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from types import MappingProxyType


class MatchType(IntEnum):
    UNSPECIFIED = 0
    EXACT = 2
    LPM = 3
    TERNARY = 4
    RANGE = 5
    OPTIONAL = 6


class CounterUnit(IntEnum):
    UNSPECIFIED = 0
    BYTES = 1
    PACKETS = 2
    BOTH = 3


class MeterUnit(IntEnum):
    UNSPECIFIED = 0
    BYTES = 1
    PACKETS = 2


class ActionScope(IntEnum):
    TABLE_AND_DEFAULT = 0
    TABLE_ONLY = 1
    DEFAULT_ONLY = 2


class IdleTimeoutBehavior(IntEnum):
    NO_TIMEOUT = 0
    NOTIFY_CONTROL = 1


@dataclass(frozen=True)
class Field:
    """One field. ``kind``: "string", "bytes", "int", "bool", an IntEnum class, "message" or
    "map" (string keys); ``of``: the message type of message, repeated-message and map
    fields; ``oneof``: member of a oneof, so it is printed even at its default value."""

    name: str
    number: int
    kind: object
    of: str = ""
    repeated: bool = False
    oneof: bool = False


def _fields(*fields: Field) -> tuple[Field, ...]:
    return tuple(sorted(fields, key=lambda f: f.number))


def _message(name: str, number: int, of: str, repeated: bool = False,
             oneof: bool = False) -> Field:
    return Field(name, number, "message", of, repeated, oneof)


def _strings(name: str, number: int) -> Field:
    return Field(name, number, "string", repeated=True)


_PREAMBLE_FIELDS = (Field("id", 1, "int"), Field("name", 2, "string"),
                    Field("alias", 3, "string"), _strings("annotations", 4),
                    _message("doc", 5, "Documentation"),
                    _message("structured_annotations", 6, "StructuredAnnotation", True))
_MATCH_FIELD_FIELDS = (Field("id", 1, "int"), Field("name", 2, "string"),
                       _strings("annotations", 3), Field("bitwidth", 4, "int"),
                       Field("match_type", 5, MatchType, oneof=True),
                       _message("doc", 6, "Documentation"),
                       Field("other_match_type", 7, "string", oneof=True),
                       _message("type_name", 8, "P4NamedType"),
                       _message("structured_annotations", 9, "StructuredAnnotation", True))

MESSAGES: Mapping[str, tuple[Field, ...]] = MappingProxyType({
    "P4Info": _fields(
        _message("pkg_info", 1, "PkgInfo"), _message("tables", 2, "Table", True),
        _message("actions", 3, "Action", True),
        _message("action_profiles", 4, "ActionProfile", True),
        _message("counters", 5, "Counter", True),
        _message("direct_counters", 6, "DirectCounter", True),
        _message("meters", 7, "Meter", True),
        _message("direct_meters", 8, "DirectMeter", True),
        _message("controller_packet_metadata", 9, "ControllerPacketMetadata", True),
        _message("value_sets", 10, "ValueSet", True),
        _message("registers", 11, "Register", True),
        _message("digests", 12, "Digest", True),
        _message("type_info", 200, "P4TypeInfo")),
    "PkgInfo": _fields(Field("name", 1, "string"), Field("version", 2, "string"),
                       _message("doc", 3, "Documentation"), _strings("annotations", 4),
                       Field("arch", 5, "string"), Field("organization", 6, "string"),
                       Field("contact", 7, "string"), Field("url", 8, "string"),
                       _message("structured_annotations", 9, "StructuredAnnotation", True)),
    "StructuredAnnotation": _fields(
        Field("name", 1, "string"),
        _message("expression_list", 2, "ExpressionList", oneof=True),
        _message("kv_pair_list", 3, "KeyValuePairList", oneof=True)),
    "ExpressionList": _fields(_message("expressions", 1, "Expression", True)),
    "KeyValuePairList": _fields(_message("kv_pairs", 1, "KeyValuePair", True)),
    "KeyValuePair": _fields(Field("key", 1, "string"), _message("value", 2, "Expression")),
    "Expression": _fields(Field("string_value", 1, "string", oneof=True),
                          Field("int64_value", 2, "int", oneof=True),
                          Field("bool_value", 3, "bool", oneof=True)),
    "Documentation": _fields(Field("brief", 1, "string"), Field("description", 2, "string")),
    "Preamble": _fields(*_PREAMBLE_FIELDS),
    "Table": _fields(
        _message("preamble", 1, "Preamble"), _message("match_fields", 2, "MatchField", True),
        _message("action_refs", 3, "ActionRef", True),
        Field("const_default_action_id", 4, "int"), Field("implementation_id", 6, "int"),
        Field("direct_resource_ids", 7, "int", repeated=True), Field("size", 8, "int"),
        Field("idle_timeout_behavior", 9, IdleTimeoutBehavior),
        Field("is_const_table", 10, "bool"), Field("has_initial_entries", 11, "bool")),
    "MatchField": _fields(*_MATCH_FIELD_FIELDS),
    "ActionRef": _fields(Field("id", 1, "int"), _strings("annotations", 2),
                         Field("scope", 3, ActionScope),
                         _message("structured_annotations", 4, "StructuredAnnotation", True)),
    "Action": _fields(_message("preamble", 1, "Preamble"),
                      _message("params", 2, "ActionParam", True)),
    "ActionParam": _fields(Field("id", 1, "int"), Field("name", 2, "string"),
                           _strings("annotations", 3), Field("bitwidth", 4, "int"),
                           _message("doc", 5, "Documentation"),
                           _message("type_name", 6, "P4NamedType"),
                           _message("structured_annotations", 7, "StructuredAnnotation",
                                    True)),
    "ActionProfile": _fields(
        _message("preamble", 1, "Preamble"), Field("table_ids", 2, "int", repeated=True),
        Field("with_selector", 3, "bool"), Field("size", 4, "int"),
        Field("max_group_size", 5, "int")),
    "Counter": _fields(_message("preamble", 1, "Preamble"), _message("spec", 2, "CounterSpec"),
                       Field("size", 3, "int")),
    "CounterSpec": _fields(Field("unit", 1, CounterUnit)),
    "DirectCounter": _fields(_message("preamble", 1, "Preamble"),
                             _message("spec", 2, "CounterSpec"),
                             Field("direct_table_id", 3, "int")),
    "Meter": _fields(_message("preamble", 1, "Preamble"), _message("spec", 2, "MeterSpec"),
                     Field("size", 3, "int")),
    "MeterSpec": _fields(Field("unit", 1, MeterUnit)),
    "DirectMeter": _fields(_message("preamble", 1, "Preamble"), _message("spec", 2, "MeterSpec"),
                           Field("direct_table_id", 3, "int")),
    "ControllerPacketMetadata": _fields(_message("preamble", 1, "Preamble"),
                                        _message("metadata", 2, "PacketMetadata", True)),
    "PacketMetadata": _fields(Field("id", 1, "int"), Field("name", 2, "string"),
                              _strings("annotations", 3), Field("bitwidth", 4, "int"),
                              _message("type_name", 5, "P4NamedType"),
                              _message("structured_annotations", 6, "StructuredAnnotation",
                                       True)),
    "ValueSet": _fields(_message("preamble", 1, "Preamble"),
                        _message("match", 2, "MatchField", True), Field("size", 3, "int")),
    "Register": _fields(_message("preamble", 1, "Preamble"),
                        _message("type_spec", 2, "P4DataTypeSpec"), Field("size", 3, "int")),
    "Digest": _fields(_message("preamble", 1, "Preamble"),
                      _message("type_spec", 2, "P4DataTypeSpec")),
    "P4DataTypeSpec": _fields(_message("bitstring", 1, "P4BitstringLikeTypeSpec", oneof=True),
                              _message("bool", 2, "P4BoolType", oneof=True),
                              _message("tuple", 3, "P4TupleTypeSpec", oneof=True),
                              _message("struct", 4, "P4NamedType", oneof=True),
                              _message("header", 5, "P4NamedType", oneof=True),
                              _message("enum", 9, "P4NamedType", oneof=True),
                              _message("error", 10, "P4ErrorType", oneof=True),
                              _message("serializable_enum", 11, "P4NamedType", oneof=True),
                              _message("new_type", 12, "P4NamedType", oneof=True)),
    "P4BitstringLikeTypeSpec": _fields(_message("bit", 1, "P4BitTypeSpec", oneof=True),
                                       _message("int", 2, "P4IntTypeSpec", oneof=True)),
    "P4TupleTypeSpec": _fields(_message("members", 1, "P4DataTypeSpec", True)),
    "P4BitTypeSpec": _fields(Field("bitwidth", 1, "int")),
    "P4IntTypeSpec": _fields(Field("bitwidth", 1, "int")),
    "P4BoolType": _fields(),
    "P4ErrorType": _fields(),
    "P4EnumTypeSpec": _fields(_message("members", 1, "P4EnumMember", True),
                              _strings("annotations", 2)),
    "P4EnumMember": _fields(Field("name", 1, "string"), _strings("annotations", 2)),
    "P4ErrorTypeSpec": _fields(_strings("members", 1)),
    "P4NamedType": _fields(Field("name", 1, "string")),
    "P4TypeInfo": _fields(Field("structs", 1, "map", "P4StructTypeSpec"),
                          Field("headers", 2, "map", "P4HeaderTypeSpec"),
                          Field("enums", 4, "map", "P4EnumTypeSpec"),
                          _message("error", 5, "P4ErrorTypeSpec"),
                          Field("serializable_enums", 6, "map", "P4SerializableEnumTypeSpec"),
                          Field("new_types", 7, "map", "P4NewTypeSpec")),
    "P4SerializableEnumTypeSpec": _fields(
        _message("underlying_type", 1, "P4BitTypeSpec"),
        _message("members", 2, "P4SerializableEnumMember", True), _strings("annotations", 3)),
    "P4SerializableEnumMember": _fields(Field("name", 1, "string"),
                                        Field("value", 2, "bytes"),
                                        _strings("annotations", 3)),
    "P4NewTypeSpec": _fields(_message("original_type", 1, "P4DataTypeSpec", oneof=True),
                             _message("translated_type", 2, "P4NewTypeTranslation",
                                      oneof=True),
                             _strings("annotations", 3)),
    "P4NewTypeTranslation": _fields(Field("uri", 1, "string"),
                                    Field("sdn_bitwidth", 2, "int", oneof=True),
                                    _message("sdn_string", 3, "SdnString", oneof=True)),
    "SdnString": _fields(),
    "P4HeaderTypeSpec": _fields(_message("members", 1, "P4HeaderMember", True),
                                _strings("annotations", 2)),
    "P4HeaderMember": _fields(Field("name", 1, "string"),
                              _message("type_spec", 2, "P4BitstringLikeTypeSpec")),
    "P4StructTypeSpec": _fields(_message("members", 1, "P4StructMember", True)),
    "P4StructMember": _fields(Field("name", 1, "string"),
                              _message("type_spec", 2, "P4DataTypeSpec")),
})
