"""TableEntry writes and reads (spec sections "TableEntry", "Default Entry",
"Constant Tables", "Direct Resources", "Wildcard Reads")."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import translate, wire
from p4sim.p4runtime.entities import oneshot
from p4sim.p4runtime.entities.insert_plan import InsertPlan
from p4sim.p4runtime.entities.indexed_externs import check_counter_data, counter_data
from p4sim.p4runtime.entities.meter_codec import config_from_msg, config_to_msg
from p4sim.p4runtime.errors import Code, P4RuntimeError, invalid, not_found
from p4sim.p4runtime.p4info_index import TableInfo
from p4sim.p4runtime.pipeline_state import EntryExtras, PipelineState
from p4sim.switch.runtime_api import EntryView

if TYPE_CHECKING:
    from p4sim.switch.tables import TableRuntime

Update = p4runtime_pb2.Update
Scope = p4info_pb2.ActionRef.Scope
# Plain ints for the per-entry path (protobuf enum attributes go through __getattr__).
INSERT, MODIFY, DELETE = (Update.Type.Value(n) for n in ("INSERT", "MODIFY", "DELETE"))
TABLE_AND_DEFAULT, TABLE_ONLY, DEFAULT_ONLY = (
    Scope.Value(n) for n in ("TABLE_AND_DEFAULT", "TABLE_ONLY", "DEFAULT_ONLY"))


def _denied(message: str) -> P4RuntimeError:
    return P4RuntimeError(Code.PERMISSION_DENIED, message)


class TableEntries:
    """Translate TableEntry updates into calls on the switch's TableRuntime."""

    def __init__(self, state: PipelineState):
        self.state = state
        # table id -> its InsertPlan (None: the table takes the checked path only)
        self._plans: dict[int, InsertPlan | None] = {}

    # -- helpers -----------------------------------------------------------------------
    def _table(self, table_id: int) -> tuple[TableInfo, TableRuntime]:
        info = self.state.index.table(table_id)
        try:
            return info, self.state.runtime.tables[info.name]
        except KeyError:
            raise P4RuntimeError(Code.INTERNAL, f"table '{info.name}' is in the P4Info "
                                                "but not in the device config") from None

    @staticmethod
    def _scope(info: TableInfo, action_id: int) -> int:
        return info.scopes.get(action_id, TABLE_AND_DEFAULT)

    def _profile_runtime(self, info: TableInfo):
        return self.state.runtime.action_profiles[self._profile_name(info)]

    def _profile_name(self, info: TableInfo) -> str:
        if not info.implementation_id:
            return ""
        return self.state.index.action_profiles[info.implementation_id].preamble.name

    # -- writes ------------------------------------------------------------------------
    def write(self, kind: int, entry: p4runtime_pb2.TableEntry) -> None:
        if kind == INSERT and entry.__class__ is wire.TableEntryView \
                and self._insert_planned(entry):
            return
        info, table = self._table(entry.table_id)
        if entry.is_const:
            raise invalid("is_const must be false in a write")
        if entry.HasField("time_since_last_hit"):
            raise invalid("time_since_last_hit must be unset in a write")
        if entry.idle_timeout_ns and (not info.supports_timeout or entry.is_default_action):
            raise invalid(f"table '{info.name}' entry cannot have an idle timeout")
        if entry.is_default_action:
            self._write_default(kind, info, table, entry)
            return
        if kind != DELETE:
            self._check_direct_resources(info, entry)
        translate.check_priority(info, entry.priority)
        if not info.fields:
            raise invalid(f"table '{info.name}' has no key: only its default entry "
                          "can be written")
        keys = translate.decode_match_key(info, table.key_spec, entry.match)
        priority = translate.to_switch_priority(entry.priority)
        if info.is_const and (kind != MODIFY or entry.HasField("action")):
            raise _denied(f"table '{info.name}' is const: its entries cannot be "
                          "inserted, deleted or given another action")
        spec = table.match_spec(keys, priority)
        handle = table.find_entry(keys, priority, spec=spec)
        if kind == INSERT:
            if handle is not None:
                raise P4RuntimeError(Code.ALREADY_EXISTS,
                                     f"table '{info.name}' already has this entry")
            self._insert(info, table, entry, keys, priority, spec)
        elif handle is None:
            raise not_found(f"table '{info.name}' has no such entry")
        elif kind == MODIFY:
            self._modify(info, table, entry, handle)
        elif kind == DELETE:
            table.delete_entry(handle)
            self.state.entry_extras.pop((info.name, handle), None)
            made = self.state.oneshots.pop((info.name, handle), None)
            if made is not None:
                oneshot.release(self._profile_runtime(info), made)
        else:
            raise invalid(f"unknown update type {kind}")

    def _insert_planned(self, entry: wire.TableEntryView) -> bool:
        """True when the table's InsertPlan took the entry; False leaves everything as
        it was, for the checked path (which reports what is wrong, if anything)."""
        table_id = entry.table_id
        try:
            plan = self._plans[table_id]
        except KeyError:
            info = self.state.index.tables.get(table_id)
            if info is None:
                return False        # not cached: request-chosen ids must not grow it
            table = self.state.runtime.tables.get(info.name)
            plan = None if table is None else InsertPlan.build(self.state.index, info, table)
            self._plans[table_id] = plan
        if plan is None:
            return False
        handle = plan.insert(entry)
        if handle is None:
            return False
        self._store_extras(plan.info, handle, entry)
        return True

    def _check_direct_resources(self, info: TableInfo,
                                entry: p4runtime_pb2.TableEntry) -> None:
        if entry.HasField("counter_data") and not info.direct_counter_id:
            raise invalid(f"table '{info.name}' has no direct counter")
        if entry.HasField("counter_data"):
            check_counter_data(entry.counter_data, f"direct counter of '{info.name}'")
        if (entry.HasField("meter_config") or entry.HasField("meter_counter_data")) \
                and not info.direct_meter_id:
            raise invalid(f"table '{info.name}' has no direct meter")
        if entry.HasField("meter_counter_data"):
            data = entry.meter_counter_data
            for color in (data.green, data.yellow, data.red):
                if color.byte_count or color.packet_count:
                    raise invalid("meter_counter_data can only be reset to zero")

    def _decode_action(self, info: TableInfo, entry: p4runtime_pb2.TableEntry):
        """What the entry's action means for the switch: ('direct', name, args),
        ('member' | 'group', switch handle) or ('oneshot', checked actions, set)."""
        which = entry.action.WhichOneof("type")
        profile = self._profile_name(info)
        if which == "action":
            if profile:
                raise invalid(f"table '{info.name}' is indirect: give an action profile "
                              "member or group ID, not an action")
            action, args = translate.decode_action(self.state.index, entry.action.action,
                                                   info.action_ids, f"table '{info.name}'")
            if self._scope(info, action.id) == DEFAULT_ONLY:
                raise _denied(f"action '{action.name}' is @defaultonly in '{info.name}'")
            return ("direct", action.name, args)
        if which in ("action_profile_member_id", "action_profile_group_id"):
            if not profile:
                raise invalid(f"table '{info.name}' is direct: give an action, not an "
                              "action profile member or group")
            ids = self.state.profile_ids(profile)
            if which == "action_profile_member_id":
                member_id = entry.action.action_profile_member_id
                if member_id not in ids.members:
                    raise not_found(f"action profile '{profile}' has no member {member_id}")
                return ("member", ids.members[member_id])
            group_id = entry.action.action_profile_group_id
            selector = self.state.index.action_profiles[info.implementation_id]
            if not selector.with_selector:
                raise invalid(f"action profile '{profile}' has no selector: no groups")
            if group_id not in ids.groups:
                raise not_found(f"action profile '{profile}' has no group {group_id}")
            return ("group", ids.groups[group_id])
        if which == "action_profile_action_set":
            selector = self.state.index.action_profiles.get(info.implementation_id)
            if selector is None or not selector.with_selector:
                raise invalid(f"table '{info.name}' has no action selector: one-shot "
                              "action sets need one")
            action_set = entry.action.action_profile_action_set
            return ("oneshot", oneshot.check_action_set(self.state.index, info,
                                                        action_set), action_set)
        raise invalid(f"table '{info.name}' entry has no action")

    def _insert(self, info: TableInfo, table, entry: p4runtime_pb2.TableEntry,
                keys: list, priority: int, spec) -> None:
        if not entry.HasField("action"):
            raise invalid(f"an INSERT into '{info.name}' needs an action")
        decoded = self._decode_action(info, entry)
        meter = config_from_msg(entry.meter_config) if entry.HasField("meter_config") \
            else None
        if decoded[0] == "direct":
            handle = table.add_entry(keys, decoded[1], decoded[2], priority, spec=spec)
        elif decoded[0] == "member":
            handle = table.add_indirect_entry(keys, member=decoded[1], priority=priority,
                                              spec=spec)
        elif decoded[0] == "group":
            handle = table.add_indirect_entry(keys, group=decoded[1], priority=priority,
                                              spec=spec)
        else:
            profile = self._profile_runtime(info)
            made = oneshot.create(profile, decoded[1], decoded[2])
            try:
                handle = table.add_indirect_entry(keys, group=made.group,
                                                  priority=priority, spec=spec)
            except Exception:
                oneshot.release(profile, made)
                raise
            self.state.oneshots[(info.name, handle)] = made
        if entry.HasField("counter_data"):
            table.write_direct_counter(handle, entry.counter_data.byte_count,
                                       entry.counter_data.packet_count)
        if meter is not None:
            table.set_direct_meter_config(handle, meter)
        if entry.idle_timeout_ns:
            table.set_entry_ttl(handle, max(1, entry.idle_timeout_ns // 1_000_000))
        self._store_extras(info, handle, entry)

    def _store_extras(self, info: TableInfo, handle: int,
                      entry: p4runtime_pb2.TableEntry) -> None:
        """Keep the fields the switch does not store; none when all are unset (readers
        take a missing record as the defaults), so plain entries cost nothing here."""
        key = (info.name, handle)
        if entry.controller_metadata or entry.metadata or entry.idle_timeout_ns:
            self.state.entry_extras[key] = EntryExtras(
                entry.controller_metadata, entry.metadata, entry.idle_timeout_ns)
        else:
            self.state.entry_extras.pop(key, None)

    def _modify(self, info: TableInfo, table, entry: p4runtime_pb2.TableEntry,
                handle: int) -> None:
        view = table.get_entry(handle)
        if view.is_const and entry.HasField("action"):
            raise _denied(f"entry of '{info.name}' is const: its action cannot change")
        decoded = self._decode_action(info, entry) if entry.HasField("action") else None
        meter = config_from_msg(entry.meter_config) if entry.HasField("meter_config") \
            else None
        if decoded is not None:
            previous = self.state.oneshots.get((info.name, handle))
            if decoded[0] == "direct":
                table.modify_entry(handle, decoded[1], decoded[2])
            elif decoded[0] == "member":
                table.modify_indirect_entry(handle, member=decoded[1])
            elif decoded[0] == "group":
                table.modify_indirect_entry(handle, group=decoded[1])
            else:
                profile = self._profile_runtime(info)
                made = oneshot.create(profile, decoded[1], decoded[2])
                try:
                    table.modify_indirect_entry(handle, group=made.group)
                except Exception:
                    oneshot.release(profile, made)
                    raise
                self.state.oneshots[(info.name, handle)] = made
            if previous is not None:
                if decoded[0] != "oneshot":
                    del self.state.oneshots[(info.name, handle)]
                oneshot.release(self._profile_runtime(info), previous)
        if entry.HasField("counter_data"):
            table.write_direct_counter(handle, entry.counter_data.byte_count,
                                       entry.counter_data.packet_count)
        if info.direct_meter_id:
            table.set_direct_meter_config(handle, meter)
        if info.supports_timeout:
            table.set_entry_ttl(handle, max(1, entry.idle_timeout_ns // 1_000_000)
                                if entry.idle_timeout_ns else None)
        if not view.is_const:
            self._store_extras(info, handle, entry)

    def _write_default(self, kind: int, info: TableInfo, table,
                       entry: p4runtime_pb2.TableEntry) -> None:
        if kind != MODIFY:
            raise invalid("the default entry can only be modified (INSERT and DELETE "
                          "are not allowed)")
        if entry.match or entry.priority:
            raise invalid("the default entry has no match fields and priority 0")
        if info.proto.const_default_action_id:
            raise _denied(f"the default action of '{info.name}' is const")
        if info.implementation_id:
            raise _denied(f"the default action of indirect table '{info.name}' is a "
                          "constant NoAction")
        self._check_direct_resources(info, entry)
        if not entry.HasField("action"):
            table.reset_default_action()
            return
        if entry.action.WhichOneof("type") != "action":
            raise invalid(f"the default entry of '{info.name}' needs an action")
        action, args = translate.decode_action(self.state.index, entry.action.action,
                                               info.action_ids, f"table '{info.name}'")
        if self._scope(info, action.id) == TABLE_ONLY:
            raise _denied(f"action '{action.name}' is @tableonly in '{info.name}'")
        table.set_default_action(action.name, args)

    def locate(self, entry: p4runtime_pb2.TableEntry) -> tuple[TableInfo, TableRuntime, int]:
        """(table info, table runtime, handle) of the entry a direct resource names."""
        info, table = self._table(entry.table_id)
        if entry.is_default_action:
            raise P4RuntimeError(Code.UNIMPLEMENTED,
                                 "direct resources of default entries are not supported")
        translate.check_priority(info, entry.priority)
        keys = translate.decode_match_key(info, table.key_spec, entry.match)
        handle = table.find_entry(keys, translate.to_switch_priority(entry.priority))
        if handle is None:
            raise not_found(f"table '{info.name}' has no such entry")
        return info, table, handle

    def views(self, query: p4runtime_pb2.TableEntry
              ) -> Iterator[tuple[TableInfo, TableRuntime, int, p4runtime_pb2.TableEntry]]:
        """(info, table, entry message) of every entry a direct-resource read selects."""
        table_ids = [query.table_id] if query.table_id else list(self.state.index.tables)
        for table_id in table_ids:
            info, table = self._table(table_id)
            if query.table_id and query.match:
                _, _, handle = self.locate(query)
                views = [table.get_entry(handle)]
            else:
                views = table.entries()
            ranks = self._const_ranks(views)
            empty = p4runtime_pb2.TableEntry()
            for view in views:
                yield info, table, view.handle, self._entry_msg(info, table, view, empty,
                                                                ranks)

    # -- reads -------------------------------------------------------------------------
    def read(self, query: p4runtime_pb2.TableEntry) -> Iterator[bytes]:
        """Serialized TableEntries a (wildcard) query selects.  Plain entries are
        encoded by `wire` directly: the pure-Python protobuf runtime would spend most
        of a large read building and serialising messages."""
        if query.table_id == 0:
            for info in self.state.index.tables.values():
                table = self.state.runtime.tables.get(info.name)
                if table is not None:
                    yield from self._read_entries(info, table, query, filtered=False)
            return
        info, table = self._table(query.table_id)
        if query.is_default_action:
            yield self._default_entry(info, table, query).SerializeToString()
            return
        yield from self._read_entries(info, table, query, filtered=True)

    def _read_entries(self, info: TableInfo, table, query, filtered: bool):
        if filtered and query.match:
            translate.check_priority(info, query.priority)
            keys = translate.decode_match_key(info, table.key_spec, query.match)
            handle = table.find_entry(keys, translate.to_switch_priority(query.priority))
            views = [] if handle is None else [table.get_entry(handle)]
        else:
            views = table.entries()
        const_ranks = self._const_ranks(views)
        has_filter = filtered and bool(query.priority or query.controller_metadata
                                       or query.metadata or query.HasField("action"))
        plain = not (has_filter or query.HasField("counter_data")
                     or query.HasField("meter_config")
                     or query.HasField("time_since_last_hit"))
        for view in views:
            if plain and (info.name, view.handle) not in self.state.oneshots:
                yield self._entry_bytes(info, view, const_ranks)
                continue
            entry = self._entry_msg(info, table, view, query, const_ranks)
            if has_filter and not self._passes_filter(entry, query):
                continue
            yield entry.SerializeToString()

    def _entry_bytes(self, info: TableInfo, view: EntryView,
                     const_ranks: dict[int, int]) -> bytes:
        if view.handle in const_ranks:
            priority = const_ranks[view.handle]
        else:
            priority = translate.from_switch_priority(view.priority)
        action, member_id, group_id = None, 0, 0
        if view.action is not None:
            action = translate.encode_action_bytes(self.state.index, view.action, view.args)
        else:
            ids = self.state.profile_ids(self._profile_name(info))
            if view.member is not None:
                member_id = ids.member_ids.get(view.member, 0)
            elif view.group is not None:
                group_id = ids.group_ids.get(view.group, 0)
        extras = self.state.entry_extras.get((info.name, view.handle)) or EntryExtras()
        return wire.encode_table_entry(
            info.id, translate.encode_match_key_bytes(info, view.keys), action,
            member_id=member_id, group_id=group_id, priority=priority,
            controller_metadata=extras.controller_metadata, metadata=extras.metadata,
            is_const=view.is_const, idle_timeout_ns=extras.idle_timeout_ns)

    @staticmethod
    def _const_ranks(views: list[EntryView]) -> dict[int, int]:
        """Const entries read back with priorities 1..n, the first declared highest."""
        consts = sorted((v for v in views if v.is_const and v.priority),
                        key=lambda v: v.priority, reverse=True)
        return {v.handle: rank for rank, v in enumerate(consts, start=1)}

    @staticmethod
    def _passes_filter(entry: p4runtime_pb2.TableEntry, query) -> bool:
        if query.priority and entry.priority != query.priority:
            return False
        if query.controller_metadata and \
                entry.controller_metadata != query.controller_metadata:
            return False
        if query.metadata and entry.metadata != query.metadata:
            return False
        if query.HasField("action") and query.action.WhichOneof("type") == "action":
            if entry.action.action.action_id != query.action.action.action_id:
                return False
        return True

    def _entry_msg(self, info: TableInfo, table, view: EntryView, query,
                   const_ranks: dict[int, int]) -> p4runtime_pb2.TableEntry:
        entry = p4runtime_pb2.TableEntry(table_id=info.id)
        if view.is_const:
            entry.is_const = True
        translate.encode_match_key(info, view.keys, entry.match)
        if view.handle in const_ranks:
            entry.priority = const_ranks[view.handle]
        else:
            entry.priority = translate.from_switch_priority(view.priority)
        if view.action is not None:
            translate.encode_action(self.state.index, view.action, view.args,
                                    entry.action.action)
        elif (info.name, view.handle) in self.state.oneshots:
            entry.action.action_profile_action_set.CopyFrom(
                self.state.oneshots[(info.name, view.handle)].action_set)
        else:
            ids = self.state.profile_ids(self._profile_name(info))
            if view.member is not None:
                entry.action.action_profile_member_id = ids.member_ids.get(view.member, 0)
            elif view.group is not None:
                entry.action.action_profile_group_id = ids.group_ids.get(view.group, 0)
        extras = self.state.entry_extras.get((info.name, view.handle))
        if extras is not None:
            if extras.controller_metadata:
                entry.controller_metadata = extras.controller_metadata
            if extras.metadata:
                entry.metadata = extras.metadata
            if extras.idle_timeout_ns:
                entry.idle_timeout_ns = extras.idle_timeout_ns
        self._add_direct_resources(info, table, view.handle, query, entry)
        return entry

    def _add_direct_resources(self, info: TableInfo, table, handle: int, query,
                              entry) -> None:
        if query.HasField("counter_data") and info.direct_counter_id:
            byte_count, packet_count = table.read_direct_counter(handle)
            unit = self.state.index.direct_counters[info.direct_counter_id].spec.unit
            entry.counter_data.SetInParent()    # set, even when both counts are 0
            counter_data(unit, byte_count, packet_count, entry.counter_data)
        if query.HasField("meter_config") and info.direct_meter_id:
            config = table.get_direct_meter_config(handle)
            if config is not None:
                entry.meter_config.CopyFrom(config_to_msg(config))
        if query.HasField("time_since_last_hit") and table.support_timeout:
            entry.time_since_last_hit.elapsed_ns = table.time_since_hit_ms(handle) * 1_000_000

    def _default_entry(self, info: TableInfo, table, query) -> p4runtime_pb2.TableEntry:
        entry = p4runtime_pb2.TableEntry(table_id=info.id, is_default_action=True)
        action, args = table.get_default_action()
        if action is not None and action in self.state.index.action_ids_by_name:
            translate.encode_action(self.state.index, action, args, entry.action.action)
        return entry
