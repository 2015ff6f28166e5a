"""Programs without tables load over P4Runtime, as on BMv2 (PI accepts their P4Info,
and even an empty one): p4c's recorded JSON and P4Info for corpus programs that only
parse and rewrite, or only send a digest, through a real gRPC server."""
from __future__ import annotations

import grpc
import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4rt_harness import pipeline_request, update
from p4rt_harness import SetPipeline as SetAction
from p4sim.reference import reference_dir

GetType = p4runtime_pb2.GetForwardingPipelineConfigRequest
RECORDED = reference_dir() / "project"


def _recorded(program: str) -> tuple[p4info_pb2.P4Info, bytes]:
    folder = RECORDED / program
    p4info = text_format.Parse((folder / f"{program}.p4info.txtpb").read_text(),
                               p4info_pb2.P4Info())
    return p4info, (folder / f"{program}.json").read_bytes()


def _set(client, p4info: p4info_pb2.P4Info, device_config: bytes,
         action=SetAction.VERIFY_AND_COMMIT) -> None:
    client.stub.SetForwardingPipelineConfig(pipeline_request(
        p4info, device_config, action=action, election_id=client.election_id))


def _frame(hex_text: str) -> bytes:
    return bytes.fromhex(hex_text.replace(" ", ""))


def test_p4info_without_tables_or_actions_commits_and_runs(rig, client):
    p4info, device_config = _recorded("001_define_macros")
    assert not p4info.tables and not p4info.actions
    _set(client, p4info, device_config)
    got = client.stub.GetForwardingPipelineConfig(GetType(device_id=0, response_type=GetType.ALL))
    assert got.config.p4info == p4info
    assert got.config.p4_device_config == device_config
    out = rig.send(1, _frame("000000000001 000000000002 1234 0001 0010 0100 CAFE"))
    assert out == [(2, _frame("000000000001 000000000002 1234 0018 0010 0200 CAFE"))]


def test_empty_p4info_is_accepted(rig, client):
    _, device_config = _recorded("001_define_macros")
    _set(client, p4info_pb2.P4Info(), device_config, action=SetAction.VERIFY)
    assert rig.switch.program is None   # VERIFY only checks
    _set(client, p4info_pb2.P4Info(), device_config)
    assert rig.switch.program is not None
    out = rig.send(1, _frame("000000000001 000000000002 0800 0001 0010 0100 CAFE"))
    assert out == [(2, _frame("000000000001 000000000002 0800 0001 0010 0100 CAFE"))]


def test_digest_only_program_delivers_digests(rig, client):
    p4info, device_config = _recorded("053_digest")
    assert not p4info.tables and [d.preamble.name for d in p4info.digests] == ["learn_t"]
    _set(client, p4info, device_config)
    entry = p4runtime_pb2.DigestEntry(digest_id=p4info.digests[0].preamble.id)
    entry.config.max_list_size = 1
    client.write(update("INSERT", digest_entry=entry))
    rig.send(1, _frame("000000000001 0000000000AB 88B5 00000000 00000000 0000 07 00 A0A1A2A3"))
    msg = client.next_message("digest")
    assert msg is not None and msg.digest.digest_id == entry.digest_id
    [data] = msg.digest.data
    assert [m.bitstring for m in data.struct.members] == [b"\xab", b"\x07"]


def test_a_device_config_still_has_to_match_the_p4info(client):
    """Accepting a table-less P4Info must not skip the binding check of a full one."""
    p4info, _ = _recorded("038_entries_priority")
    _, tableless_json = _recorded("001_define_macros")
    with pytest.raises(grpc.RpcError) as exc:
        _set(client, p4info, tableless_json)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "IngressImpl.t" in exc.value.details()
