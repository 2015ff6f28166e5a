"""Receive up to a batch of frames from one AF_PACKET socket with one recvmmsg(2).

Why: Python's recvmsg on an AF_PACKET socket costs two system calls per frame (the
receive, then an ioctl that turns the interface index of the source address into a
name) plus a tuple of four objects; recvmmsg fills a whole batch of preallocated
buffers in one call, and only each frame's bytes become a Python object.

Each slot has a data buffer, a control buffer (for the PACKET_AUXDATA message that
carries a stripped VLAN tag) and a sockaddr_ll (for the packet type).  The kernel
rewrites the lengths in the message headers, so they are restored from a pristine
copy with one memmove before each call.  The call asks for each frame's real length
(MSG_TRUNC), so a frame longer than a buffer is seen, skipped and counted
(`oversized`, `longest`) rather than passed on cut short.  Where the C library lacks
recvmmsg, `BatchReceiver.create` returns None and the caller receives frame by frame.
"""

from __future__ import annotations

import ctypes
import errno
import struct
import sys
from typing import Callable

from p4sim.switch.mmsghdr import IoVec, MMsgHdr, MsgHdr

MSG_DONTWAIT = 0x40
MSG_TRUNC = 0x20              # return each frame's real length, even when cut to the buffer
SOCKADDR_LL_SIZE = 20
PKTTYPE_OFFSET = 10           # sockaddr_ll.sll_pkttype
CMSG_HEADER = struct.Struct("@NII")   # cmsghdr: length, level, type
_MSG_LEN = struct.Struct("@I")
_MSG_LEN_OFFSET = MMsgHdr.msg_len.offset
_CONTROLLEN = struct.Struct("@N")
_CONTROLLEN_OFFSET = MMsgHdr.msg_hdr.offset + MsgHdr.msg_controllen.offset

_STATUS_BYTE = 0 if sys.byteorder == "little" else 3   # low byte of a native u32

# (frame, its auxdata control message (level, type, payload) when flagged, packet type)
Received = tuple[bytes, "tuple[int, int, bytes] | None", int]


class BatchReceiver:
    """recvmmsg for one non-blocking socket with preallocated buffers."""

    def __init__(self, fd: int, recvmmsg: Callable[..., int], slots: int,
                 frame_size: int, control_size: int, status_flags: int) -> None:
        if not 0 < status_flags < 256:
            raise ValueError("status_flags must lie in the low byte of tp_status")
        self._status_flags = status_flags
        self._fd = fd
        self._recvmmsg = recvmmsg
        self.slots = slots
        self.frame_size = frame_size
        self._control_size = control_size
        self._data = (ctypes.c_char * (slots * frame_size))()
        self._data_view = memoryview(self._data).cast("B")
        self._control = (ctypes.c_char * (slots * control_size))()
        self._control_view = memoryview(self._control).cast("B")
        self._names = (ctypes.c_char * (slots * SOCKADDR_LL_SIZE))()
        self._names_view = memoryview(self._names).cast("B")
        self._iovecs = (IoVec * slots)()
        self._messages = (MMsgHdr * slots)()
        self._messages_view = memoryview(self._messages).cast("B")
        data_address = ctypes.addressof(self._data)
        control_address = ctypes.addressof(self._control)
        names_address = ctypes.addressof(self._names)
        for index in range(slots):
            iovec = self._iovecs[index]
            iovec.iov_base = data_address + index * frame_size
            iovec.iov_len = frame_size
            header = self._messages[index].msg_hdr
            header.msg_iov = ctypes.pointer(iovec)
            header.msg_iovlen = 1
            header.msg_control = control_address + index * control_size
            header.msg_controllen = control_size
            header.msg_name = names_address + index * SOCKADDR_LL_SIZE
            header.msg_namelen = SOCKADDR_LL_SIZE
        self._pristine = bytes(self._messages_view)
        self._stride = ctypes.sizeof(MMsgHdr)
        self.oversized = 0       # frames skipped because they did not fit a buffer
        self.longest = 0         # the longest of them, in bytes

    @classmethod
    def create(cls, fd: int, slots: int, frame_size: int, control_size: int,
               status_flags: int) -> "BatchReceiver | None":
        """A receiver for `fd`, or None where recvmmsg (or LP64 layout) is missing.

        A frame's control message is returned only when its first word (the auxdata
        tp_status) has one of `status_flags` set: the common frame needs none.
        """
        if ctypes.sizeof(ctypes.c_void_p) != 8 or sys.platform != "linux":
            return None
        try:
            recvmmsg = ctypes.CDLL(None, use_errno=True).recvmmsg
        except (OSError, AttributeError):
            return None
        recvmmsg.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                             ctypes.c_void_p]
        recvmmsg.restype = ctypes.c_int
        return cls(fd, recvmmsg, slots, frame_size, control_size, status_flags)

    def receive(self, limit: int) -> list[Received] | int:
        """Up to `limit` (<= slots) frames waiting on the socket, [] when none is;
        a negative errno for any other failure."""
        ctypes.memmove(self._messages, self._pristine, len(self._pristine))
        count = self._recvmmsg(self._fd, self._messages, min(limit, self.slots),
                               MSG_DONTWAIT | MSG_TRUNC, None)
        if count < 0:
            code = ctypes.get_errno()
            if code in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EINTR):
                return []
            return -(code or errno.EIO)
        messages, data, control, names = (self._messages_view, self._data_view,
                                          self._control_view, self._names_view)
        stride, frame_size, control_size = self._stride, self.frame_size, self._control_size
        length_of, controllen_of = _MSG_LEN.unpack_from, _CONTROLLEN.unpack_from
        flags, status_at = self._status_flags, CMSG_HEADER.size + _STATUS_BYTE
        out: list[Received] = []
        for index in range(count):
            at = index * stride
            size = length_of(messages, at + _MSG_LEN_OFFSET)[0]
            if size > frame_size:
                self.oversized += 1
                self.longest = max(self.longest, size)
                continue
            start = index * frame_size
            frame = bytes(data[start:start + size])
            aux = None
            cstart = index * control_size
            if (controllen_of(messages, at + _CONTROLLEN_OFFSET)[0] > status_at
                    and control[cstart + status_at] & flags):
                clen, level, kind = CMSG_HEADER.unpack_from(control, cstart)
                aux = (level, kind, bytes(control[cstart + CMSG_HEADER.size:cstart + clen]))
            out.append((frame, aux, names[index * SOCKADDR_LL_SIZE + PKTTYPE_OFFSET]))
        return out
