"""SetForwardingPipelineConfig / GetForwardingPipelineConfig (spec section
"SetForwardingPipelineConfig RPC") and Capabilities."""
import grpc
from p4.v1 import p4runtime_pb2

from spec_client import Client, SetConfig, rpc_code, update

Get = p4runtime_pb2.GetForwardingPipelineConfigRequest


def p4_device_config(device_data: bytes, reassign: bool = True) -> bytes:
    """PI's p4.tmp.P4DeviceConfig {bool reassign = 1; bytes device_data = 3;} by hand:
    the p4runtime package ships no p4.tmp stubs."""
    length, varint = len(device_data), bytearray()
    while length >= 0x80:
        varint.append(length & 0x7F | 0x80)
        length >>= 7
    varint.append(length)
    return (b"\x08\x01" if reassign else b"") + b"\x1a" + bytes(varint) + device_data


def primary(switch) -> Client:
    c = Client(switch.address, election_id=switch.next_election_id())
    assert c.arbitrate().status.code == 0
    return c


def exact_entry(program, dst: bytes = b"\x0a", port: bytes = b"\x01"):
    te = p4runtime_pb2.TableEntry(table_id=program.id_of("t_exact"))
    te.match.add(field_id=1).exact.value = dst
    te.action.action.action_id = program.id_of("set_port_counted")
    te.action.action.params.add(param_id=1, value=port)
    return te


def test_before_any_pipeline_write_and_read_fail_precondition(fresh_switch, program):
    c = primary(fresh_switch)
    try:
        assert rpc_code(lambda: c.write(update("INSERT", table_entry=exact_entry(program)))) \
            == grpc.StatusCode.FAILED_PRECONDITION
        entity = p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry())
        assert rpc_code(lambda: c.read(entity)) == grpc.StatusCode.FAILED_PRECONDITION
    finally:
        c.close()


def test_verify_checks_without_applying(fresh_switch, program):
    c = primary(fresh_switch)
    try:
        c.set_pipeline(program, action=SetConfig.VERIFY)
        assert rpc_code(lambda: c.write(update("INSERT", table_entry=exact_entry(program)))) \
            == grpc.StatusCode.FAILED_PRECONDITION
    finally:
        c.close()


def test_device_config_bare_or_wrapped_in_p4_tmp_config(switch, program):
    """bmv2-facts.md: BMv2 takes the JSON bare and wrapped in p4.tmp.P4DeviceConfig."""
    c = primary(switch)
    try:
        for config in (program.device_config, p4_device_config(program.device_config)):
            c.set_pipeline(program, device_config=config)
            c.write(update("INSERT", table_entry=exact_entry(program)))
            assert len(c.read(p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry(
                table_id=program.id_of("t_exact"))))) == 1
    finally:
        c.close()


def test_commit_clears_forwarding_state_and_get_returns_the_config(switch, program):
    c = primary(switch)
    try:
        c.set_pipeline(program, cookie=0x1234)
        c.write(update("INSERT", table_entry=exact_entry(program)))
        c.set_pipeline(program, cookie=0x5678)
        query = p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry(
            table_id=program.id_of("t_exact")))
        assert c.read(query) == []
        got = c.get_pipeline(Get.ALL).config
        assert got.cookie.cookie == 0x5678
        assert {t.preamble.name for t in got.p4info.tables} == \
            {t.preamble.name for t in program.p4info.tables}
        cookie_only = c.get_pipeline(Get.COOKIE_ONLY).config
        assert cookie_only.cookie.cookie == 0x5678 and not cookie_only.p4info.tables
    finally:
        c.close()


def test_verify_and_save_then_commit(switch, program):
    c = primary(switch)
    try:
        c.set_pipeline(program, cookie=1)
        c.write(update("INSERT", table_entry=exact_entry(program)))
        c.set_pipeline(program, action=SetConfig.VERIFY_AND_SAVE, cookie=2)
        c.set_pipeline(None, action=SetConfig.COMMIT)
        assert c.get_pipeline(Get.COOKIE_ONLY).config.cookie.cookie == 2
        assert c.read(p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry(
            table_id=program.id_of("t_exact")))) == []
    finally:
        c.close()


def test_a_device_config_that_is_not_bmv2_json_is_refused(switch, program):
    c = primary(switch)
    try:
        code = rpc_code(lambda: c.set_pipeline(program, device_config=b"not json {"))
        assert code in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.UNKNOWN), code
    finally:
        c.close()


def test_only_the_primary_sets_the_pipeline(switch, program):
    c = primary(switch)
    backup = Client(switch.address, election_id=1)
    try:
        assert backup.arbitrate().status.code == grpc.StatusCode.ALREADY_EXISTS.value[0]
        assert rpc_code(lambda: backup.set_pipeline(program)) == \
            grpc.StatusCode.PERMISSION_DENIED
    finally:
        backup.close()
        c.close()


def test_capabilities_reports_an_api_version(switch):
    c = Client(switch.address, election_id=None)
    try:
        reply = c.stub.Capabilities(p4runtime_pb2.CapabilitiesRequest(), timeout=30)
        major, minor, *_rest = reply.p4runtime_api_version.split(".")
        assert int(major) == 1 and int(minor) >= 0
    finally:
        c.close()
