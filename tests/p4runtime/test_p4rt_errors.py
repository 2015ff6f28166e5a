"""Status codes exactly as the P4Runtime specification prescribes, through raw p4.v1
stubs: per-update p4.v1.Error details under a top-level UNKNOWN, in request order;
request-level codes directly."""
import grpc
import pytest
from google.rpc import code_pb2
from p4.v1 import p4runtime_pb2

from p4rt_harness import RawClient, ids, update, write_errors

N = ids("l3_lpm")


def lpm_entry(prefix: int, plen: int, port: bytes = b"\x02") -> p4runtime_pb2.TableEntry:
    entry = p4runtime_pb2.TableEntry(table_id=N["IngressImpl.ipv4_lpm"])
    fm = entry.match.add(field_id=1)
    fm.lpm.value = prefix.to_bytes(4, "big").lstrip(b"\x00") or b"\x00"
    fm.lpm.prefix_len = plen
    action = entry.action.action
    action.action_id = N["IngressImpl.forward"]
    action.params.add(param_id=1, value=port)
    action.params.add(param_id=2, value=b"\x0a")
    action.params.add(param_id=3, value=b"\x0b")
    return entry


def read_lpm(client) -> list[p4runtime_pb2.TableEntry]:
    query = p4runtime_pb2.TableEntry(table_id=N["IngressImpl.ipv4_lpm"])
    return [e.table_entry for e in client.read(p4runtime_pb2.Entity(table_entry=query))]


def single_error(client, *updates) -> p4runtime_pb2.Error:
    with pytest.raises(grpc.RpcError) as exc:
        client.write(*updates)
    errors = write_errors(exc.value)
    assert len(errors) == len(updates)
    return errors[-1]


@pytest.fixture
def lpm(client):
    client.set_pipeline("l3_lpm")
    return client


def test_already_exists(lpm):
    lpm.write(update("INSERT", table_entry=lpm_entry(0x0A000000, 8)))
    err = single_error(lpm, update("INSERT", table_entry=lpm_entry(0x0A000000, 8)))
    assert err.canonical_code == code_pb2.ALREADY_EXISTS


def test_not_found(lpm):
    err = single_error(lpm, update("DELETE", table_entry=lpm_entry(0x0A000000, 8)))
    assert err.canonical_code == code_pb2.NOT_FOUND
    bad_table = lpm_entry(0x0A000000, 8)
    bad_table.table_id = 0x02FFFFFF
    err = single_error(lpm, update("INSERT", table_entry=bad_table))
    assert err.canonical_code == code_pb2.NOT_FOUND and "0x2ffffff" in err.message


@pytest.mark.parametrize("breakage,needle", [
    ("host_bits", "beyond prefix length"),
    ("missing_param", "missing parameter"),
    ("priority", "priority must be 0"),
    ("wrong_action", "not an action of"),
    ("default_insert", "only be modified"),
])
def test_invalid_argument(lpm, breakage, needle):
    entry = lpm_entry(0x0A000000, 8)
    kind = "INSERT"
    if breakage == "host_bits":
        entry.match[0].lpm.value = b"\x0a\x00\x00\x01"
    elif breakage == "missing_param":
        del entry.action.action.params[2]
    elif breakage == "priority":
        entry.priority = 5
    elif breakage == "wrong_action":
        entry.action.action.action_id = 0x01000001     # no such action
    elif breakage == "default_insert":
        entry.ClearField("match")
        entry.is_default_action = True
    err = single_error(lpm, update(kind, table_entry=entry))
    expected = code_pb2.NOT_FOUND if breakage == "wrong_action" else code_pb2.INVALID_ARGUMENT
    assert err.canonical_code == expected, err
    if breakage != "wrong_action":
        assert needle in err.message
    assert read_lpm(lpm) == []


def test_action_of_another_table_is_invalid_argument(client):
    client.set_pipeline("multipath")
    n = ids("multipath")
    entry = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.route"])
    fm = entry.match.add(field_id=1)
    fm.lpm.value, fm.lpm.prefix_len = b"\x0a\x00\x00\x00", 8
    entry.action.action.action_id = n["IngressImpl.classify"]
    entry.action.action.params.add(param_id=1, value=b"\x01")
    err = single_error(client, update("INSERT", table_entry=entry))
    assert err.canonical_code == code_pb2.INVALID_ARGUMENT
    assert "not an action of table 'IngressImpl.route'" in err.message


def test_out_of_range(lpm):
    err = single_error(lpm, update("INSERT", table_entry=lpm_entry(0x0A000000, 8,
                                                                   port=b"\x02\x00")))
    assert err.canonical_code == code_pb2.OUT_OF_RANGE
    assert "does not fit in 9 bits" in err.message
    empty = lpm_entry(0x0A000000, 8, port=b"")
    assert single_error(lpm, update("INSERT", table_entry=empty)).canonical_code \
        == code_pb2.OUT_OF_RANGE


def test_out_of_range_index(client):
    client.set_pipeline("multipath")
    counter = p4runtime_pb2.CounterEntry(counter_id=ids("multipath")["IngressImpl.member_pkts"])
    counter.index.index = 64
    err = single_error(client, update("MODIFY", counter_entry=counter))
    assert err.canonical_code == code_pb2.OUT_OF_RANGE


