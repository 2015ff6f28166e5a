"""The load on a domain's border links, from the switches' own egress port counters
(issue 15, item 3: available capacity in summaries).

fabric.p4 counts every packet it sends per egress port (``FabricEgress.port_tx``,
packets and bytes). A domain's controller reads that counter's entry for each of its
inter-domain link ends with a P4Runtime Read (reads need no arbitration, so this does
not disturb the controller's primary connection) and turns two readings into bits per
second with build.load_from_counter. The summary's capacity is then the link's rate
minus that load, and capacity-mode border choice sees the same figure for our own
end. The load is averaged over ``window_s`` (the oldest reading kept in that window to
the newest), so one burst does not flip the choice back and forth.
"""
from __future__ import annotations

import threading
import time
from collections import deque
from typing import Callable, Mapping

import grpc
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from control.p4rt.entities import P4Names
from control.peering.build import load_from_counter
from control.topology import Topology

PORT_TX = "FabricEgress.port_tx"
READ_TIMEOUT_S = 2.0
Reading = tuple[float, int]  # (monotonic seconds, bytes sent)


def read_counter(address: str, device_id: int, names: P4Names, counter: str, index: int,
                 timeout: float = READ_TIMEOUT_S) -> tuple[int, int]:
    """(packets, bytes) of ``counter[index]`` on the switch at ``address`` (one Read)."""
    entity = p4runtime_pb2.Entity(counter_entry=names.counter(counter, index))
    request = p4runtime_pb2.ReadRequest(device_id=device_id, entities=[entity])
    with grpc.insecure_channel(address) as channel:
        stub = p4runtime_pb2_grpc.P4RuntimeStub(channel)
        for response in stub.Read(request, timeout=timeout):
            for found in response.entities:
                if found.counter_entry.index.index == index:
                    data = found.counter_entry.data
                    return int(data.packet_count), int(data.byte_count)
    raise LookupError(f"{address}: no {counter}[{index}] in the Read answer")


def read_tx_bytes(address: str, device_id: int, names: P4Names, port: int,
                  timeout: float = READ_TIMEOUT_S) -> int:
    """Bytes the switch at ``address`` has sent out of ``port`` (port_tx[port])."""
    return read_counter(address, device_id, names, PORT_TX, port, timeout)[1]


class BorderLoad:
    """Bits per second sent on each of ``ends`` ("SWITCH:PORT"), kept from readings
    taken every ``interval`` s by a thread of its own (``sample`` takes one by hand)."""

    def __init__(self, topo: Topology, names: P4Names, ends: list[str], *,
                 interval: float = 0.25, window_s: float = 1.0,
                 read: Callable[[str, int], int] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        """``read``: (switch, port) -> bytes sent (default: a P4Runtime Read of the
        switch's port_tx); ``clock``: the readings' time."""
        self.topo, self.names = topo, names
        self.ends = list(ends)
        self.interval, self.window_s = interval, window_s
        self._read = read or self._read_switch
        self._clock = clock
        self._readings: dict[str, deque[Reading]] = {end: deque() for end in self.ends}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.errors: dict[str, str] = {}  # end -> the last read's failure (gone when one works)

    def _read_switch(self, switch: str, port: int) -> int:
        sw = self.topo.switch(switch)
        return read_tx_bytes(sw.grpc, sw.device_id, self.names, port)

    def sample(self) -> None:
        """One reading of every end (an end whose switch does not answer is skipped:
        its load stays what the readings in the window say)."""
        for end in self.ends:
            switch, _, port = end.rpartition(":")
            try:
                sent = self._read(switch, int(port))
            except (grpc.RpcError, LookupError, OSError) as exc:
                self.errors[end] = str(exc)
                continue
            self.errors.pop(end, None)
            now = self._clock()
            with self._lock:
                readings = self._readings[end]
                if readings and sent < readings[-1][1]:
                    readings.clear()  # the switch restarted: its counters began again
                readings.append((now, sent))
                while len(readings) > 2 and now - readings[1][0] >= self.window_s:
                    readings.popleft()

    def load_bps(self) -> dict[str, int]:
        """Each end with two readings or more -> its load over the window (bit/s)."""
        loads = {}
        with self._lock:
            for end, readings in self._readings.items():
                if len(readings) >= 2 and readings[-1][0] > readings[0][0]:
                    (t0, b0), (t1, b1) = readings[0], readings[-1]
                    loads[end] = load_from_counter(b0, b1, t1 - t0)
        return loads

    def available_bps(self, rates: Mapping[str, int]) -> dict[str, int]:
        """``rates`` (end -> link rate, bit/s) less the measured load, for ends measured."""
        return {end: max(0, rates[end] - load) for end, load in self.load_bps().items()
                if end in rates}

    def start(self) -> "BorderLoad":
        self._thread = threading.Thread(target=self._run, name="border-load", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            self.sample()
            if self._stop.wait(self.interval):
                return


__all__ = ["BorderLoad", "PORT_TX", "read_counter", "read_tx_bytes"]
