"""PacketOut / PacketIn with @controller_header metadata (spec section "Packet I/O")
and packet replication (PRE multicast groups, clone sessions)."""
import pytest
from p4.v1 import p4runtime_pb2

from frames import ethernet
from spec_client import read_or_unimplemented, update




def packet_out(payload: bytes, port: int) -> p4runtime_pb2.StreamMessageRequest:
    request = p4runtime_pb2.StreamMessageRequest()
    request.packet.payload = payload
    request.packet.metadata.add(metadata_id=1, value=bytes([port]))   # egress_port
    request.packet.metadata.add(metadata_id=2, value=b"\x00")         # _pad
    return request


def test_packet_out_leaves_on_its_egress_port(client, wire):
    frame = ethernet(bytes.fromhex("02000000000b"), 0x1234, b"out")
    client.send(packet_out(frame, 2))
    assert wire.receive(2) == [frame]


def test_punted_frame_comes_in_with_its_ingress_port(client, wire, program):
    frame = ethernet(bytes.fromhex("02000000000c"), 0x88B6, b"punt")
    wire.send(1, frame)
    message = client.next("packet")
    assert message is not None and message.packet.payload == frame
    metadata = {m.metadata_id: m.value for m in message.packet.metadata}
    assert int.from_bytes(metadata[1], "big") == 1
    header = next(h for h in program.p4info.controller_packet_metadata
                  if h.preamble.name == "packet_in")
    assert {m.id for m in header.metadata} >= set(metadata)


def test_multicast_group_replicates_and_reads_back(client, wire):
    mc = p4runtime_pb2.PacketReplicationEngineEntry()
    mc.multicast_group_entry.multicast_group_id = 3
    for port in (1, 2):
        mc.multicast_group_entry.replicas.add(egress_port=port, instance=1)
    client.write(update("INSERT", packet_replication_engine_entry=mc))
    query = p4runtime_pb2.Entity()
    query.packet_replication_engine_entry.multicast_group_entry.multicast_group_id = 3
    found = read_or_unimplemented(client, query)
    if found is not None:
        replicas = found[0].packet_replication_engine_entry.multicast_group_entry.replicas
        assert sorted(r.egress_port for r in replicas) == [1, 2]
    frame = ethernet(bytes.fromhex("010000000003"), 0x88B7, b"mc")
    wire.send(1, frame)
    assert wire.receive(2) == [frame]
    assert wire.receive(1) == [frame]


def test_clone_session_copies_to_its_port(client, wire):
    clone = p4runtime_pb2.PacketReplicationEngineEntry()
    clone.clone_session_entry.session_id = 5
    clone.clone_session_entry.replicas.add(egress_port=2, instance=1)
    client.write(update("INSERT", packet_replication_engine_entry=clone))
    query = p4runtime_pb2.Entity()
    query.packet_replication_engine_entry.clone_session_entry.session_id = 5
    found = read_or_unimplemented(client, query)
    if found is not None:
        assert [r.egress_port for r in found[0].packet_replication_engine_entry
                .clone_session_entry.replicas] == [2]
    frame = ethernet(bytes.fromhex("02000000000d"), 0x88B8, b"clone")
    wire.send(1, frame)
    assert wire.receive(1) == [frame]          # the original, to port 1
    assert wire.receive(2) == [frame]          # its I2E clone

