"""Two controllers contend for mastership over real StreamChannels: only the primary
writes; backups hear who is primary; the primary leaving leaves no primary until a
controller re-arbitrates."""
import grpc
import pytest
from google.rpc import code_pb2
from p4.v1 import p4runtime_pb2

from p4rt_harness import RawClient, ids, update

N = ids("stack_and_queues")


def fwd_entry(port: int) -> p4runtime_pb2.TableEntry:
    entry = p4runtime_pb2.TableEntry(table_id=N["IngressImpl.fwd"])
    entry.match.add(field_id=1).exact.value = bytes([port])
    entry.action.action.action_id = N["IngressImpl.forward"]
    entry.action.action.params.add(param_id=1, value=b"\x02")
    return entry


def test_backup_cannot_write_until_it_wins(rig):
    primary = RawClient(rig.address, election_id=20)
    backup = RawClient(rig.address, election_id=10)
    try:
        assert primary.arbitrate().arbitration.status.code == code_pb2.OK
        told = backup.arbitrate().arbitration
        assert told.status.code == code_pb2.ALREADY_EXISTS
        assert told.election_id.low == 20

        with pytest.raises(grpc.RpcError) as exc:
            backup.set_pipeline("stack_and_queues")
        assert exc.value.code() == grpc.StatusCode.PERMISSION_DENIED
        primary.set_pipeline("stack_and_queues")
        primary.write(update("INSERT", table_entry=fwd_entry(1)))
        with pytest.raises(grpc.RpcError) as exc:
            backup.write(update("INSERT", table_entry=fwd_entry(2)))
        assert exc.value.code() == grpc.StatusCode.PERMISSION_DENIED
        # A backup may read.
        assert len(backup.read(p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry(
            table_id=N["IngressImpl.fwd"])))) == 1

        primary.close()
        assert backup.next_message("arbitration").arbitration.status.code \
            == code_pb2.NOT_FOUND
        with pytest.raises(grpc.RpcError) as exc:
            backup.write(update("INSERT", table_entry=fwd_entry(2)))
        assert exc.value.code() == grpc.StatusCode.PERMISSION_DENIED
        # Re-arbitrating with an ID at least the highest seen makes it primary.
        assert backup.arbitrate(election_id=30).arbitration.status.code == code_pb2.OK
        backup.write(update("INSERT", table_entry=fwd_entry(2)))
    finally:
        backup.close()


def test_higher_newcomer_preempts_and_old_primary_is_told(rig):
    first = RawClient(rig.address, election_id=1)
    second = RawClient(rig.address, election_id=2)
    try:
        first.arbitrate()
        first.set_pipeline("stack_and_queues")
        assert second.arbitrate().arbitration.status.code == code_pb2.OK
        demoted = first.next_message("arbitration").arbitration
        assert demoted.status.code == code_pb2.ALREADY_EXISTS
        assert demoted.election_id.low == 2
        with pytest.raises(grpc.RpcError) as exc:
            first.write(update("INSERT", table_entry=fwd_entry(1)))
        assert exc.value.code() == grpc.StatusCode.PERMISSION_DENIED
        second.write(update("INSERT", table_entry=fwd_entry(1)))
    finally:
        first.close()
        second.close()


def test_stream_refuses_duplicate_election_id_and_unknown_device(rig):
    holder = RawClient(rig.address, election_id=5)
    twin = RawClient(rig.address, election_id=5)
    stranger = RawClient(rig.address, election_id=6, device_id=9)
    try:
        holder.arbitrate()
        assert twin.arbitrate() is None
        assert twin.stream_error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert stranger.arbitrate() is None
        assert stranger.stream_error.code() == grpc.StatusCode.NOT_FOUND
    finally:
        for c in (holder, twin, stranger):
            c.close()


def test_packet_out_from_backup_is_refused_on_the_stream(rig):
    primary = RawClient(rig.address, election_id=2)
    backup = RawClient(rig.address, election_id=1)
    try:
        primary.arbitrate()
        primary.set_pipeline("replication")
        backup.arbitrate()
        req = p4runtime_pb2.StreamMessageRequest()
        req.packet.payload = b"\x00" * 60
        backup.send_stream(req)
        error = backup.next_message("error").error
        assert error.canonical_code == code_pb2.PERMISSION_DENIED
        assert error.packet_out.packet_out.payload == req.packet.payload
    finally:
        primary.close()
        backup.close()
