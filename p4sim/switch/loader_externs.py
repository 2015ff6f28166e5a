"""Create the stateful objects a program declares: counters, meters, registers,
parser value sets and learn lists."""
from __future__ import annotations

from p4sim.switch.errors import LoadError
from p4sim.switch.externs.counters import CounterArray
from p4sim.switch.externs.meters import MeterArray
from p4sim.switch.externs.registers import RegisterArray
from p4sim.switch.externs.value_sets import ValueSet
from p4sim.switch.loader import MAX_ARRAY_CELLS, LoadContext, require, require_size
from p4sim.switch.loader_layout import field_slot


def _unique(seen: set, name: object, section: str, fragment: object) -> None:
    if name in seen:
        raise LoadError(section, f"{name!r} is defined twice", fragment)
    seen.add(name)


def build_externs(ctx: LoadContext) -> None:
    doc = ctx.doc
    seen: set = set()
    for arr in doc.get("counter_arrays", []) or []:
        name = require(arr, "name", "counter_arrays", str)
        _unique(seen, name, "counter_arrays", arr)
        if arr.get("is_direct"):
            continue  # direct counters live in their table's entries
        size = require_size(arr, "size", f"counter_arrays[{name}]", limit=MAX_ARRAY_CELLS)
        ctx.counters[name] = CounterArray(name, size)
    for arr in doc.get("meter_arrays", []) or []:
        name = require(arr, "name", "meter_arrays", str)
        _unique(seen, ("meter", name), "meter_arrays", arr)
        where = f"meter_arrays[{name}]"
        unit = arr.get("type", "packets")
        if unit not in ("packets", "bytes"):
            raise LoadError(where, "meter type must be 'packets' or 'bytes'", arr)
        if arr.get("rate_count", 2) != 2:
            raise LoadError(where, "only 2-rate meters are supported", arr)
        if arr.get("is_direct"):
            ctx.direct_meters[name] = arr  # cells live in the entries of the bound table
            continue
        size = require_size(arr, "size", where, limit=MAX_ARRAY_CELLS)
        ctx.meters[name] = MeterArray(name, size, unit, ctx.clock)
    for arr in doc.get("register_arrays", []) or []:
        name = require(arr, "name", "register_arrays", str)
        _unique(seen, ("register", name), "register_arrays", arr)
        where = f"register_arrays[{name}]"
        ctx.registers[name] = RegisterArray(
            name, require_size(arr, "size", where, limit=MAX_ARRAY_CELLS),
            require_size(arr, "bitwidth", where, minimum=1, limit=1 << 16))
    for vs in doc.get("parse_vsets", []) or []:
        name = require(vs, "name", "parse_vsets", str)
        _unique(seen, ("value set", name), "parse_vsets", vs)
        where = f"parse_vsets[{name}]"
        ctx.value_sets[name] = ValueSet(
            name, require_size(vs, "compressed_bitwidth", where, minimum=1, limit=1 << 16),
            require_size(vs, "max_size", where, default=0))
    for ll in doc.get("learn_lists", []) or []:
        ll_id = require(ll, "id", "learn_lists", int)
        _unique(seen, ("learn list", ll_id), "learn_lists", ll)
        name = ll.get("name", str(ll_id))
        slots, names = [], []
        for el in require(ll, "elements", f"learn_lists[{name}]", list):
            value = el.get("value") if isinstance(el, dict) else None
            slot, _, _, _ = field_slot(ctx, value, f"learn_lists[{name}]", el)
            assert value is not None  # field_slot accepted it: [header, field]
            slots.append(slot)
            names.append((value[0], value[1]))
        ctx.learn_lists[ll_id] = (name, slots)
        ctx.learn_list_fields[ll_id] = names
    for ext in doc.get("extern_instances", []) or []:
        name = require(ext, "name", "extern_instances", str)
        ctx.extern_instances[name] = ext
