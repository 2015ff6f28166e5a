"""The simple_switch-like device: ports, traffic manager, PRE and the dataplane thread.

One dataplane thread does everything per packet (receive, ingress, queueing, egress,
transmit) in an event loop over the port sockets and a wake-up eventfd.  A single
thread avoids GIL hand-offs between Python threads, which would cost more than the
pipeline itself; queueing is still faithful because the traffic manager holds packets
until their departure time and egress only takes what is due.  After each ingress the
loop drains what became due, so an unlimited queue behaves as an idle BMv2 queue.

Frames are read from a socket a batch at a time, and what a batch produces is sent
at its end, a batch per port and system call (see _flush_tx).

Other threads talk to the loop through thread-safe deques (`inject`, `packet_out`) and a
lock around configuration changes.  Listeners run on the dataplane thread, after the
packet that produced their event, with no switch lock held.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable

from p4sim.switch.packet_dump import PacketDump
from p4sim.switch.packet_io import RawPort, open_ports
from p4sim.switch.pcap import PcapWriter
from p4sim.switch.pre import PacketReplicationEngine
from p4sim.switch.program import Program
from p4sim.switch.stats import SwitchStats
from p4sim.switch.traffic_manager import TrafficManager
from p4sim.switch.v1model import DROP_PORT, INSTANCE_NORMAL, V1ModelPipeline

log = logging.getLogger(__name__)

OutputListener = Callable[[int, bytes], None]
PacketInListener = Callable[[bytes], None]
DigestListener = Callable[[str, tuple], None]

INGRESS_BATCH = 64   # packets taken from one source before the loop looks elsewhere


class SwitchError(RuntimeError):
    """Misuse of the switch API (no CPU port, not started...)."""


class Switch:
    """A v1model switch as BMv2 simple_switch(_grpc) presents it."""

    def __init__(self, device_id: int = 0, ports: dict[int, str] | None = None,
                 cpu_port: int | None = None, priority_queues: int = 1,
                 queue_depth: int = 64, queue_rate: float | None = None,
                 pcap_dir: str | None = None, dump_packet_data: int = 0,
                 drop_port: int = DROP_PORT, common_clock: bool = False) -> None:
        self.device_id = device_id
        self.drop_port = drop_port   # egress_spec that drops (simple_switch's --drop-port)
        self.ports: dict[int, str] = dict(ports or {})
        self.cpu_port = cpu_port
        self.pcap_dir = pcap_dir
        self.dump_packet_data = dump_packet_data   # bytes of each port frame to log
        self.pre = PacketReplicationEngine()
        self.stats = SwitchStats()
        self._tm = TrafficManager(priority_queues, queue_depth, queue_rate)
        self._config_lock = threading.Lock()     # TM + pipeline swaps vs the loop
        self._idle_lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._external: deque = deque()          # (port, data) from inject/packet_out
        self._internal: deque = deque()          # resubmitted/recirculated packets
        self._events: deque = deque()            # (listeners, args) awaiting delivery
        self._pipeline: V1ModelPipeline | None = None
        self._program: Program | None = None
        self._output_listeners: list[OutputListener] = []
        self._packet_in_listeners: list[PacketInListener] = []
        self._digest_listeners: list[DigestListener] = []
        self._raw_ports: dict[int, RawPort] = {}
        self._tx_pending: list[tuple[RawPort, bytes]] = []   # sent at the end of a batch
        # Frames a full send buffer refused, per port, sent once it is writable; the
        # port's queues are paused meanwhile (dataplane thread only).
        self._tx_held: dict[int, tuple[RawPort, list[bytes]]] = {}
        self._pcaps_in: dict[int, PcapWriter | PacketDump] = {}
        self._pcaps_out: dict[int, PcapWriter | PacketDump] = {}
        self._wake_fd = -1
        self._sleeping = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        # BMv2 counts from its own start; common_clock (a p4sim extension) counts from
        # the host's boot (CLOCK_MONOTONIC), the same origin for every switch on it.
        self._clock_origin_ns = 0 if common_clock else time.monotonic_ns()

    # -- program -------------------------------------------------------------------------
    def load_program(self, json_obj: dict | None) -> None:
        """Load BMv2 JSON (or None for no program); fresh tables, PRE and queues.

        The new program is built before anything is swapped, so a JSON that fails to
        load (LoadError) leaves the running program untouched.
        """
        program = (Program.load(json_obj, drop_port=self.drop_port)
                   if json_obj is not None else None)
        with self._config_lock:
            dropped = self._tm.clear()
            if dropped:
                log.info("pipeline swap: dropped %d queued packets", dropped)
            self._internal.clear()
            self.pre.reset()
            self._program = program
            self._pipeline = (V1ModelPipeline(program, self.pre, self._tm, self.stats, self)
                              if program is not None else None)

    @property
    def program(self) -> Program | None:
        return self._program

    @property
    def runtime(self) -> Any:
        return self._program.runtime if self._program is not None else None

    # -- packets in ------------------------------------------------------------------------
    def inject(self, port: int, data: bytes) -> None:
        """A frame arriving on `port` (in-process tests, STF runner)."""
        with self._idle_lock:
            self._idle.clear()
            self._external.append((port, bytes(data)))
        if self._sleeping:
            self._wake()

    def packet_out(self, data: bytes) -> None:
        """A PacketOut from the controller: enters ingress on the CPU port."""
        if self.cpu_port is None:
            raise SwitchError("packet_out needs a CPU port (start with --cpu-port)")
        self.inject(self.cpu_port, data)

    # -- listeners -------------------------------------------------------------------------
    def add_output_listener(self, fn: OutputListener) -> None:
        """fn(port, frame) for every frame leaving a (non-CPU) port."""
        self._output_listeners.append(fn)

    def add_packet_in_listener(self, fn: PacketInListener) -> None:
        """fn(frame) for every frame the pipeline sends to the CPU port."""
        self._packet_in_listeners.append(fn)

    def add_digest_listener(self, fn: DigestListener) -> None:
        """fn(learn list name, values) for every digest generated in ingress."""
        self._digest_listeners.append(fn)

    # -- queues ----------------------------------------------------------------------------
    def set_queue_depth(self, depth: int, port: int | None = None,
                        priority: int | None = None) -> None:
        """Capacity in packets of one queue, a port's queues or all queues."""
        with self._config_lock:
            self._tm.set_depth(depth, port, priority)

    def set_queue_rate(self, pps: float | None, port: int | None = None,
                       priority: int | None = None) -> None:
        """Drain rate in packets per second (0 or None: unlimited)."""
        with self._config_lock:
            self._tm.set_rate(pps, port, priority)
        self._wake()

    def queue_config(self, port: int, priority: int = 0) -> tuple[int, float | None]:
        with self._config_lock:
            return self._tm.queue_config(port, priority)

    @property
    def priority_queues(self) -> int:
        return self._tm.priority_queues

    # -- life cycle --------------------------------------------------------------------------
    def start(self) -> None:
        """Open the port sockets and pcap files, then start the dataplane thread."""
        if self._thread is not None:
            raise SwitchError("switch already started")
        self._raw_ports = open_ports(self.ports)
        try:
            self._open_pcaps()
        except OSError:
            self._close_io()
            raise
        self._wake_fd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name=f"p4sim-dp{self.device_id}",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the dataplane thread and close sockets and files (idempotent)."""
        thread = self._thread
        if thread is None:
            return
        self._stopping = True
        self._wake()
        thread.join()
        self._thread = None
        os.close(self._wake_fd)
        self._wake_fd = -1
        self._close_io()

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """True once every injected packet (and its copies) left or was dropped."""
        return self._idle.wait(timeout)

    def port_counters(self) -> dict[int, dict]:
        """Per-interface socket counters (rx, tx, runts, errors, kernel drops)."""
        return {port: vars(raw.counters_now()).copy()
                for port, raw in list(self._raw_ports.items())}

    def __enter__(self) -> "Switch":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- V1ModelHost -------------------------------------------------------------------------
    def now_ns(self) -> int:
        """Nanoseconds since the switch was created (timestamps start at 0, as BMv2),
        or with common_clock since the host booted (comparable across switches)."""
        return time.monotonic_ns() - self._clock_origin_ns

    def transmit(self, port: int, data: bytes) -> None:
        self.stats.tx[port] += 1
        if port == self.cpu_port:
            self.stats.packet_ins += 1
            if self._packet_in_listeners:
                self._events.append((self._packet_in_listeners, (data,)))
            return
        raw = self._raw_ports.get(port)
        if raw is not None:
            self._tx_pending.append((raw, data))
        pcap = self._pcaps_out.get(port)
        if pcap is not None:
            pcap.write(data)
        if self._output_listeners:
            self._events.append((self._output_listeners, (port, data)))

    def reinject(self, port: int, data: bytes, instance_type: int,
                 preserved: dict | None) -> None:
        self._internal.append((port, data, instance_type, preserved))

    def digest(self, name: str, values: tuple[int, ...]) -> None:
        if self._digest_listeners:
            self._events.append((self._digest_listeners, (name, values)))

    # -- dataplane thread ----------------------------------------------------------------------
    def _run(self) -> None:
        # select() rather than epoll: its timeout has microsecond resolution, where
        # epoll rounds up to whole milliseconds and would make rate-limited queues late.
        readers = {raw.fileno(): raw for raw in self._raw_ports.values()}
        fds = [self._wake_fd, *readers]
        while not self._stopping:
            try:
                self._iterate(fds, readers)
            except Exception:  # the loop must survive anything a packet triggers
                self.stats.internal_errors += 1
                log.exception("dataplane loop error (continuing)")

    def _iterate(self, fds: list[int], readers: dict[int, RawPort]) -> None:
        timeout = self._poll_timeout()
        self._sleeping = timeout != 0
        if self._sleeping and (self._external or self._internal or self._stopping):
            timeout = 0
        held = self._tx_held
        writers = [raw.fileno() for raw, _frames in held.values()]
        ready, writable, _x = select.select(fds, writers, (), timeout)
        self._sleeping = False
        for fd in writable:
            self._send_held(readers[fd])
        for fd in ready:
            raw = readers.get(fd)
            if raw is None:
                try:
                    os.eventfd_read(self._wake_fd)
                except BlockingIOError:
                    pass
                continue
            frames = raw.receive_batch()
            if frames:
                self._ingress_frames(raw.port, frames)
        for _ in range(INGRESS_BATCH):
            if self._internal:
                port, data, instance_type, preserved = self._internal.popleft()
                self._ingress(port, data, instance_type, preserved)
            elif self._external:
                port, data = self._external.popleft()
                self._ingress(port, data)
            else:
                break
        with self._config_lock:
            self._drain()
        self._flush_tx()
        self._deliver_events()

    def _poll_timeout(self) -> float | None:
        """0 when work is waiting, else the time to the next departure (None: forever)."""
        if self._external or self._internal:
            return 0
        with self._config_lock:
            next_ns = self._tm.next_departure_ns()
            if next_ns is None:
                with self._idle_lock:
                    if not self._external and not self._internal and not self._tx_held \
                            and not self._idle.is_set():
                        self._idle.set()
                return None
        delay = next_ns - self.now_ns()
        return max(delay, 0) / 1e9

    def _ingress(self, port: int, data: bytes, instance_type: int = INSTANCE_NORMAL,
                 preserved: dict | None = None) -> None:
        with self._config_lock:
            pipeline = self._pipeline
            if instance_type == INSTANCE_NORMAL:
                self.stats.rx[port] += 1
                pcap = self._pcaps_in.get(port)
                if pcap is not None:
                    pcap.write(data)
            if pipeline is None:
                self.stats.no_program_drops += 1
                return
            pipeline.ingress(port, data, instance_type, preserved)
            self._drain()
        self._flush_tx()
        self._deliver_events()

    def _ingress_frames(self, port: int, frames: list[bytes]) -> None:
        """Frames read from one port's socket, under one lock acquisition."""
        with self._config_lock:
            pipeline = self._pipeline
            self.stats.rx[port] += len(frames)
            pcap = self._pcaps_in.get(port)
            if pipeline is None:
                self.stats.no_program_drops += len(frames)
            tm = self._tm
            for data in frames:
                if pcap is not None:
                    pcap.write(data)
                if pipeline is None:
                    continue
                try:
                    pipeline.ingress(port, data)
                    if tm.total:
                        self._drain()
                except Exception:  # one bad packet must not cost the rest of the batch
                    self.stats.internal_errors += 1
                    log.exception("dataplane error on a packet from port %d: %s",
                                  port, data[:64].hex())
        self._flush_tx()
        self._deliver_events()

    def _flush_tx(self) -> None:
        """Send the frames a batch produced, back to back.

        Sending them together (one sendmmsg per port) rather than one per pipeline
        run means a receiver asleep on the other end is woken once per batch, not once
        per frame: on a VM that wake-up (an inter-processor interrupt) costs as much
        as a third of the pipeline.  Frames of a port keep their order; at low load a
        batch is one frame.
        """
        pending = self._tx_pending
        if not pending:
            return
        if len(pending) == 1:
            raw, data = pending[0]
            self._send_port(raw, [data])
        else:
            by_port: dict[int, tuple[RawPort, list[bytes]]] = {}
            for raw, data in pending:
                entry = by_port.get(raw.port)
                if entry is None:
                    by_port[raw.port] = (raw, [data])
                else:
                    entry[1].append(data)
            for raw, frames in by_port.values():
                self._send_port(raw, frames)
        pending.clear()

    def _send_port(self, raw: RawPort, frames: list[bytes]) -> None:
        """Send in order behind any frames already held for the port; what a full
        send buffer refuses is held and the port's queues pause (backpressure)."""
        held = self._tx_held.get(raw.port)
        if held is not None:
            held[1].extend(frames)
            return
        refused = raw.send_many(frames)
        if refused:
            self._tx_held[raw.port] = (raw, refused)
            with self._config_lock:
                self._tm.pause(raw.port)

    def _send_held(self, raw: RawPort) -> None:
        """The port's socket is writable again: send what it held; once all of it
        went, its queues drain again."""
        entry = self._tx_held.get(raw.port)
        if entry is None:
            return
        refused = raw.send_many(entry[1])
        if refused:
            self._tx_held[raw.port] = (raw, refused)
            return
        del self._tx_held[raw.port]
        with self._config_lock:
            self._tm.resume(raw.port)

    def _deliver_events(self) -> None:
        """Call the listeners for what the pipeline produced, without the config lock
        held, so that a listener may reconfigure the switch (or wait on another thread
        that does) without deadlocking the dataplane."""
        events = self._events
        while events:
            listeners, args = events.popleft()
            for fn in listeners:
                self._call_listener(fn, *args)

    def _drain(self) -> None:
        """Run egress for every packet whose departure time has come (lock held)."""
        pipeline = self._pipeline
        if pipeline is None or not self._tm.total:
            return
        for port, _priority, item, depth in self._tm.pop_ready(self.now_ns()):
            pipeline.egress(port, item, depth)

    def _wake(self) -> None:
        fd = self._wake_fd
        if fd >= 0:
            try:
                os.eventfd_write(fd, 1)
            except OSError:
                pass  # closed concurrently by stop(); nothing left to wake

    def _call_listener(self, fn: Callable, *args: Any) -> None:
        try:
            fn(*args)
        except Exception:
            log.exception("listener %r failed", fn)

    # -- files and sockets ------------------------------------------------------------------
    def _open_pcaps(self) -> None:
        """Per-port taps: pcap files (--pcap) and/or packet dumps (--dump-packet-data)."""
        dump = self.dump_packet_data
        if not self.pcap_dir and not dump:
            return
        directory = Path(self.pcap_dir) if self.pcap_dir else None
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
        for port, iface in sorted(self.ports.items()):
            pcap_in = pcap_out = None
            if directory is not None:
                pcap_in = PcapWriter(directory / f"{iface}_in.pcap")
                pcap_out = PcapWriter(directory / f"{iface}_out.pcap")
            tap_in: PcapWriter | PacketDump | None = pcap_in
            tap_out: PcapWriter | PacketDump | None = pcap_out
            if dump:
                tap_in = PacketDump(port, True, dump, pcap_in)
                tap_out = PacketDump(port, False, dump, pcap_out)
            if tap_in is not None and tap_out is not None:
                self._pcaps_in[port], self._pcaps_out[port] = tap_in, tap_out

    def _close_io(self) -> None:
        for raw in self._raw_ports.values():
            raw.close()
        self._raw_ports = {}
        for pcap in (*self._pcaps_in.values(), *self._pcaps_out.values()):
            pcap.close()
        self._pcaps_in = {}
        self._pcaps_out = {}
