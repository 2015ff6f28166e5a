"""Translation between P4Runtime messages and the switch's runtime API values.

Match keys, action specifications and priorities are the three things every table,
action-profile and value-set write needs, so they live here once.  The switch orders
ternary-like entries the BMv2 way (a smaller number wins) while P4Runtime's larger
priority wins: `to_switch_priority` / `from_switch_priority` are the only places that
know.
"""
from __future__ import annotations

from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import codec, wire
from p4sim.p4runtime.errors import Code, P4RuntimeError, from_codec_error, invalid
from p4sim.p4runtime.p4info_index import ActionInfo, P4InfoIndex, TableInfo
from p4sim.switch import runtime_api as rt

MatchType = p4info_pb2.MatchField.MatchType

# P4Runtime priorities are positive int32s; the switch's are the mirror image.
PRIORITY_BASE = 1 << 31


def to_switch_priority(priority: int) -> int:
    return PRIORITY_BASE - priority if priority else 0


def from_switch_priority(priority: int) -> int:
    return PRIORITY_BASE - priority if priority else 0


def check_priority(table: TableInfo, priority: int) -> None:
    """Priority is required (> 0) exactly for tables with ternary-like fields."""
    if table.needs_priority and priority <= 0:
        raise invalid(f"table '{table.name}' has ternary, range or optional fields: "
                      f"entries need a priority > 0 (got {priority})")
    if not table.needs_priority and priority != 0:
        raise invalid(f"table '{table.name}' has only exact and lpm fields: "
                      f"priority must be 0 (got {priority})")


def _to_param(match: codec.Match, switch_kind: str, bitwidth: int) -> rt.MatchParam:
    if isinstance(match, codec.ExactMatch):
        if switch_kind == "valid":
            return rt.ValidParam(bool(match.value))
        return rt.ExactParam(match.value)
    if isinstance(match, codec.LpmMatch):
        return rt.LpmParam(match.value, match.prefix_len)
    if isinstance(match, codec.TernaryMatch):
        return rt.TernaryParam(match.value, match.mask)
    if isinstance(match, codec.RangeMatch):
        return rt.RangeParam(match.low, match.high)
    if switch_kind == "optional":
        return rt.OptionalParam(match.value)
    # BMv2 JSON has no optional kind: p4c lowers optional to ternary.
    if match.value is None:
        return rt.TernaryParam(0, 0)
    return rt.TernaryParam(match.value, _full_mask(bitwidth))


def _full_mask(bitwidth: int) -> int:
    return (1 << bitwidth) - 1


def _from_param(param: rt.MatchParam, kind: int, bitwidth: int) -> codec.Match:
    if isinstance(param, rt.ValidParam):
        return codec.ExactMatch(int(param.valid))
    if isinstance(param, rt.ExactParam):
        return codec.ExactMatch(param.value)
    if isinstance(param, rt.LpmParam):
        return codec.LpmMatch(param.value, param.prefix_len)
    if isinstance(param, rt.RangeParam):
        return codec.RangeMatch(param.low, param.high)
    if isinstance(param, rt.OptionalParam):
        return codec.OptionalMatch(param.value)
    if kind == MatchType.OPTIONAL:
        return codec.OptionalMatch(None if param.mask == 0 else param.value)
    return codec.TernaryMatch(param.value, param.mask & _full_mask(bitwidth))


def decode_match_key(table: TableInfo, key_spec: list, fields,
                     what: str = "table") -> list[rt.MatchParam]:
    """Runtime match params (in key order) from the FieldMatches of a request."""
    given: dict[int, p4runtime_pb2.FieldMatch] = {}
    for fm in fields:
        field_id = fm.field_id
        if field_id not in table.fields_by_id:
            raise invalid(f"{what} '{table.name}' has no match field with ID {field_id}")
        if field_id in given:
            raise invalid(f"match field ID {field_id} appears twice")
        given[field_id] = fm
    params = []
    for position, mf in enumerate(table.fields):
        switch_kind = key_spec[position].match_kind if position < len(key_spec) else ""
        fm = given.get(mf.id)
        try:
            if fm is not None:
                match = codec.decode_field_match(fm, mf.match_type, mf.bitwidth, mf.name)
            else:
                match = codec.wildcard(mf.match_type, mf.bitwidth)
        except codec.InvalidMatchError as exc:
            if fm is None:
                raise invalid(f"exact match field '{mf.name}' is missing") from None
            raise from_codec_error(exc) from None
        except codec.CodecError as exc:
            raise from_codec_error(exc) from None
        params.append(_to_param(match, switch_kind, mf.bitwidth))
    return params


