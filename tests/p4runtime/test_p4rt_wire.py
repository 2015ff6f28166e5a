"""The wire fast path decodes and encodes exactly what protobuf does."""
import pytest
from google.protobuf.message import DecodeError
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import wire


def sample_request() -> p4runtime_pb2.WriteRequest:
    req = p4runtime_pb2.WriteRequest(device_id=3, role="r1", atomicity=0)
    req.election_id.high, req.election_id.low = 1, 2
    te = req.updates.add(type=p4runtime_pb2.Update.INSERT).entity.table_entry
    te.table_id, te.priority, te.controller_metadata, te.metadata = 0x02000001, 7, 9, b"m"
    te.match.add(field_id=1).exact.value = b"\x01\x02"
    lpm = te.match.add(field_id=2).lpm
    lpm.value, lpm.prefix_len = b"\x0a\x00\x00\x00", 8
    tern = te.match.add(field_id=3).ternary
    tern.value, tern.mask = b"\x00", b"\xfc"
    rng = te.match.add(field_id=4).range
    rng.low, rng.high = b"\x12\xb6", b"\x12\xbf"
    te.match.add(field_id=5).optional.value = b"\x11"
    te.action.action.action_id = 0x01000002
    te.action.action.params.add(param_id=1, value=b"\x03")
    member = req.updates.add(type=p4runtime_pb2.Update.MODIFY).entity.table_entry
    member.table_id = 0x02000002
    member.action.action_profile_member_id = 5
    default = req.updates.add(type=p4runtime_pb2.Update.MODIFY).entity.table_entry
    default.table_id, default.is_default_action = 0x02000003, True
    counted = req.updates.add(type=p4runtime_pb2.Update.INSERT).entity.table_entry
    counted.table_id = 0x02000004
    counted.counter_data.packet_count = 1       # not on the fast path
    req.updates.add(type=p4runtime_pb2.Update.DELETE).entity.counter_entry.counter_id = 9
    return req


def test_parse_matches_protobuf():
    req = sample_request()
    view = wire.parse_write_request(req.SerializeToString())
    assert (view.device_id, view.role, view.atomicity) == (3, "r1", 0)
    assert view.HasField("election_id") and view.election_id == req.election_id
    fast = view.updates[0]
    assert isinstance(fast, wire.UpdateView) and fast.type == p4runtime_pb2.Update.INSERT
    te, proto = fast.entity.table_entry, req.updates[0].entity.table_entry
    assert (te.table_id, te.priority, te.controller_metadata, te.metadata) == (
        proto.table_id, proto.priority, proto.controller_metadata, proto.metadata)
    for got, want in zip(te.match, proto.match):
        kind = want.WhichOneof("field_match_type")
        assert (got.field_id, got.WhichOneof("field_match_type")) == (want.field_id, kind)
        for attr in {"exact": ["value"], "lpm": ["value", "prefix_len"],
                     "ternary": ["value", "mask"], "range": ["low", "high"],
                     "optional": ["value"]}[kind]:
            assert getattr(getattr(got, kind), attr) == getattr(getattr(want, kind), attr)
    assert te.HasField("action") and te.action.WhichOneof("type") == "action"
    assert [(p.param_id, p.value) for p in te.action.action.params] == [(1, b"\x03")]
    member = view.updates[1].entity.table_entry
    assert member.action.WhichOneof("type") == "action_profile_member_id"
    assert member.action.action_profile_member_id == 5
    default = view.updates[2].entity.table_entry
    assert default.is_default_action and not default.HasField("action")
    # Entries with other fields and other entities are left to protobuf.
    assert view.updates[3] == req.updates[3]
    assert view.updates[4] == req.updates[4]


def test_truncated_request_is_a_wire_error():
    data = sample_request().SerializeToString()
    with pytest.raises(wire.WireError):
        wire.parse_write_request(data[:-3])


