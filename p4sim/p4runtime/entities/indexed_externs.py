"""Counters, meters and registers: arrays of cells addressed by an index.

Only MODIFY writes exist for them (the cells always exist); an unset index in a read
means every cell, and in a write every cell too.  A negative index is INVALID_ARGUMENT,
one beyond the array size OUT_OF_RANGE (P4Runtime 1.4, RegisterEntry).
"""
from __future__ import annotations

from typing import Iterator

from p4.config.v1 import p4info_pb2
from p4.v1 import p4data_pb2, p4runtime_pb2

from p4sim.p4runtime import codec
from p4sim.p4runtime.entities.meter_codec import config_from_msg, config_to_msg
from p4sim.p4runtime.errors import Code, P4RuntimeError, from_codec_error, invalid

Update = p4runtime_pb2.Update
CounterUnit = p4info_pb2.CounterSpec.Unit


def require_modify(kind: int, what: str) -> None:
    if kind != Update.MODIFY:
        raise invalid(f"{what} cells always exist: only MODIFY is allowed")


def _indices(msg, size: int, name: str) -> range | list[int]:
    if not msg.HasField("index"):
        return range(size)
    index = msg.index.index
    if index < 0:
        raise invalid(f"index {index} of '{name}' is negative")
    if index >= size:
        raise P4RuntimeError(Code.OUT_OF_RANGE,
                             f"index {index} is outside '{name}' (size {size})")
    return [index]


def counter_data(unit: int, byte_count: int, packet_count: int,
                 out: p4runtime_pb2.CounterData) -> None:
    """Fill CounterData with the parts the counter's unit counts."""
    if unit in (CounterUnit.BYTES, CounterUnit.BOTH, CounterUnit.UNSPECIFIED):
        out.byte_count = byte_count
    if unit in (CounterUnit.PACKETS, CounterUnit.BOTH, CounterUnit.UNSPECIFIED):
        out.packet_count = packet_count


def check_counter_data(data: p4runtime_pb2.CounterData, what: str) -> None:
    """Counts are int64 on the wire but never negative (INVALID_ARGUMENT)."""
    if data.byte_count < 0 or data.packet_count < 0:
        raise invalid(f"{what}: counts must not be negative ({data.byte_count} bytes, "
                      f"{data.packet_count} packets)")


class IndexedExterns:
    def __init__(self, state):
        self.state = state

    def _runtime(self, collection: str, name: str):
        try:
            return getattr(self.state.runtime, collection)[name]
        except KeyError:
            raise P4RuntimeError(Code.INTERNAL,
                                 f"'{name}' is in the P4Info but not in the device "
                                 "config") from None

    def _ids(self, kind: str, object_id: int) -> list[int]:
        if object_id:
            self.state.index.lookup(kind, object_id)
            return [object_id]
        return list(getattr(self.state.index, kind))

    # -- counters ----------------------------------------------------------------------
    def write_counter(self, kind: int, msg: p4runtime_pb2.CounterEntry) -> None:
        require_modify(kind, "counter")
        info = self.state.index.lookup("counters", msg.counter_id)
        name = info.preamble.name
        runtime = self._runtime("counters", name)
        check_counter_data(msg.data, f"counter '{name}'")
        for i in _indices(msg, info.size, name):
            runtime.write(i, msg.data.byte_count, msg.data.packet_count)

    def read_counters(self, query: p4runtime_pb2.CounterEntry
                      ) -> Iterator[p4runtime_pb2.CounterEntry]:
        for counter_id in self._ids("counters", query.counter_id):
            info = self.state.index.counters[counter_id]
            runtime = self._runtime("counters", info.preamble.name)
            for i in _indices(query, info.size, info.preamble.name):
                byte_count, packet_count = runtime.read(i)
                entry = p4runtime_pb2.CounterEntry(counter_id=counter_id)
                entry.index.index = i
                counter_data(info.spec.unit, byte_count, packet_count, entry.data)
                yield entry

    # -- meters ------------------------------------------------------------------------
    def write_meter(self, kind: int, msg: p4runtime_pb2.MeterEntry) -> None:
        require_modify(kind, "meter")
        info = self.state.index.lookup("meters", msg.meter_id)
        name = info.preamble.name
        runtime = self._runtime("meters", name)
        config = config_from_msg(msg.config) if msg.HasField("config") else None
        for i in _indices(msg, info.size, name):
            runtime.set_config(i, config)

    def read_meters(self, query: p4runtime_pb2.MeterEntry
                    ) -> Iterator[p4runtime_pb2.MeterEntry]:
        for meter_id in self._ids("meters", query.meter_id):
            info = self.state.index.meters[meter_id]
            runtime = self._runtime("meters", info.preamble.name)
            for i in _indices(query, info.size, info.preamble.name):
                entry = p4runtime_pb2.MeterEntry(meter_id=meter_id)
                entry.index.index = i
                config = runtime.get_config(i)
                if config is not None:
                    entry.config.CopyFrom(config_to_msg(config))
                yield entry

    # -- registers ---------------------------------------------------------------------
    @staticmethod
    def _register_width(info: p4info_pb2.Register) -> int:
        spec = info.type_spec
        if spec.WhichOneof("type_spec") != "bitstring":
            raise P4RuntimeError(Code.UNIMPLEMENTED,
                                 f"register '{info.preamble.name}' holds a non-bitstring type")
        bits = spec.bitstring
        kind = bits.WhichOneof("type_spec")
        return getattr(bits, kind).bitwidth

    def write_register(self, kind: int, msg: p4runtime_pb2.RegisterEntry) -> None:
        require_modify(kind, "register")
        info = self.state.index.lookup("registers", msg.register_id)
        name = info.preamble.name
        runtime = self._runtime("registers", name)
        if msg.data.WhichOneof("data") != "bitstring":
            raise invalid(f"register '{name}' data must be a bitstring")
        try:
            value = codec.decode_int(msg.data.bitstring, self._register_width(info),
                                     f"register '{name}' value")
        except codec.CodecError as exc:
            raise from_codec_error(exc) from None
        for i in _indices(msg, info.size, name):
            runtime.write(i, value)

    def read_registers(self, query: p4runtime_pb2.RegisterEntry
                       ) -> Iterator[p4runtime_pb2.RegisterEntry]:
        for register_id in self._ids("registers", query.register_id):
            info = self.state.index.registers[register_id]
            runtime = self._runtime("registers", info.preamble.name)
            width = self._register_width(info)
            for i in _indices(query, info.size, info.preamble.name):
                entry = p4runtime_pb2.RegisterEntry(register_id=register_id)
                entry.index.index = i
                entry.data.CopyFrom(p4data_pb2.P4Data(
                    bitstring=codec.encode_int(runtime.read(i), width)))
                yield entry
