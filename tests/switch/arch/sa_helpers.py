"""Shared helpers of the switch architecture tests: reference programs, collectors."""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from pathlib import Path

from p4sim.switch.switch import Switch

REFERENCE = Path("/work/shared/reference")
P4C_OUT = REFERENCE / "p4c-out"


def reference_json(name: str) -> dict:
    """What real p4c emitted for reference program `name`."""
    return json.loads((P4C_OUT / f"{name}.json").read_text())


class Collector:
    """Records every frame leaving the switch, per port, in order."""

    def __init__(self, switch: Switch) -> None:
        self._lock = threading.Lock()
        self.by_port: dict[int, list[bytes]] = defaultdict(list)
        self.order: list[tuple[int, bytes]] = []
        self.packet_ins: list[bytes] = []
        self.digests: list[tuple[str, tuple]] = []
        switch.add_output_listener(self._output)
        switch.add_packet_in_listener(self._packet_in)
        switch.add_digest_listener(self._digest)

    def _output(self, port: int, data: bytes) -> None:
        with self._lock:
            self.by_port[port].append(data)
            self.order.append((port, data))

    def _packet_in(self, data: bytes) -> None:
        with self._lock:
            self.packet_ins.append(data)

    def _digest(self, name: str, values: tuple) -> None:
        with self._lock:
            self.digests.append((name, values))

    def take(self) -> dict[int, list[bytes]]:
        """Frames seen since the last take(), per port."""
        with self._lock:
            seen = dict(self.by_port)
            self.by_port = defaultdict(list)
            self.order = []
            return seen
