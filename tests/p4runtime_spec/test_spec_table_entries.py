"""Table entries (spec sections "TableEntry", "Match Format", "Bytestrings",
"Default Entry", "Constant Tables", "Wildcard Reads") and Write batches ("Batching and
Ordering of Updates", "Error Reporting")."""
import grpc
from p4.v1 import p4runtime_pb2

from entries import (action, entry, exact, lpm, optional, range_, set_port_counted,
                     table_query, ternary)
from spec_client import rpc_code, update, write_codes

OK = 0
INVALID_ARGUMENT = grpc.StatusCode.INVALID_ARGUMENT.value[0]
OUT_OF_RANGE = grpc.StatusCode.OUT_OF_RANGE.value[0]
NOT_FOUND = grpc.StatusCode.NOT_FOUND.value[0]
ALREADY_EXISTS = grpc.StatusCode.ALREADY_EXISTS.value[0]
PERMISSION_DENIED = grpc.StatusCode.PERMISSION_DENIED.value[0]
DST = "hdr.ethernet.dst_addr"


def as_int(data: bytes) -> int:
    """Where the canonical form is not what a test is about, compare values."""
    return int.from_bytes(data, "big")
IP_DST = "hdr.ipv4.dst_addr"


def t_exact(program, mac: bytes, port: bytes = b"\x01"):
    return entry(program, "t_exact", {DST: exact(mac)}, set_port_counted(program, port))


def test_insert_modify_delete_round_trip(client, program):
    mac = bytes.fromhex("00000000000a")
    client.write(update("INSERT", table_entry=t_exact(program, mac, b"\x01")))
    [got] = client.read(table_query(program, "t_exact"))
    assert as_int(got.table_entry.action.action.params[0].value) == 1
    client.write(update("MODIFY", table_entry=t_exact(program, mac, b"\x02")))
    [got] = client.read(table_query(program, "t_exact"))
    assert as_int(got.table_entry.action.action.params[0].value) == 2
    client.write(update("DELETE", table_entry=entry(program, "t_exact", {DST: exact(mac)})))
    assert client.read(table_query(program, "t_exact")) == []


def test_insert_twice_already_exists_and_missing_entries_not_found(client, program):
    te = t_exact(program, b"\x0b")
    assert write_codes(client, update("INSERT", table_entry=te),
                       update("INSERT", table_entry=te),
                       update("MODIFY", table_entry=t_exact(program, b"\x0c")),
                       update("DELETE", table_entry=t_exact(program, b"\x0d"))) == \
        [OK, ALREADY_EXISTS, NOT_FOUND, NOT_FOUND]


def test_batch_errors_come_one_per_update_in_order(client, program):
    """CONTINUE_ON_ERROR: every good update is applied, the failed Write's details hold
    one p4.v1.Error per update (OK for the applied ones)."""
    bad_action = entry(program, "t_exact", {DST: exact(b"\x03")},
                       action(program, "set_port", b"\x01"))    # not an action of t_exact
    codes = write_codes(client, update("INSERT", table_entry=t_exact(program, b"\x01")),
                        update("INSERT", table_entry=bad_action),
                        update("INSERT", table_entry=t_exact(program, b"\x02")))
    assert codes == [OK, INVALID_ARGUMENT, OK]
    assert len(client.read(table_query(program, "t_exact"))) == 2


def test_bytestrings_read_back_canonical_and_values_must_fit(client, program):
    """A padded value is accepted if it fits; reads give the shortest form; a value
    wider than the field is OUT_OF_RANGE, an empty one is refused too."""
    client.write(update("INSERT", table_entry=t_exact(program, b"\x00\x00\x00\x00\x00\x0a",
                                                      b"\x00\x03")))
    [got] = client.read(table_query(program, "t_exact"))
    assert got.table_entry.match[0].exact.value == b"\x0a"
    assert got.table_entry.action.action.params[0].value == b"\x03"
    codes = write_codes(client,
                        update("INSERT", table_entry=t_exact(program, b"\x01" + b"\x00" * 6)),
                        update("INSERT", table_entry=t_exact(program, b"\x0c", b"\x02\x00")))
    assert codes == [OUT_OF_RANGE, OUT_OF_RANGE]
    empty = write_codes(client, update("INSERT", table_entry=t_exact(program, b"")))
    assert empty[0] in (INVALID_ARGUMENT, OUT_OF_RANGE)


