"""A BMv2-shaped intermediate representation, one object per JSON entity.

Expressions and primitive parameters are already BMv2 type-value dicts; the bmv2
emitters only arrange these objects into the JSON sections.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]


@dataclass
class HeaderTypeIR:
    name: str
    fields: list[tuple[str, Any, bool]]  # (name, width or "*", signed)
    max_length: int | None = None


@dataclass
class HeaderIR:
    name: str
    header_type: str
    metadata: bool


@dataclass
class StackIR:
    name: str
    header_type: str
    elements: list[str]


@dataclass
class UnionTypeIR:
    name: str
    members: list[tuple[str, str]]


@dataclass
class UnionIR:
    name: str
    union_type: str
    members: list[str]


@dataclass
class ActionIR:
    name: str
    id: int
    runtime_data: list[tuple[str, int]]
    primitives: list[Json]
    source_info: Json | None = None


@dataclass
class TableIR:
    name: str
    id: int
    key: list[Json]
    match_type: str
    actions: list[tuple[str, int]]  # (name, id)
    next_tables: dict[str, str | None] = field(default_factory=dict)
    base_default_next: str | None = None
    table_type: str = "simple"
    action_profile: str | None = None
    max_size: int = 1024
    with_counters: bool = False
    support_timeout: bool = False
    direct_meters: str | None = None
    default_entry: Json | None = None
    entries: list[Json] | None = None
    source_info: Json | None = None


@dataclass
class ConditionalIR:
    name: str
    id: int
    expression: Json
    true_next: str | None = None
    false_next: str | None = None
    source_info: Json | None = None


@dataclass
class ActionProfileIR:
    name: str
    id: int
    max_size: int
    selector_algo: str | None = None
    selector_input: list[Json] = field(default_factory=list)


@dataclass
class PipelineIR:
    name: str
    id: int
    init_table: str | None = None
    tables: list[TableIR] = field(default_factory=list)
    conditionals: list[ConditionalIR] = field(default_factory=list)
    action_profiles: list[ActionProfileIR] = field(default_factory=list)
    source_info: Json | None = None


@dataclass
class ParseStateIR:
    name: str
    id: int
    ops: list[Json] = field(default_factory=list)
    transition_key: list[Json] = field(default_factory=list)
    transitions: list[Json] = field(default_factory=list)


@dataclass
class ParserIR:
    name: str
    id: int
    init_state: str
    states: list[ParseStateIR] = field(default_factory=list)


@dataclass
class ParseVsetIR:
    name: str
    id: int
    bitwidth: int
    max_size: int


@dataclass
class DeparserIR:
    name: str
    id: int
    order: list[str]
    source_info: Json | None = None


@dataclass
class CounterIR:
    name: str
    id: int
    size: int
    is_direct: bool
    binding: str | None = None
    source_info: Json | None = None


@dataclass
class MeterIR:
    name: str
    id: int
    size: int
    meter_type: str
    is_direct: bool
    rate_count: int = 2
    binding: str | None = None
    result_target: list[str] | None = None
    source_info: Json | None = None


@dataclass
class RegisterIR:
    name: str
    id: int
    size: int
    bitwidth: int
    source_info: Json | None = None


@dataclass
class CalculationIR:
    name: str
    id: int
    algo: str
    inputs: list[Json]
    source_info: Json | None = None


@dataclass
class ChecksumIR:
    name: str
    id: int
    target: list[str]
    calculation: str
    verify: bool
    update: bool
    if_cond: Json | None
    source_info: Json | None = None


@dataclass
class FieldListIR:
    name: str
    id: int
    elements: list[Json]


@dataclass
class ExternInstanceIR:
    name: str
    id: int
    type: str
    attribute_values: list[Json] = field(default_factory=list)


@dataclass
class ProgramIR:
    program: str
    header_types: list[HeaderTypeIR] = field(default_factory=list)
    headers: list[HeaderIR] = field(default_factory=list)
    stacks: list[StackIR] = field(default_factory=list)
    union_types: list[UnionTypeIR] = field(default_factory=list)
    unions: list[UnionIR] = field(default_factory=list)
    field_lists: list[FieldListIR] = field(default_factory=list)
    learn_lists: list[FieldListIR] = field(default_factory=list)
    errors: list[tuple[str, int]] = field(default_factory=list)
    enums: list[tuple[str, list[tuple[str, int]]]] = field(default_factory=list)
    parsers: list[ParserIR] = field(default_factory=list)
    parse_vsets: list[ParseVsetIR] = field(default_factory=list)
    deparsers: list[DeparserIR] = field(default_factory=list)
    meters: list[MeterIR] = field(default_factory=list)
    counters: list[CounterIR] = field(default_factory=list)
    registers: list[RegisterIR] = field(default_factory=list)
    calculations: list[CalculationIR] = field(default_factory=list)
    actions: list[ActionIR] = field(default_factory=list)
    pipelines: list[PipelineIR] = field(default_factory=list)
    checksums: list[ChecksumIR] = field(default_factory=list)
    extern_instances: list[ExternInstanceIR] = field(default_factory=list)
