"""Minimal writer and reader for the classic libpcap file format (Ethernet, µs stamps).

BMv2 writes `<port>_in.pcap` / `<port>_out.pcap` per port when given `--pcap DIR`; the
switch does the same with this writer.  The reader exists for tests and tools;
`records` is the one walk over a file's record offsets, for readers and for tools that
cut a capture on a record boundary.
"""

from __future__ import annotations

import struct
import threading
import time
from pathlib import Path
from typing import BinaryIO, Iterator, NamedTuple

PCAP_MAGIC_US = 0xA1B2C3D4
LINKTYPE_ETHERNET = 1
SNAPLEN = 65535
_GLOBAL_HEADER = struct.Struct("<IHHiIII")
_RECORD_HEADER = struct.Struct("<IIII")
PCAP_HEADER_SIZE = _GLOBAL_HEADER.size    # 24: the file's global header
RECORD_HEADER_SIZE = _RECORD_HEADER.size  # 16: each record's header, before its frame


class PcapFormatError(ValueError):
    """The file is not a little-endian microsecond pcap file we can read."""


class TruncatedPcapError(PcapFormatError):
    """The file ends inside a record (its writer stopped mid-write). ``whole_end`` is the
    byte offset after the last whole record: cut there, the file is a valid pcap."""

    def __init__(self, message: str, whole_end: int) -> None:
        super().__init__(message)
        self.whole_end = whole_end


class PcapRecord(NamedTuple):
    """Where one record's frame lies in the file's bytes, and when it was captured."""

    timestamp: float  # seconds since the epoch
    start: int        # offset of the frame's first byte
    end: int          # offset after the frame: where the next record's header starts


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


def records(data: bytes, source: str = "pcap") -> Iterator[PcapRecord]:
    """Each whole record of a pcap file's bytes, in order. A file that is not a
    little-endian microsecond pcap raises PcapFormatError before any record; one whose
    last record is cut short (header or frame) raises TruncatedPcapError after the whole
    ones. ``source`` names the file in the messages."""
    if len(data) < _GLOBAL_HEADER.size:
        raise PcapFormatError(f"{source}: {len(data)} bytes, too short for a pcap header")
    magic = _GLOBAL_HEADER.unpack_from(data)[0]
    if magic != PCAP_MAGIC_US:
        raise PcapFormatError(f"{source}: magic {magic:#x} is not {PCAP_MAGIC_US:#x}")
    offset, size = _GLOBAL_HEADER.size, len(data)
    while offset < size:
        start = offset + _RECORD_HEADER.size
        if start > size:
            raise TruncatedPcapError(f"{source}: record at byte {offset} truncated: "
                                     f"{size - offset} of its {_RECORD_HEADER.size} header "
                                     f"bytes", offset)
        seconds, micros, caplen, _wirelen = _RECORD_HEADER.unpack_from(data, offset)
        if start + caplen > size:
            raise TruncatedPcapError(f"{source}: record at byte {offset} truncated: "
                                     f"{size - start} of its {caplen} frame bytes", offset)
        yield PcapRecord(seconds + micros / 1_000_000, start, start + caplen)
        offset = start + caplen


def read_pcap(path: str | Path) -> Iterator[tuple[float, bytes]]:
    """Yield (timestamp, frame) from a pcap file written by PcapWriter (or tcpdump -w);
    errors as ``records``."""
    data = Path(path).read_bytes()
    for record in records(data, str(path)):
        yield record.timestamp, data[record.start:record.end]