def encode_match_key(table: TableInfo, params: list[rt.MatchParam], out) -> None:
    """Append canonical FieldMatches (don't-care fields omitted) of runtime match
    params to the repeated field `out`, building them in place."""
    for mf, param in zip(table.fields, params):
        width = mf.bitwidth
        if isinstance(param, rt.ExactParam):
            out.add(field_id=mf.id).exact.value = codec.encode_int(param.value, width)
            continue
        match = _from_param(param, mf.match_type, width)
        fm = codec.encode_field_match(mf.id, match, width)
        if fm is not None:
            out.append(fm)


def encode_match_key_bytes(table: TableInfo, params: list[rt.MatchParam]) -> list[bytes]:
    """Serialized canonical FieldMatches (don't-care fields omitted), for Read."""
    out = []
    for mf, param in zip(table.fields, params):
        width = mf.bitwidth
        if isinstance(param, rt.ExactParam):
            out.append(wire.encode_field_match(mf.id, "exact",
                                               codec.encode_int(param.value, width)))
            continue
        match = _from_param(param, mf.match_type, width)
        if codec.is_wildcard(match, width):
            continue
        if isinstance(match, codec.ExactMatch):
            out.append(wire.encode_field_match(mf.id, "exact",
                                               codec.encode_int(match.value, width)))
        elif isinstance(match, codec.LpmMatch):
            out.append(wire.encode_field_match(
                mf.id, "lpm", codec.encode_int(match.value, width), match.prefix_len))
        elif isinstance(match, codec.TernaryMatch):
            out.append(wire.encode_field_match(
                mf.id, "ternary", codec.encode_int(match.value, width),
                codec.encode_int(match.mask, width)))
        elif isinstance(match, codec.RangeMatch):
            out.append(wire.encode_field_match(
                mf.id, "range", codec.encode_int(match.low, width),
                codec.encode_int(match.high, width)))
        else:
            assert match.value is not None  # an optional wildcard was skipped above
            out.append(wire.encode_field_match(mf.id, "optional",
                                               codec.encode_int(match.value, width)))
    return out


def encode_action_bytes(index: P4InfoIndex, action_name: str, args: list[int]) -> bytes:
    """Serialized Action of a runtime (name, args) pair, for Read."""
    action_id = index.action_ids_by_name.get(action_name)
    if action_id is None:
        raise P4RuntimeError(Code.INTERNAL,
                             f"switch action '{action_name}' is not in the P4Info")
    info = index.actions[action_id]
    return wire.encode_action(action_id, [(spec.id, value & ((1 << spec.bitwidth) - 1))
                                          for spec, value in zip(info.params, args)])


def decode_action(index: P4InfoIndex, action: p4runtime_pb2.Action,
                  allowed: set[int] | None = None,
                  owner: str = "") -> tuple[ActionInfo, list[int]]:
    """(action info, argument ints in P4Info parameter order) of an Action message."""
    action_id = action.action_id
    info = index.action(action_id)
    if allowed is not None and action_id not in allowed:
        raise invalid(f"action '{info.name}' is not an action of {owner}")
    values: dict[int, int] = {}
    for param in action.params:
        param_id, data = param.param_id, param.value
        spec = info.params_by_id.get(param_id)
        if spec is None:
            raise invalid(f"action '{info.name}' has no parameter with ID {param_id}")
        if param_id in values:
            raise invalid(f"action '{info.name}': parameter '{spec.name}' given twice")
        value = int.from_bytes(data, "big")
        if not data or value >> spec.bitwidth:
            try:
                codec.decode_int(data, spec.bitwidth,
                                 f"parameter '{spec.name}' of '{info.name}'")
            except codec.CodecError as exc:
                raise from_codec_error(exc) from None
        values[param_id] = value
    if len(values) != len(info.params):
        missing = [p.name for p in info.params if p.id not in values]
        raise invalid(f"action '{info.name}' is missing parameter(s) {', '.join(missing)}")
    return info, [values[p.id] for p in info.params]


def encode_action(index: P4InfoIndex, action_name: str, args: list[int],
                  out: p4runtime_pb2.Action | None = None) -> p4runtime_pb2.Action:
    """Fill `out` (or a new Action) from a runtime (name, args) pair."""
    action_id = index.action_ids_by_name.get(action_name)
    if action_id is None:
        raise P4RuntimeError(Code.INTERNAL,
                             f"switch action '{action_name}' is not in the P4Info")
    info = index.actions[action_id]
    msg = p4runtime_pb2.Action() if out is None else out
    msg.action_id = action_id
    add = msg.params.add
    for spec, value in zip(info.params, args):
        value &= (1 << spec.bitwidth) - 1
        add(param_id=spec.id,
            value=value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big"))
    return msg