def test_encoded_table_entry_parses_back_with_protobuf():
    matches = [wire.encode_field_match(1, "exact", b"\x01"),
               wire.encode_field_match(2, "lpm", b"\x0a\x00\x00\x00", 8),
               wire.encode_field_match(3, "ternary", b"\x00", b"\xfc"),
               wire.encode_field_match(4, "range", b"\x01", b"\x02"),
               wire.encode_field_match(5, "optional", b"\x11")]
    action = wire.encode_action(0x01000002, [(1, 3), (2, 0), (3, 0xABCDEF)])
    data = wire.encode_table_entry(0x02000001, matches, action, priority=2_147_483_647,
                                   controller_metadata=1 << 63, metadata=b"x",
                                   is_const=True, idle_timeout_ns=5)
    entry = p4runtime_pb2.TableEntry.FromString(data)
    assert [m.field_id for m in entry.match] == [1, 2, 3, 4, 5]
    assert entry.match[1].lpm.prefix_len == 8 and entry.match[2].ternary.mask == b"\xfc"
    assert [p.value for p in entry.action.action.params] == [b"\x03", b"\x00",
                                                             b"\xab\xcd\xef"]
    assert (entry.priority, entry.controller_metadata, entry.metadata, entry.is_const,
            entry.idle_timeout_ns) == (2_147_483_647, 1 << 63, b"x", True, 5)
    assert data == entry.SerializeToString()      # byte-identical to protobuf's output
    response = wire.read_response([wire.entity_with_table_entry(data)] * 2)
    parsed = p4runtime_pb2.ReadResponse.FromString(response)
    assert [e.table_entry for e in parsed.entities] == [entry, entry]
    assert len(wire.split_read_response(response)) == 2


def test_member_and_group_actions_encode():
    member = p4runtime_pb2.TableEntry.FromString(
        wire.encode_table_entry(1, [], None, member_id=4))
    group = p4runtime_pb2.TableEntry.FromString(
        wire.encode_table_entry(1, [], None, group_id=6))
    assert member.action.action_profile_member_id == 4
    assert group.action.action_profile_group_id == 6


def test_unknown_request_fields_fall_back_to_protobuf():
    data = sample_request().SerializeToString() + bytes([15 << 3 | 0, 1])  # field 15
    parsed = wire.parse_write_request(data)
    assert isinstance(parsed, p4runtime_pb2.WriteRequest)
    assert len(parsed.updates) == 5


def test_garbage_is_a_wire_error():
    with pytest.raises(wire.WireError):
        wire.parse_write_request(b"\x1a\x03\xff\xff\xff")   # election_id: bad varint


def test_every_truncation_is_refused_like_protobuf():
    """Cut anywhere, the inlined decoders refuse what protobuf refuses (WireError) and
    decode the same fields from what protobuf accepts; multi-byte lengths included."""
    req = p4runtime_pb2.WriteRequest(device_id=1)
    te = req.updates.add(type=p4runtime_pb2.Update.INSERT).entity.table_entry
    te.table_id, te.metadata = 0x02000001, b"x" * 200           # 2-byte length
    te.match.add(field_id=300).exact.value = b"\x01" * 130     # 2-byte id and length
    te.action.action.action_id = 0x01000002
    te.action.action.params.add(param_id=200, value=b"\x07")
    data = req.SerializeToString()
    whole = wire.parse_write_request(data).updates[0].entity.table_entry
    assert (whole.match[0].field_id, whole.match[0].exact.value) == (300, b"\x01" * 130)
    assert [(p.param_id, p.value) for p in whole.action.action.params] == [(200, b"\x07")]
    for cut in range(len(data)):
        try:
            expected = p4runtime_pb2.WriteRequest.FromString(data[:cut])
        except DecodeError:
            with pytest.raises(wire.WireError):
                wire.parse_write_request(data[:cut])
            continue
        got = wire.parse_write_request(data[:cut])
        assert len(got.updates) == len(expected.updates), cut
