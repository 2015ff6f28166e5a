"""ActionProfileMember and ActionProfileGroup writes and reads.

P4Runtime members and groups carry controller-chosen IDs; the switch hands out its own
handles.  The ID maps live in PipelineState.profiles.

Weights are realised as BMv2's P4Runtime server (PI) realises them, so that the same
writes pick the same member for a packet on both: the switch's groups hold plain
members, and a member of weight w in some group is w switch members with the same
action (the first one made when the member was inserted, the others made in member-ID
order when a group first needs them, deleted again newest first once no group needs
them). The selector then takes hash % slots over the group's switch members in handle
order, so the copies sit after every member that existed before them.
"""
from __future__ import annotations

from typing import Iterator

from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import translate
from p4sim.p4runtime.errors import (Code, P4RuntimeError, from_table_error, invalid,
                                    not_found)
from p4sim.p4runtime.pipeline_state import PipelineState, ProfileIds
from p4sim.switch.runtime_api import TableError

Update = p4runtime_pb2.Update


class ActionProfiles:
    def __init__(self, state: PipelineState):
        self.state = state

    def _profile(self, profile_id: int):
        info = self.state.index.lookup("action_profiles", profile_id)
        try:
            runtime = self.state.runtime.action_profiles[info.preamble.name]
        except KeyError:
            raise P4RuntimeError(Code.INTERNAL, f"action profile '{info.preamble.name}' "
                                                "is not in the device config") from None
        return info, runtime, self.state.profile_ids(info.preamble.name)

    def _allowed_actions(self, info) -> set[int]:
        allowed: set[int] = set()
        for table_id in info.table_ids:
            table = self.state.index.tables.get(table_id)
            if table is not None:
                allowed |= table.action_ids
        return allowed

    # -- members -----------------------------------------------------------------------
    def write_member(self, kind: int, msg: p4runtime_pb2.ActionProfileMember) -> None:
        info, runtime, ids = self._profile(msg.action_profile_id)
        name = info.preamble.name
        handle = ids.members.get(msg.member_id)
        if kind == Update.DELETE:
            if handle is None:
                raise not_found(f"action profile '{name}' has no member {msg.member_id}")
            for each in (handle, *ids.member_copies.get(msg.member_id, ())):
                try:
                    runtime.delete_member(each)
                except TableError as exc:
                    raise from_table_error(exc, f"member {msg.member_id} of '{name}'") from None
                del ids.member_ids[each]
            del ids.members[msg.member_id]
            ids.member_copies.pop(msg.member_id, None)
            return
        if kind == Update.INSERT and handle is not None:
            raise P4RuntimeError(Code.ALREADY_EXISTS,
                                 f"action profile '{name}' already has member {msg.member_id}")
        if kind == Update.MODIFY and handle is None:
            raise not_found(f"action profile '{name}' has no member {msg.member_id}")
        if not msg.HasField("action"):
            raise invalid(f"member {msg.member_id} of '{name}' needs an action")
        action, args = translate.decode_action(
            self.state.index, msg.action, self._allowed_actions(info),
            f"the tables of action profile '{name}'")
        if kind == Update.INSERT:
            handle = runtime.add_member(action.name, args)
            ids.members[msg.member_id] = handle
            ids.member_ids[handle] = msg.member_id
        else:
            for each in (handle, *ids.member_copies.get(msg.member_id, ())):
                runtime.modify_member(each, action.name, args)

    def read_members(self, query: p4runtime_pb2.ActionProfileMember
                     ) -> Iterator[p4runtime_pb2.ActionProfileMember]:
        for profile_id in self._profile_ids(query.action_profile_id):
            info, runtime, ids = self._profile(profile_id)
            for view in runtime.members():
                member_id = ids.member_ids.get(view.handle)
                if member_id is None or (query.member_id and query.member_id != member_id):
                    continue
                if ids.members.get(member_id) != view.handle:
                    continue    # a copy made for a weight: not a member of its own
                msg = p4runtime_pb2.ActionProfileMember(action_profile_id=profile_id,
                                                        member_id=member_id)
                translate.encode_action(self.state.index, view.action, view.args,
                                        msg.action)
                yield msg
            if query.member_id and query.member_id not in ids.members:
                raise not_found(f"action profile '{info.preamble.name}' has no "
                                f"member {query.member_id}")

    def _profile_ids(self, profile_id: int) -> list[int]:
        if profile_id:
            return [profile_id]
        return list(self.state.index.action_profiles)

    # -- groups ------------------------------------------------------------------------
    def _group_members(self, info, ids: ProfileIds,
                       msg: p4runtime_pb2.ActionProfileGroup) -> dict[int, int]:
        """{member_id: weight} of a valid group write (nothing is changed)."""
        name = info.preamble.name
        members: dict[int, int] = {}
        for member in msg.members:
            if member.member_id not in ids.members:
                raise not_found(f"action profile '{name}' has no member {member.member_id}")
            if member.member_id in members:
                raise invalid(f"member {member.member_id} appears twice in group "
                              f"{msg.group_id}: give it a weight instead")
            if member.weight <= 0:
                raise invalid(f"member {member.member_id} of group {msg.group_id} needs "
                              f"a weight > 0 (got {member.weight})")
            if member.WhichOneof("watch_kind"):
                raise P4RuntimeError(Code.UNIMPLEMENTED, "member watch ports are not "
                                                         "supported")
            members[member.member_id] = member.weight
        max_size = (msg.max_size or ids.group_max_size.get(msg.group_id, 0)
                    or info.max_group_size)
        if info.max_group_size and msg.max_size > info.max_group_size:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED,
                                 f"group max_size {msg.max_size} exceeds the selector's "
                                 f"max_group_size {info.max_group_size}")
        total = sum(members.values())
        if max_size and total > max_size:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED,
                                 f"group {msg.group_id}: its member weights add up to "
                                 f"{total}, more than its max_size {max_size}")
        return members

    # -- weights as member copies --------------------------------------------------------
    @staticmethod
    def _handles(ids: ProfileIds, member_id: int) -> list[int]:
        """The switch members standing for ``member_id``, oldest first."""
        return [ids.members[member_id], *ids.member_copies.get(member_id, ())]

    def _slots(self, runtime, ids: ProfileIds, weights: dict[int, int]) -> dict[int, int]:
        """Switch membership {handle: 1} for {member_id: weight}, making the missing
        copies in member-ID order."""
        slots: dict[int, int] = {}
        for member_id in sorted(weights):
            handles = self._handles(ids, member_id)
            if len(handles) < weights[member_id]:
                view = runtime.get_member(handles[0])
                copies = ids.member_copies.setdefault(member_id, [])
                while len(handles) < weights[member_id]:
                    handle = runtime.add_member(view.action, view.args)
                    copies.append(handle)
                    ids.member_ids[handle] = member_id
                    handles.append(handle)
            slots.update({h: 1 for h in handles[:weights[member_id]]})
        return slots

    @staticmethod
    def _weights_in(runtime, ids: ProfileIds, group_handle: int) -> dict[int, int]:
        """{member_id: weight} of a switch group (its copies counted back)."""
        weights: dict[int, int] = {}
        for handle in runtime.get_group(group_handle).members:
            member_id = ids.member_ids.get(handle, 0)   # 0: added outside P4Runtime
            weights[member_id] = weights.get(member_id, 0) + 1
        return weights

    def _purge_copies(self, runtime, ids: ProfileIds, member_ids) -> None:
        """Delete, newest first, the copies of these members that no group needs."""
        for member_id in sorted(member_ids):
            copies = ids.member_copies.get(member_id)
            if not copies:
                continue
            needed = max([1, *(self._weights_in(runtime, ids, g).get(member_id, 0)
                               for g in ids.groups.values())])
            while len(copies) >= needed:
                handle = copies.pop()
                runtime.delete_member(handle)
                del ids.member_ids[handle]
            if not copies:
                del ids.member_copies[member_id]

    def write_group(self, kind: int, msg: p4runtime_pb2.ActionProfileGroup) -> None:
        info, runtime, ids = self._profile(msg.action_profile_id)
        name = info.preamble.name
        if not info.with_selector:
            raise invalid(f"action profile '{name}' has no selector: it has no groups")
        handle = ids.groups.get(msg.group_id)
        if kind == Update.DELETE:
            if handle is None:
                raise not_found(f"action profile '{name}' has no group {msg.group_id}")
            old = self._weights_in(runtime, ids, handle)
            try:
                runtime.delete_group(handle)
            except TableError as exc:
                raise from_table_error(exc, f"group {msg.group_id} of '{name}'") from None
            del ids.groups[msg.group_id]
            del ids.group_ids[handle]
            ids.group_max_size.pop(msg.group_id, None)
            self._purge_copies(runtime, ids, old)
            return
        if kind == Update.INSERT and handle is not None:
            raise P4RuntimeError(Code.ALREADY_EXISTS,
                                 f"action profile '{name}' already has group {msg.group_id}")
        if kind == Update.MODIFY and handle is None:
            raise not_found(f"action profile '{name}' has no group {msg.group_id}")
        weights = self._group_members(info, ids, msg)
        if kind == Update.INSERT:
            handle = runtime.create_group()
            try:
                runtime.set_group_members(handle, self._slots(runtime, ids, weights))
            except Exception:
                runtime.delete_group(handle)
                self._purge_copies(runtime, ids, weights)
                raise
            ids.groups[msg.group_id] = handle
            ids.group_ids[handle] = msg.group_id
            if msg.max_size:
                ids.group_max_size[msg.group_id] = msg.max_size
        else:
            old = self._weights_in(runtime, ids, handle)
            try:
                runtime.set_group_members(handle, self._slots(runtime, ids, weights))
            finally:
                self._purge_copies(runtime, ids, {*old, *weights})

    def read_groups(self, query: p4runtime_pb2.ActionProfileGroup
                    ) -> Iterator[p4runtime_pb2.ActionProfileGroup]:
        for profile_id in self._profile_ids(query.action_profile_id):
            info, runtime, ids = self._profile(profile_id)
            if not info.with_selector:
                continue
            for view in runtime.groups():
                group_id = ids.group_ids.get(view.handle)
                if group_id is None or (query.group_id and query.group_id != group_id):
                    continue
                msg = p4runtime_pb2.ActionProfileGroup(
                    action_profile_id=profile_id, group_id=group_id,
                    max_size=ids.group_max_size.get(group_id, 0))
                for member_id, weight in sorted(self._weights_in(runtime, ids,
                                                                 view.handle).items()):
                    msg.members.add(member_id=member_id, weight=weight)
                yield msg
            if query.group_id and query.group_id not in ids.groups:
                raise not_found(f"action profile '{info.preamble.name}' has no "
                                f"group {query.group_id}")
