"""Watches the switch-side interfaces' operstate and reports changes to the controller.

p4sim-switch and simple_switch_grpc ports are Linux interfaces; when a veth's peer
goes down, the switch-side interface's /sys/class/net/<iface>/operstate leaves "up".
The watcher runs where those interfaces are visible (the switches' namespace) and maps
(switch, port) to an interface with a format string, e.g. "{switch}-p{port}".
"""
from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Callable

log = logging.getLogger(__name__)

PortChange = Callable[[str, int, bool, float], None]  # (switch, port, up, detected_at)


def read_operstate(iface: str, sys_net: Path = Path("/sys/class/net")) -> bool | None:
    """True if up, False if down, None if the interface does not exist."""
    try:
        state = (sys_net / iface / "operstate").read_text().strip()
    except FileNotFoundError:
        return None
    return state in ("up", "unknown")  # "unknown": loopback-like devices without carrier


class OperstateWatcher:
    def __init__(self, ports: dict[tuple[str, int], str], on_change: PortChange,
                 interval: float = 0.05, sys_net: Path = Path("/sys/class/net")):
        self.ports = dict(ports)  # (switch, port) -> interface name
        self._on_change = on_change
        self._interval = interval
        self._sys_net = sys_net
        self._state: dict[tuple[str, int], bool] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def poll_once(self) -> None:
        """Read every interface once; report transitions (a missing interface is down)."""
        now = time.monotonic()
        for key, iface in self.ports.items():
            up = bool(read_operstate(iface, self._sys_net))
            if self._state.get(key, True) != up:
                log.info("%s:%d (%s) is %s", key[0], key[1], iface, "up" if up else "down")
                self._on_change(key[0], key[1], up, now)
            self._state[key] = up

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="operstate-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.poll_once()
            self._stop.wait(self._interval)
