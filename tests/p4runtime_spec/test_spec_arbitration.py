"""Client arbitration (spec section "Client Arbitration and Controller Replication")."""
import grpc

from entries import entry, exact, set_port_counted, table_query
from spec_client import Client, rpc_code, update

ALREADY_EXISTS = grpc.StatusCode.ALREADY_EXISTS.value[0]


def insert(program, mac: bytes):
    return update("INSERT", table_entry=entry(program, "t_exact",
                                              {"hdr.ethernet.dst_addr": exact(mac)},
                                              set_port_counted(program, b"\x01")))


def test_highest_election_id_is_primary_and_others_are_told_who_is(switch, program, client):
    backup = Client(switch.address, election_id=client.election_id - 5)
    try:
        answer = backup.arbitrate()
        assert answer.status.code == ALREADY_EXISTS
        assert answer.election_id.low == client.election_id     # the primary's
        assert rpc_code(lambda: backup.write(insert(program, b"\x01"))) == \
            grpc.StatusCode.PERMISSION_DENIED
        client.write(insert(program, b"\x01"))
        # Reads are open to every client.
        assert len(backup.read(table_query(program, "t_exact"))) == 1
    finally:
        backup.close()


def test_a_higher_election_id_takes_over_and_the_old_primary_hears_of_it(switch, program,
                                                                         client):
    newer = Client(switch.address, election_id=switch.next_election_id())
    try:
        assert newer.arbitrate().status.code == 0
        note = client.next("arbitration")
        assert note.arbitration.status.code == ALREADY_EXISTS
        assert note.arbitration.election_id.low == newer.election_id
        assert rpc_code(lambda: client.write(insert(program, b"\x02"))) == \
            grpc.StatusCode.PERMISSION_DENIED
        newer.write(insert(program, b"\x02"))
    finally:
        newer.close()


def test_the_same_election_id_twice_is_refused(switch, client):
    twin = Client(switch.address, election_id=client.election_id)
    try:
        answer = twin.arbitrate()
        code = answer.code() if isinstance(answer, grpc.RpcError) else None
        assert code == grpc.StatusCode.INVALID_ARGUMENT, answer
    finally:
        twin.close()


def test_a_write_without_election_id_is_refused_while_a_primary_exists(switch, program,
                                                                       client):
    anonymous = Client(switch.address, election_id=None)
    try:
        assert rpc_code(lambda: anonymous.write(insert(program, b"\x03"))) == \
            grpc.StatusCode.PERMISSION_DENIED
    finally:
        anonymous.close()


def test_arbitration_for_another_device_is_refused(switch):
    stray = Client(switch.address, election_id=switch.next_election_id())
    try:
        answer = stray.arbitrate(device_id=99)
        assert isinstance(answer, grpc.RpcError) and \
            answer.code() == grpc.StatusCode.NOT_FOUND, answer
    finally:
        stray.close()
