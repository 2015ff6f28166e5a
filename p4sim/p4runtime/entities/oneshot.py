"""One-shot action selector programming: a table entry that carries its own weighted
action set.  The server realises it as members and a group of its own in the
selector, invisible to member/group reads, created before the entry points at them
and removed after it no longer does (spec section "One Shot Action Selector
Programming")."""
from __future__ import annotations

from dataclasses import dataclass

from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import translate
from p4sim.p4runtime.errors import Code, P4RuntimeError, invalid
from p4sim.p4runtime.p4info_index import TableInfo


@dataclass
class OneShot:
    """The hidden group and members behind one entry, and the set as written."""
    group: int
    members: list[int]
    action_set: p4runtime_pb2.ActionProfileActionSet


def check_action_set(index, info: TableInfo,
                     action_set: p4runtime_pb2.ActionProfileActionSet) -> list:
    """[(action name, args, weight)] of a valid action set (nothing is created)."""
    if not action_set.action_profile_actions:
        raise invalid(f"the one-shot action set for '{info.name}' is empty")
    decoded = []
    for item in action_set.action_profile_actions:
        if item.weight <= 0:
            raise invalid(f"one-shot action weights must be > 0 (got {item.weight})")
        if item.WhichOneof("watch_kind"):
            raise P4RuntimeError(Code.UNIMPLEMENTED, "watch ports are not supported")
        action, args = translate.decode_action(index, item.action, info.action_ids,
                                               f"table '{info.name}'")
        decoded.append((action.name, args, item.weight))
    return decoded


def create(profile, decoded: list, action_set) -> OneShot:
    """Members and a group in the switch's selector for a checked action set."""
    members: list[int] = []
    group = None
    try:
        # A weight w is w switch members, in action order, as BMv2's server does it
        # (the selector then sees the same slots on both targets).
        for name, args, weight in decoded:
            for _ in range(weight):
                members.append(profile.add_member(name, args))
        group = profile.create_group()
        profile.set_group_members(group, {handle: 1 for handle in members})
    except Exception:
        if group is not None:
            profile.delete_group(group)
        for handle in members:
            profile.delete_member(handle)
        raise
    copy = p4runtime_pb2.ActionProfileActionSet()
    copy.CopyFrom(action_set)
    return OneShot(group, members, copy)


def release(profile, oneshot: OneShot) -> None:
    """Remove the group and members once no entry points at them."""
    profile.delete_group(oneshot.group)
    for handle in oneshot.members:
        profile.delete_member(handle)
