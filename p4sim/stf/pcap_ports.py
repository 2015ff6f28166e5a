"""The packet side of an STF run on a switch process whose ports are pcap files
(simple_switch(_grpc) ``--use-files``), for tests whose packets no veth can carry.

A frame shorter than an Ethernet header (14 bytes) cannot be sent on a veth (the
kernel refuses it), yet many of p4c's own STF tests send such frames; p4c's runner
gives BMv2 pcap files instead, and so does this. The switch reads every input file
once, ``wait_s`` seconds after it starts, so this is a batch: every packet of the test
is written before the switch starts, the control-plane commands run within those
seconds (so they apply to every packet, whatever their place in the file), and
waiting for the switch to go idle means waiting until the outputs stop growing after
the files were read. Reads of switch state (counters, registers) wait for that too.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

from lab.namespace import Netns
from p4sim.stf.commands import Command, Expect, SendPacket
from p4sim.stf.target import TargetCommandError
from p4sim.switch.pcap import PcapFormatError, PcapWriter, records

SHORTEST_VETH_FRAME = 14  # an Ethernet header: the kernel sends nothing shorter on a veth
BASE_WAIT_S = 4           # --use-files seconds before the switch reads its inputs...
WAIT_PER_COMMAND_S = 0.1  # ...plus this per control-plane command to run first
QUIET_PERIOD_S = 0.5
IDLE_DEADLINE_S = 60.0
FRAME_SPACING_S = 0.001   # input stamps: in STF order, 1 ms apart
FIRST_STAMP_S = 1.0


def needs_files(statements: list[Command]) -> bool:
    """True when some packet sent, or some packet expected, may be too short for a veth
    (an expected pattern shorter than an Ethernet header may match a short packet)."""
    for s in statements:
        if isinstance(s, SendPacket) and len(s.data) < SHORTEST_VETH_FRAME:
            return True
        if isinstance(s, Expect) and s.pattern is not None and len(s.pattern) < 2 * SHORTEST_VETH_FRAME:
            return True
    return False


def wait_seconds(commands: int) -> int:
    """Whole seconds (as --use-files takes them) to leave for ``commands`` commands."""
    return BASE_WAIT_S + int(commands * WAIT_PER_COMMAND_S + 0.999)


class PcapPorts:
    """Namespace ``<prefix><pid>`` (no veths: it only isolates the switch's gRPC port)
    and a folder of ``p<N>_in.pcap`` / ``p<N>_out.pcap`` files, one pair per port.

    Construct with every packet of the test, start the switch inside (``command``, with
    ``interface_args``), call ``mark_started()`` once it has its program, then ``open()``."""

    def __init__(self, prefix: str, ports: list[int], packets: list[tuple[int, bytes]],
                 wait_s: int, quiet_period_s: float = QUIET_PERIOD_S) -> None:
        self.namespace = Netns(f"{prefix}{os.getpid()}", [])
        self._ports = list(ports)
        self.wait_s = wait_s
        self.quiet_period_s = quiet_period_s
        self._folder = Path(tempfile.mkdtemp(prefix="p4sim-stf-pcap-"))
        self._expected_sends = list(packets)
        self._sent = 0
        self._started: float | None = None
        self._packet_ins: list[tuple[int, bytes]] = []
        self._lock = threading.Lock()
        self._write_inputs(packets)
        self.namespace.__enter__()

    @property
    def ports(self) -> list[int]:
        return list(self._ports)

    def _prefix(self, port: int) -> str:
        return str(self._folder / f"p{port}")

    def _write_inputs(self, packets: list[tuple[int, bytes]]) -> None:
        writers = {port: PcapWriter(f"{self._prefix(port)}_in.pcap") for port in self._ports}
        try:
            for index, (port, data) in enumerate(packets):
                writers[port].write(data, FIRST_STAMP_S + index * FRAME_SPACING_S)
        finally:
            for writer in writers.values():
                writer.close()

    def interface_args(self) -> list[str]:
        """``--use-files S -i N@FOLDER/pN`` for every port."""
        args = ["--use-files", str(self.wait_s)]
        for port in self._ports:
            args += ["-i", f"{port}@{self._prefix(port)}"]
        return args

    def command(self, *args: str) -> list[str]:
        return self.namespace.command(*args)

    def mark_started(self) -> None:
        """The switch is up and has its program: its --use-files wait began no later than
        now (at its start, or at its configuration), so it reads the inputs no later
        than ``wait_s`` from now."""
        self._started = time.monotonic()

    def check_in_time(self, what: str) -> None:
        """Refuse a control-plane write made once the switch may have read its inputs:
        the packets would not see it (the test cannot run this way)."""
        if self._started is not None and time.monotonic() >= self._started + self.wait_s:
            raise TargetCommandError(f"{what} came {self.wait_s} s after the switch got its program, "
                                     "when it reads its input files: the packets would not see it")

    def open(self) -> None:
        """Nothing to open: the switch writes the output files itself."""

    def record(self, port: int, data: bytes) -> None:
        """Note a P4Runtime packet-in (it leaves through no file)."""
        with self._lock:
            self._packet_ins.append((port, data))

    def send(self, port: int, data: bytes) -> None:
        """The packet is already in its input file: check the STF order agrees."""
        if port not in self._ports:
            raise TargetCommandError(f"port {port} has no interface (ports: {self.ports})")
        index = self._sent
        self._sent += 1
        if index >= len(self._expected_sends) or self._expected_sends[index] != (port, data):
            raise TargetCommandError("packet not among those written to the input files")

    def wait_quiet(self, deadline_s: float = IDLE_DEADLINE_S) -> None:
        """A 'wait' between packets cannot be honoured (the switch reads every packet at
        once): the waiting happens before state is read and before the outputs are."""

    def settle(self, deadline_s: float = IDLE_DEADLINE_S) -> None:
        """Return once the switch read its inputs and its outputs stopped growing."""
        if self._started is None:
            return
        read_at = self._started + self.wait_s
        deadline = read_at + deadline_s
        last = self._output_sizes()
        quiet_since = time.monotonic()
        while True:
            now = time.monotonic()
            sizes = self._output_sizes()
            if sizes != last:
                last, quiet_since = sizes, now
            elif now >= read_at + self.quiet_period_s and now - quiet_since >= self.quiet_period_s:
                return
            if now >= deadline:
                raise TargetCommandError(f"the switch kept writing packets for {deadline_s:.0f} s")
            time.sleep(self.quiet_period_s / 5)  # re-check the files' sizes then

    def _output_sizes(self) -> list[int]:
        sizes = []
        for port in self._ports:
            try:
                sizes.append(os.path.getsize(f"{self._prefix(port)}_out.pcap"))
            except OSError:
                sizes.append(-1)
        return sizes

    def outputs(self) -> list[tuple[int, bytes]]:
        """Every frame the switch wrote, port by port, once it settled (or gave up)."""
        try:
            self.settle()
        except TargetCommandError:
            pass  # what it wrote so far is the output
        found: list[tuple[int, bytes]] = []
        for port in self._ports:
            path = Path(f"{self._prefix(port)}_out.pcap")
            if not path.exists():
                continue
            data = path.read_bytes()
            try:
                found += [(port, data[r.start:r.end]) for r in records(data, str(path))]
            except PcapFormatError as exc:
                raise TargetCommandError(f"{path}: {exc}") from None
        with self._lock:
            return found + list(self._packet_ins)

    def close(self) -> None:
        """Delete the namespace and the files."""
        self.namespace.close()
        shutil.rmtree(self._folder, ignore_errors=True)
