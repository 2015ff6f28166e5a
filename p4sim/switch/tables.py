"""Match-action tables: the control-plane API (TableRuntime) and the per-packet
apply closure built over it."""
from __future__ import annotations

import heapq
import threading
from typing import Any, Callable

from p4sim.switch.externs.meters import Meter, validate_config
from p4sim.switch.match_units import ExactUnit, LpmUnit, MatchSpec, TernaryUnit, make_unit
from p4sim.switch.runtime_api import (
    EntryView, ExactParam, KeyField, LpmParam, MatchParam, MeterConfig, OptionalParam,
    RangeParam, TableError, TableErrorCode, TernaryParam, ValidParam)


class HandleAllocator:
    """Hands out the lowest free handle, as bm_sim's handle manager does; this keeps
    member order inside selector groups (and so member choice) identical to bmv2."""

    def __init__(self) -> None:
        self._free: list[int] = []
        self._next = 0

    def get(self) -> int:
        if self._free:
            return heapq.heappop(self._free)
        handle = self._next
        self._next += 1
        return handle

    def release(self, handle: int) -> None:
        heapq.heappush(self._free, handle)

    def reset(self) -> None:
        self._free = []
        self._next = 0


class KeyElement:
    """One key element: where it sits in the concatenated key and how wide it is."""

    def __init__(self, name: str, match_kind: str, bitwidth: int, shift: int) -> None:
        self.name = name
        self.match_kind = match_kind
        self.bitwidth = bitwidth
        self.shift = shift
        self.full = (1 << bitwidth) - 1


class TableAction:
    """An action as bound to one table, with the node that follows it."""

    __slots__ = ("fn", "name", "next")

    def __init__(self, fn: Any, name: str) -> None:
        self.fn = fn
        self.name = name
        self.next: Callable | None = None


_NO_COUNTER = (0, 0)


class Entry:
    __slots__ = ("handle", "keys", "spec", "act", "args", "member", "group", "is_const",
                 "counter", "meter", "ttl_ms", "last_hit")

    def __init__(self, handle: int, keys: list, spec: MatchSpec) -> None:
        self.handle = handle
        self.keys = keys
        self.spec = spec
        self.act: TableAction | None = None
        self.args: tuple = ()
        self.member: int | None = None
        self.group: int | None = None
        self.is_const = False
        # [bytes, packets] in tables with a direct counter (TableRuntime._place); only
        # those read or write it, and a list per entry would be one more object for
        # the garbage collector to scan in large tables.
        self.counter: list[int] | tuple[int, int] = _NO_COUNTER
        self.meter: Meter | None = None
        self.ttl_ms: int | None = None
        self.last_hit = 0.0


