"""Counters, direct counters, meters, direct meters and registers (spec sections
"CounterEntry", "DirectCounterEntry", "MeterEntry", "DirectMeterEntry", "Register
Entry"), counted by real frames through the veths."""
import time

import grpc
import pytest
from p4.v1 import p4runtime_pb2

from entries import action, entry, exact, lpm, optional
from frames import ethernet, ipv4
from spec_client import read_or_unimplemented, rpc_code, update, write_codes

OUT_OF_RANGE = grpc.StatusCode.OUT_OF_RANGE.value[0]
UNIMPLEMENTED = grpc.StatusCode.UNIMPLEMENTED.value[0]


def wait_for(read, predicate, timeout: float = 10.0):
    """Poll a read until predicate(result) holds (counters update after the frame left)."""
    deadline = time.monotonic() + timeout
    while True:
        result = read()
        if predicate(result) or time.monotonic() > deadline:
            return result
        time.sleep(0.05)   # polling a condition, with a deadline




def counter_query(program, index=None):
    entity = p4runtime_pb2.Entity()
    entity.counter_entry.counter_id = program.id_of("port_counter")
    if index is not None:
        entity.counter_entry.index.index = index
    return entity


def test_indirect_counter_register_and_meter_count_a_frame(client, program, wire):
    marker = entry(program, "t_optional", {"hdr.ipv4.protocol": optional(b"\x06"),
                                           "hdr.ipv4.diffserv": exact(b"\x00")},
                   action(program, "count_and_mark", b"\x07"), priority=1)
    client.write(update("INSERT", table_entry=marker))
    frame = ipv4(bytes([10, 1, 1, 1]))
    wire.send(1, frame)
    [cell] = wait_for(lambda: client.read(counter_query(program, 1)),
                      lambda r: r and r[0].counter_entry.data.packet_count == 1)
    assert cell.counter_entry.data.packet_count == 1
    assert cell.counter_entry.data.byte_count >= len(frame) - 4
    assert len(client.read(counter_query(program))) == 64     # wildcard: every cell
    register = p4runtime_pb2.Entity()
    register.register_entry.register_id = program.id_of("scratch")
    register.register_entry.index.index = 1
    cells = read_or_unimplemented(client, register)
    if cells is not None:
        assert int.from_bytes(cells[0].register_entry.data.bitstring, "big") == 7


def test_counter_write_and_out_of_range_index(client, program):
    cell = p4runtime_pb2.CounterEntry(counter_id=program.id_of("port_counter"))
    cell.index.index = 3
    cell.data.packet_count, cell.data.byte_count = 5, 500
    client.write(update("MODIFY", counter_entry=cell))
    [got] = client.read(counter_query(program, 3))
    assert (got.counter_entry.data.packet_count, got.counter_entry.data.byte_count) == (5, 500)
    beyond = p4runtime_pb2.CounterEntry(counter_id=program.id_of("port_counter"))
    beyond.index.index = 64
    assert write_codes(client, update("MODIFY", counter_entry=beyond)) == [OUT_OF_RANGE]
    assert rpc_code(lambda: client.read(counter_query(program, 64))) == \
        grpc.StatusCode.OUT_OF_RANGE


def test_register_write_reads_back_or_is_unimplemented(client, program):
    """PI's P4Runtime server (BMv2) answers RegisterEntry writes and reads with
    UNIMPLEMENTED ("Register writes/reads are not supported yet" in
    proto/frontend/src/device_mgr.cpp); a target that accepts them must read back."""
    cell = p4runtime_pb2.RegisterEntry(register_id=program.id_of("scratch"))
    cell.index.index = 4
    cell.data.bitstring = b"\x12\x34"
    [code] = write_codes(client, update("MODIFY", register_entry=cell))
    assert code in (0, UNIMPLEMENTED), code
    query = p4runtime_pb2.Entity()
    query.register_entry.register_id = program.id_of("scratch")
    query.register_entry.index.index = 4
    cells = read_or_unimplemented(client, query)
    if code == 0 and cells is not None:
        assert int.from_bytes(cells[0].register_entry.data.bitstring, "big") == 0x1234


