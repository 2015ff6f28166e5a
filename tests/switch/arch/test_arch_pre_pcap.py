"""Packet replication engine bookkeeping and the pcap writer/reader round trip."""

import pytest

from p4sim.switch.pcap import (
    PCAP_HEADER_SIZE,
    RECORD_HEADER_SIZE,
    PcapFormatError,
    PcapWriter,
    TruncatedPcapError,
    read_pcap,
    records,
)
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


def _written(path, frames):
    writer = PcapWriter(path)
    for i, frame in enumerate(frames):
        writer.write(frame, timestamp=10 + i / 4)
    writer.close()
    return path.read_bytes()


def test_records_give_each_frames_offsets(tmp_path):
    frames = [b"a" * 14, b"", b"b" * 60]
    data = _written(tmp_path / "p.pcap", frames)
    found = list(records(data))
    assert [data[r.start:r.end] for r in found] == frames
    assert [r.timestamp for r in found] == [10.0, 10.25, 10.5]
    assert found[0].start == PCAP_HEADER_SIZE + RECORD_HEADER_SIZE
    assert [r.end for r in found] == [PCAP_HEADER_SIZE + sum(RECORD_HEADER_SIZE + len(f)
                                                             for f in frames[:n + 1])
                                      for n in range(3)]
    assert found[-1].end == len(data)
    assert list(records(data[:PCAP_HEADER_SIZE])) == []   # header only: no records


@pytest.mark.parametrize("cut", [5, RECORD_HEADER_SIZE, RECORD_HEADER_SIZE + 59])
def test_a_truncated_final_record_is_an_error_after_the_whole_ones(tmp_path, cut):
    """Cut inside the last record's header or frame: the whole records come first, then
    an error naming the file, the record's offset and what is missing."""
    data = _written(tmp_path / "p.pcap", [b"a" * 14, b"b" * 60])
    last = PCAP_HEADER_SIZE + RECORD_HEADER_SIZE + 14
    walk = records(data[:last + cut], "cut.pcap")
    assert data[next(walk).start:last] == b"a" * 14
    with pytest.raises(TruncatedPcapError, match=f"cut.pcap: record at byte {last} truncated") \
            as caught:
        next(walk)
    assert caught.value.whole_end == last
    assert isinstance(caught.value, PcapFormatError)
    path = tmp_path / "cut.pcap"
    path.write_bytes(data[:last + cut])
    reader = read_pcap(path)
    assert next(reader)[1] == b"a" * 14
    with pytest.raises(TruncatedPcapError, match=str(path)):
        next(reader)


def test_records_reject_a_file_too_short_for_its_header():
    with pytest.raises(PcapFormatError, match="x.pcap: 3 bytes, too short") as caught:
        list(records(b"\xd4\xc3\xb2", "x.pcap"))
    assert not isinstance(caught.value, TruncatedPcapError)