class TableRuntime:
    """Control-plane view of one table (bm_sim's MatchTable runtime interface)."""

    def __init__(self, name: str, keys: list[KeyElement], match_type: str,
                 actions: dict[str, TableAction], size: int, has_direct_counter: bool,
                 has_direct_meter: bool, support_timeout: bool,
                 clock: Callable[[], float], profile: Any = None) -> None:
        self.name = name
        self.keys = keys
        self.key_spec = [KeyField(k.name, k.match_kind, k.bitwidth) for k in keys]
        self.match_type = match_type
        self.actions = actions
        self.action_names = list(actions)
        self.size = size
        self.has_direct_counter = has_direct_counter
        self.has_direct_meter = has_direct_meter
        self.support_timeout = support_timeout
        self.is_const = False
        self.profile = profile
        self.uses_priority = match_type in ("ternary", "range")
        self._clock = clock
        self._lock = threading.RLock()
        self._unit = make_unit(match_type)
        self._entries: dict[int, Entry] = {}
        self._handles = HandleAllocator()
        self.default_act: TableAction | None = None
        self.default_args: tuple = ()
        self.initial_default: tuple[TableAction | None, tuple] = (None, ())
        self.default_action_const = False
        self.default_entry_const = False
        self.meter_unit_bytes = False

    def action_params(self, action: str) -> list[tuple[str, int]]:
        """(name, bitwidth) of each parameter of one of the table's actions."""
        act = self.actions.get(action)
        if act is None:
            raise TableError(TableErrorCode.INVALID_ACTION_NAME,
                             f"table {self.name}: action {action!r} not in {self.action_names}")
        return list(zip(act.fn.param_names, act.fn.param_widths))

    # --- validation helpers ----------------------------------------------------
    def _spec(self, keys: list[MatchParam], priority: int) -> MatchSpec:
        if not isinstance(keys, (list, tuple)) or len(keys) != len(self.keys):
            raise TableError(TableErrorCode.BAD_MATCH_KEY,
                             f"table {self.name}: expected {len(self.keys)} key params, "
                             f"got {len(keys) if isinstance(keys, (list, tuple)) else keys!r}")
        value = mask = 0
        ranges = []
        for el, param in zip(self.keys, keys):
            v, m, r = self._element(el, param)
            value |= v << el.shift
            mask |= m << el.shift
            if r is not None:
                ranges.append((el.shift, el.full, r[0], r[1]))
        if not self.uses_priority:
            priority = 0
        elif not isinstance(priority, int) or priority < 0:
            raise TableError(TableErrorCode.BAD_MATCH_KEY,
                             f"table {self.name}: priority must be a non-negative int")
        return MatchSpec(value & mask, mask, tuple(ranges), priority)

    def _fits(self, el: KeyElement, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value > el.full:
            raise TableError(TableErrorCode.BAD_MATCH_KEY,
                             f"table {self.name}: value {value!r} for key {el.name} does not "
                             f"fit {el.bitwidth} bits")
        return value

    def _mismatch(self, el: KeyElement, param: Any) -> TableError:
        return TableError(TableErrorCode.BAD_MATCH_KEY,
                          f"table {self.name}: key {el.name} is {el.match_kind}, got {param!r}")

    def _element(self, el: KeyElement, param: Any) -> tuple[int, int, tuple | None]:
        kind = el.match_kind
        if kind == "exact":
            if isinstance(param, ExactParam):
                return self._fits(el, param.value), el.full, None
            if isinstance(param, ValidParam) and el.bitwidth == 1:
                return int(param.valid), 1, None
            raise self._mismatch(el, param)
        if kind == "valid":
            if isinstance(param, ValidParam):
                return int(param.valid), 1, None
            if isinstance(param, ExactParam) and param.value in (0, 1):
                return param.value, 1, None
            raise self._mismatch(el, param)
        if kind == "lpm":
            if not isinstance(param, LpmParam):
                raise self._mismatch(el, param)
            plen = param.prefix_len
            if not isinstance(plen, int) or not 0 <= plen <= el.bitwidth:
                raise TableError(TableErrorCode.BAD_MATCH_KEY,
                                 f"table {self.name}: prefix length {plen!r} out of range "
                                 f"for {el.bitwidth}-bit key {el.name}")
            m = el.full ^ ((1 << (el.bitwidth - plen)) - 1)
            return self._fits(el, param.value) & m, m, None
        if kind in ("ternary", "optional"):
            if isinstance(param, TernaryParam):
                self._fits(el, param.mask)
                return self._fits(el, param.value) & param.mask, param.mask, None
            if isinstance(param, OptionalParam):
                if param.value is None:
                    return 0, 0, None
                return self._fits(el, param.value), el.full, None
            if isinstance(param, ExactParam):
                return self._fits(el, param.value), el.full, None
            raise self._mismatch(el, param)
        if kind == "range":
            if not isinstance(param, RangeParam):
                raise self._mismatch(el, param)
            low, high = self._fits(el, param.low), self._fits(el, param.high)
            if low > high:
                raise TableError(TableErrorCode.BAD_MATCH_KEY,
                                 f"table {self.name}: range low {low} > high {high}")
            return 0, 0, (low, high)
        raise self._mismatch(el, param)

    def _action(self, action: str, args: Any) -> tuple[TableAction, tuple]:
        act = self.actions.get(action)
        if act is None:
            raise TableError(TableErrorCode.INVALID_ACTION_NAME,
                             f"table {self.name}: action {action!r} not in {self.action_names}")
        return act, check_args(act.fn, args, self.name)

    def _get(self, handle: int) -> Entry:
        entry = self._entries.get(handle) if isinstance(handle, int) else None
        if entry is None:
            raise TableError(TableErrorCode.INVALID_HANDLE,
                             f"table {self.name}: no entry with handle {handle!r}")
        return entry

    def _check_mutable(self) -> None:
        if self.is_const:
            raise TableError(TableErrorCode.IMMUTABLE_TABLE_ENTRY,
                             f"table {self.name} has const entries and cannot be changed")

    def _check_direct(self) -> None:
        if self.profile is not None:
            raise TableError(TableErrorCode.WRONG_TABLE_TYPE,
                             f"table {self.name} uses action profile {self.profile.name}; "
                             "use add_indirect_entry")

    def _insert(self, keys: list, spec: MatchSpec, act: TableAction | None = None,
                args: tuple = (), member: int | None = None, group: int | None = None,
                const: bool = False) -> int:
        if self._unit.find(spec) is not None:
            raise TableError(TableErrorCode.DUPLICATE_ENTRY,
                             f"table {self.name}: an entry with this key already exists")
        if len(self._entries) >= self.size:
            raise TableError(TableErrorCode.TABLE_FULL,
                             f"table {self.name} is full ({self.size} entries)")
        return self._place(list(keys), spec, act, args, member, group, const)

    def _place(self, keys: list, spec: MatchSpec, act: TableAction | None, args: tuple,
               member: int | None, group: int | None, const: bool) -> int:
        """Store a checked entry; the match unit sees it only once it is complete (a
        packet thread may look it up at once)."""
        handle = self._handles.get()
        entry = Entry(handle, keys, spec)
        entry.act, entry.args = act, args
        entry.member, entry.group = member, group
        entry.is_const = const
        if self.has_direct_counter:
            entry.counter = [0, 0]
        if self.has_direct_meter:
            entry.meter = Meter()
        entry.last_hit = self._clock()
        self._entries[handle] = entry
        self._unit.insert(spec, entry)
        return handle

    def insert_prepared(self, keys: list[MatchParam], spec: MatchSpec, act: TableAction,
                        args: tuple) -> int | None:
        """Insert a direct entry whose key params, compiled spec and action data the
        caller built from this table's own `keys` and `actions` and checked against
        them (the P4Runtime fast path), skipping the re-validation `add_entry` does.
        None, with nothing changed, when the entry cannot go in (const or indirect
        table, key already present, table full): the caller then takes the checked
        path, which says why.  `keys` is kept, not copied."""
        with self._lock:
            if self.is_const or self.profile is not None or len(self._entries) >= self.size \
                    or self._unit.find(spec) is not None:
                return None
            return self._place(keys, spec, act, args, None, None, False)

    # --- entries ---------------------------------------------------------------
    def match_spec(self, keys: list[MatchParam], priority: int = 0) -> MatchSpec:
        """The validated, compiled match of a key: callers that look an entry up and
        then insert it pass it on as `spec=` so the key is compiled once."""
        return self._spec(keys, priority)

    def add_entry(self, keys: list[MatchParam], action: str, args: list[int],
                  priority: int = 0, spec: MatchSpec | None = None) -> int:
        with self._lock:
            self._check_mutable()
            self._check_direct()
            if spec is None:
                spec = self._spec(keys, priority)
            act, data = self._action(action, args)
            return self._insert(keys, spec, act, data)

    def add_const_entry(self, keys: list[MatchParam], action: str, args: list[int],
                        priority: int = 0) -> int:
        """Load-time entries from the JSON; they make the table immutable."""
        with self._lock:
            spec = self._spec(keys, priority)
            act, data = self._action(action, args)
            return self._insert(keys, spec, act, data, const=True)

    def add_indirect_entry(self, keys: list[MatchParam], member: int | None = None,
                           group: int | None = None, priority: int = 0,
                           spec: MatchSpec | None = None) -> int:
        with self._lock:
            self._check_mutable()
            profile = self.profile
            if profile is None:
                raise TableError(TableErrorCode.WRONG_TABLE_TYPE,
                                 f"table {self.name} is not indirect")
            if spec is None:
                spec = self._spec(keys, priority)
            profile.check_target(member, group)
            handle = self._insert(keys, spec, member=member, group=group)
            profile.ref(member, group, +1)
            return handle

    def modify_entry(self, handle: int, action: str, args: list[int]) -> None:
        with self._lock:
            self._check_mutable()
            self._check_direct()
            entry = self._get(handle)
            act, data = self._action(action, args)
            entry.act, entry.args = act, data

    def modify_indirect_entry(self, handle: int, member: int | None = None,
                              group: int | None = None) -> None:
        with self._lock:
            self._check_mutable()
            if self.profile is None:
                raise TableError(TableErrorCode.WRONG_TABLE_TYPE,
                                 f"table {self.name} is not indirect")
            entry = self._get(handle)
            self.profile.check_target(member, group)
            self.profile.ref(member, group, +1)
            self.profile.ref(entry.member, entry.group, -1)
            entry.member, entry.group = member, group

    def delete_entry(self, handle: int) -> None:
        with self._lock:
            self._check_mutable()
            entry = self._get(handle)
            self._unit.remove(entry.spec)
            del self._entries[handle]
            self._handles.release(handle)
            if self.profile is not None:
                self.profile.ref(entry.member, entry.group, -1)

    def find_entry(self, keys: list[MatchParam], priority: int = 0,
                   spec: MatchSpec | None = None) -> int | None:
        with self._lock:
            entry = self._unit.find(self._spec(keys, priority) if spec is None else spec)
            return None if entry is None else entry.handle

    def _view(self, e: Entry) -> EntryView:
        return EntryView(
            handle=e.handle, keys=list(e.keys), priority=e.spec.priority,
            action=e.act.name if e.act else None, args=list(e.args), member=e.member,
            group=e.group, is_const=e.is_const, ttl_ms=e.ttl_ms,
            counter=(e.counter[0], e.counter[1]) if self.has_direct_counter else None,
            meter_config=e.meter.config if e.meter else None)

    def get_entry(self, handle: int) -> EntryView:
        with self._lock:
            return self._view(self._get(handle))

    def entries(self) -> list[EntryView]:
        with self._lock:
            return [self._view(e) for e in self._entries.values()]

    def clear(self) -> None:
        """Remove every (non-const) entry; the default action is kept."""
        with self._lock:
            self._check_mutable()
            if self.profile is not None:
                for e in self._entries.values():
                    self.profile.ref(e.member, e.group, -1)
            self._entries = {}
            self._unit.clear()
            self._handles.reset()

    # --- default action --------------------------------------------------------
    def set_default_action(self, action: str, args: list[int]) -> None:
        with self._lock:
            act, data = self._action(action, args)
            if self.default_entry_const:
                raise TableError(TableErrorCode.DEFAULT_ENTRY_IS_CONST,
                                 f"table {self.name}: the default entry is const")
            if self.default_action_const and act is not self.initial_default[0]:
                raise TableError(TableErrorCode.DEFAULT_ACTION_IS_CONST,
                                 f"table {self.name}: the default action is const")
            self.default_act, self.default_args = act, data

    def reset_default_action(self) -> None:
        with self._lock:
            self.default_act, self.default_args = self.initial_default

    def get_default_action(self) -> tuple[str | None, list[int]]:
        act = self.default_act
        return (act.name if act else None), list(self.default_args)

    # --- direct counters, meters, ageing ---------------------------------------
    def read_direct_counter(self, handle: int) -> tuple[int, int]:
        with self._lock:
            self._need_direct_counter()
            entry = self._get(handle)
            return entry.counter[0], entry.counter[1]

    def write_direct_counter(self, handle: int, nbytes: int, packets: int) -> None:
        with self._lock:
            self._need_direct_counter()
            counter = self._get(handle).counter
            assert isinstance(counter, list)  # _place gives each entry of such a table one
            counter[0], counter[1] = nbytes, packets

    def reset_direct_counters(self) -> None:
        with self._lock:
            self._need_direct_counter()
            for e in self._entries.values():
                counter = e.counter
                assert isinstance(counter, list)  # as in write_direct_counter
                counter[0] = counter[1] = 0

    def set_direct_meter_config(self, handle: int, config: MeterConfig | None) -> None:
        with self._lock:
            self._need_direct_meter()
            entry = self._get(handle)
            if config is not None:
                validate_config(config)
            assert entry.meter is not None  # has_direct_meter: every entry has a meter
            entry.meter.configure(config, self._clock() * 1e6)

    def get_direct_meter_config(self, handle: int) -> MeterConfig | None:
        with self._lock:
            self._need_direct_meter()
            meter = self._get(handle).meter
            assert meter is not None  # has_direct_meter: every entry has a meter
            return meter.config

    def _need_direct_counter(self) -> None:
        if not self.has_direct_counter:
            raise TableError(TableErrorCode.COUNTERS_DISABLED,
                             f"table {self.name} has no direct counter")

    def _need_direct_meter(self) -> None:
        if not self.has_direct_meter:
            raise TableError(TableErrorCode.METERS_DISABLED,
                             f"table {self.name} has no direct meter")

    def set_entry_ttl(self, handle: int, ms: int | None) -> None:
        with self._lock:
            if not self.support_timeout:
                raise TableError(TableErrorCode.AGEING_DISABLED,
                                 f"table {self.name} does not support idle timeout")
            entry = self._get(handle)
            entry.ttl_ms = ms
            entry.last_hit = self._clock()

    def idle_entries(self, now: float | None = None) -> list[int]:
        """Handles of entries whose TTL has elapsed since their last hit (clock seconds)."""
        if not self.support_timeout:
            return []
        now = self._clock() if now is None else now
        with self._lock:
            return [e.handle for e in self._entries.values()
                    if e.ttl_ms is not None and (now - e.last_hit) * 1000 >= e.ttl_ms]

    def time_since_hit_ms(self, handle: int) -> int:
        with self._lock:
            return int((self._clock() - self._get(handle).last_hit) * 1000)

    # --- per packet ------------------------------------------------------------
    def lookup(self, key: int) -> Entry | None:
        return self._unit.lookup(key)

    @property
    def match_unit(self) -> ExactUnit | LpmUnit | TernaryUnit:
        """The table's match unit, for the apply closure built at load time (the unit
        is never replaced; its `items` is empty exactly when the table is)."""
        return self._unit

    @property
    def fast_lookup(self) -> Callable[[int], Entry | None]:
        """The match unit's own lookup (same result as `lookup`, one call less per
        packet); valid for the table's lifetime, as the unit is never replaced."""
        return self._unit.lookup


def check_args(fn: Any, args: Any, owner: str) -> tuple:
    """Validate action data against the action's parameter widths."""
    widths = fn.param_widths
    if not isinstance(args, (list, tuple)) or len(args) != len(widths):
        raise TableError(TableErrorCode.BAD_ACTION_DATA,
                         f"{owner}: action {fn.name} takes {len(widths)} arguments, "
                         f"got {args!r}")
    for value, width, pname in zip(args, widths, fn.param_names):
        if (not isinstance(value, int) or isinstance(value, bool) or value < 0
                or value >> width):
            raise TableError(TableErrorCode.BAD_ACTION_DATA,
                             f"{owner}: argument {pname}={value!r} of action {fn.name} does "
                             f"not fit {width} bits")
    return tuple(args)
