"""The fast path of a plain table-entry INSERT, with the table's layout worked out once.

The checked path (`TableEntries.write`) decodes every FieldMatch into a codec value,
then into a runtime param, which the switch validates again while compiling the key,
and checks the action data twice (against the P4Info, then against the switch's
action).  For a table whose P4Info and BMv2 JSON agree field by field, one plan per
table does all of that in a single pass over the request: where each field id sits in
the key, its width and shift, each action's parameter slots.

The plan only ever *accepts*: an update it cannot prove valid (any check of the checked
path failing, or a case the plan does not model) is left untouched and the caller runs
the checked path on it, which reports the error with its usual code and message.  So
error reporting cannot differ between the two paths; only the cost of valid inserts.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from p4.config.v1 import p4info_pb2

from p4sim.p4runtime import codec
from p4sim.p4runtime.p4info_index import P4InfoIndex, TableInfo
from p4sim.p4runtime.translate import PRIORITY_BASE
from p4sim.switch.match_units import MatchSpec
from p4sim.switch.runtime_api import ExactParam, LpmParam, MatchParam, TernaryParam

if TYPE_CHECKING:
    from p4sim.switch.tables import TableRuntime

# P4Info match types the plan handles, by the switch's name for the same kind.
_KINDS = {codec.EXACT: "exact", codec.LPM: "lpm", codec.TERNARY: "ternary"}
_WILDCARDS: dict[str, MatchParam] = {"lpm": LpmParam(0, 0), "ternary": TernaryParam(0, 0)}
DEFAULT_ONLY = p4info_pb2.ActionRef.Scope.Value("DEFAULT_ONLY")


class _Field(NamedTuple):
    """A key field: unpacked in one step per FieldMatch."""
    position: int
    kind: str
    bitwidth: int
    shift: int
    full: int


class _Action:
    __slots__ = ("act", "slots", "count", "ids", "widths")

    def __init__(self, act: Any, slots: dict[int, tuple[int, int]]) -> None:
        self.act = act              # the switch's TableAction
        self.slots = slots          # param id -> (argument index, bitwidth)
        self.count = len(slots)
        # What clients send: every parameter once, in P4Info order.
        self.ids = [param_id for param_id, _ in sorted(slots.items(), key=lambda s: s[1])]
        self.widths = [width for _, width in sorted(slots.values())]


class InsertPlan:
    """Everything per-table an INSERT of a plain entry (a wire.TableEntryView) needs."""

    def __init__(self, info: TableInfo, table: TableRuntime, fields: dict[int, _Field],
                 actions: dict[int, _Action]) -> None:
        self.info = info
        self.table = table
        self.fields = fields
        self.actions = actions
        self.needs_priority = info.needs_priority
        self.uses_priority = table.uses_priority
        # What an omitted field means; exact fields (None here) cannot be omitted.
        self.wildcards: list[MatchParam | None] = [
            None if f.kind == "exact" else _WILDCARDS[f.kind]
            for f in sorted(fields.values(), key=lambda f: f.position)]
        # bit i set: key field i is exact, so a request must give it
        self.required = sum(1 << f.position for f in fields.values() if f.kind == "exact")

    @classmethod
    def build(cls, index: P4InfoIndex, info: TableInfo, table: TableRuntime
              ) -> InsertPlan | None:
        """The plan of a table, or None when the table is one the plan does not model
        (const, indirect, keyless, a match kind other than exact/lpm/ternary, or a
        P4Info that differs from the JSON): its inserts all take the checked path."""
        if info.is_const or info.implementation_id or table.profile is not None \
                or not info.fields or len(info.fields) != len(table.keys):
            return None
        fields = {}
        for position, (spec, element) in enumerate(zip(info.fields, table.keys)):
            kind = _KINDS.get(spec.match_type)
            if kind is None or kind != element.match_kind or spec.bitwidth != element.bitwidth \
                    or spec.bitwidth <= 0:
                return None
            fields[spec.id] = _Field(position, kind, spec.bitwidth, element.shift,
                                     (1 << spec.bitwidth) - 1)
        if len(fields) != len(info.fields):
            return None                           # a field id given twice
        actions = {}
        for action_id in info.action_ids:
            action = index.actions.get(action_id)
            if action is None or info.scopes.get(action_id) == DEFAULT_ONLY:
                continue
            act = table.actions.get(action.name)
            widths = [p.bitwidth for p in action.params]
            slots = {p.id: (i, p.bitwidth) for i, p in enumerate(action.params)}
            if act is None or list(act.fn.param_widths) != widths \
                    or len(slots) != len(widths):
                continue
            actions[action_id] = _Action(act, slots)
        return cls(info, table, fields, actions)

    def insert(self, entry: Any) -> int | None:
        """Insert `entry` if it is valid and the table takes it: its handle.  None when
        anything is off, with nothing changed (the caller then runs the checked path)."""
        if entry.is_default_action:
            return None
        priority = entry.priority
        if self.needs_priority:
            if not 0 < priority < PRIORITY_BASE:
                return None
        elif priority:
            return None
        keys: list[Any] = list(self.wildcards)
        fields = self.fields
        value = mask = 0
        given = 0
        for fm in entry.match:
            field = fields.get(fm.field_id)
            if field is None:
                return None
            position, kind, width, shift, full = field
            if fm.kind != kind or given >> position & 1:
                return None                       # another kind, or the field twice
            given |= 1 << position
            data = fm.value
            v = int.from_bytes(data, "big")
            if not data or v >> width:
                return None
            if kind == "exact":
                keys[position] = ExactParam(v)
                m = full
            elif kind == "lpm":
                plen = fm.prefix_len
                if not 0 < plen <= width:
                    return None
                host = (1 << (width - plen)) - 1
                if v & host:
                    return None
                keys[position] = LpmParam(v, plen)
                m = full ^ host
            else:
                data = fm.mask
                m = int.from_bytes(data, "big")
                if not data or m >> width or not m or v & ~m:
                    return None
                keys[position] = TernaryParam(v, m)
            value |= v << shift
            mask |= m << shift
        if given & self.required != self.required:
            return None                           # an exact field is missing
        action_view = entry.action     # a wire TableActionView: also its own `action`
        if not entry.has_action or action_view.kind != "action":
            return None
        action = self.actions.get(action_view.action_id)
        if action is None:
            return None
        data = action_view.param_data        # param_id, value, param_id, value, ...
        if data[0::2] == action.ids:          # each once, in P4Info order: the usual
            values = []
            for param, width in zip(data[1::2], action.widths):
                v = int.from_bytes(param, "big")
                if not param or v >> width:
                    return None
                values.append(v)
            args = tuple(values)
        else:
            any_order = self._any_order(data, action)
            if any_order is None:
                return None
            args = any_order
        switch_priority = PRIORITY_BASE - priority if priority and self.uses_priority else 0
        return self.table.insert_prepared(
            keys, MatchSpec(value & mask, mask, (), switch_priority), action.act, args)

    @staticmethod
    def _any_order(data: list, action: _Action) -> tuple | None:
        """The argument ints of parameters given in any order, or None if one is
        unknown, repeated, missing, empty or too wide."""
        slots = action.slots
        args: list[Any] = [None] * action.count
        filled = 0
        flat = iter(data)
        for param_id, value in zip(flat, flat):
            slot = slots.get(param_id)
            if slot is None or args[slot[0]] is not None:
                return None
            v = int.from_bytes(value, "big")
            if not value or v >> slot[1]:
                return None
            args[slot[0]] = v
            filled += 1
        return tuple(args) if filled == action.count else None
