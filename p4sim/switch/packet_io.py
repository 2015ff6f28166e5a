"""Raw Ethernet I/O on Linux interfaces through AF_PACKET sockets.

Each switch port is one non-blocking AF_PACKET socket bound to its interface in
promiscuous mode.  Copies of frames the host itself sends on the interface (including
the ones this switch transmits) are not wanted: the kernel drops them for us
(PACKET_IGNORE_OUTGOING) or, on old kernels, they are skipped by packet type.
Receiving never raises for a bad frame: runts are counted and skipped; a failed send is
counted.  Every frame the interface delivers is carried whole, as BMv2 does: it reads
ports through libpcap with no snapshot length set, i.e. libpcap's maximum of 262144
bytes, and drops (never truncates) a frame whose capture came back shorter.  The
receive buffers are sized from the interface's MTU when the port opens (a veth never
delivers more); a longer frame (the MTU was raised later) is dropped and counted as
rx_oversized, and the buffers grow to fit the next one.
The kernel strips a received 802.1Q tag into the packet's auxiliary data; it is put
back, so the pipeline parses VLAN frames as they were on the wire (libpcap does the
same for BMv2).  Frames are read and written a batch per system call (recvmmsg,
sendmmsg: see batch_receive and batch_send) where the C library allows, else one by
one; both paths give the same frames and counters.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import socket
import struct
import sys
import threading
from dataclasses import dataclass, field

from p4sim.switch.batch_receive import BatchReceiver
from p4sim.switch.batch_send import BatchSender

log = logging.getLogger(__name__)

ETH_P_ALL = 0x0003
SOL_PACKET = 263
PACKET_ADD_MEMBERSHIP = 1
PACKET_MR_PROMISC = 1
PACKET_OUTGOING = 4
PACKET_IGNORE_OUTGOING = 23   # Linux >= 4.20: the kernel drops the outgoing copies for us
PACKET_AUXDATA = 8
PACKET_STATISTICS = 6         # struct tpacket_stats; reading it resets the kernel's copy
TPACKET_STATS = struct.Struct("=II")   # tp_packets, tp_drops
TP_STATUS_VLAN_VALID = 0x10
TP_STATUS_VLAN_TPID_VALID = 0x40
ETH_P_8021Q = 0x8100
AUXDATA = struct.Struct("=IIIHHHH")   # struct tpacket_auxdata
AUX_SPACE = socket.CMSG_SPACE(AUXDATA.size)
# The byte of tpacket_auxdata.tp_status (a native-endian u32) holding the VLAN bits,
# so that the common untagged frame costs one index instead of an unpack.
_STATUS_VLAN_BYTE = 0 if sys.byteorder == "little" else 3
MIN_FRAME = 14           # an Ethernet header; anything shorter is a runt
MAX_FRAME = 262144       # BMv2's libpcap snapshot length: no target reads a longer frame
FRAME_OVERHEAD = 18      # Ethernet header and one VLAN tag on top of the MTU
DEFAULT_CAPACITY = 9216 + FRAME_OVERHEAD   # when the MTU cannot be read
SIOCGIFMTU = 0x8921
MSG_TRUNC = 0x20
RECV_BATCH = 64          # frames read from one socket before looking at others
SOCKET_BUFFER = 4 * 1024 * 1024
SO_RCVBUFFORCE = 33


class PacketIOError(OSError):
    """An interface could not be opened (missing, no permission...)."""


@dataclass
class PortCounters:
    rx: int = 0
    tx: int = 0
    rx_runts: int = 0
    rx_oversized: int = 0      # longer than the receive buffers: dropped, as BMv2 does
    rx_errors: int = 0
    tx_errors: int = 0
    tx_blocked: int = 0        # sends refused for a full send buffer (the frames were held)
    rx_socket_drops: int = 0   # frames the kernel dropped: the socket's buffer was full
    rx_calls: int = 0          # receive system calls that returned frames (rx / rx_calls
    tx_calls: int = 0          # and tx / tx_calls: how well frames are batched)


@dataclass
class RawPort:
    """One switch port bound to one interface."""

    port: int
    iface: str
    sock: socket.socket
    counters: PortCounters = field(default_factory=PortCounters)
    sees_outgoing: bool = True    # False when the kernel already filters our own frames
    batch: BatchSender | None = None  # sendmmsg, where the C library has it
    receiver: BatchReceiver | None = None  # recvmmsg, likewise
    capacity: int = DEFAULT_CAPACITY      # longest frame the receive buffers hold
    _stats_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def open(cls, port: int, iface: str) -> "RawPort":
        try:
            sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        except OSError as exc:
            raise PacketIOError(exc.errno, f"port {port}: cannot open a raw socket "
                                f"(needs root or CAP_NET_RAW): {exc.strerror}") from exc
        try:
            sock.bind((iface, ETH_P_ALL))
            ifindex = socket.if_nametoindex(iface)
            membership = struct.pack("iHH8s", ifindex, PACKET_MR_PROMISC, 0, b"")
            sock.setsockopt(SOL_PACKET, PACKET_ADD_MEMBERSHIP, membership)
            set_receive_buffer(sock, SOCKET_BUFFER)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            raise PacketIOError(exc.errno, f"port {port}: cannot bind interface "
                                f"{iface!r}: {exc.strerror}") from exc
        try:
            sock.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)
            sees_outgoing = False
        except OSError:
            sees_outgoing = True      # older kernel: filter by packet type on receipt
        try:
            # The kernel moves a received 802.1Q tag out of the frame into metadata;
            # ask for that metadata so the tag can be put back (as libpcap does).
            sock.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
        except OSError as exc:
            sock.close()
            raise PacketIOError(exc.errno, f"port {port}: PACKET_AUXDATA refused: "
                                f"{exc.strerror}") from exc
        fd = sock.fileno()
        capacity = frame_capacity(sock, iface)
        receiver = BatchReceiver.create(fd, RECV_BATCH, capacity, AUX_SPACE,
                                        TP_STATUS_VLAN_VALID)
        return cls(port, iface, sock, sees_outgoing=sees_outgoing,
                   batch=BatchSender.create(fd), receiver=receiver, capacity=capacity)

    def fileno(self) -> int:
        return self.sock.fileno()

    def counters_now(self) -> PortCounters:
        """The counters, with the kernel's count of frames it dropped because this
        socket's buffer was full (where overload is lost) folded in first."""
        with self._stats_lock:       # two readers must not both add one reading
            try:
                raw = self.sock.getsockopt(SOL_PACKET, PACKET_STATISTICS, TPACKET_STATS.size)
            except OSError:
                return self.counters   # closed or no statistics: the counters as they are
            self.counters.rx_socket_drops += TPACKET_STATS.unpack(raw)[1]
        return self.counters

    def receive_batch(self, limit: int = RECV_BATCH) -> list[bytes]:
        """Up to `limit` frames that arrived on the wire; [] when none is waiting.

        Frames come back exactly as they were on the wire, VLAN tag included.
        """
        if self.receiver is not None:
            return self._receive_batch_mmsg(limit)
        return self._receive_batch_each(limit)

    def _receive_batch_mmsg(self, limit: int) -> list[bytes]:
        """One recvmmsg call (see batch_receive)."""
        receiver = self.receiver
        got = receiver.receive(limit)   # type: ignore[union-attr]
        counters = self.counters
        if receiver.oversized:          # type: ignore[union-attr]
            counters.rx_oversized += receiver.oversized   # type: ignore[union-attr]
            self._grow(receiver.longest)                   # type: ignore[union-attr]
        if isinstance(got, int):
            counters.rx_errors += 1
            log.warning("port %d (%s): receive failed: %s", self.port, self.iface,
                        os.strerror(-got))
            return []
        frames: list[bytes] = []
        if got:
            counters.rx_calls += 1
        sees_outgoing = self.sees_outgoing
        for data, aux, pkttype in got:
            if sees_outgoing and pkttype == PACKET_OUTGOING:
                continue
            if aux is not None:
                data = restore_vlan_tag(data, [aux])
            if len(data) < MIN_FRAME:
                counters.rx_runts += 1
                continue
            counters.rx += 1
            frames.append(data)
        return frames

    def _grow(self, longest: int) -> None:
        """Receive buffers for frames up to `longest` bytes (0: unknown) and the MTU
        now, capped at MAX_FRAME; logged, since the frame that did not fit was dropped."""
        wanted = max(longest, frame_capacity(self.sock, self.iface))
        if wanted <= self.capacity:
            wanted = MAX_FRAME           # the MTU did not tell: read anything a port can
        wanted = min(MAX_FRAME, wanted)
        log.warning("port %d (%s): dropped a frame longer than the receive buffers "
                    "(%d bytes; the MTU was raised?); now reading up to %d bytes",
                    self.port, self.iface, self.capacity, wanted)
        self.capacity = wanted
        if self.receiver is not None:
            self.receiver = BatchReceiver.create(self.sock.fileno(), RECV_BATCH, wanted,
                                                 AUX_SPACE, TP_STATUS_VLAN_VALID)

    def _receive_batch_each(self, limit: int) -> list[bytes]:
        """One recvmsg call per frame (where recvmmsg is missing)."""
        frames: list[bytes] = []
        counters = self.counters
        sees_outgoing = self.sees_outgoing
        recvmsg = self.sock.recvmsg
        while len(frames) < limit:
            try:
                data, ancillary, flags, address = recvmsg(self.capacity, AUX_SPACE)
            except BlockingIOError:
                break
            except InterruptedError:
                continue
            except OSError as exc:
                counters.rx_errors += 1
                log.warning("port %d (%s): receive failed: %s", self.port, self.iface, exc)
                break
            counters.rx_calls += 1
            if sees_outgoing and address[2] == PACKET_OUTGOING:
                continue
            if flags & MSG_TRUNC:
                counters.rx_oversized += 1
                self._grow(0)
                continue
            if ancillary and _may_carry_vlan(ancillary):
                data = restore_vlan_tag(data, ancillary)
            if len(data) < MIN_FRAME:
                counters.rx_runts += 1
                continue
            counters.rx += 1
            frames.append(data)
        return frames

    def send(self, frame: bytes) -> bool:
        """Transmit one frame; False (and counted) if the kernel refused it."""
        return not self.send_many([frame])

    def send_many(self, frames: list[bytes]) -> list[bytes]:
        """Transmit frames in order, in as few system calls as possible. A frame the
        kernel drops (its qdisc full: ENOBUFS, or another error) is counted and the
        next ones still go. Returns the frames not sent because the socket's send
        buffer is full (EAGAIN): the caller holds them until the socket is writable,
        as BMv2's blocking send waits, so the queue builds in the switch."""
        batch = self.batch
        counters = self.counters
        index = 0
        while index < len(frames):
            if batch is None or len(frames) - index == 1 or not batch.fits(frames[index]):
                code = self._send_one(frames[index])
                sent = 1 if code == 0 else -code
            else:
                sent = batch.send(frames, index)
            counters.tx_calls += 1
            if sent > 0:
                counters.tx += sent
                index += sent
                continue
            if -sent in (errno.EAGAIN, errno.EWOULDBLOCK):
                counters.tx_blocked += 1
                return frames[index:]
            counters.tx_errors += 1
            if -sent != errno.ENOBUFS:
                log.warning("port %d (%s): send of %d bytes failed: %s", self.port,
                            self.iface, len(frames[index]), os.strerror(-sent))
            index += 1
        return []

    def _send_one(self, frame: bytes) -> int:
        """0, or the errno of the refusal."""
        try:
            self.sock.send(frame)
        except OSError as exc:
            return exc.errno or errno.EIO
        return 0

    def close(self) -> None:
        self.sock.close()


