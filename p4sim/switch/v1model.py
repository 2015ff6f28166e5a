"""The v1model packet flow of BMv2 simple_switch around one loaded Program.

After ingress (simple_switch's order): I2E clone -> digests -> resubmit, else
multicast, else drop on the drop port, else unicast.  After egress: E2E clone ->
drop on the drop port -> checksum update and deparse -> recirculate, else truncate and
transmit (truncate() binds only the packet it was called for: replicas, clones and
recirculated copies are new packets, as in BMv2).  instance_type: 0 normal, 1 ingress
clone, 2 egress clone, 4 recirculated, 5 multicast replica, 6 resubmitted.  As in BMv2,
copies that re-enter ingress or egress (clones, resubmits, recirculations) start with
all metadata zeroed except the fields of the preserved field list.

This module holds no thread or queue of its own: the Switch gives it a traffic manager,
the PRE, a clock and a `V1ModelHost` for everything that leaves the pipeline.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Protocol

from p4sim.switch.packet import ArchRequests
from p4sim.switch.pre import PacketReplicationEngine
from p4sim.switch.stats import SwitchStats
from p4sim.switch.traffic_manager import TrafficManager

log = logging.getLogger(__name__)

DROP_PORT = 511
INSTANCE_NORMAL = 0
INSTANCE_INGRESS_CLONE = 1
INSTANCE_EGRESS_CLONE = 2
INSTANCE_RECIRC = 4
INSTANCE_REPLICATION = 5
INSTANCE_RESUBMIT = 6

ERRORS_LOGGED_PER_SECOND = 10

# One TM entry: (packet, packet_length register, clone-session truncation or 0).
Queued = tuple[Any, int, int]


class V1ModelHost(Protocol):
    """What the architecture needs from the switch around it."""

    def transmit(self, port: int, data: bytes) -> None: ...
    def reinject(self, port: int, data: bytes, instance_type: int,
                 preserved: dict | None) -> None: ...
    def digest(self, name: str, values: tuple[int, ...]) -> None: ...
    def now_ns(self) -> int: ...


class V1ModelPipeline:
    """simple_switch semantics for one Program; rebuilt whenever a program is loaded."""

    def __init__(self, program: Any, pre: PacketReplicationEngine, tm: TrafficManager,
                 stats: SwitchStats, host: V1ModelHost) -> None:
        self.program = program
        self.pre = pre
        self.tm = tm
        self.stats = stats
        self.host = host
        self._now = host.now_ns
        self.std = std = program.layout.std
        self._has_queueing = None not in (std.enq_timestamp, std.enq_qdepth,
                                          std.deq_timedelta, std.deq_qdepth)
        self._log_window_ns = -(1 << 62)
        self._logged = self._suppressed = 0
        self._in_egress = False
        self._drop_port = getattr(program, "drop_port", DROP_PORT)   # --drop-port

    def _set(self, pkt: Any, name: str, value: int) -> None:
        """Write one standard_metadata field if the program has it (cold paths)."""
        slot = self.std.slot(name)
        if slot is not None:
            pkt.f[slot] = value & self.std.mask(name)

    # -- ingress -------------------------------------------------------------------------
    def ingress(self, port: int, data: bytes, instance_type: int = INSTANCE_NORMAL,
                preserved: dict | None = None) -> None:
        """Run one packet through parser, checksum verification and ingress."""
        program = self.program
        std = self.std
        now_ns = self._now()
        pkt = program.new_packet(data, port)
        f = pkt.f
        if instance_type != INSTANCE_NORMAL:
            pkt.reset_metadata(preserved)
            self._set(pkt, "instance_type", instance_type)
            self._set(pkt, "packet_length", len(data))
        if std.ingress_global_timestamp is not None:
            f[std.ingress_global_timestamp] = (now_ns // 1000) & std.ingress_global_timestamp_mask
        program.process_ingress_side(pkt)
        arch = pkt.arch
        if arch.drop_errors:
            self._pipeline_error("ingress", port, data, "; ".join(arch.drop_errors))
            return
        if (arch.clone_session is not None or arch.digests
                or arch.resubmit_field_list is not None):
            if arch.clone_session is not None:
                self._ingress_clone(pkt, port, data, now_ns)
            for name, values in arch.digests:
                self.stats.digests += 1
                self.host.digest(name, values)
            if arch.resubmit_field_list is not None:
                self.stats.resubmits += 1
                kept = pkt.preserved_fields(arch.resubmit_field_list)
                self.host.reinject(port, data, INSTANCE_RESUBMIT, kept)
                return
            pkt.arch = ArchRequests(truncate_length=arch.truncate_length)
        mgid = f[std.mcast_grp] if std.mcast_grp is not None else 0
        if mgid:
            self._set(pkt, "instance_type", INSTANCE_REPLICATION)
            self._multicast(pkt, mgid, len(data), 0, now_ns)
            return
        egress_spec = f[std.egress_spec]
        if egress_spec == self._drop_port:
            self.stats.ingress_drops += 1
            return
        if std.instance_type is not None:
            f[std.instance_type] = INSTANCE_NORMAL
        self._enqueue(egress_spec, (pkt, len(data), 0), now_ns)

    def _ingress_clone(self, pkt: Any, port: int, data: bytes, now_ns: int) -> None:
        """Clone the packet as it entered this ingress pass, re-parsed (BMv2 does too)."""
        def reparsed() -> Any:
            clone = self.program.new_packet(data, port)
            self.program.parse(clone)
            return clone
        self._clone(pkt, reparsed, INSTANCE_INGRESS_CLONE, len(data), now_ns)

    # -- egress --------------------------------------------------------------------------
    def egress(self, port: int, item: Queued, depth_after: int) -> None:
        """Egress pipeline of a dequeued packet, then transmit/recirculate/drop.

        Copies made here (E2E clones) always go through the queue, never straight
        into a nested egress, so they leave after the packet that made them.
        """
        self._in_egress = True
        try:
            pkt, length, clone_truncate = item
            program = self.program
            std = self.std
            f = pkt.f
            now_ns = self._now()
            now_us = now_ns // 1000
            if std.egress_global_timestamp is not None:
                f[std.egress_global_timestamp] = now_us & std.egress_global_timestamp_mask
            if self._has_queueing:
                # enq_timestamp is only 32 bits in v1model: subtract modulo its width so the
                # delay stays right after the clock wraps (every 71 minutes).
                waited = (now_us - f[std.enq_timestamp]) & std.enq_timestamp_mask
                f[std.deq_timedelta] = waited & std.deq_timedelta_mask
                f[std.deq_qdepth] = depth_after & std.deq_qdepth_mask
            if std.egress_port is not None:
                f[std.egress_port] = port & std.egress_port_mask
            f[std.egress_spec] = 0
            if std.packet_length is not None:
                f[std.packet_length] = length & std.packet_length_mask
            program.egress(pkt)
            arch = pkt.arch
            if arch.drop_errors:
                self._pipeline_error("egress", port, None, "; ".join(arch.drop_errors))
                return
            if arch.clone_session is not None:
                self._egress_clone(pkt, length, now_ns)
            if f[std.egress_spec] == self._drop_port:
                self.stats.egress_drops += 1
                return
            data = program.finish_egress_side(pkt)
            if arch.drop_errors:
                self._pipeline_error("deparser", port, None, "; ".join(arch.drop_errors))
                return
            # truncate() only shortens this packet's transmission: BMv2 recirculates a
            # fresh copy of the deparsed packet, which does not inherit the length.
            limit = None if arch.recirculate_field_list is not None else arch.truncate_length
            if clone_truncate and (limit is None or clone_truncate < limit):
                limit = clone_truncate
            if limit is not None and limit < len(data):
                data = data[:limit]
            if arch.recirculate_field_list is not None:
                self.stats.recirculations += 1
                kept = pkt.preserved_fields(arch.recirculate_field_list)
                self.host.reinject(0, data, INSTANCE_RECIRC, kept)
                return
            self.host.transmit(port, data)
        finally:
            self._in_egress = False

    def _egress_clone(self, pkt: Any, length: int, now_ns: int) -> None:
        """Copy of the packet as egress left it (deparsed later, by its own egress)."""
        self._clone(pkt, pkt.copy, INSTANCE_EGRESS_CLONE, length, now_ns)

    # -- shared --------------------------------------------------------------------------
    def _clone(self, pkt: Any, make_copy: Callable[[], Any], instance_type: int,
               length: int, now_ns: int) -> None:
        """Send a copy of `pkt` to its clone session, metadata reset but for the clone
        field list; `make_copy` is only called once the session is known to exist."""
        arch = pkt.arch
        session = self.pre.clone_session(arch.clone_session)
        if session is None:
            return
        kept = (pkt.preserved_fields(arch.clone_field_list)
                if arch.clone_field_list is not None else None)
        clone = make_copy()
        clone.arch = ArchRequests()
        clone.reset_metadata(kept)
        self._set(clone, "instance_type", instance_type)
        self.stats.clones += 1
        if session.mcast_grp is not None:
            self._multicast(clone, session.mcast_grp, length, session.truncate, now_ns)
        if session.port is not None:
            self._enqueue(session.port, (clone, length, session.truncate), now_ns)

    def _multicast(self, pkt: Any, mgid: int, length: int, truncate: int,
                   now_ns: int) -> None:
        for port, rid in self.pre.replicas(mgid):
            copy = pkt.copy()
            copy.arch.truncate_length = None   # a new packet in BMv2: truncate() stays behind
            self._set(copy, "egress_rid", rid)
            self.stats.replicas += 1
            self._enqueue(port, (copy, length, truncate), now_ns)

    def _enqueue(self, port: int, item: Queued, now_ns: int) -> None:
        f = item[0].f
        std = self.std
        tm = self.tm
        priority = f[std.priority] if std.priority is not None else 0
        if priority >= tm.priority_queues:
            self.stats.priority_drops += 1
            self._log_limited("priority %d out of range (%d queue(s) per port; see "
                              "--priority-queues), packet dropped", priority,
                              tm.priority_queues)
            return
        queueing = self._has_queueing
        if not self._in_egress and tm.depart_now(port, priority, now_ns):
            if queueing:               # an idle queue: straight through, depth 0
                f[std.enq_timestamp] = (now_ns // 1000) & std.enq_timestamp_mask
                f[std.enq_qdepth] = 0
            self.egress(port, item, 0)
            return
        if queueing:
            f[std.enq_timestamp] = (now_ns // 1000) & std.enq_timestamp_mask
            f[std.enq_qdepth] = tm.port_depth(port) & std.enq_qdepth_mask
        if not tm.enqueue(port, priority, item, now_ns):
            self.stats.tail_drops[port] += 1

    def _pipeline_error(self, stage: str, port: int, data: bytes | None,
                        cause: Any) -> None:
        self.stats.pipeline_errors += 1
        shown = (f"{data[:64].hex()}{'...' if len(data) > 64 else ''}" if data
                 else "(in egress, not deparsed)")
        self._log_limited("pipeline error in %s (port %d), packet dropped: %s; packet %s",
                          stage, port, cause, shown)

    def _log_limited(self, message: str, *args: Any) -> None:
        """Log an error, at most a few a second: a flood of bad packets must not turn
        into a flood of log lines (the counters keep the exact numbers)."""
        now = self.host.now_ns()
        if now - self._log_window_ns >= 1_000_000_000:
            if self._suppressed:
                log.error("%d more packet errors not logged", self._suppressed)
            self._log_window_ns, self._logged, self._suppressed = now, 0, 0
        if self._logged >= ERRORS_LOGGED_PER_SECOND:
            self._suppressed += 1
            return
        self._logged += 1
        log.error(message, *args)