def test_lpm_rules(client, program):
    def route(value: bytes, plen: int):
        return entry(program, "t_lpm", {IP_DST: lpm(value, plen)},
                     action(program, "set_port_metered", b"\x01"))
    assert write_codes(client,
                       update("INSERT", table_entry=route(b"\x0a\x00\x00\x00", 8)),
                       update("INSERT", table_entry=route(b"\x0a\x01\x00\x00", 8)),  # host bits
                       update("INSERT", table_entry=route(b"\x0a\x00\x00\x00", 0)),  # omit it
                       update("INSERT", table_entry=route(b"\x0a\x00\x00\x00", 33))) == \
        [OK, INVALID_ARGUMENT, INVALID_ARGUMENT, INVALID_ARGUMENT]
    [got] = client.read(table_query(program, "t_lpm"))
    assert got.table_entry.match[0].lpm.prefix_len == 8
    assert got.table_entry.match[0].lpm.value == b"\x0a\x00\x00\x00"


def test_ternary_needs_priority_and_value_inside_mask(client, program):
    src, proto = "hdr.ipv4.src_addr", "hdr.ipv4.protocol"

    def acl(value: bytes, mask: bytes, priority: int):
        return entry(program, "t_ternary", {src: ternary(value, mask), proto: exact(b"\x11")},
                     action(program, "set_port", b"\x02"), priority=priority)
    net, host, slash8, slash16 = (b"\x0a\x00\x00\x00", b"\x0a\x00\x00\x01",
                                  b"\xff\x00\x00\x00", b"\xff\xff\x00\x00")
    assert write_codes(client,
                       update("INSERT", table_entry=acl(net, slash8, 10)),
                       update("INSERT", table_entry=acl(net, slash16, 0)),    # no priority
                       update("INSERT", table_entry=acl(host, slash8, 5)),    # bits off mask
                       update("INSERT", table_entry=acl(b"\x00", b"\x00", 5))) == \
        [OK, INVALID_ARGUMENT, INVALID_ARGUMENT, INVALID_ARGUMENT]
    # Same key, other priority: another entry (priority is part of the key).
    client.write(update("INSERT", table_entry=acl(b"\x0a\x00\x00\x00", b"\xff\x00\x00\x00", 20)))
    priorities = sorted(e.table_entry.priority
                        for e in client.read(table_query(program, "t_ternary")))
    assert priorities == [10, 20]


def test_exact_only_tables_refuse_a_priority(client, program):
    te = t_exact(program, b"\x0e")
    te.priority = 1
    assert write_codes(client, update("INSERT", table_entry=te)) == [INVALID_ARGUMENT]


def test_range_and_optional(client, program):
    ttl = entry(program, "t_range", {"hdr.ipv4.ttl": range_(b"\x01", b"\x3f")},
                action(program, "set_port", b"\x01"), priority=1)
    inverted = entry(program, "t_range", {"hdr.ipv4.ttl": range_(b"\x40", b"\x10")},
                     action(program, "set_port", b"\x01"), priority=2)
    opt = entry(program, "t_optional", {"hdr.ipv4.protocol": optional(b"\x06"),
                                        "hdr.ipv4.diffserv": exact(b"\x00")},
                action(program, "count_and_mark", b"\x07"), priority=1)
    wildcard = entry(program, "t_optional", {"hdr.ipv4.diffserv": exact(b"\x01")},
                     action(program, "count_and_mark", b"\x08"), priority=1)
    assert write_codes(client, update("INSERT", table_entry=ttl),
                       update("INSERT", table_entry=inverted),
                       update("INSERT", table_entry=opt),
                       update("INSERT", table_entry=wildcard)) == \
        [OK, INVALID_ARGUMENT, OK, OK]
    [got] = client.read(table_query(program, "t_range"))
    assert (as_int(got.table_entry.match[0].range.low),
            as_int(got.table_entry.match[0].range.high)) == (1, 0x3F)
    kinds = sorted(len(e.table_entry.match)
                   for e in client.read(table_query(program, "t_optional")))
    assert kinds == [1, 2]     # the don't-care optional field is omitted on read


