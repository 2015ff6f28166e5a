"""Route each Entity of a Write or Read to the module that handles its kind, and turn
every failure into a P4RuntimeError with the status code the spec prescribes."""
from __future__ import annotations

import logging
from typing import Callable

from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import codec, wire
from p4sim.p4runtime.entities.action_profiles import ActionProfiles
from p4sim.p4runtime.entities.digest_config import DigestConfigs
from p4sim.p4runtime.entities.direct_resources import DirectResources
from p4sim.p4runtime.entities.indexed_externs import IndexedExterns
from p4sim.p4runtime.entities.replication import Replication
from p4sim.p4runtime.entities.tables import TableEntries
from p4sim.p4runtime.entities.value_sets import ValueSets
from p4sim.p4runtime.errors import (Code, P4RuntimeError, from_codec_error,
                                    from_table_error, invalid)
from p4sim.p4runtime.pipeline_state import PipelineState
from p4sim.p4runtime.wire_views import UpdateView
from p4sim.switch.pre import PreError
from p4sim.switch.runtime_api import TableError

UNSPECIFIED = p4runtime_pb2.Update.Type.Value("UNSPECIFIED")
log = logging.getLogger(__name__)


def as_p4runtime_error(exc: Exception) -> P4RuntimeError:
    """The P4RuntimeError for any failure an entity handler may raise."""
    if isinstance(exc, P4RuntimeError):
        return exc
    if isinstance(exc, TableError):
        return from_table_error(exc)
    if isinstance(exc, codec.CodecError):
        return from_codec_error(exc)
    if isinstance(exc, PreError):
        return invalid(str(exc))
    raise exc


class EntityHandlers:
    """Per-pipeline dispatcher from Entity oneof names to handler methods."""

    def __init__(self, state: PipelineState, pre):
        self.tables = TableEntries(state)
        self.profiles = ActionProfiles(state)
        self.indexed = IndexedExterns(state)
        self.direct = DirectResources(self.tables)
        self.replication = Replication(state, pre)
        self.value_sets = ValueSets(state)
        self.digests = DigestConfigs(state)
        self._writers = {
            "table_entry": self.tables.write,
            "action_profile_member": self.profiles.write_member,
            "action_profile_group": self.profiles.write_group,
            "counter_entry": self.indexed.write_counter,
            "meter_entry": self.indexed.write_meter,
            "register_entry": self.indexed.write_register,
            "direct_counter_entry": self.direct.write_counter,
            "direct_meter_entry": self.direct.write_meter,
            "packet_replication_engine_entry": self.replication.write,
            "value_set_entry": self.value_sets.write,
            "digest_entry": self.digests.write,
        }
        self._readers = {
            "table_entry": self.tables.read,
            "action_profile_member": self.profiles.read_members,
            "action_profile_group": self.profiles.read_groups,
            "counter_entry": self.indexed.read_counters,
            "meter_entry": self.indexed.read_meters,
            "register_entry": self.indexed.read_registers,
            "direct_counter_entry": self.direct.read_counters,
            "direct_meter_entry": self.direct.read_meters,
            "packet_replication_engine_entry": self.replication.read,
            "value_set_entry": self.value_sets.read,
            "digest_entry": self.digests.read,
        }

    def write(self, update: p4runtime_pb2.Update) -> P4RuntimeError | None:
        """Apply one update; the error (or None) for the per-update status."""
        try:
            if update.type == UNSPECIFIED:
                raise invalid("update type is UNSPECIFIED")
            if update.__class__ is UpdateView:      # wire's table-entry view: no lookup
                self.tables.write(update.type, update.table_entry)
                return None
            which = update.entity.WhichOneof("entity")
            writer = self._writers.get(which)
            if writer is None:
                if which is None:
                    raise invalid("update has no entity")
                raise P4RuntimeError(Code.UNIMPLEMENTED, f"{which} is not supported")
            writer(update.type, getattr(update.entity, which))
            return None
        except (P4RuntimeError, TableError, codec.CodecError, PreError) as exc:
            return as_p4runtime_error(exc)
        except Exception as exc:  # noqa: BLE001 - a bug of ours fails this update only
            log.exception("update failed")
            return P4RuntimeError(Code.INTERNAL, f"{type(exc).__name__}: {exc}")

    def read(self, entity: p4runtime_pb2.Entity, emit: Callable[[bytes], None]) -> None:
        """Hand `emit` the serialized Entity of everything one (possibly wildcard)
        query selects."""
        which = entity.WhichOneof("entity")
        reader = self._readers.get(which)
        if reader is None:
            if which is None:
                raise invalid("read request entity is empty")
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"reading {which} is not supported")
        try:
            if which == "table_entry":
                for entry in self.tables.read(entity.table_entry):
                    emit(wire.entity_with_table_entry(entry))
                return
            for found in reader(getattr(entity, which)):
                out = p4runtime_pb2.Entity()
                getattr(out, which).CopyFrom(found)
                emit(out.SerializeToString())
        except (TableError, codec.CodecError, PreError) as exc:
            raise as_p4runtime_error(exc) from None
        except P4RuntimeError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bug of ours fails this read only
            log.exception("read failed")
            raise P4RuntimeError(Code.INTERNAL, f"{type(exc).__name__}: {exc}") from None
