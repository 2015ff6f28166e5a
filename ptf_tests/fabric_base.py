"""Base class of the fabric PTF tests: connects to the switch under test over P4Runtime
(p4runtime-shell), pushes build/fabric.json + build/fabric.p4info.txtpb, records every
write a test makes and undoes them in reverse order after the test, so that tests do
not depend on each other. Test parameters (ptf --test-params): grpcaddr, p4info,
config."""
from __future__ import annotations

import os
from typing import Callable, Mapping

import p4runtime_sh.shell as sh
from p4runtime_sh.global_options import Options, global_options
import ptf
import ptf.testutils as tu
from p4.v1 import p4runtime_pb2
from ptf.base_tests import BaseTest
from scapy.packet import Packet

from wire_formats.layers import CPU_PORT

_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PACKET_IN_TIMEOUT = 3.0

Params = Mapping[str, str | int]


def _p4info_id(kind: str, name: str) -> int:
    """ID of a P4Info object by its section (e.g. "meters") and name."""
    for obj in getattr(sh.context.p4info, kind):
        if obj.preamble.name == name:
            return obj.preamble.id
    raise KeyError(f"no {kind} object named {name!r} in the P4Info")


def _param(name: str, default: str) -> str:
    value = tu.test_param_get(name)
    return default if value is None else str(value)


class FabricTest(BaseTest):
    """Connect, push the pipeline, undo this test's writes afterwards."""

    def setUp(self) -> None:
        BaseTest.setUp(self)
        self.dataplane = ptf.dataplane_instance
        self.dataplane.flush()
        self._undo: list[Callable[[], None]] = []
        p4info = _param("p4info", os.path.join(_ROOT, "build", "fabric.p4info.txtpb"))
        config = _param("config", os.path.join(_ROOT, "build", "fabric.json"))
        sh.setup(device_id=0, grpc_addr=_param("grpcaddr", "127.0.0.1:9559"),
                 election_id=(0, 1), config=sh.FwdPipeConfig(p4info, config))
        global_options.set_option(Options.verbose, False)  # no protobuf dumps on stdout

    def tearDown(self) -> None:
        try:
            while self._undo:
                self._undo.pop()()
        finally:
            sh.teardown()
            BaseTest.tearDown(self)

    # ------------------------------------------------------------ writes (undone)
    def insert(self, table: str, action: str, match: Params | None = None,
               params: Params | None = None, priority: int | None = None) -> None:
        """Inserts a table entry that runs ``action``."""
        entry = sh.TableEntry(table)(action=action)
        self._fill(entry, match, priority)
        for name, value in (params or {}).items():
            entry.action[name] = str(value)
        entry.insert()
        self._undo.append(entry.delete)

    def insert_to_member(self, table: str, member_id: int, match: Params | None = None) -> None:
        """Inserts an entry of a selector table pointing at one profile member."""
        entry = sh.TableEntry(table)
        self._fill(entry, match, None)
        entry.member_id = member_id
        entry.insert()
        self._undo.append(entry.delete)

    def insert_to_group(self, table: str, group_id: int, match: Params | None = None) -> None:
        """Inserts an entry of a selector table pointing at a profile group."""
        entry = sh.TableEntry(table)
        self._fill(entry, match, None)
        entry.group_id = group_id
        entry.insert()
        self._undo.append(entry.delete)

    @staticmethod
    def _fill(entry: sh.TableEntry, match: Params | None, priority: int | None) -> None:
        for name, value in (match or {}).items():
            entry.match[name] = str(value)
        if priority is not None:
            entry.priority = priority

    def set_default(self, table: str, action: str, params: Params | None = None) -> None:
        """Sets a table's default action; undone by resetting it to the P4 default."""
        entry = sh.TableEntry(table)(action=action, is_default=True)
        for name, value in (params or {}).items():
            entry.action[name] = str(value)
        entry.modify()
        self._undo.append(lambda: self._reset_default(table))

    @staticmethod
    def _reset_default(table: str) -> None:
        update = p4runtime_pb2.Update(type=p4runtime_pb2.Update.MODIFY)
        update.entity.table_entry.table_id = _p4info_id("tables", table)
        update.entity.table_entry.is_default_action = True
        sh.client.write_update(update)

    def add_member(self, profile: str, member_id: int, action: str, params: Params) -> None:
        member = sh.ActionProfileMember(profile)(member_id=member_id, action=action)
        for name, value in params.items():
            member.action[name] = str(value)
        member.insert()
        self._undo.append(member.delete)

    def add_group(self, profile: str, group_id: int, weights: Mapping[int, int]) -> None:
        """Adds a group whose members (id -> weight) must exist already."""
        group = sh.ActionProfileGroup(profile)(group_id=group_id)
        for member_id, weight in weights.items():
            group.add(member_id=member_id, weight=weight)
        group.insert()
        self._undo.append(group.delete)

    def add_clone_session(self, session_id: int, port: int) -> None:
        session = sh.CloneSessionEntry(session_id)
        session.add(port)
        session.insert()
        self._undo.append(session.delete)

    def set_meter(self, name: str, index: int, cir: int, cburst: int, pir: int,
                  pburst: int) -> None:
        """Configures one cell of an indirect meter (packets or bytes per second)."""
        meter = sh.MeterEntry(name)
        meter.index = index
        meter.cir, meter.cburst, meter.pir, meter.pburst = cir, cburst, pir, pburst
        meter.modify()
        self._undo.append(lambda: self._reset_meter(name, index))

    @staticmethod
    def _reset_meter(name: str, index: int) -> None:
        update = p4runtime_pb2.Update(type=p4runtime_pb2.Update.MODIFY)
        update.entity.meter_entry.meter_id = _p4info_id("meters", name)
        update.entity.meter_entry.index.index = index
        sh.client.write_update(update)

    # ------------------------------------------------------------ reads
    @staticmethod
    def counter(name: str, index: int) -> tuple[int, int]:
        """(packets, bytes) of one cell of an indirect counter."""
        entry = sh.CounterEntry(name)
        entry.index = index
        for read in entry.read():
            return read.data.packet_count, read.data.byte_count
        raise AssertionError(f"counter {name}[{index}] not returned by the switch")

    # ------------------------------------------------------------ packets
    def send(self, port: int, pkt: Packet) -> None:
        tu.send_packet(self, port, pkt)

    def packet_out(self, port: int, payload: bytes) -> None:
        sh.PacketOut(payload, egress_port=str(port), _pad0="0").send()

    def packet_in(self) -> tuple[bytes, dict[str, int]]:
        """The next PacketIn: payload and metadata by name."""
        msg = sh.client.get_stream_packet("packet", timeout=PACKET_IN_TIMEOUT)
        self.assertIsNotNone(msg, "no PacketIn within the timeout")
        names = {m.id: m.name for m in
                 sh.P4Objects(sh.P4Type.controller_packet_metadata)["packet_in"].metadata}
        metadata = {names[m.metadata_id]: int.from_bytes(m.value, "big")
                    for m in msg.packet.metadata}
        return bytes(msg.packet.payload), metadata
