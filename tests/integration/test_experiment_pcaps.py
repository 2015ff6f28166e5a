"""control/experiment/pcaps.py: the experiment's per-port captures are found by the
names the switches give them, counted, and cut at the cap on a record boundary (still a
valid pcap holding the first packets). No root needed."""
from __future__ import annotations

import struct
from pathlib import Path

from control.experiment.pcaps import collect, summary
from control.launch import ROOT, FabricNetwork
from p4sim.switch.pcap import PCAP_HEADER_SIZE as PCAP_HEADER
from p4sim.switch.pcap import RECORD_HEADER_SIZE as RECORD_HEADER
from p4sim.switch.pcap import PcapWriter, read_pcap


def _write(path: Path, frames: list[bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = PcapWriter(path)
    for frame in frames:
        writer.write(frame)
    writer.close()


def test_collect_counts_caps_and_keeps_valid_pcaps(tmp_path):
    frames = [bytes([i]) * (100 + i) for i in range(10)]
    _write(tmp_path / "leaf1/leaf1-2_in.pcap", frames)
    _write(tmp_path / "leaf1/leaf1-2_out.pcap", frames[:2])
    _write(tmp_path / "spine1/spine1-1_out.pcap", [])
    _write(tmp_path / "spine1/not-a-port.pcap", frames)        # not <switch>-<port>_<dir>
    _write(tmp_path / "spine1/leaf1-1_in.pcap", frames)        # another switch's name
    # A switch killed mid-write leaves half a record at the end.
    with open(tmp_path / "leaf1/leaf1-2_out.pcap", "ab") as f:
        f.write(struct.pack("<IIII", 1, 0, 500, 500) + b"abc")
    cap = PCAP_HEADER + sum(RECORD_HEADER + len(f) for f in frames[:4]) + 50

    captures = collect(tmp_path, cap)

    assert [(c.switch, c.port, c.direction) for c in captures] == [
        ("leaf1", 2, "in"), ("leaf1", 2, "out"), ("spine1", 1, "out")]
    cut, partial, empty = captures
    assert (cut.packets, cut.written, cut.cut) == (4, 10, True)
    assert [frame for _t, frame in read_pcap(cut.path)] == frames[:4]
    assert cut.size == cut.path.stat().st_size <= cap
    assert (partial.packets, partial.written, partial.cut) == (2, 2, False)
    assert [frame for _t, frame in read_pcap(partial.path)] == frames[:2]
    assert (empty.packets, empty.size) == (0, PCAP_HEADER)
    assert summary(captures, cap).startswith("3 files, 6 packets")
    assert "1 files reached" in summary(captures, cap) and "6 packets cut" in summary(captures, cap)
    assert collect(tmp_path / "missing", cap) == []
    # A pcap flavour this reader does not know (here big-endian) is counted 0, never cut.
    odd = tmp_path / "other/leaf9/leaf9-1_in.pcap"
    odd.parent.mkdir(parents=True)
    odd.write_bytes(struct.pack(">IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1) + b"x" * 40)
    (other,) = collect(tmp_path / "other", cap)
    assert (other.packets, other.size) == (0, PCAP_HEADER + 40)



def test_a_partial_record_header_at_the_end_is_cut_off(tmp_path):
    """A switch stopped inside a record's header: the whole records stay, uncounted bytes go."""
    frames = [b"f" * 64, b"g" * 80]
    path = tmp_path / "s1/s1-1_out.pcap"
    _write(path, frames)
    whole = path.stat().st_size
    with open(path, "ab") as f:
        f.write(b"\x01\x02\x03\x04\x05")
    (capture,) = collect(tmp_path, 1 << 20)
    assert (capture.packets, capture.written, capture.cut) == (2, 2, False)
    assert capture.size == path.stat().st_size == whole
    assert [frame for _t, frame in read_pcap(path)] == frames

def test_launcher_passes_one_pcap_directory_per_switch(tmp_path):
    """``--pcap=DIR`` (BMv2 reads the directory only after "="), one per switch, so the
    files of switches that share the namespace stay apart; none without pcap_dir."""
    topology = ROOT / "topologies/leaf_spine.toml"
    captured = FabricNetwork(topology, tag="pcapt", pcap_dir=tmp_path / "pcaps",
                             log_dir=tmp_path / "logs")
    plain = FabricNetwork(topology, tag="pcapt", log_dir=tmp_path / "logs")
    for switch in captured.topology.switches:   # not entered: nothing to close
        argv = captured.switch_command(switch)
        assert [a for a in argv if a.startswith("--pcap")] == [
            f"--pcap={(tmp_path / 'pcaps' / switch.name).resolve()}"]
        assert argv.index(f"--pcap={(tmp_path / 'pcaps' / switch.name).resolve()}") < argv.index("--")
        assert not any(a.startswith("--pcap") for a in plain.switch_command(switch))