def test_wildcard_read_of_all_tables_and_by_match(client, program):
    client.write(update("INSERT", table_entry=t_exact(program, b"\x01")),
                 update("INSERT", table_entry=t_exact(program, b"\x02")),
                 update("INSERT", table_entry=entry(
                     program, "t_range", {"hdr.ipv4.ttl": range_(b"\x01", b"\x02")},
                     action(program, "set_port", b"\x01"), priority=3)))
    tables = [e.table_entry.table_id for e in client.read(table_query(program))]
    assert sorted(tables).count(program.id_of("t_exact")) == 2
    assert program.id_of("t_range") in tables
    one = client.read(p4runtime_pb2.Entity(table_entry=entry(program, "t_exact",
                                                             {DST: exact(b"\x02")})))
    assert [as_int(e.table_entry.match[0].exact.value) for e in one] == [2]


def test_default_entry_modify_read_and_reset(client, program):
    default = p4runtime_pb2.TableEntry(table_id=program.id_of("t_lpm"), is_default_action=True)
    [got] = client.read(p4runtime_pb2.Entity(table_entry=default))
    assert got.table_entry.is_default_action
    assert got.table_entry.action.action.action_id == program.id_of("miss_to_port")
    changed = p4runtime_pb2.TableEntry()
    changed.CopyFrom(default)
    changed.action.action.CopyFrom(action(program, "miss_to_port", b"\x02"))
    client.write(update("MODIFY", table_entry=changed))
    [got] = client.read(p4runtime_pb2.Entity(table_entry=default))
    assert as_int(got.table_entry.action.action.params[0].value) == 2
    client.write(update("MODIFY", table_entry=default))           # no action: reset
    [got] = client.read(p4runtime_pb2.Entity(table_entry=default))
    assert as_int(got.table_entry.action.action.params[0].value) == 0
    # INSERT or DELETE of a default entry, and a table-only action as default: refused.
    table_only = p4runtime_pb2.TableEntry()
    table_only.CopyFrom(default)
    table_only.action.action.CopyFrom(action(program, "drop"))
    codes = write_codes(client, update("INSERT", table_entry=changed),
                        update("DELETE", table_entry=default),
                        update("MODIFY", table_entry=table_only))
    assert codes[0] == INVALID_ARGUMENT and codes[1] == INVALID_ARGUMENT
    assert codes[2] in (INVALID_ARGUMENT, PERMISSION_DENIED)


def test_default_only_action_cannot_be_in_an_entry(client, program):
    te = entry(program, "t_lpm", {IP_DST: lpm(b"\x0a\x00\x00\x00", 8)},
               action(program, "miss_to_port", b"\x01"))
    assert write_codes(client, update("INSERT", table_entry=te))[0] in (
        INVALID_ARGUMENT, PERMISSION_DENIED)


def test_const_table_reads_its_entries_and_refuses_writes(client, program):
    entries = client.read(table_query(program, "t_const"))
    assert sorted(as_int(e.table_entry.match[0].exact.value) for e in entries) == \
        [0x9000, 0x9001]
    new = entry(program, "t_const", {"hdr.ethernet.ether_type": exact(b"\x90\x02")},
                action(program, "set_port", b"\x01"))
    old = entry(program, "t_const", {"hdr.ethernet.ether_type": exact(b"\x90\x00")})
    codes = write_codes(client, update("INSERT", table_entry=new),
                        update("DELETE", table_entry=old))
    assert all(code in (PERMISSION_DENIED, INVALID_ARGUMENT) for code in codes), codes
    assert len(client.read(table_query(program, "t_const"))) == 2


def test_unknown_ids_are_not_found(client, program):
    te = t_exact(program, b"\x01")
    te.table_id = 0x02FFFFFF
    other = t_exact(program, b"\x01")
    other.action.action.action_id = 0x01FFFFFF
    codes = write_codes(client, update("INSERT", table_entry=te),
                        update("INSERT", table_entry=other))
    assert codes[0] == NOT_FOUND
    assert codes[1] in (NOT_FOUND, INVALID_ARGUMENT)


def test_metadata_fields_read_back(client, program):
    te = t_exact(program, b"\x05")
    te.controller_metadata, te.metadata = 77, b"cookie"
    client.write(update("INSERT", table_entry=te))
    [got] = client.read(table_query(program, "t_exact"))
    assert (got.table_entry.controller_metadata, got.table_entry.metadata) == (77, b"cookie")


def test_a_write_to_another_device_is_not_found(client, program):
    client.device_id = 7
    try:
        code = rpc_code(lambda: client.write(update("INSERT",
                                                    table_entry=t_exact(program, b"\x01"))))
    finally:
        client.device_id = 0
    assert code == grpc.StatusCode.NOT_FOUND
