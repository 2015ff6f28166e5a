"""The P4Info must describe the BMv2 JSON it arrives with.

Every P4Info table, action, parameter and extern needs its JSON counterpart under the
same fully qualified name, with the same key layout, widths, sizes, units and
implementation: the server translates P4Runtime requests by those names and widths,
so a mismatch would otherwise surface later as failed writes or wrong reads.  Called
on a program built from the JSON but not yet installed, so a refusal changes nothing.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from p4.config.v1 import p4info_pb2

from p4sim.p4runtime.errors import invalid
from p4sim.p4runtime.p4info_index import P4InfoIndex, TableInfo

if TYPE_CHECKING:   # the switch program is imported when a pipeline is loaded
    from p4sim.switch.program import Program

_T = TypeVar("_T")
MatchType = p4info_pb2.MatchField.MatchType
_KIND_NAMES = {MatchType.EXACT: "exact", MatchType.LPM: "lpm", MatchType.TERNARY: "ternary",
               MatchType.RANGE: "range", MatchType.OPTIONAL: "optional"}
_METER_UNIT = {p4info_pb2.MeterSpec.BYTES: "bytes", p4info_pb2.MeterSpec.PACKETS: "packets"}


def _require(collection: dict[str, _T], name: str, kind: str) -> _T:
    if name not in collection:
        raise invalid(f"P4Info {kind} '{name}' is not in the BMv2 JSON")
    return collection[name]


def _mismatch(kind: str, name: str, what: str, p4info: Any, json: Any) -> Exception:
    return invalid(f"P4Info {kind} '{name}': {what} is {p4info} in the P4Info but {json} "
                   "in the BMv2 JSON")


def _json_tables(doc: dict) -> dict[str, dict]:
    return {t["name"]: t for pipe in doc.get("pipelines", []) or []
            for t in pipe.get("tables", []) or []}


def _check_key(table: TableInfo, tr: Any) -> None:
    fields = list(table.proto.match_fields)
    if len(fields) != len(tr.key_spec):
        raise _mismatch("table", table.name, "the number of match fields", len(fields),
                        len(tr.key_spec))
    for mf, key in zip(fields, tr.key_spec):
        kind = _KIND_NAMES.get(mf.match_type)
        if key.match_kind == "valid":      # p4c's old isValid() keys: exact, 1 bit
            if kind != "exact" or mf.bitwidth != 1:
                raise _mismatch("table", table.name, f"field '{mf.name}'",
                                f"{kind} {mf.bitwidth} bits", "a valid key")
            continue
        if mf.bitwidth != key.bitwidth:
            raise _mismatch("table", table.name, f"the width of field '{mf.name}'",
                            mf.bitwidth, key.bitwidth)
        # p4c writes optional keys as ternary: BMv2 has no optional match
        if kind != key.match_kind and not (kind == "optional"
                                           and key.match_kind == "ternary"):
            raise _mismatch("table", table.name, f"the match kind of field '{mf.name}'",
                            kind, key.match_kind)


def _check_table(index: P4InfoIndex, table: TableInfo, tr: Any, jt: dict,
                 doc: dict) -> None:
    _check_key(table, tr)
    for action_id in table.action_ids:
        action = index.action(action_id)
        if action.name not in tr.action_names:
            raise invalid(f"action '{action.name}' of table '{table.name}' is not in the "
                          "BMv2 JSON table")
    size = table.proto.size
    if size and not jt.get("entries") and size != tr.size:
        raise _mismatch("table", table.name, "the size", size, tr.size)
    profile_id = table.implementation_id
    json_profile = tr.profile.name if tr.profile is not None else None
    if profile_id:
        name = index.action_profiles[profile_id].preamble.name
        if json_profile != name:
            raise _mismatch("table", table.name, "the implementation", f"'{name}'",
                            f"'{json_profile}'" if json_profile else "a direct table")
    elif json_profile is not None:
        raise _mismatch("table", table.name, "the implementation", "a direct table",
                        f"'{json_profile}'")
    if bool(table.direct_counter_id) != tr.has_direct_counter:
        raise _mismatch("table", table.name, "a direct counter",
                        "present" if table.direct_counter_id else "absent",
                        "present" if tr.has_direct_counter else "absent")
    if table.direct_counter_id:
        name = index.direct_counters[table.direct_counter_id].preamble.name
        bound = [c for c in doc.get("counter_arrays", []) or []
                 if c.get("is_direct") and c.get("name") == name]
        if not bound or bound[0].get("binding") != table.name:
            raise invalid(f"P4Info direct counter '{name}' of table '{table.name}' is not "
                          "bound to it in the BMv2 JSON")
    if bool(table.direct_meter_id) != tr.has_direct_meter:
        raise _mismatch("table", table.name, "a direct meter",
                        "present" if table.direct_meter_id else "absent",
                        "present" if tr.has_direct_meter else "absent")
    if table.direct_meter_id:
        meter = index.direct_meters[table.direct_meter_id]
        if jt.get("direct_meters") != meter.preamble.name:
            raise _mismatch("table", table.name, "the direct meter",
                            f"'{meter.preamble.name}'", f"'{jt.get('direct_meters')}'")
        arr = [m for m in doc.get("meter_arrays", []) or []
               if m.get("name") == meter.preamble.name]
        unit = arr[0].get("type", "packets") if arr else None
        if unit != _METER_UNIT.get(meter.spec.unit):
            raise _mismatch("direct meter", meter.preamble.name, "the unit",
                            _METER_UNIT.get(meter.spec.unit), unit)
    if table.supports_timeout and not tr.support_timeout:
        raise _mismatch("table", table.name, "idle timeout support", "NOTIFY_CONTROL",
                        "off")
    const_default = table.proto.const_default_action_id
    if const_default:
        name = index.action(const_default).name
        act = tr.default_act.name if tr.default_act is not None else None
        if not tr.default_action_const or act != name:
            raise _mismatch("table", table.name, "the const default action", f"'{name}'",
                            f"'{act}'" + ("" if tr.default_action_const else " (not const)"))


def _check_actions(index: P4InfoIndex, program: Program) -> None:
    # p4c may emit one name twice: the action as tables call it and a copy specialised
    # for a direct call (its directional arguments bound); the P4Info action is the
    # former, so one of the JSON actions of that name must have its params.
    # An action no table refers to (one the program only calls directly) cannot be
    # used through P4Runtime: it is checked only if the JSON has it (a compiler may
    # inline it away).
    by_name: dict[str, list[Any]] = {}
    for fn in program.actions.values():
        by_name.setdefault(fn.name, []).append(fn)
    referenced = {aid for table in index.tables.values() for aid in table.action_ids}
    for action in index.actions.values():
        if action.id not in referenced and action.name not in by_name:
            continue
        candidates = _require(by_name, action.name, "action")
        p4info_params = [(p.name, p.bitwidth) for p in action.params]
        if any(list(zip(fn.param_names, fn.param_widths)) == p4info_params
               for fn in candidates):
            continue
        fn = candidates[0]
        json_params = list(zip(fn.param_names, fn.param_widths))
        if len(json_params) != len(p4info_params):
            raise _mismatch("action", action.name, "the number of params",
                            len(p4info_params), len(json_params))
        for (name, width), (jname, jwidth) in zip(p4info_params, json_params):
            if width != jwidth:
                raise _mismatch("action", action.name, f"the width of param '{name}'",
                                width, jwidth)
            if name != jname:
                raise _mismatch("action", action.name, "a param name", f"'{name}'",
                                f"'{jname}'")


def _check_externs(index: P4InfoIndex, program: Program, doc: dict) -> None:
    runtime = program.runtime
    for profile in index.action_profiles.values():
        name = profile.preamble.name
        rt = _require(runtime.action_profiles, name, "action profile")
        if profile.size != rt.max_size:
            raise _mismatch("action profile", name, "the size", profile.size, rt.max_size)
        if profile.with_selector != rt.has_selector:
            raise _mismatch("action profile", name, "a selector",
                            "present" if profile.with_selector else "absent",
                            "present" if rt.has_selector else "absent")
    for counter in index.counters.values():
        name = counter.preamble.name
        arr = _require(runtime.counters, name, "counter")
        if counter.size != arr.size:
            raise _mismatch("counter", name, "the size", counter.size, arr.size)
    for meter in index.meters.values():
        name = meter.preamble.name
        marr = _require(runtime.meters, name, "meter")
        if meter.size != marr.size:
            raise _mismatch("meter", name, "the size", meter.size, marr.size)
        if _METER_UNIT.get(meter.spec.unit) != marr.unit:
            raise _mismatch("meter", name, "the unit", _METER_UNIT.get(meter.spec.unit),
                            marr.unit)
    for register in index.registers.values():
        name = register.preamble.name
        rarr = _require(runtime.registers, name, "register")
        bits = register.type_spec.bitstring
        width = getattr(bits, bits.WhichOneof("type_spec") or "bit").bitwidth
        if register.size != rarr.size:
            raise _mismatch("register", name, "the size", register.size, rarr.size)
        if width != rarr.bitwidth:
            raise _mismatch("register", name, "the width", width, rarr.bitwidth)
    for value_set in index.value_sets.values():
        name = value_set.preamble.name
        vs = _require(runtime.value_sets, name, "value set")
        width = sum(f.bitwidth for f in value_set.match)
        if width != vs.bitwidth:
            raise _mismatch("value set", name, "the width", width, vs.bitwidth)
        if value_set.size and value_set.size != vs.max_size:
            raise _mismatch("value set", name, "the size", value_set.size, vs.max_size)
    learn_lists = {ll.get("name") for ll in doc.get("learn_lists", []) or []}
    for digest in index.digests.values():
        if digest.preamble.name not in learn_lists:
            raise invalid(f"P4Info digest '{digest.preamble.name}' is not a learn list "
                          "of the BMv2 JSON")


def check_binding(index: P4InfoIndex, program: Program, doc: dict) -> None:
    """INVALID_ARGUMENT unless the P4Info describes the program built from `doc`."""
    json_tables = _json_tables(doc)
    for table in index.tables.values():
        tr = _require(program.runtime.tables, table.name, "table")
        _check_table(index, table, tr, json_tables.get(table.name, {}), doc)
    _check_actions(index, program)
    _check_externs(index, program, doc)
