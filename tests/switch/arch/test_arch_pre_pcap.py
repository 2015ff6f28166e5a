"""Packet replication engine bookkeeping and the pcap writer/reader round trip."""

import pytest

from p4sim.switch.pcap import PcapFormatError, PcapWriter, read_pcap
from p4sim.switch.pre import CloneSession, PacketReplicationEngine, PreError


def test_group_life_cycle():
    pre = PacketReplicationEngine()
    pre.create_group(1)
    pre.set_group_replicas(1, [(1, 0), (2, 7)])
    assert pre.groups() == {1: [(1, 0), (2, 7)]}
    assert pre.replicas(1) == ((1, 0), (2, 7))
    pre.delete_group(1)
    assert pre.groups() == {}
    assert pre.replicas(1) == ()


def test_group_errors():
    pre = PacketReplicationEngine()
    with pytest.raises(PreError, match="out of range"):
        pre.create_group(0)
    pre.create_group(3)
    with pytest.raises(PreError, match="already exists"):
        pre.create_group(3)
    with pytest.raises(PreError, match="does not exist"):
        pre.set_group_replicas(4, [(1, 1)])
    with pytest.raises(PreError, match="duplicate replica"):
        pre.set_group_replicas(3, [(1, 1), (1, 1)])
    with pytest.raises(PreError, match="does not exist"):
        pre.delete_group(9)
    assert pre.groups() == {3: []}


def test_clone_sessions():
    pre = PacketReplicationEngine()
    pre.set_clone_session(5, CloneSession(port=4, truncate=32))
    pre.set_clone_session(6, CloneSession(mcast_grp=2))
    assert pre.clone_session(5).truncate == 32
    assert set(pre.clone_sessions()) == {5, 6}
    pre.delete_clone_session(5)
    assert pre.clone_session(5) is None
    with pytest.raises(PreError, match="does not exist"):
        pre.delete_clone_session(5)
    with pytest.raises(PreError, match="port or a multicast group"):
        CloneSession()
    pre.reset()
    assert pre.clone_sessions() == {}


def test_pcap_round_trip(tmp_path):
    path = tmp_path / "p.pcap"
    writer = PcapWriter(path)
    frames = [bytes(range(20)), b"\xff" * 60]
    writer.write(frames[0], timestamp=1.5)
    writer.write(frames[1])
    writer.close()
    records = list(read_pcap(path))
    assert [frame for _ts, frame in records] == frames
    assert records[0][0] == pytest.approx(1.5)
    header = path.read_bytes()[:24]
    assert header[:4] == bytes.fromhex("d4c3b2a1")       # little-endian magic
    assert int.from_bytes(header[20:24], "little") == 1  # LINKTYPE_ETHERNET


def test_pcap_reader_rejects_other_files(tmp_path):
    path = tmp_path / "bad.pcap"
    path.write_bytes(b"not a pcap file at all, clearly")
    with pytest.raises(PcapFormatError, match="magic"):
        list(read_pcap(path))
