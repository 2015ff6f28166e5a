"""ControlPlaneModel -> ``p4.config.v1.P4Info``, shaped like p4c's output: objects in
model order (the back end lists them in p4c's order), member IDs 1..n, direct resources,
implementations and action scopes resolved to IDs.

The message is built as a ``message.Message`` (no protobuf import: writing the text
format does not need it); ``build_p4info`` converts it to the protobuf class."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from p4sim.compiler.control_plane import (
    ActionInfo, ActionProfileInfo, ActionRefInfo, Annot, ControlPlaneModel,
    ControllerHeaderInfo, CounterInfo, DigestInfo, MatchFieldInfo, MeterInfo, Named,
    RegisterInfo, StructMemberInfo, TableInfo, ValueSetInfo)
from p4sim.compiler.p4info.annotations import (
    add_structured_annotations, annotation_strings, fill_annotations, has_annotation)
from p4sim.compiler.p4info.errors import P4InfoError
from p4sim.compiler.p4info.field_ids import allocate_field_ids
from p4sim.compiler.p4info.ids import IdPrefix
from p4sim.compiler.p4info.message import Message, to_text
from p4sim.compiler.p4info.schema import (
    ActionScope, CounterUnit, IdleTimeoutBehavior, MatchType, MeterUnit)
from p4sim.compiler.p4info.symbols import (
    SymbolTable, counter_prefix, meter_prefix, plain_name)

_MATCH_TYPES: Mapping[str, int] = MappingProxyType({
    "exact": MatchType.EXACT,
    "lpm": MatchType.LPM,
    "ternary": MatchType.TERNARY,
    "range": MatchType.RANGE,
    "optional": MatchType.OPTIONAL,
})
_NOT_CONTROL_PLANE_MATCH = "selector"  # an action selector's input, not a key field

_COUNTER_UNITS: Mapping[str, int] = MappingProxyType({
    "BYTES": CounterUnit.BYTES, "bytes": CounterUnit.BYTES,
    "PACKETS": CounterUnit.PACKETS, "packets": CounterUnit.PACKETS,
    "BOTH": CounterUnit.BOTH, "packets_and_bytes": CounterUnit.BOTH,
})
_METER_UNITS: Mapping[str, int] = MappingProxyType({
    "BYTES": MeterUnit.BYTES, "bytes": MeterUnit.BYTES,
    "PACKETS": MeterUnit.PACKETS, "packets": MeterUnit.PACKETS,
})
_SCOPES: Mapping[str, int] = MappingProxyType({
    "TABLE_AND_DEFAULT": ActionScope.TABLE_AND_DEFAULT,
    "TABLE_ONLY": ActionScope.TABLE_ONLY,
    "DEFAULT_ONLY": ActionScope.DEFAULT_ONLY,
})


def build_p4info_message(model: ControlPlaneModel) -> Message:
    """The P4Info of a program, with p4c-compatible IDs and aliases (protobuf-free);
    raises the model's first refusal (a CompileError) if it has one."""
    if model.refusals:
        raise model.refusals[0]
    return _Builder(model).build()


def build_p4info(model: ControlPlaneModel) -> Any:
    """The P4Info of a program as a ``p4.config.v1.P4Info`` protobuf message."""
    from google.protobuf import text_format
    from p4.config.v1 import p4info_pb2
    return text_format.Parse(to_text(build_p4info_message(model)), p4info_pb2.P4Info())


def _hidden(item: Named) -> bool:
    return has_annotation(item.annotations, "hidden")


