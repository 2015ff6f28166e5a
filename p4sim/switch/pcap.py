"""Minimal writer and reader for the classic libpcap file format (Ethernet, µs stamps).

BMv2 writes `<port>_in.pcap` / `<port>_out.pcap` per port when given `--pcap DIR`; the
switch does the same with this writer.  The reader exists for tests and tools.
"""

from __future__ import annotations

import struct
import threading
import time
from pathlib import Path
from typing import BinaryIO, Iterator

PCAP_MAGIC_US = 0xA1B2C3D4
LINKTYPE_ETHERNET = 1
SNAPLEN = 65535
_GLOBAL_HEADER = struct.Struct("<IHHiIII")
_RECORD_HEADER = struct.Struct("<IIII")


class PcapFormatError(ValueError):
    """The file is not a little-endian microsecond pcap file we can read."""


class PcapWriter:
    """Appends frames to one pcap file; safe to call from several threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._file: BinaryIO = open(self.path, "wb")
        self._lock = threading.Lock()
        self._file.write(_GLOBAL_HEADER.pack(PCAP_MAGIC_US, 2, 4, 0, 0, SNAPLEN,
                                             LINKTYPE_ETHERNET))
        self._file.flush()

    def write(self, frame: bytes, timestamp: float | None = None) -> None:
        """Record one frame, stamped with `timestamp` (seconds since epoch) or now."""
        stamp = time.time() if timestamp is None else timestamp
        seconds = int(stamp)
        micros = int((stamp - seconds) * 1_000_000)
        captured = frame[:SNAPLEN]
        with self._lock:
            if self._file.closed:
                return
            self._file.write(_RECORD_HEADER.pack(seconds, micros, len(captured), len(frame)))
            self._file.write(captured)
            self._file.flush()

    def close(self) -> None:
        with self._lock:
            if not self._file.closed:
                self._file.close()


def read_pcap(path: str | Path) -> Iterator[tuple[float, bytes]]:
    """Yield (timestamp, frame) from a pcap file written by PcapWriter (or tcpdump -w)."""
    data = Path(path).read_bytes()
    if len(data) < _GLOBAL_HEADER.size:
        raise PcapFormatError(f"{path}: {len(data)} bytes, too short for a pcap header")
    magic = _GLOBAL_HEADER.unpack_from(data)[0]
    if magic != PCAP_MAGIC_US:
        raise PcapFormatError(f"{path}: magic {magic:#x} is not {PCAP_MAGIC_US:#x}")
    offset = _GLOBAL_HEADER.size
    while offset + _RECORD_HEADER.size <= len(data):
        seconds, micros, caplen, _wirelen = _RECORD_HEADER.unpack_from(data, offset)
        offset += _RECORD_HEADER.size
        if offset + caplen > len(data):
            raise PcapFormatError(f"{path}: record at byte {offset} truncated")
        yield seconds + micros / 1_000_000, data[offset:offset + caplen]
        offset += caplen
