"""What the control plane sees of a program: the input of P4Info generation.

The back end (semantic analysis + lowering) fills one ControlPlaneModel per program; the
P4Info stage turns it into a ``p4.config.v1.P4Info`` with p4c-compatible IDs. Names are
fully qualified as p4c writes them (``IngressImpl.ipv4_lpm``); annotations are kept as
source text (``@brief("x")``) so they pass through unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass, field


AnnotationValue = str | int | bool


@dataclass(frozen=True)
class Annot:
    """One annotation: name without ``@``, and raw body text (None when no parens)."""

    name: str
    body: str | None = None
    # a structured annotation (@name[...]): its values, or its key-value pairs
    structured: bool = False
    values: tuple[AnnotationValue, ...] = ()
    pairs: tuple[tuple[str, AnnotationValue], ...] = ()

    def string_arg(self) -> str | None:
        """The string literal argument of ``@name("x")``-style annotations."""
        if self.body is None:
            return None
        text = self.body.strip()
        if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
            return text[1:-1]
        return None


@dataclass(frozen=True)
class Named:
    """Common part of every P4Info object: the fully qualified name, annotations, and
    the ``@id`` value when the source fixes one."""

    name: str
    annotations: tuple[Annot, ...] = field(default=(), kw_only=True)
    fixed_id: int | None = field(default=None, kw_only=True)
    doc_brief: str | None = field(default=None, kw_only=True)
    doc_description: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class MatchFieldInfo(Named):
    bitwidth: int
    match_type: str  # exact | lpm | ternary | range | optional | other kind name
    type_name: str | None = None  # the field's `type` (new type), see NewTypeInfo


@dataclass(frozen=True)
class ActionParamInfo(Named):
    bitwidth: int
    type_name: str | None = None


@dataclass(frozen=True)
class ActionInfo(Named):
    params: tuple[ActionParamInfo, ...] = ()


@dataclass(frozen=True)
class ActionRefInfo:
    action: str  # fully qualified action name
    scope: str = "TABLE_AND_DEFAULT"  # or TABLE_ONLY (@tableonly), DEFAULT_ONLY (@defaultonly)
    annotations: tuple[Annot, ...] = ()


@dataclass(frozen=True)
class TableInfo(Named):
    match_fields: tuple[MatchFieldInfo, ...]
    action_refs: tuple[ActionRefInfo, ...]
    size: int
    const_default_action: str | None = None  # set when default_action is const
    implementation: str | None = None  # action profile / selector name
    direct_resources: tuple[str, ...] = ()  # direct counter / meter names
    idle_timeout: bool = False  # support_timeout = true
    is_const_table: bool = False  # const entries
    has_initial_entries: bool = False


@dataclass(frozen=True)
class ActionProfileInfo(Named):
    table_names: tuple[str, ...]
    with_selector: bool
    size: int
    max_group_size: int = 0


@dataclass(frozen=True)
class CounterInfo(Named):
    unit: str  # BYTES | PACKETS | BOTH
    size: int = 0
    direct_table: str | None = None  # set for direct counters


@dataclass(frozen=True)
class MeterInfo(Named):
    unit: str  # BYTES | PACKETS
    size: int = 0
    direct_table: str | None = None  # set for direct meters


@dataclass(frozen=True)
class RegisterInfo(Named):
    bitwidth: int
    size: int
    # the cell type when it is not bit<W>: a serializable enum, bool, int<W>
    cell: "StructMemberInfo | None" = None


@dataclass(frozen=True)
class StructMemberInfo:
    """A digest struct member, a packet metadata field or a register cell. ``type_name``
    names its struct, new type or enum; ``kind`` says which data type spec it takes when
    it is not a bit string or a new type."""

    name: str
    bitwidth: int
    type_name: str | None = None
    # a struct member of a digest struct: its struct's name is type_name
    struct_members: tuple["StructMemberInfo", ...] | None = None
    # a packet metadata field's own annotations and @id
    annotations: tuple[Annot, ...] = ()
    fixed_id: int | None = None
    # "serializable_enum" or "enum" (type_name names it), "error", "bool" or "int"
    # (signed); None for bit<W>, a new type or a struct
    kind: str | None = None


@dataclass(frozen=True)
class NewTypeInfo:
    """``type bit<W> T`` as P4Info's type_info describes it: translated (a uri and an
    SDN width, or a string when ``sdn_bitwidth`` is None) or as its original bit<W>."""

    name: str
    bitwidth: int
    uri: str | None = None
    sdn_bitwidth: int | None = None


@dataclass(frozen=True)
class SerializableEnumInfo:
    name: str
    bitwidth: int
    members: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class DigestInfo(Named):
    """``digest<T>(receiver, data)``; p4c names it by the type T and records T's fields
    in type_info. A tuple has no name: p4c calls its digest ``digest_N`` and writes the
    tuple's element types in place (``struct_name`` is then empty)."""

    struct_name: str
    members: tuple[StructMemberInfo, ...]
    # "struct"; "header" (type_spec.header, type_info.headers); "tuple" (type_spec.tuple)
    kind: str = "struct"


@dataclass(frozen=True)
class ControllerHeaderInfo(Named):
    """A header annotated ``@controller_header("packet_in")``; name is that string."""

    metadata: tuple[StructMemberInfo, ...]
    type_name: str | None = None  # the header type name, which p4c hashes for the ID


@dataclass(frozen=True)
class ValueSetInfo(Named):
    match_fields: tuple[MatchFieldInfo, ...]
    size: int


@dataclass(frozen=True)
class PackageInfo(Named):
    """P4Info's pkg_info from the main instantiation: @pkginfo's keys (name, version,
    organization, contact, url; arch only when the program overrides it), the other
    annotations and @brief/@description."""

    fields: tuple[tuple[str, str], ...] = ()


@dataclass
class ControlPlaneModel:
    arch: str = "v1model"
    package: PackageInfo | None = None
    tables: list[TableInfo] = field(default_factory=list)
    actions: list[ActionInfo] = field(default_factory=list)
    action_profiles: list[ActionProfileInfo] = field(default_factory=list)
    counters: list[CounterInfo] = field(default_factory=list)  # direct ones included
    meters: list[MeterInfo] = field(default_factory=list)  # direct ones included
    registers: list[RegisterInfo] = field(default_factory=list)
    digests: list[DigestInfo] = field(default_factory=list)
    controller_headers: list[ControllerHeaderInfo] = field(default_factory=list)
    value_sets: list[ValueSetInfo] = field(default_factory=list)
    # the named types control-plane values have (type_info.new_types/serializable_enums)
    new_types: dict[str, NewTypeInfo] = field(default_factory=dict)
    serializable_enums: dict[str, SerializableEnumInfo] = field(default_factory=dict)
    # plain enums and the error type control-plane values have (digest members)
    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)
    error_members: tuple[str, ...] = ()
    uses_error: bool = False
    # what P4Runtime cannot name (an anonymous in-place instance): p4c refuses the
    # program only when asked for P4Runtime output, so building P4Info raises the first
    refusals: list[Exception] = field(default_factory=list)
    # the program calls an extern function (mark_to_drop, hash, verify...): p4c's P4Info
    # then has a type_info, empty or not (see the P4Info builder)
    calls_extern_functions: bool = False