class _Builder:
    def __init__(self, model: ControlPlaneModel) -> None:
        self.model = model
        self.symbols = SymbolTable(model)
        self.info = Message("P4Info")

    def build(self) -> Message:
        self._package()
        for table in self.model.tables:
            self._table(table)
        emitted_actions: set[str] = set()
        for action in self.model.actions:
            if plain_name(action.name) not in emitted_actions:
                emitted_actions.add(plain_name(action.name))
                self._action(action)
        for profile in self.model.action_profiles:
            self._action_profile(profile)
        for counter in self.model.counters:
            self._counter(counter)
        for meter in self.model.meters:
            self._meter(meter)
        for header in self.model.controller_headers:
            self._controller_header(header)
        for value_set in self.model.value_sets:
            self._value_set(value_set)
        for register in self.model.registers:
            self._register(register)
        for digest in self.model.digests:
            self._digest(digest)
        self._named_types()
        if self._has_type_info():
            self.info.type_info.SetInParent()  # written even when empty, as p4c does
        return self.info

    def _has_type_info(self) -> bool:
        """Whether p4c writes a type_info (maybe empty): it makes one while serializing
        an action parameter, a match field, an extern instance or a digest, or for a
        call of an extern function, whether or not any type lands in it. Recorded: every
        real p4c P4Info in tests/real_toolchain/project has type_info exactly when one
        of these is in the program; a value set alone does not make one (corpus 020),
        and no recording has controller headers alone."""
        m = self.model
        return bool(m.calls_extern_functions or m.action_profiles or m.counters
                    or m.meters or m.registers or m.digests
                    or any(a.params for a in m.actions)
                    or any(t.match_fields for t in m.tables))

    # -- helpers ---------------------------------------------------------------

    def _preamble(self, preamble: Message, prefix: IdPrefix, item: Named,
                  alias: str | None = None, skip: frozenset[str] = frozenset()) -> None:
        preamble.id = self.symbols.id_of(prefix, item)
        preamble.name = plain_name(item.name)
        preamble.alias = alias if alias is not None else self.symbols.alias(item.name)
        fill_annotations(preamble, item, skip)

    def _ref(self, prefix: IdPrefix, name: str, user: str) -> int:
        try:
            return self.symbols.id_by_name(prefix, name)
        except P4InfoError:
            kind = prefix.name.lower().replace("_", " ")
            raise P4InfoError(f"{user} refers to {kind} '{name}', which the "
                              "control-plane model does not declare") from None

    def _direct_resource_id(self, name: str, table: str) -> int:
        for counter in self.model.counters:
            if counter.direct_table and plain_name(counter.name) == plain_name(name):
                return self.symbols.id_of(IdPrefix.DIRECT_COUNTER, counter)
        for meter in self.model.meters:
            if meter.direct_table and plain_name(meter.name) == plain_name(name):
                return self.symbols.id_of(IdPrefix.DIRECT_METER, meter)
        raise P4InfoError(f"table '{table}' lists direct resource '{name}', which is "
                          "neither a direct counter nor a direct meter of the model")

    # -- tables ----------------------------------------------------------------

    def _table(self, table: TableInfo) -> None:
        if _hidden(table):
            return
        message = self.info.tables.add()
        self._preamble(message.preamble, IdPrefix.TABLE, table)
        owner = f"table '{plain_name(table.name)}'"
        self._match_fields(message.match_fields, table.match_fields, owner)
        for ref in table.action_refs:
            self._action_ref(message.action_refs.add(), ref, owner)
        if table.const_default_action:
            message.const_default_action_id = self._ref(
                IdPrefix.ACTION, table.const_default_action, f"{owner} (const default action)")
        if table.implementation:
            message.implementation_id = self._ref(
                IdPrefix.ACTION_PROFILE, table.implementation, f"{owner} (implementation)")
        for resource in table.direct_resources:
            message.direct_resource_ids.append(self._direct_resource_id(resource, table.name))
        message.size = table.size
        if table.idle_timeout:
            message.idle_timeout_behavior = IdleTimeoutBehavior.NOTIFY_CONTROL
        if table.is_const_table:
            message.is_const_table = True
        if table.has_initial_entries:
            message.has_initial_entries = True

    def _match_fields(self, out: object, fields: Sequence[MatchFieldInfo], owner: str) -> None:
        ids = allocate_field_ids([f.fixed_id for f in fields], f"{owner} match fields")
        for field_id, field in zip(ids, fields):
            if field.match_type == _NOT_CONTROL_PLANE_MATCH:
                continue
            message = out.add()  # type: ignore[attr-defined]
            message.id = field_id
            if field.name:
                message.name = field.name
            fill_annotations(message, field)
            message.bitwidth = field.bitwidth
            if field.match_type in _MATCH_TYPES:
                message.match_type = _MATCH_TYPES[field.match_type]
            elif field.match_type:
                message.other_match_type = field.match_type
            else:
                raise P4InfoError(f"{owner}: match field '{field.name}' has no match kind")
            if field.type_name:
                message.type_name.name = field.type_name

    def _action_ref(self, message: Message, ref: ActionRefInfo, owner: str) -> None:
        message.id = self._ref(IdPrefix.ACTION, ref.action, owner)
        annots = list(ref.annotations)
        table_only = ref.scope == "TABLE_ONLY" or has_annotation(annots, "tableonly")
        default_only = ref.scope == "DEFAULT_ONLY" or has_annotation(annots, "defaultonly")
        if ref.scope not in _SCOPES:
            raise P4InfoError(f"{owner}: action '{ref.action}' has unknown scope "
                              f"'{ref.scope}' (expected one of {', '.join(_SCOPES)})")
        if table_only and default_only:
            raise P4InfoError(f"{owner}: action '{ref.action}' is annotated both "
                              "@tableonly and @defaultonly")
        # p4c derives the scope from the annotation, so both always appear together.
        if table_only and not has_annotation(annots, "tableonly"):
            annots.append(Annot("tableonly"))
        if default_only and not has_annotation(annots, "defaultonly"):
            annots.append(Annot("defaultonly"))
        message.annotations.extend(annotation_strings(annots))
        add_structured_annotations(message, annots)
        if table_only:
            message.scope = ActionScope.TABLE_ONLY
        elif default_only:
            message.scope = ActionScope.DEFAULT_ONLY

    # -- actions and profiles ----------------------------------------------------

    def _action(self, action: ActionInfo) -> None:
        if _hidden(action):
            return
        message = self.info.actions.add()
        self._preamble(message.preamble, IdPrefix.ACTION, action)
        ids = allocate_field_ids([p.fixed_id for p in action.params],
                                 f"action '{plain_name(action.name)}' parameters")
        for param_id, param in zip(ids, action.params):
            out = message.params.add()
            out.id = param_id
            out.name = param.name
            fill_annotations(out, param)
            out.bitwidth = param.bitwidth
            if param.type_name:
                out.type_name.name = param.type_name

    def _action_profile(self, profile: ActionProfileInfo) -> None:
        if _hidden(profile):
            return
        message = self.info.action_profiles.add()
        # p4c leaves @max_group_size out: max_group_size says it
        self._preamble(message.preamble, IdPrefix.ACTION_PROFILE, profile,
                       skip=frozenset({"max_group_size"}))
        owner = f"action profile '{plain_name(profile.name)}'"
        for table in profile.table_names:
            message.table_ids.append(self._ref(IdPrefix.TABLE, table, owner))
        if profile.with_selector:
            message.with_selector = True
        message.size = profile.size
        if profile.max_group_size:
            message.max_group_size = profile.max_group_size

    # -- counters, meters, registers -------------------------------------------

    def _counter(self, counter: CounterInfo) -> None:
        if not _hidden(counter):
            self._unit_resource(counter, counter_prefix(counter), _COUNTER_UNITS, "counter",
                                self.info.direct_counters, self.info.counters)

    def _meter(self, meter: MeterInfo) -> None:
        if not _hidden(meter):
            self._unit_resource(meter, meter_prefix(meter), _METER_UNITS, "meter",
                                self.info.direct_meters, self.info.meters)

    def _unit_resource(self, item: CounterInfo | MeterInfo, prefix: IdPrefix,
                       units: Mapping[str, int], kind: str, direct_messages: Any,
                       indexed_messages: Any) -> None:
        """A counter or meter: P4Info gives both the same shape, a direct one naming its
        table and an indexed one its size."""
        unit = _unit(units, item.unit, f"{kind} '{item.name}'")
        if item.direct_table:
            direct = direct_messages.add()
            self._preamble(direct.preamble, prefix, item)
            direct.spec.unit = unit
            direct.direct_table_id = self._ref(
                IdPrefix.TABLE, item.direct_table, f"direct {kind} '{item.name}'")
        else:
            indexed = indexed_messages.add()
            self._preamble(indexed.preamble, prefix, item)
            indexed.spec.unit = unit
            indexed.size = item.size

    def _register(self, register: RegisterInfo) -> None:
        if _hidden(register):
            return
        message = self.info.registers.add()
        self._preamble(message.preamble, IdPrefix.REGISTER, register)
        if register.cell is not None:
            _data_type_spec(message.type_spec, register.cell)
        else:
            message.type_spec.bitstring.bit.bitwidth = register.bitwidth
        message.size = register.size

    def _package(self) -> None:
        message = self.info.pkg_info
        package = self.model.package
        fields = dict(package.fields) if package is not None else {}
        for key in ("name", "version"):
            if key in fields:
                setattr(message, key, fields[key])
        if package is not None:
            fill_annotations(message, package)
        message.arch = fields.get("arch", self.model.arch)
        for key in ("organization", "contact", "url"):
            if key in fields:
                setattr(message, key, fields[key])

    # -- packet I/O, value sets, digests -----------------------------------------

    def _controller_header(self, header: ControllerHeaderInfo) -> None:
        if _hidden(header):
            return
        message = self.info.controller_packet_metadata.add()
        # P4Runtime names these by the @controller_header string, alias included.
        self._preamble(message.preamble, IdPrefix.CONTROLLER_HEADER, header,
                       alias=plain_name(header.name))
        ids = allocate_field_ids([m.fixed_id for m in header.metadata],
                                 f"controller header '{header.name}'")
        for member_id, member in zip(ids, header.metadata):
            out = message.metadata.add()
            out.id = member_id
            out.name = member.name
            out.annotations.extend(annotation_strings(member.annotations))
            add_structured_annotations(out, member.annotations)
            out.bitwidth = member.bitwidth
            if member.type_name and member.kind != "serializable_enum":
                out.type_name.name = member.type_name

    def _value_set(self, value_set: ValueSetInfo) -> None:
        if _hidden(value_set):
            return
        message = self.info.value_sets.add()
        self._preamble(message.preamble, IdPrefix.VALUE_SET, value_set)
        owner = f"value set '{plain_name(value_set.name)}'"
        ids = allocate_field_ids([f.fixed_id for f in value_set.match_fields], owner)
        for field_id, field in zip(ids, value_set.match_fields):
            out = message.match.add()
            out.id = field_id
            if field.name:
                out.name = field.name
            out.bitwidth = field.bitwidth
            kind = field.match_type or "exact"
            if kind in _MATCH_TYPES:
                out.match_type = _MATCH_TYPES[kind]
            else:
                out.other_match_type = kind
            out.annotations.extend(annotation_strings(field.annotations, skip=frozenset({"match"})))
            add_structured_annotations(out, field.annotations)
        message.size = value_set.size

    def _digest(self, digest: DigestInfo) -> None:
        if _hidden(digest):
            return
        message = self.info.digests.add()
        self._preamble(message.preamble, IdPrefix.DIGEST, digest)
        if digest.kind == "header":
            message.type_spec.header.name = digest.struct_name
            self._header_type(digest.struct_name, digest.members)
            return
        if digest.kind == "tuple":
            for member in digest.members:
                _data_type_spec(message.type_spec.tuple.members.add(), member)
                if member.struct_members is not None and member.type_name:
                    self._struct_type(member.type_name, member.struct_members)
            return
        message.type_spec.struct.name = digest.struct_name
        self._struct_type(digest.struct_name, digest.members)

    def _header_type(self, name: str, members: Sequence[StructMemberInfo]) -> None:
        """type_info.headers[name]: a header's fields are all bit strings."""
        if name in self.info.type_info.headers:
            return
        header = self.info.type_info.headers[name]
        for member in members:
            out = header.members.add()
            out.name = member.name
            out.type_spec.bit.bitwidth = member.bitwidth

    def _struct_type(self, name: str, members: Sequence[StructMemberInfo]) -> None:
        """type_info.structs[name], and the structs its members are, once each."""
        if name in self.info.type_info.structs:
            return
        struct = self.info.type_info.structs[name]
        for member in members:
            out = struct.members.add()
            out.name = member.name
            _data_type_spec(out.type_spec, member)
            if member.struct_members is not None and member.type_name:
                self._struct_type(member.type_name, member.struct_members)

    def _named_types(self) -> None:
        """type_info's new_types and serializable_enums: the named types of match
        fields, action parameters, packet metadata and digest members."""
        for name, members in self.model.enums.items():
            enum_spec = self.info.type_info.enums[name]
            for member in members:
                enum_spec.members.add().name = member
        if self.model.uses_error:
            self.info.type_info.error.members.extend(self.model.error_members)
        for name, enum in self.model.serializable_enums.items():
            spec = self.info.type_info.serializable_enums[name]
            spec.underlying_type.bitwidth = enum.bitwidth
            for member, value in enum.members:
                out = spec.members.add()
                out.name = member
                out.value = value.to_bytes((enum.bitwidth + 7) // 8, "big")
        for name, new_type in self.model.new_types.items():
            spec = self.info.type_info.new_types[name]
            if new_type.uri is None:
                spec.original_type.bitstring.bit.bitwidth = new_type.bitwidth
            else:
                spec.translated_type.uri = new_type.uri
                if new_type.sdn_bitwidth is None:
                    spec.translated_type.sdn_string.SetInParent()
                else:
                    spec.translated_type.sdn_bitwidth = new_type.sdn_bitwidth


def _data_type_spec(out: Message, member: StructMemberInfo) -> None:
    """A P4DataTypeSpec as p4c's type converter writes one for a digest member or a
    register cell: named types by name, bool and error as themselves."""
    if member.struct_members is not None and member.type_name:
        out.struct.name = member.type_name
    elif member.kind == "serializable_enum" and member.type_name:
        out.serializable_enum.name = member.type_name
    elif member.kind == "enum" and member.type_name:
        out.enum.name = member.type_name
    elif member.kind == "error":
        out.error.SetInParent()
    elif member.kind == "bool":
        out.bool.SetInParent()
    elif member.type_name:
        out.new_type.name = member.type_name
    elif member.kind == "int":
        out.bitstring.int.bitwidth = member.bitwidth
    else:
        out.bitstring.bit.bitwidth = member.bitwidth


def _unit(table: Mapping[str, int], unit: str, owner: str) -> int:
    try:
        return table[unit]
    except KeyError:
        raise P4InfoError(f"{owner}: unknown unit '{unit}' (expected one of "
                          f"{', '.join(sorted({k for k in table if k.isupper()}))})") from None



