"""Stream notifications and parser value sets: digests (spec section "DigestEntry",
"DigestList"), idle timeout ("Idle-timeout"), ValueSetEntry."""
import time

import grpc
import pytest
from p4.v1 import p4runtime_pb2

from entries import entry, exact
from frames import HOST_MAC, ethernet
from spec_client import update, write_codes

UNIMPLEMENTED = grpc.StatusCode.UNIMPLEMENTED.value[0]


def test_digest_list_after_config_and_ack(client, program, wire):
    digest = p4runtime_pb2.DigestEntry(digest_id=program.id_of("learn_t"))
    digest.config.max_timeout_ns = 1_000_000
    digest.config.max_list_size = 1
    digest.config.ack_timeout_ns = 1_000_000_000
    client.write(update("INSERT", digest_entry=digest))
    wire.send(1, ethernet(bytes.fromhex("020000000031"), 0x88B5))
    message = client.next("digest")
    assert message is not None, "the stream ended before a DigestList"
    digest_list = message.digest
    assert digest_list.digest_id == program.id_of("learn_t")
    [data] = digest_list.data
    src, port = (member.bitstring for member in data.struct.members)
    assert int.from_bytes(src, "big") == int.from_bytes(HOST_MAC, "big")
    assert int.from_bytes(port, "big") == 1
    ack = p4runtime_pb2.StreamMessageRequest()
    ack.digest_ack.digest_id, ack.digest_ack.list_id = digest_list.digest_id, digest_list.list_id
    client.send(ack)
    query = p4runtime_pb2.Entity(digest_entry=p4runtime_pb2.DigestEntry(
        digest_id=program.id_of("learn_t")))
    [got] = client.read(query)
    assert got.digest_entry.config.max_list_size == 1


def test_idle_entry_is_reported(client, program):
    te = entry(program, "t_idle", {"hdr.ethernet.src_addr": exact(b"\x0a")},
               idle_timeout_ns=200_000_000)
    te.action.action.action_id = program.id_of("NoAction")
    client.write(update("INSERT", table_entry=te))
    started = time.monotonic()
    message = client.next("idle_timeout_notification", timeout=20)
    assert message is not None, "the stream ended before an IdleTimeoutNotification"
    assert time.monotonic() - started >= 0.1
    [reported] = message.idle_timeout_notification.table_entry
    assert reported.table_id == program.id_of("t_idle")
    assert int.from_bytes(reported.match[0].exact.value, "big") == 0x0A


def test_idle_timeout_only_on_tables_that_support_it(client, program):
    te = entry(program, "t_exact", {"hdr.ethernet.dst_addr": exact(b"\x0a")},
               idle_timeout_ns=200_000_000)
    te.action.action.action_id = program.id_of("drop")
    assert write_codes(client, update("INSERT", table_entry=te)) == \
        [grpc.StatusCode.INVALID_ARGUMENT.value[0]]


def test_value_set_write_is_implemented_or_unimplemented(client, program, wire):
    """bmv2-facts.md: BMv2 answers UNIMPLEMENTED; a target that accepts the write must
    then parse with the new member (0x88C0 frames go to port 2)."""
    member = p4runtime_pb2.ValueSetEntry(value_set_id=program.id_of("special_types"))
    member.members.add().match.add(field_id=1).exact.value = b"\x88\xc0"
    [code] = write_codes(client, update("MODIFY", value_set_entry=member))
    assert code in (0, UNIMPLEMENTED), code
    if code == UNIMPLEMENTED:
        return
    frame = ethernet(bytes.fromhex("020000000041"), 0x88C0)
    wire.send(1, frame)
    assert wire.receive(2) == [frame]


def test_value_set_with_duplicate_members_is_already_exists(client, program):
    """Spec, ValueSetEntry: "the server must return an ALREADY_EXISTS error in case of
    duplicate members" (read-write symmetry).  BMv2: UNIMPLEMENTED for any write."""
    twice = p4runtime_pb2.ValueSetEntry(value_set_id=program.id_of("special_types"))
    for _ in range(2):
        twice.members.add().match.add(field_id=1).exact.value = b"\x88\xc0"
    [code] = write_codes(client, update("MODIFY", value_set_entry=twice))
    assert code in (grpc.StatusCode.ALREADY_EXISTS.value[0], UNIMPLEMENTED), code
