"""Digests from the data plane to the controller as DigestList messages.

Honours DigestEntry.Config: a list is sent when it holds max_list_size digests (0: no
limit) or max_timeout_ns after its first digest (0: at once).  Data already sent stays
suppressed until its list is acknowledged or ack_timeout_ns passes, so a flood of the
same learn event reaches the controller once, as BMv2 does.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from p4.config.v1 import p4info_pb2
from p4.v1 import p4data_pb2, p4runtime_pb2

from p4sim.p4runtime import codec

Send = Callable[[p4runtime_pb2.StreamMessageResponse], None]


def member_widths(p4info: p4info_pb2.P4Info, digest: p4info_pb2.Digest) -> list[int] | None:
    """Bit widths of the digest's struct members (None: a single bitstring)."""
    spec = digest.type_spec
    kind = spec.WhichOneof("type_spec")
    if kind == "struct":
        struct = p4info.type_info.structs[spec.struct.name]
        return [_bitwidth(m.type_spec) for m in struct.members]
    if kind == "tuple":
        return [_bitwidth(m) for m in spec.tuple.members]
    return None


def _bitwidth(spec: p4info_pb2.P4DataTypeSpec) -> int:
    if spec.WhichOneof("type_spec") == "bitstring":
        bits = spec.bitstring
        return getattr(bits, bits.WhichOneof("type_spec")).bitwidth
    if spec.WhichOneof("type_spec") == "bool":
        return 1
    return 64


@dataclass
class _Pending:
    values: list[tuple[int, ...]] = field(default_factory=list)
    first_ns: int = 0


class DigestStreamer:
    """Batches digests per digest ID and tracks acknowledgements."""

    def __init__(self, p4info: p4info_pb2.P4Info, configs: dict, send: Send):
        self._p4info = p4info
        self._configs = configs   # digest_id -> DigestEntry.Config (live, shared)
        self._send = send
        self._ids = {d.preamble.name: d.preamble.id for d in p4info.digests}
        self._widths = {d.preamble.id: member_widths(p4info, d) for d in p4info.digests}
        self._kinds = {d.preamble.id: d.type_spec.WhichOneof("type_spec")
                       for d in p4info.digests}
        self._pending: dict[int, _Pending] = {}
        self._suppressed: dict[tuple[int, tuple], int] = {}   # -> expiry ns
        self._outstanding: dict[tuple[int, int], list[tuple]] = {}
        self._next_list_id = 1
        self._cond = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="p4rt-digests", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._thread.join(timeout=5)

    def on_digest(self, name: str, values: tuple) -> None:
        """Called by the switch (dataplane thread): queue one digest."""
        digest_id = self._ids.get(name)
        if digest_id is None:
            return
        now = time.monotonic_ns()
        with self._cond:
            config = self._configs.get(digest_id)
            if config is None:
                return
            key = (digest_id, tuple(values))
            expiry = self._suppressed.get(key)
            if expiry is not None and expiry > now:
                return
            pending = self._pending.setdefault(digest_id, _Pending())
            if tuple(values) in pending.values:
                return
            if not pending.values:
                pending.first_ns = now
            pending.values.append(tuple(values))
            self._cond.notify_all()

    def on_ack(self, ack: p4runtime_pb2.DigestListAck) -> None:
        with self._cond:
            for values in self._outstanding.pop((ack.digest_id, ack.list_id), []):
                self._suppressed.pop((ack.digest_id, values), None)

    def _due(self, now: int) -> list[int]:
        due = []
        for digest_id, pending in self._pending.items():
            config = self._configs.get(digest_id)
            if not pending.values or config is None:
                continue
            full = config.max_list_size and len(pending.values) >= config.max_list_size
            if full or now - pending.first_ns >= config.max_timeout_ns:
                due.append(digest_id)
        return due

    def _next_wakeup(self, now: int) -> float | None:
        times = [p.first_ns + self._configs[d].max_timeout_ns
                 for d, p in self._pending.items() if p.values and d in self._configs]
        times += list(self._suppressed.values())
        if not times:
            return None
        return max(0.0, (min(times) - now) / 1e9)

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._stopping:
                    return
                now = time.monotonic_ns()
                self._suppressed = {k: t for k, t in self._suppressed.items() if t > now}
                lists = [self._take(d, now) for d in self._due(now)]
                if not lists:
                    self._cond.wait(self._next_wakeup(now))
                    continue
            for message in lists:
                self._send(message)

    def _take(self, digest_id: int, now: int) -> p4runtime_pb2.StreamMessageResponse:
        config = self._configs[digest_id]
        pending = self._pending[digest_id]
        limit = config.max_list_size or len(pending.values)
        batch, pending.values = pending.values[:limit], pending.values[limit:]
        pending.first_ns = now
        list_id = self._next_list_id
        self._next_list_id += 1
        ack_ns = config.ack_timeout_ns or 1_000_000_000
        for values in batch:
            self._suppressed[(digest_id, values)] = now + ack_ns
        self._outstanding[(digest_id, list_id)] = batch
        message = p4runtime_pb2.StreamMessageResponse()
        digest_list = message.digest
        digest_list.digest_id, digest_list.list_id = digest_id, list_id
        digest_list.timestamp = time.time_ns()
        for values in batch:
            digest_list.data.append(self._p4data(digest_id, values))
        return message

    def _p4data(self, digest_id: int, values: tuple) -> p4data_pb2.P4Data:
        widths = self._widths[digest_id]
        if widths is None:
            return p4data_pb2.P4Data(bitstring=codec.to_canonical(
                values[0].to_bytes(max(1, (values[0].bit_length() + 7) // 8), "big")))
        members = [p4data_pb2.P4Data(bitstring=codec.encode_int(v & ((1 << w) - 1), w))
                   for v, w in zip(values, widths)]
        data = p4data_pb2.P4Data()
        container = data.struct if self._kinds[digest_id] == "struct" else data.tuple
        container.members.extend(members)
        return data
