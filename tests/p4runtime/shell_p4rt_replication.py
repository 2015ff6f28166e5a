"""p4runtime-shell: multicast groups, clone sessions, PacketOut/PacketIn and digests
(replication.p4, CPU port 255)."""
import queue

from p4.v1 import p4runtime_pb2
from scapy.layers.l2 import Ether

from p4rt_harness import RawClient, ids, json_path, p4info_path, update

SRC = "00:00:00:00:00:aa"


def frame(dst: str, ether_type: int = 0x0800, src: str = SRC) -> bytes:
    return bytes(Ether(dst=dst, src=src, type=ether_type) / (b"\x00" * 46))


def connect(shell):
    return shell(str(p4info_path("replication")), str(json_path("replication")))


def known_source(sh, mac: str = SRC) -> None:
    smac = sh.TableEntry("IngressImpl.smac")(action="NoAction")
    smac.match["hdr.ethernet.src_addr"] = mac
    smac.insert()


def l2(sh, dst: str, action: str, **params) -> None:
    te = sh.TableEntry("IngressImpl.l2")(action=action)
    te.match["hdr.ethernet.dst_addr"] = dst
    for name, value in params.items():
        te.action[name] = str(value)
    te.insert()


def test_multicast_group_replicates_and_reads_back(rig, shell):
    sh = connect(shell)
    known_source(sh)
    sh.MulticastGroupEntry(7).add(2, 0).add(3, 1).add(4, 2).insert()
    l2(sh, "ff:ff:ff:ff:ff:ff", "IngressImpl.flood", group=7)
    out = rig.send(1, frame("ff:ff:ff:ff:ff:ff"))
    assert sorted(port for port, _ in out) == [2, 3, 4]
    [group] = list(sh.MulticastGroupEntry().read())
    assert group.group_id == 7
    assert sorted((r.egress_port, r.instance) for r in group.replicas) == [
        (2, 0), (3, 1), (4, 2)]
    sh.MulticastGroupEntry(7).add(5, 0).modify()
    assert [port for port, _ in rig.send(1, frame("ff:ff:ff:ff:ff:ff"))] == [5]
    sh.MulticastGroupEntry(7).delete()
    assert list(sh.MulticastGroupEntry().read()) == []


def test_clone_session_copies_to_its_port(rig, shell):
    sh = connect(shell)
    known_source(sh)
    l2(sh, "00:00:00:00:00:02", "IngressImpl.unicast", port=2)
    sh.CloneSessionEntry(5).add(4).insert()
    out = dict(rig.send(1, frame("00:00:00:00:00:02", ether_type=0x9001)))
    assert set(out) == {2, 4}
    assert Ether(out[4]).src == "00:00:00:00:c1:0e"     # the I2E clone is tagged
    assert Ether(out[2]).src == SRC
    [session] = list(sh.CloneSessionEntry(5).read())
    assert [(r.egress_port, r.instance) for r in session.replicas] == [(4, 0)]


def test_clone_session_with_several_replicas(rig, shell):
    sh = connect(shell)
    known_source(sh)
    l2(sh, "00:00:00:00:00:02", "IngressImpl.unicast", port=2)
    sh.CloneSessionEntry(5).add(4, 1).add(6, 2).insert()
    out = rig.send(1, frame("00:00:00:00:00:02", ether_type=0x9001))
    assert sorted(port for port, _ in out) == [2, 4, 6]
    [session] = list(sh.CloneSessionEntry(5).read())
    assert sorted((r.egress_port, r.instance) for r in session.replicas) == [(4, 1), (6, 2)]
    # The group serving the session is not a client multicast group.
    assert list(sh.MulticastGroupEntry().read()) == []
    sh.CloneSessionEntry(5).delete()
    assert sorted(port for port, _ in rig.send(
        1, frame("00:00:00:00:00:02", ether_type=0x9001))) == [2]


def test_packet_out_leaves_on_the_requested_port(rig, shell):
    sh = connect(shell)
    payload = frame("00:00:00:00:00:09")
    sh.PacketOut(payload, egress_port="3").send()
    out = rig.wait_for_outputs(1)
    assert out == [(3, payload)]


def test_packet_in_carries_the_ingress_port(rig, shell):
    sh = connect(shell)
    known_source(sh)
    packet_in = sh.PacketIn()
    sent = frame("00:00:00:00:00:42")     # l2 miss: default action to_cpu
    rig.send(6, sent)
    [msg] = list(packet_in.sniff(timeout=2))
    assert msg.packet.payload == sent
    metadata = {m.metadata_id: m.value for m in msg.packet.metadata}
    assert metadata == {1: b"\x06", 2: b"\x00"}


def test_digest_reaches_the_controller_once_until_acked(rig, shell):
    sh = connect(shell)
    digest = sh.DigestEntry("learn_t")
    digest.max_list_size = 1
    digest.ack_timeout_ns = 10_000_000_000
    digest.insert()
    l2(sh, "00:00:00:00:00:02", "IngressImpl.unicast", port=2)
    raw = RawClient(rig.address, election_id=None)
    [config] = raw.read(p4runtime_pb2.Entity(digest_entry=p4runtime_pb2.DigestEntry()))
    assert config.digest_entry.config.max_list_size == 1
    raw.close()
    lists = sh.DigestList()
    rig.send(3, frame("00:00:00:00:00:02", src="00:00:00:00:00:bb"))
    [msg] = list(lists.sniff(timeout=2))
    assert msg.digest.digest_id == ids("replication")["learn_t"]
    [data] = msg.digest.data
    src_addr, port = (m.bitstring for m in data.struct.members)
    assert src_addr == b"\xbb" and port == b"\x03"
    # p4runtime-shell acknowledged it: the same learn event is reported again.
    rig.send(3, frame("00:00:00:00:00:02", src="00:00:00:00:00:bb"))
    assert len(list(lists.sniff(timeout=2))) == 1


def test_unacknowledged_digest_is_suppressed(rig, client):
    client.set_pipeline("replication")
    n = ids("replication")
    entry = p4runtime_pb2.DigestEntry(digest_id=n["learn_t"])
    entry.config.max_list_size = 1
    entry.config.ack_timeout_ns = 10_000_000_000
    client.write(update("INSERT", digest_entry=entry))
    rig.send(3, frame("00:00:00:00:00:02", src="00:00:00:00:00:cc"))
    first = client.next_message("digest")
    rig.send(3, frame("00:00:00:00:00:02", src="00:00:00:00:00:cc"))
    rig.send(3, frame("00:00:00:00:00:02", src="00:00:00:00:00:dd"))
    second = client.next_message("digest")
    assert second.digest.data[0].struct.members[0].bitstring == b"\xdd"
    ack = p4runtime_pb2.StreamMessageRequest()
    ack.digest_ack.digest_id = first.digest.digest_id
    ack.digest_ack.list_id = first.digest.list_id
    client.send_stream(ack)
    # After the ack the learn event is reported again (the server handles the ack
    # before the next packet's digest: poll until it does).
    for _ in range(50):
        rig.send(3, frame("00:00:00:00:00:02", src="00:00:00:00:00:cc"))
        try:
            again = client.next_message("digest", timeout=0.1)
            break
        except queue.Empty:     # not acknowledged yet
            continue
    assert again.digest.data[0].struct.members[0].bitstring == b"\xcc"