def set_receive_buffer(sock: socket.socket, size: int) -> None:
    """A receive buffer of `size` bytes, beyond net.core.rmem_max where allowed (root):
    on a stock kernel (212992) a plain SO_RCVBUF would silently hold only a few hundred
    small frames, and a switch descheduled for some milliseconds would lose the burst
    its neighbour sent meanwhile. The send buffer keeps the kernel's default, as BMv2's
    sockets do: when a slow link's qdisc holds that much of our frames, sends are
    refused (EAGAIN) and the switch's own queue fills, as BMv2's blocking sends make
    its queue fill (a 4 MB send buffer let the qdisc overflow and drop instead, so the
    switch never saw the congestion: no ECN marks on a slow Mininet link)."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, size)
    except OSError:               # no CAP_NET_ADMIN: as much as the limits allow
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, size)


def frame_capacity(sock: socket.socket, iface: str) -> int:
    """The longest frame `iface` can deliver: its MTU plus an Ethernet header and a
    VLAN tag (asked through the socket, so in the socket's own namespace)."""
    request = struct.pack("16si", iface.encode()[:15], 0)
    try:
        reply = fcntl.ioctl(sock.fileno(), SIOCGIFMTU, request)
    except OSError:
        return DEFAULT_CAPACITY
    mtu = struct.unpack_from("i", reply, 16)[0]
    return min(MAX_FRAME, max(mtu + FRAME_OVERHEAD, MIN_FRAME))


def _may_carry_vlan(ancillary: list) -> bool:
    """False only for the common case: one well-formed auxdata without a VLAN tag."""
    if len(ancillary) != 1:
        return True
    payload = ancillary[0][2]
    return len(payload) < AUXDATA.size or bool(payload[_STATUS_VLAN_BYTE]
                                               & TP_STATUS_VLAN_VALID)


def restore_vlan_tag(data: bytes, ancillary: list) -> bytes:
    """Re-insert the 802.1Q tag the kernel stripped into the packet's auxdata."""
    for level, kind, payload in ancillary:
        if level != SOL_PACKET or kind != PACKET_AUXDATA or len(payload) < AUXDATA.size:
            continue
        status, _len, _snap, _mac, _net, tci, tpid = AUXDATA.unpack_from(payload)
        if status & TP_STATUS_VLAN_VALID and len(data) >= 12:
            if not status & TP_STATUS_VLAN_TPID_VALID:
                tpid = ETH_P_8021Q
            return data[:12] + struct.pack("!HH", tpid, tci) + data[12:]
    return data


def open_ports(ports: dict[int, str]) -> dict[int, RawPort]:
    """Open every port or none: a failure closes the ones already opened."""
    opened: dict[int, RawPort] = {}
    try:
        for port, iface in sorted(ports.items()):
            opened[port] = RawPort.open(port, iface)
    except PacketIOError:
        for raw in opened.values():
            raw.close()
        raise
    return opened
