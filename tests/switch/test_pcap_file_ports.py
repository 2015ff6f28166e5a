"""``--use-files``: ports that are pcap files, frames of any length (BMv2's PcapFilesReader).

The in-process switch runs the short-frames corpus program fed from files; the CLI is
run as a process: it reads ``PREFIX_in.pcap`` after the wait, writes ``PREFIX_out.pcap``,
and refuses to start (as BMv2 exits) when an input file is missing.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from p4sim.stf.compile import compile_program
from p4sim.switch.pcap import PcapWriter, records
from p4sim.switch.pcap_files import PcapFilePorts, merged_frames
from p4sim.switch.switch import Switch

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SHORT_FRAMES = CORPUS / "375_short_frames.p4"
SWITCH = str(Path(sys.executable).with_name("p4sim-switch"))
DEADLINE_S = 30.0


def write_pcap(path: Path, frames: list[tuple[float, bytes]]) -> None:
    writer = PcapWriter(path)
    for stamp, frame in frames:
        writer.write(frame, stamp)
    writer.close()


def frames_in(path: Path) -> list[bytes]:
    data = path.read_bytes() if path.exists() else b""
    return [data[r.start:r.end] for r in records(data)] if data else []


def wait_for_frames(path: Path, count: int) -> list[bytes]:
    """The frames of ``path`` once it holds ``count`` of them (deadline DEADLINE_S)."""
    deadline = time.monotonic() + DEADLINE_S
    while True:
        found = frames_in(path)
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)  # polling the file, with a deadline


def test_frames_enter_in_stamp_order_ties_to_the_port_bound_first(tmp_path):
    write_pcap(tmp_path / "a_in.pcap", [(1.0, b"a1"), (3.0, b"a3")])
    write_pcap(tmp_path / "b_in.pcap", [(1.0, b"b1"), (2.0, b"b2")])
    order = merged_frames({7: str(tmp_path / "b"), 4: str(tmp_path / "a")})
    assert order == [(7, b"b1"), (4, b"a1"), (7, b"b2"), (4, b"a3")]


def test_frames_shorter_than_an_ethernet_header_go_through(tmp_path):
    prefixes = {port: str(tmp_path / f"p{port}") for port in (0, 1, 2)}
    write_pcap(tmp_path / "p0_in.pcap", [(1.0, bytes.fromhex("0500")), (1.1, bytes.fromhex("09")),
                                         (1.2, bytes.fromhex("0700aa"))])
    write_pcap(tmp_path / "p1_in.pcap", [])
    write_pcap(tmp_path / "p2_in.pcap", [])
    switch = Switch(ports={})
    switch.load_program(compile_program(str(SHORT_FRAMES), "p4sim"))
    switch.start()
    files = PcapFilePorts(switch, prefixes, 0)
    try:
        files.start()
        out1 = wait_for_frames(tmp_path / "p1_out.pcap", 2)
        out2 = wait_for_frames(tmp_path / "p2_out.pcap", 1)
    finally:
        switch.stop()
        files.close()
    assert out1 == [bytes.fromhex("0506"), bytes.fromhex("0708aa")]
    assert out2 == [bytes.fromhex("ee0109")]  # the marked header, then the unparsed byte
    assert frames_in(tmp_path / "p0_out.pcap") == []


def test_cli_reads_after_the_wait_and_writes_the_outputs(tmp_path):
    json_path = tmp_path / "prog.json"
    json_path.write_text(json.dumps(compile_program(str(SHORT_FRAMES), "p4sim")))
    write_pcap(tmp_path / "p0_in.pcap", [(1.0, bytes.fromhex("0500")), (1.1, bytes.fromhex("09"))])
    write_pcap(tmp_path / "p1_in.pcap", [])
    write_pcap(tmp_path / "p2_in.pcap", [])
    argv = [SWITCH, "--use-files", "0", "--no-grpc", str(json_path)]
    for port in (0, 1, 2):
        argv += ["-i", f"{port}@{tmp_path / f'p{port}'}"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out1 = wait_for_frames(tmp_path / "p1_out.pcap", 1)
        out2 = wait_for_frames(tmp_path / "p2_out.pcap", 1)
    finally:
        process.terminate()
        _stdout, stderr = process.communicate(timeout=30)
    assert out1 == [bytes.fromhex("0506")]
    assert out2 and out2[0][:2] == bytes.fromhex("ee01")
    assert frames_in(tmp_path / "p0_out.pcap") == []
    assert "--use-files has no effect" not in stderr


def test_cli_refuses_a_missing_input_file(tmp_path):
    done = subprocess.run([SWITCH, "--use-files", "0", "--no-grpc", "--no-p4",
                           "-i", f"0@{tmp_path / 'nothing'}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "no input file" in done.stderr and "nothing_in.pcap" in done.stderr
