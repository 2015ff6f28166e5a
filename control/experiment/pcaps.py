"""The per-port packet captures of one experiment fabric, kept beside the report.

The captured setting's switches run with ``--pcap=<out>/pcaps/<switch>`` (the launcher's
``pcap_dir``), so each writes ``<interface>_in.pcap`` and ``<interface>_out.pcap`` per
port, as p4sim-switch and simple_switch_grpc both name them (interface ``leaf1-2`` is
leaf1's port 2). Once that fabric is down, a file longer than the plan's cap keeps its
first packets (cut at a record boundary, so it stays a valid pcap) and each file is
counted, so the report can say how much was captured and what was cut.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from p4sim.switch.pcap import PCAP_HEADER_SIZE, PcapFormatError, TruncatedPcapError, records

DIRECTIONS = ("in", "out")


@dataclass(frozen=True)
class Capture:
    """One port's capture of one direction, after the cap."""
    switch: str
    interface: str
    port: int
    direction: str      # "in": frames the switch received on the port; "out": it sent
    path: Path
    packets: int        # packets kept in the file
    written: int        # packets the switch wrote (more than kept when cut)
    size: int           # bytes of the file as kept

    @property
    def cut(self) -> bool:
        return self.written > self.packets


def _record_ends(path: Path) -> tuple[list[int], bool]:
    """Byte offset after each whole record, and whether the file ends in a partial one
    (a switch stopped mid-write). A file that is not a pcap this reader knows (another
    flavour, or none) has no records and nothing partial: counted 0, never cut."""
    ends: list[int] = []
    try:
        for record in records(path.read_bytes(), str(path)):
            ends.append(record.end)
    except TruncatedPcapError:
        return ends, True
    except PcapFormatError:
        return [], False
    return ends, False


def cap_file(path: Path, cap_bytes: int) -> tuple[int, int]:
    """Cut ``path`` after its last whole record within ``cap_bytes`` (and any partial
    record at its end); returns (packets kept, packets written)."""
    ends, partial = _record_ends(path)
    kept = [end for end in ends if end <= cap_bytes]
    if len(kept) < len(ends) or partial:
        os.truncate(path, kept[-1] if kept else PCAP_HEADER_SIZE)
    return len(kept), len(ends)


def _parse_name(switch: str, path: Path) -> tuple[str, int, str] | None:
    """(interface, port, direction) of ``<switch>-<port>_<in|out>.pcap``, else None."""
    interface, _, direction = path.stem.rpartition("_")
    prefix, _, port = interface.rpartition("-")
    if direction not in DIRECTIONS or prefix != switch or not port.isdigit():
        return None
    return interface, int(port), direction


def collect(root: Path, cap_bytes: int) -> list[Capture]:
    """Cap and count every ``root/<switch>/<interface>_<dir>.pcap``, by switch and port."""
    captures = []
    for directory in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        for path in sorted(directory.glob("*.pcap")):
            parsed = _parse_name(directory.name, path)
            if parsed is None:
                continue
            kept, written = cap_file(path, cap_bytes)
            captures.append(Capture(directory.name, parsed[0], parsed[1], parsed[2], path,
                                    kept, written, path.stat().st_size))
    return sorted(captures, key=lambda c: (c.switch, c.port, c.direction))


def summary(captures: list[Capture], cap_bytes: int) -> str:
    """One sentence: files, packets and megabytes kept, and what the cap cut."""
    cut = [c for c in captures if c.cut]
    text = (f"{len(captures)} files, {sum(c.packets for c in captures):,} packets, "
            f"{sum(c.size for c in captures) / 1e6:.1f} MB")
    if cut:
        text += (f"; {len(cut)} files reached the {cap_bytes / 1e6:.1f} MB cap and keep their "
                 f"first packets ({sum(c.written - c.packets for c in cut):,} packets cut)")
    return text
