"""Pipeline config, capabilities and a first table entry through raw p4.v1 stubs."""
import json

import grpc
import pytest
from p4.v1 import p4runtime_pb2

from p4rt_harness import ids, json_path, update
from p4rt_harness import SetPipeline as SetAction
from p4sim.p4runtime.server import P4RuntimeServer

GetType = p4runtime_pb2.GetForwardingPipelineConfigRequest


def test_capabilities(client):
    resp = client.stub.Capabilities(p4runtime_pb2.CapabilitiesRequest())
    assert resp.p4runtime_api_version == "1.4.1"


def test_get_pipeline_every_response_type(client):
    client.set_pipeline("l3_lpm", cookie=42)
    for kind, has_p4info, has_device in [(GetType.ALL, True, True),
                                         (GetType.COOKIE_ONLY, False, False),
                                         (GetType.P4INFO_AND_COOKIE, True, False),
                                         (GetType.DEVICE_CONFIG_AND_COOKIE, False, True)]:
        resp = client.stub.GetForwardingPipelineConfig(
            GetType(device_id=0, response_type=kind))
        assert resp.config.cookie.cookie == 42
        assert bool(resp.config.p4info.tables) == has_p4info
        assert (resp.config.p4_device_config == json_path("l3_lpm").read_bytes()) \
            == has_device


def test_verify_does_not_commit_and_save_then_commit_does(rig, client):
    client.set_pipeline("l3_lpm", action=SetAction.VERIFY)
    assert rig.switch.program is None
    client.set_pipeline("l3_lpm", action=SetAction.VERIFY_AND_SAVE)
    assert rig.switch.program is None
    client.set_pipeline("", action=SetAction.COMMIT)
    assert "IngressImpl.ipv4_lpm" in rig.switch.runtime.tables


def test_bad_device_config_is_invalid_argument(rig, client):
    with pytest.raises(grpc.RpcError) as exc:
        client.set_pipeline("l3_lpm", device_config=b"{not json")
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as exc:
        client.set_pipeline("l3_lpm", device_config=json_path("replication").read_bytes())
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "not in the BMv2 JSON" in exc.value.details()


def test_reconcile_with_same_program_keeps_entries(client):
    client.set_pipeline("stack_and_queues")
    n = ids("stack_and_queues")
    entry = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.fwd"])
    entry.match.add(field_id=1).exact.value = b"\x01"
    entry.action.action.action_id = n["IngressImpl.forward"]
    entry.action.action.params.add(param_id=1, value=b"\x02")
    client.write(update("INSERT", table_entry=entry))
    client.set_pipeline("stack_and_queues", action=SetAction.RECONCILE_AND_COMMIT, cookie=7)
    read = client.read(p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry(
        table_id=n["IngressImpl.fwd"])))
    assert [e.table_entry for e in read] == [entry]


def test_reconcile_with_a_new_program_carries_matching_state(rig, client, tmp_path):
    client.set_pipeline("l3_lpm")
    n = ids("l3_lpm")
    entry = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.ipv4_lpm"])
    fm = entry.match.add(field_id=1)
    fm.lpm.value, fm.lpm.prefix_len = b"\x0a\x00\x00\x00", 8
    entry.action.action.action_id = n["IngressImpl.drop"]
    client.write(update("INSERT", table_entry=entry))
    group = p4runtime_pb2.PacketReplicationEngineEntry()
    group.multicast_group_entry.multicast_group_id = 3
    group.multicast_group_entry.replicas.add(egress_port=4, instance=0)
    client.write(update("INSERT", packet_replication_engine_entry=group))
    # A new build of the program: same names, another device config.
    doc = json.loads(json_path("l3_lpm").read_text())
    doc["program"] = "l3_lpm_v2.p4"
    client.set_pipeline("l3_lpm", action=SetAction.RECONCILE_AND_COMMIT,
                        device_config=json.dumps(doc).encode())
    read = client.read(p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry()))
    assert [e.table_entry for e in read] == [entry]
    assert rig.switch.pre.groups() == {3: [(4, 0)]}


def test_port_in_use_is_a_clear_error(rig):
    second = P4RuntimeServer(rig.switch, rig.address)
    with pytest.raises(OSError, match=f"cannot listen on {rig.address}"):
        second.start()
