"""VERIFY_AND_SAVE then COMMIT, as P4Runtime 1.4 defines them (SetForwardingPipeline
ConfigRequest.Action): after SAVE, Reads and Writes refer to the saved config and the
forwarding state is untouched; COMMIT realizes the saved config and replays the Writes
made since SAVE.  COMMIT without a saved config is NOT_FOUND; COMMIT carrying a config
is INVALID_ARGUMENT."""
from __future__ import annotations

import grpc
import pytest
from p4.v1 import p4runtime_pb2

from p4rt_harness import ids, update
from p4rt_harness import SetPipeline as SetAction

GetType = p4runtime_pb2.GetForwardingPipelineConfigRequest


def fwd_entry(dst: int, port: int) -> p4runtime_pb2.TableEntry:
    n = ids("stack_and_queues")
    entry = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.fwd"])
    entry.match.add(field_id=1).exact.value = bytes([dst])
    entry.action.action.action_id = n["IngressImpl.forward"]
    entry.action.action.params.add(param_id=1, value=bytes([port]))
    return entry


def read_fwd(client) -> list[p4runtime_pb2.TableEntry]:
    query = p4runtime_pb2.TableEntry(table_id=ids("stack_and_queues")["IngressImpl.fwd"])
    return [e.table_entry for e in client.read(p4runtime_pb2.Entity(table_entry=query))]


def test_writes_between_save_and_commit_are_kept(rig, client):
    client.set_pipeline("stack_and_queues", cookie=1)
    old = fwd_entry(1, 2)
    client.write(update("INSERT", table_entry=old))
    client.set_pipeline("stack_and_queues", action=SetAction.VERIFY_AND_SAVE, cookie=2)
    new = fwd_entry(3, 4)
    client.write(update("INSERT", table_entry=new))
    assert read_fwd(client) == [new]            # reads refer to the saved config
    live = rig.switch.runtime.tables["IngressImpl.fwd"]
    assert len(live.entries()) == 1             # the forwarding state is untouched
    assert client.stub.GetForwardingPipelineConfig(GetType(
        device_id=0, response_type=GetType.COOKIE_ONLY)).config.cookie.cookie == 1
    client.set_pipeline("", action=SetAction.COMMIT)
    assert read_fwd(client) == [new]
    committed = rig.switch.runtime.tables["IngressImpl.fwd"]
    assert committed is not live and len(committed.entries()) == 1
    assert client.stub.GetForwardingPipelineConfig(GetType(
        device_id=0, response_type=GetType.COOKIE_ONLY)).config.cookie.cookie == 2


def test_without_an_active_pipeline_writes_after_save_work(rig, client):
    client.set_pipeline("stack_and_queues", action=SetAction.VERIFY_AND_SAVE)
    entry = fwd_entry(5, 6)
    client.write(update("INSERT", table_entry=entry))
    assert rig.switch.program is None
    client.set_pipeline("", action=SetAction.COMMIT)
    assert read_fwd(client) == [entry]


def test_a_failed_write_after_save_is_reported_and_not_replayed(client):
    client.set_pipeline("stack_and_queues", action=SetAction.VERIFY_AND_SAVE)
    entry = fwd_entry(7, 8)
    client.write(update("INSERT", table_entry=entry))
    with pytest.raises(grpc.RpcError) as exc:
        client.write(update("INSERT", table_entry=entry))
    assert exc.value.code() == grpc.StatusCode.UNKNOWN    # per-update ALREADY_EXISTS
    client.set_pipeline("", action=SetAction.COMMIT)
    assert read_fwd(client) == [entry]


def test_commit_with_nothing_saved_is_not_found(client):
    client.set_pipeline("stack_and_queues")
    with pytest.raises(grpc.RpcError) as exc:
        client.set_pipeline("", action=SetAction.COMMIT)
    assert exc.value.code() == grpc.StatusCode.NOT_FOUND


def test_commit_with_a_config_is_invalid_argument(client):
    client.set_pipeline("stack_and_queues", action=SetAction.VERIFY_AND_SAVE)
    with pytest.raises(grpc.RpcError) as exc:
        client.set_pipeline("stack_and_queues", action=SetAction.COMMIT)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    client.set_pipeline("", action=SetAction.COMMIT)     # the saved config is still there
    assert read_fwd(client) == []
