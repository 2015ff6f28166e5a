"""Ports that are pcap files, as simple_switch(_grpc) ``--use-files SECONDS`` makes them.

With ``-i N@PREFIX`` port N reads ``PREFIX_in.pcap`` and writes ``PREFIX_out.pcap``.
As in BMv2 (its PcapFilesReader): every input file must exist when the switch starts
and the output files are created then; the inputs are read once the given seconds have
passed (the time a controller has to load the program and its entries), and their
frames enter in timestamp order across ports, ties going to the port bound first.
Frames of any length travel this way, even ones shorter than an Ethernet header,
which no veth carries: that is why p4c's STF runner uses files.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable, Protocol

from p4sim.switch.pcap import PcapFormatError, PcapWriter, records

LOG = logging.getLogger("p4sim.switch")


class FileSwitch(Protocol):
    """What these ports need of the switch."""

    def inject(self, port: int, data: bytes) -> None: ...

    def add_output_listener(self, fn: Callable[[int, bytes], None]) -> None: ...


def input_path(prefix: str) -> Path:
    return Path(f"{prefix}_in.pcap")


def output_path(prefix: str) -> Path:
    return Path(f"{prefix}_out.pcap")


def merged_frames(prefixes: dict[int, str]) -> list[tuple[int, bytes]]:
    """(port, frame) of every input file, earliest first; equal stamps keep the order
    of ``prefixes`` (the -i order), a file's own frames keep theirs."""
    stamped: list[tuple[float, int, int, int, bytes]] = []
    for rank, (port, prefix) in enumerate(prefixes.items()):
        path = input_path(prefix)
        data = path.read_bytes()
        for seq, record in enumerate(records(data, str(path))):
            stamped.append((record.timestamp, rank, seq, port, data[record.start:record.end]))
    stamped.sort(key=lambda item: item[:3])
    return [(port, frame) for _stamp, _rank, _seq, port, frame in stamped]


class PcapFilePorts:
    """Feeds a started switch from the input files and records what it sends."""

    def __init__(self, switch: FileSwitch, prefixes: dict[int, str], wait_s: float) -> None:
        if wait_s < 0:
            raise ValueError("--use-files needs a number of seconds >= 0")
        self.switch = switch
        self.prefixes = dict(prefixes)
        self.wait_s = wait_s
        self._writers: dict[int, PcapWriter] = {}
        self._stop = threading.Event()
        self._feeder: threading.Thread | None = None

    def start(self) -> None:
        """Check the inputs exist, create the outputs, and start the feeding thread.
        Raises OSError (as BMv2 exits) when an input file is missing."""
        for prefix in self.prefixes.values():
            path = input_path(prefix)
            if not path.is_file():
                raise FileNotFoundError(f"--use-files: no input file {path}")
        self._writers = {port: PcapWriter(output_path(prefix))
                         for port, prefix in self.prefixes.items()}
        self.switch.add_output_listener(self._record)
        self._feeder = threading.Thread(target=self._feed, name="p4sim-pcap-files", daemon=True)
        self._feeder.start()

    def _record(self, port: int, data: bytes) -> None:
        writer = self._writers.get(port)
        if writer is not None:  # BMv2 too drops frames for a port with no file
            writer.write(data)

    def _feed(self) -> None:
        if self._stop.wait(self.wait_s):
            return
        try:
            frames = merged_frames(self.prefixes)
        except (OSError, PcapFormatError) as exc:
            LOG.error("--use-files: cannot read the input files: %s", exc)
            return
        LOG.info("--use-files: %d frame(s) from %d file(s)", len(frames), len(self.prefixes))
        for port, frame in frames:
            if self._stop.is_set():
                return
            self.switch.inject(port, frame)

    def close(self) -> None:
        self._stop.set()
        if self._feeder is not None:
            self._feeder.join(timeout=5)
        for writer in self._writers.values():
            writer.close()
