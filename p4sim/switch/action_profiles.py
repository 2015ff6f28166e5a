"""Action profiles and selectors: members (action + data) and weighted groups.

A group's members are laid out as slots, ordered by member handle with each member
repeated `weight` times; the selector hash modulo the slot count picks one.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from p4sim.switch.runtime_api import GroupView, MemberView, TableError, TableErrorCode
from p4sim.switch.tables import HandleAllocator, check_args


class Member:
    __slots__ = ("handle", "fn", "args", "refs")

    def __init__(self, handle: int, fn: Any, args: tuple) -> None:
        self.handle = handle
        self.fn = fn
        self.args = args
        self.refs = 0


class Group:
    __slots__ = ("handle", "weights", "slots", "refs")

    def __init__(self, handle: int) -> None:
        self.handle = handle
        self.weights: dict[int, int] = {}
        self.slots: tuple[Member, ...] = ()
        self.refs = 0


class ActionProfileRuntime:
    def __init__(self, name: str, max_size: int,
                 selector: Callable[[Any], int] | None) -> None:
        self.name = name
        self.max_size = max_size
        self.selector = selector            # packet -> hash, for action selectors
        self.has_selector = selector is not None
        self.actions: dict[str, Any] = {}   # filled from the tables that use the profile
        self._members: dict[int, Member] = {}
        self._groups: dict[int, Group] = {}
        self._member_handles = HandleAllocator()
        self._group_handles = HandleAllocator()
        self._lock = threading.RLock()

    def action_params(self, action: str) -> list[tuple[str, int]]:
        fn = self._fn(action)
        return list(zip(fn.param_names, fn.param_widths))

    # --- members ---------------------------------------------------------------
    def _fn(self, action: str) -> Any:
        fn = self.actions.get(action)
        if fn is None:
            raise TableError(TableErrorCode.INVALID_ACTION_NAME,
                             f"action profile {self.name}: action {action!r} not in "
                             f"{sorted(self.actions)}")
        return fn

    def _member(self, handle: Any) -> Member:
        mbr = self._members.get(handle) if isinstance(handle, int) else None
        if mbr is None:
            raise TableError(TableErrorCode.INVALID_MBR_HANDLE,
                             f"action profile {self.name}: no member {handle!r}")
        return mbr

    def _group(self, handle: Any) -> Group:
        grp = self._groups.get(handle) if isinstance(handle, int) else None
        if grp is None:
            raise TableError(TableErrorCode.INVALID_GRP_HANDLE,
                             f"action profile {self.name}: no group {handle!r}")
        return grp

    def add_member(self, action: str, args: list[int]) -> int:
        with self._lock:
            fn = self._fn(action)
            data = check_args(fn, args, f"action profile {self.name}")
            if len(self._members) >= self.max_size:
                raise TableError(TableErrorCode.TABLE_FULL,
                                 f"action profile {self.name} is full ({self.max_size})")
            handle = self._member_handles.get()
            self._members[handle] = Member(handle, fn, data)
            return handle

    def modify_member(self, handle: int, action: str, args: list[int]) -> None:
        with self._lock:
            mbr = self._member(handle)
            fn = self._fn(action)
            data = check_args(fn, args, f"action profile {self.name}")
            mbr.fn, mbr.args = fn, data

    def delete_member(self, handle: int) -> None:
        with self._lock:
            mbr = self._member(handle)
            in_groups = [g.handle for g in self._groups.values() if handle in g.weights]
            if mbr.refs or in_groups:
                raise TableError(TableErrorCode.MBR_STILL_USED,
                                 f"action profile {self.name}: member {handle} is still used")
            del self._members[handle]
            self._member_handles.release(handle)

    def members(self) -> list[MemberView]:
        with self._lock:
            return [MemberView(m.handle, m.fn.name, list(m.args))
                    for m in self._members.values()]

    def get_member(self, handle: int) -> MemberView:
        with self._lock:
            m = self._member(handle)
            return MemberView(m.handle, m.fn.name, list(m.args))

    # --- groups ----------------------------------------------------------------
    def _check_selector(self) -> None:
        if not self.has_selector:
            raise TableError(TableErrorCode.NO_ACTION_PROFILE_SELECTION,
                             f"action profile {self.name} has no selector; groups not allowed")

    def create_group(self) -> int:
        with self._lock:
            self._check_selector()
            if len(self._groups) >= self.max_size:
                raise TableError(TableErrorCode.TABLE_FULL,
                                 f"action profile {self.name}: too many groups")
            handle = self._group_handles.get()
            self._groups[handle] = Group(handle)
            return handle

    def delete_group(self, handle: int) -> None:
        with self._lock:
            grp = self._group(handle)
            if grp.refs:
                raise TableError(TableErrorCode.GRP_STILL_USED,
                                 f"action profile {self.name}: group {handle} is still used")
            del self._groups[handle]
            self._group_handles.release(handle)

    def set_group_members(self, handle: int, weights: dict[int, int]) -> None:
        """Replace a group's membership: {member handle: weight >= 1}."""
        with self._lock:
            grp = self._group(handle)
            for mbr, weight in weights.items():
                self._member(mbr)
                if not isinstance(weight, int) or weight < 1:
                    raise TableError(TableErrorCode.ERROR,
                                     f"action profile {self.name}: weight {weight!r} of member "
                                     f"{mbr} must be a positive int")
            grp.weights = dict(weights)
            slots: list[Member] = []
            for mbr in sorted(weights):
                slots.extend([self._members[mbr]] * weights[mbr])
            grp.slots = tuple(slots)

    def add_member_to_group(self, handle: int, member: int, weight: int = 1) -> None:
        with self._lock:
            grp = self._group(handle)
            if member in grp.weights:
                raise TableError(TableErrorCode.MBR_ALREADY_IN_GRP,
                                 f"member {member} already in group {handle}")
            self.set_group_members(handle, {**grp.weights, member: weight})

    def remove_member_from_group(self, handle: int, member: int) -> None:
        with self._lock:
            grp = self._group(handle)
            if member not in grp.weights:
                raise TableError(TableErrorCode.MBR_NOT_IN_GRP,
                                 f"member {member} not in group {handle}")
            self.set_group_members(handle, {m: w for m, w in grp.weights.items() if m != member})

    def groups(self) -> list[GroupView]:
        with self._lock:
            return [GroupView(g.handle, dict(g.weights)) for g in self._groups.values()]

    def get_group(self, handle: int) -> GroupView:
        with self._lock:
            g = self._group(handle)
            return GroupView(g.handle, dict(g.weights))

    # --- used by tables --------------------------------------------------------
    def check_target(self, member: int | None, group: int | None) -> None:
        if (member is None) == (group is None):
            raise TableError(TableErrorCode.ERROR, "give exactly one of member or group")
        if member is not None:
            self._member(member)
        else:
            self._check_selector()
            self._group(group)

    def ref(self, member: int | None, group: int | None, delta: int) -> None:
        if member is not None and member in self._members:
            self._members[member].refs += delta
        if group is not None and group in self._groups:
            self._groups[group].refs += delta

    def resolve(self, p: Any, member: int | None, group: int | None) -> Member | None:
        """Per packet: the member an entry points to, or the one the selector picks."""
        if member is not None:
            return self._members.get(member)
        grp = self._groups.get(group) if group is not None else None
        if grp is None or not grp.slots:
            return None
        slots = grp.slots
        selector = self.selector
        assert selector is not None  # groups exist only with a selector (_check_selector)
        return slots[selector(p) % len(slots)]
