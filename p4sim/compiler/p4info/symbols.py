"""The symbol table of one program: every control-plane name with its ID and alias.

Objects annotated ``@hidden`` take part (p4c registers them before it drops them from
P4Info, so they can shift aliases and collision probing) but are not emitted.
"""
from __future__ import annotations

from collections.abc import Iterator

from p4sim.compiler.control_plane import (
    ControlPlaneModel, ControllerHeaderInfo, CounterInfo, MeterInfo, Named)
from p4sim.compiler.p4info.aliases import SuffixSet
from p4sim.compiler.p4info.ids import IdAllocator, IdPrefix


def plain_name(name: str) -> str:
    """The control-plane name without the leading dot of a global ``@name(".x")``."""
    return name[1:] if name.startswith(".") else name


def hash_name(item: Named) -> str:
    """The name p4c hashes: for a controller header that is the header *type* name
    (``packet_in_t``), not the ``@controller_header`` string it publishes."""
    if isinstance(item, ControllerHeaderInfo) and item.type_name:
        return plain_name(item.type_name)
    return plain_name(item.name)


def counter_prefix(item: CounterInfo) -> IdPrefix:
    return IdPrefix.DIRECT_COUNTER if item.direct_table else IdPrefix.COUNTER


def meter_prefix(item: MeterInfo) -> IdPrefix:
    return IdPrefix.DIRECT_METER if item.direct_table else IdPrefix.METER


def model_symbols(model: ControlPlaneModel) -> Iterator[tuple[IdPrefix, Named]]:
    """Every object of the model with its ID kind, in model order."""
    for table in model.tables:
        yield IdPrefix.TABLE, table
    for action in model.actions:
        yield IdPrefix.ACTION, action
    for profile in model.action_profiles:
        yield IdPrefix.ACTION_PROFILE, profile
    for counter in model.counters:
        yield counter_prefix(counter), counter
    for meter in model.meters:
        yield meter_prefix(meter), meter
    for header in model.controller_headers:
        yield IdPrefix.CONTROLLER_HEADER, header
    for value_set in model.value_sets:
        yield IdPrefix.VALUE_SET, value_set
    for register in model.registers:
        yield IdPrefix.REGISTER, register
    for digest in model.digests:
        yield IdPrefix.DIGEST, digest


class SymbolTable:
    """IDs and aliases of one model, computed once at construction."""

    def __init__(self, model: ControlPlaneModel) -> None:
        self._allocator = IdAllocator()
        self._suffixes = SuffixSet()
        for prefix, item in model_symbols(model):
            name = hash_name(item)
            self._allocator.add(prefix, name, item.fixed_id)
            self._suffixes.add(name)
        self._allocator.assign()

    def id_of(self, prefix: IdPrefix, item: Named) -> int:
        return self._allocator.get(prefix, hash_name(item))

    def id_by_name(self, prefix: IdPrefix, name: str) -> int:
        return self._allocator.get(prefix, plain_name(name))

    def alias(self, name: str) -> str:
        return self._suffixes.alias(plain_name(name))
