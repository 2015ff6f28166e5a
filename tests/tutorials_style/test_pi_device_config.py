"""Clients written for BMv2's PI build (the p4lang/tutorials `p4runtime_lib`) import
`p4.tmp.p4config_pb2` and wrap the BMv2 JSON in its P4DeviceConfig.  No pip package
ships that module, so p4sim declares the message itself: these tests hold it to PI's
field numbers and types and push a pipeline the way those clients do."""
from __future__ import annotations

import subprocess
import sys
import threading

import grpc
from google.protobuf import descriptor, text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from p4sim.p4runtime.device_config import bmv2_json_bytes
from p4sim.p4runtime.pi_device_config import P4DeviceConfig
from p4sim.p4runtime.server import P4RuntimeServer
from p4sim.reference import reference_dir
from p4sim.switch.switch import Switch

PROGRAM = reference_dir() / "p4c-out" / "l3_lpm"
FD = descriptor.FieldDescriptor


def test_message_has_pi_field_numbers_and_types():
    fields = P4DeviceConfig.DESCRIPTOR.fields_by_name
    assert P4DeviceConfig.DESCRIPTOR.full_name == "p4.tmp.P4DeviceConfig"
    assert (fields["reassign"].number, fields["reassign"].type) == (1, FD.TYPE_BOOL)
    assert (fields["extras"].number, fields["extras"].type) == (2, FD.TYPE_MESSAGE)
    assert (fields["device_data"].number, fields["device_data"].type) == (3, FD.TYPE_BYTES)
    assert fields["extras"].message_type.fields_by_name["kv"].message_type.GetOptions().map_entry


def test_wrapped_config_unwraps_to_the_json():
    config = P4DeviceConfig(reassign=True, device_data=b'{"pipelines": []}')
    config.extras.kv["note"] = "kept out of the JSON"
    assert bmv2_json_bytes(config.SerializeToString()) == b'{"pipelines": []}'
    again = P4DeviceConfig.FromString(config.SerializeToString())
    assert again.extras.kv["note"] == "kept out of the JSON" and again.reassign


def _arbitrate(stub: p4runtime_pb2_grpc.P4RuntimeStub) -> tuple[object, threading.Event]:
    """Open the stream, become primary (election 1, as p4runtime_lib does)."""
    done = threading.Event()
    requests = [p4runtime_pb2.StreamMessageRequest()]
    requests[0].arbitration.device_id = 0
    requests[0].arbitration.election_id.low = 1

    def outgoing():
        yield requests[0]
        done.wait(30)

    stream = stub.StreamChannel(outgoing())
    reply = next(stream)
    assert reply.arbitration.status.code == 0, reply
    return stream, done


def test_pipeline_pushed_as_p4runtime_lib_does_is_installed():
    """SetForwardingPipelineConfig with the wrapped config (reassign, device_data) then a
    table write: the switch runs the JSON inside the wrapper."""
    switch = Switch(device_id=0, ports=None, cpu_port=None)
    switch.start()
    server = P4RuntimeServer(switch, "127.0.0.1:0", device_id=0)
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    done = threading.Event()
    try:
        stub = p4runtime_pb2_grpc.P4RuntimeStub(channel)
        _stream, done = _arbitrate(stub)
        p4info = text_format.Parse(PROGRAM.with_suffix(".p4info.txtpb").read_text(),
                                   p4info_pb2.P4Info())
        wrapper = P4DeviceConfig(reassign=True,
                                              device_data=PROGRAM.with_suffix(".json").read_bytes())
        request = p4runtime_pb2.SetForwardingPipelineConfigRequest(
            device_id=0, action=p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT)
        request.election_id.low = 1
        request.config.p4info.CopyFrom(p4info)
        request.config.p4_device_config = wrapper.SerializeToString()
        stub.SetForwardingPipelineConfig(request)
        got = stub.GetForwardingPipelineConfig(p4runtime_pb2.GetForwardingPipelineConfigRequest(
            device_id=0))
        assert got.config.p4info.tables[0].preamble.name == p4info.tables[0].preamble.name
        assert switch.program is not None
    finally:
        done.set()
        channel.close()
        server.stop()
        switch.stop()


def test_p4_tmp_is_importable_from_the_installed_venv():
    """What the tutorials' utils/p4runtime_lib/bmv2.py does first.  Needs the packaging
    that installs p4sim's stand-in as `p4.tmp` beside the p4runtime package's `p4`."""
    code = ("from p4.tmp import p4config_pb2; "
            "from p4sim.p4runtime.pi_device_config import P4DeviceConfig; "
            "assert p4config_pb2.P4DeviceConfig is P4DeviceConfig; "
            "import p4.v1.p4runtime_pb2, p4.config.v1.p4info_pb2; "
            "c = P4DeviceConfig(reassign=True, device_data=b'{}'); "
            "print(c.SerializeToString().hex())")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, cwd="/")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "08011a027b7d"
