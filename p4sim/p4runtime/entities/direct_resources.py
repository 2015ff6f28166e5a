"""DirectCounterEntry and DirectMeterEntry: per-table-entry cells named by a TableEntry."""
from __future__ import annotations

from typing import Iterator

from p4.v1 import p4runtime_pb2

from p4sim.p4runtime.entities.indexed_externs import (check_counter_data, counter_data,
                                                       require_modify)
from p4sim.p4runtime.entities.meter_codec import config_from_msg, config_to_msg
from p4sim.p4runtime.entities.tables import TableEntries
from p4sim.p4runtime.errors import invalid


class DirectResources:
    def __init__(self, tables: TableEntries):
        self.tables = tables
        self.index = tables.state.index

    # -- direct counters ---------------------------------------------------------------
    def write_counter(self, kind: int, msg: p4runtime_pb2.DirectCounterEntry) -> None:
        require_modify(kind, "direct counter")
        info, table, handle = self.tables.locate(msg.table_entry)
        if not info.direct_counter_id:
            raise invalid(f"table '{info.name}' has no direct counter")
        check_counter_data(msg.data, f"direct counter of '{info.name}'")
        table.write_direct_counter(handle, msg.data.byte_count, msg.data.packet_count)

    def read_counters(self, query: p4runtime_pb2.DirectCounterEntry
                      ) -> Iterator[p4runtime_pb2.DirectCounterEntry]:
        for info, table, handle, entry in self.tables.views(query.table_entry):
            if not info.direct_counter_id:
                if query.table_entry.table_id:
                    raise invalid(f"table '{info.name}' has no direct counter")
                continue
            byte_count, packet_count = table.read_direct_counter(handle)
            out = p4runtime_pb2.DirectCounterEntry(table_entry=entry)
            unit = self.index.direct_counters[info.direct_counter_id].spec.unit
            counter_data(unit, byte_count, packet_count, out.data)
            yield out

    # -- direct meters -----------------------------------------------------------------
    def write_meter(self, kind: int, msg: p4runtime_pb2.DirectMeterEntry) -> None:
        require_modify(kind, "direct meter")
        info, table, handle = self.tables.locate(msg.table_entry)
        if not info.direct_meter_id:
            raise invalid(f"table '{info.name}' has no direct meter")
        config = config_from_msg(msg.config) if msg.HasField("config") else None
        table.set_direct_meter_config(handle, config)

    def read_meters(self, query: p4runtime_pb2.DirectMeterEntry
                    ) -> Iterator[p4runtime_pb2.DirectMeterEntry]:
        for info, table, handle, entry in self.tables.views(query.table_entry):
            if not info.direct_meter_id:
                if query.table_entry.table_id:
                    raise invalid(f"table '{info.name}' has no direct meter")
                continue
            out = p4runtime_pb2.DirectMeterEntry(table_entry=entry)
            config = table.get_direct_meter_config(handle)
            if config is not None:
                out.config.CopyFrom(config_to_msg(config))
            yield out
