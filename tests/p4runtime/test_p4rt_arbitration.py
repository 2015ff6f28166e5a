"""Primary/backup election as the spec's arbitration rules describe."""
import grpc
import pytest
from google.rpc import code_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime.arbitration import Arbitrator, Session
from p4sim.p4runtime.errors import P4RuntimeError


def _session():
    inbox = []
    return Session(send=inbox.append), inbox


def _update(election: int | None, device_id: int = 0, role: str = ""):
    msg = p4runtime_pb2.MasterArbitrationUpdate(device_id=device_id)
    if role:
        msg.role.name = role
    if election is not None:
        msg.election_id.low = election
    return msg


def _status(inbox):
    return inbox[-1].arbitration.status.code


def test_highest_election_id_is_primary_and_backups_are_told():
    arb = Arbitrator(device_id=0)
    a, a_in = _session()
    b, b_in = _session()
    arb.update(a, _update(5))
    assert _status(a_in) == code_pb2.OK
    arb.update(b, _update(3))
    assert _status(b_in) == code_pb2.ALREADY_EXISTS
    assert b_in[-1].arbitration.election_id.low == 5
    arb.check_primary("", p4runtime_pb2.Uint128(low=5))
    with pytest.raises(P4RuntimeError) as exc:
        arb.check_primary("", p4runtime_pb2.Uint128(low=3))
    assert exc.value.code == grpc.StatusCode.PERMISSION_DENIED


def test_higher_newcomer_takes_over_and_everyone_hears():
    arb = Arbitrator(device_id=0)
    a, a_in = _session()
    b, b_in = _session()
    arb.update(a, _update(1))
    arb.update(b, _update(2))
    assert _status(b_in) == code_pb2.OK
    assert _status(a_in) == code_pb2.ALREADY_EXISTS
    assert arb.primaries() == [b]


def test_primary_leaving_leaves_no_primary():
    arb = Arbitrator(device_id=0)
    a, a_in = _session()
    b, b_in = _session()
    arb.update(a, _update(2))
    arb.update(b, _update(1))
    arb.remove(a)
    assert _status(b_in) == code_pb2.NOT_FOUND
    assert arb.primaries() == []
    arb.update(b, _update(3))
    assert _status(b_in) == code_pb2.OK


def test_duplicate_election_id_and_wrong_device_are_refused():
    arb = Arbitrator(device_id=7)
    a, _ = _session()
    b, _ = _session()
    with pytest.raises(P4RuntimeError) as exc:
        arb.update(a, _update(1, device_id=0))
    assert exc.value.code == grpc.StatusCode.NOT_FOUND
    arb.update(a, _update(1, device_id=7))
    with pytest.raises(P4RuntimeError) as exc:
        arb.update(b, _update(1, device_id=7))
    assert exc.value.code == grpc.StatusCode.INVALID_ARGUMENT


def test_roles_elect_independently():
    arb = Arbitrator(device_id=0)
    a, a_in = _session()
    b, b_in = _session()
    arb.update(a, _update(1, role="x"))
    arb.update(b, _update(1, role="y"))
    assert _status(a_in) == code_pb2.OK and _status(b_in) == code_pb2.OK
    with pytest.raises(P4RuntimeError):
        arb.update(a, _update(1, role="y"))