def test_meter_config_reads_back(client, program):
    cell = p4runtime_pb2.MeterEntry(meter_id=program.id_of("port_meter"))
    cell.index.index = 2
    cell.config.cir, cell.config.cburst, cell.config.pir, cell.config.pburst = \
        1000, 10, 2000, 20
    client.write(update("MODIFY", meter_entry=cell))
    query = p4runtime_pb2.Entity()
    query.meter_entry.meter_id = program.id_of("port_meter")
    query.meter_entry.index.index = 2
    [got] = client.read(query)
    config = got.meter_entry.config
    assert (config.cburst, config.pburst) == (10, 20)
    # BMv2 keeps rates per microsecond as doubles: allow the conversion's rounding.
    assert abs(config.cir - 1000) <= 1 and abs(config.pir - 2000) <= 1


def test_direct_counter_counts_its_entry(client, program, wire):
    mac = bytes.fromhex("020000000021")
    te = entry(program, "t_exact", {"hdr.ethernet.dst_addr": exact(mac)},
               action(program, "set_port_counted", b"\x02"))
    client.write(update("INSERT", table_entry=te))
    frame = ethernet(mac, 0x1234, b"count me")
    wire.send(1, frame)
    assert wire.receive(2) == [frame]
    query = p4runtime_pb2.Entity()
    query.direct_counter_entry.table_entry.CopyFrom(
        entry(program, "t_exact", {"hdr.ethernet.dst_addr": exact(mac)}))
    [got] = wait_for(lambda: client.read(query),
                     lambda r: r and r[0].direct_counter_entry.data.packet_count == 1)
    assert got.direct_counter_entry.data.packet_count == 1
    reset = p4runtime_pb2.DirectCounterEntry()
    reset.CopyFrom(got.direct_counter_entry)
    reset.data.packet_count, reset.data.byte_count = 0, 0
    client.write(update("MODIFY", direct_counter_entry=reset))
    [got] = client.read(query)
    assert got.direct_counter_entry.data.packet_count == 0


def test_direct_meter_config_reads_back(client, program):
    key = {"hdr.ipv4.dst_addr": lpm(b"\x0a\x00\x00\x00", 8)}
    client.write(update("INSERT", table_entry=entry(
        program, "t_lpm", key, action(program, "set_port_metered", b"\x01"))))
    cell = p4runtime_pb2.DirectMeterEntry()
    cell.table_entry.CopyFrom(entry(program, "t_lpm", key))
    cell.config.cir, cell.config.cburst, cell.config.pir, cell.config.pburst = \
        5000, 1500, 10000, 3000
    client.write(update("MODIFY", direct_meter_entry=cell))
    query = p4runtime_pb2.Entity()
    query.direct_meter_entry.table_entry.CopyFrom(entry(program, "t_lpm", key))
    [got] = client.read(query)
    config = got.direct_meter_entry.config
    assert (config.cburst, config.pburst) == (1500, 3000)
    assert abs(config.cir - 5000) <= 1 and abs(config.pir - 10000) <= 1


def test_register_index_negative_is_invalid_argument_or_unimplemented(client, program):
    """Spec, RegisterEntry: "return INVALID_ARGUMENT for a negative index or
    OUT_OF_RANGE if the index exceeds the size of the register array" (BMv2: every
    register write is UNIMPLEMENTED)."""
    codes = []
    for index in (-1, 16):
        cell = p4runtime_pb2.RegisterEntry(register_id=program.id_of("scratch"))
        cell.index.index = index
        cell.data.bitstring = b"\x01"
        codes += write_codes(client, update("MODIFY", register_entry=cell))
    assert codes in ([grpc.StatusCode.INVALID_ARGUMENT.value[0], OUT_OF_RANGE],
                     [UNIMPLEMENTED, UNIMPLEMENTED]), codes