def test_resource_exhausted_when_the_table_is_full(lpm):
    updates = [update("INSERT", table_entry=lpm_entry(0x0B000000 + i, 32))
               for i in range(1025)]
    with pytest.raises(grpc.RpcError) as exc:
        lpm.write(*updates)
    errors = write_errors(exc.value)
    assert [e.canonical_code for e in errors[:1024]] == [code_pb2.OK] * 1024
    assert errors[1024].canonical_code == code_pb2.RESOURCE_EXHAUSTED
    assert len(read_lpm(lpm)) == 1024


def test_failed_precondition_without_pipeline(client):
    with pytest.raises(grpc.RpcError) as exc:
        client.write(update("INSERT", table_entry=lpm_entry(0x0A000000, 8)))
    assert exc.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.RpcError) as exc:
        client.read(p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry()))
    assert exc.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.RpcError) as exc:
        client.stub.GetForwardingPipelineConfig(
            p4runtime_pb2.GetForwardingPipelineConfigRequest(device_id=0))
    assert exc.value.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_permission_denied_for_const_table_and_const_default(client):
    client.set_pipeline("multipath")
    n = ids("multipath")
    entry = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.classifier"], priority=1)
    entry.match.add(field_id=3).optional.value = b"\x06"
    entry.action.action.action_id = n["IngressImpl.classify"]
    entry.action.action.params.add(param_id=1, value=b"\x01")
    assert single_error(client, update("INSERT", table_entry=entry)).canonical_code \
        == code_pb2.PERMISSION_DENIED
    default = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.classifier"],
                                       is_default_action=True)
    default.action.action.action_id = n["IngressImpl.classify"]
    default.action.action.params.add(param_id=1, value=b"\x01")
    assert single_error(client, update("MODIFY", table_entry=default)).canonical_code \
        == code_pb2.PERMISSION_DENIED
    [const] = [e.table_entry for e in client.read(p4runtime_pb2.Entity(
        table_entry=p4runtime_pb2.TableEntry(table_id=n["IngressImpl.classifier"])))
        if e.table_entry.priority == 2]
    assert const.is_const


def test_unimplemented(lpm):
    with pytest.raises(grpc.RpcError) as exc:
        lpm.write(update("INSERT", table_entry=lpm_entry(0x0A000000, 8)),
                  atomicity=p4runtime_pb2.WriteRequest.ROLLBACK_ON_ERROR)
    assert exc.value.code() == grpc.StatusCode.UNIMPLEMENTED
    extern = p4runtime_pb2.ExternEntry(extern_type_id=0x81, extern_id=1)
    assert single_error(lpm, update("INSERT", extern_entry=extern)).canonical_code \
        == code_pb2.UNIMPLEMENTED


def test_wrong_device_is_not_found(rig, lpm):
    other = RawClient(rig.address, election_id=10, device_id=3)
    with pytest.raises(grpc.RpcError) as exc:
        other.write(update("INSERT", table_entry=lpm_entry(0x0A000000, 8)))
    assert exc.value.code() == grpc.StatusCode.NOT_FOUND
    other.close()


def test_batch_applies_valid_updates_and_reports_errors_in_order(lpm):
    lpm.write(update("INSERT", table_entry=lpm_entry(0x0C000000, 8)))
    bad = lpm_entry(0x0D000000, 8, port=b"\x7f\xff")
    with pytest.raises(grpc.RpcError) as exc:
        lpm.write(update("INSERT", table_entry=lpm_entry(0x0A000000, 8)),
                  update("INSERT", table_entry=lpm_entry(0x0C000000, 8)),
                  update("INSERT", table_entry=bad),
                  update("INSERT", table_entry=lpm_entry(0x0B000000, 8)))
    codes = [e.canonical_code for e in write_errors(exc.value)]
    assert codes == [code_pb2.OK, code_pb2.ALREADY_EXISTS, code_pb2.OUT_OF_RANGE,
                     code_pb2.OK]
    prefixes = sorted(e.match[0].lpm.value for e in read_lpm(lpm))
    assert prefixes == [bytes([b, 0, 0, 0]) for b in (0x0A, 0x0B, 0x0C)]


def test_padded_bytestrings_are_accepted_and_read_back_canonical(lpm):
    entry = lpm_entry(0x0A000000, 8, port=b"\x00\x02")
    entry.action.action.params[1].value = b"\x00\x00\x00\x00\x00\x0a"
    lpm.write(update("INSERT", table_entry=entry))
    [read] = read_lpm(lpm)
    assert read.action.action.params[0].value == b"\x02"
    assert read.action.action.params[1].value == b"\x0a"
    assert read.match[0].lpm.value == b"\x0a\x00\x00\x00"


def test_malformed_write_request_is_invalid_argument(lpm):
    raw_write = lpm.channel.unary_unary("/p4.v1.P4Runtime/Write", request_serializer=None,
                                        response_deserializer=None)
    with pytest.raises(grpc.RpcError) as exc:
        raw_write(b"\x22\x05\x0a\x03\x12")      # an update whose entity is cut short
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "malformed WriteRequest" in exc.value.details()
