"""``--target bmv2``: an STF test on a simple_switch_grpc-compatible switch, over P4Runtime.

The switch ($SWITCH: simple_switch_grpc, or p4sim-switch) runs in a private namespace
with one veth pair per STF port, started with simple_switch_grpc's own flags only
(``-i N@sN ... --no-p4 -- --grpc-server-addr 127.0.0.1:9559 --cpu-port N``). The
program is pushed with SetForwardingPipelineConfig (the bare BMv2 JSON as device
config, which real simple_switch_grpc accepts) and every STF command becomes a
P4Runtime Write or Read (p4rt_entries.py, p4rt_pre.py); packets go through the veths
(veth_ports.py), or, when some packet is shorter than an Ethernet header (no veth
carries it), through pcap files the switch reads with ``--use-files`` (pcap_ports.py).
The P4Runtime client is control/p4rt's, reached through a Unix-socket relay
(ns_relay.py).

What BMv2 cannot do here: PI (the P4Runtime server of simple_switch_grpc) answers every
RegisterEntry read and write with UNIMPLEMENTED, so register_read/_write/_reset fail on
it with an error saying so (p4sim-switch implements them).
"""
from __future__ import annotations

import itertools
import os
import queue
import shutil
import tempfile
import threading
import time
from pathlib import Path

import grpc
from p4.config.v1 import p4info_pb2
from p4.v1 import p4data_pb2, p4runtime_pb2

from control.p4rt.client import SwitchConnection
from control.p4rt.entities import INSERT, MODIFY, DELETE, P4Names, update
from control.p4rt.errors import P4RuntimeError
from lab.errors import LabError as LaunchError, NetnsError
from lab.process import ManagedProcess
from p4sim.p4runtime import codec
from p4sim.stf import p4rt_entries as entries
from p4sim.stf.entries import ResolvedAction, ResolvedEntry
from p4sim.stf.errors import TargetUnavailable
from p4sim.stf.ns_relay import NamespaceRelay
from p4sim.stf.p4rt_pre import P4RuntimeReplication
from p4sim.stf.pcap_ports import PcapPorts, wait_seconds
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.target import ProgramLoadFailed, TargetCommandError
from p4sim.stf.veth_ports import QUIET_PERIOD_S, VethPacketIO, VethPorts
from p4sim.switch.pre import PreError
from p4sim.switch.pre_commands import MulticastNodes

GRPC_PORT = 9559  # inside the private namespace, so never in use by anyone else
START_TIMEOUT_S = 60.0
CONNECT_TIMEOUT_S = 30.0
PACKET_IN_POLL_S = 0.1
DEFAULT_CPU_PORT = 255
DROP_PORT = 511  # simple_switch_grpc's default drop port
MICROS_PER_SECOND = 1e6


def check_available(switch: str) -> str:
    """The switch binary's path; TargetUnavailable naming whatever is missing."""
    path = shutil.which(switch)
    if path is None:
        raise TargetUnavailable(f"switch {switch!r} is not an executable on PATH "
                                "(set $SWITCH or --switch: simple_switch_grpc or p4sim-switch)")
    if shutil.which("ip") is None:
        raise TargetUnavailable("--target bmv2 needs iproute2's 'ip' on PATH")
    if os.geteuid() != 0:
        raise TargetUnavailable("--target bmv2 needs root (it creates a network namespace and veth pairs)")
    return os.path.abspath(path)


def cpu_port_for(ports: list[int]) -> int:
    """A CPU port that is no STF port (simple_switch_grpc forbids an interface on it)."""
    for candidate in itertools.chain([DEFAULT_CPU_PORT], range(DROP_PORT - 1, 0, -1)):
        if candidate not in ports:
            return candidate
    raise TargetUnavailable("every port number 1..510 is an STF port: no CPU port left")


class GrpcTarget(VethPacketIO):
    """$SWITCH in namespace ``sg<pid>``, configured over P4Runtime."""

    def __init__(self, json_text: str, p4info: p4info_pb2.P4Info, info: ProgramInfo,
                 ports: list[int], switch: str, quiet_period_s: float = QUIET_PERIOD_S,
                 packets: list[tuple[int, bytes]] | None = None, commands: int = 0,
                 files: bool = False) -> None:
        """With ``files`` the ports are pcap files (pcap_ports.py), fed with ``packets``
        (every packet the test sends, in order) and leaving time for ``commands``
        control-plane commands; otherwise veths."""
        binary = check_available(switch)
        self._info = info
        self._names = P4Names(p4info)
        self._cpu_port = cpu_port_for(ports)
        self._switch_name = os.path.basename(binary)
        self._workdir = tempfile.mkdtemp(prefix="p4sim-stf-grpc-")
        self._ports: VethPorts | PcapPorts | None = None
        self._process: ManagedProcess | None = None
        self._relay: NamespaceRelay | None = None
        self._connection: SwitchConnection | None = None
        self._stop = threading.Event()
        self._packet_in_reader: threading.Thread | None = None
        self._handles: dict[str, itertools.count[int]] = {}
        self._entries: dict[tuple[str, int], p4runtime_pb2.TableEntry] = {}
        self._member_ids = itertools.count(1)
        try:
            if files:
                self._ports = PcapPorts("sf", ports, packets or [], wait_seconds(commands), quiet_period_s)
            else:
                self._ports = VethPorts("sg", ports, quiet_period_s)
            self._start_switch(binary)
            self._connect()
            self._load(json_text, p4info)
            if isinstance(self._ports, PcapPorts):
                self._ports.mark_started()  # the switch waits from its start, or its config
            self._ports.open()
        except (NetnsError, LaunchError, OSError) as exc:
            self.close()
            raise TargetUnavailable(f"could not start {self._switch_name}: {exc}") from None
        except BaseException:
            self.close()
            raise
        self._replication = P4RuntimeReplication(self._conn())
        self._multicast = MulticastNodes(self._replication)  # type: ignore[arg-type]

    # --- start-up --------------------------------------------------------------------

    def _start_switch(self, binary: str) -> None:
        assert self._ports is not None
        argv = self._ports.command(binary, *self._ports.interface_args(), "--no-p4", "--",
                                   "--grpc-server-addr", f"127.0.0.1:{GRPC_PORT}",
                                   "--cpu-port", str(self._cpu_port))
        self._process = ManagedProcess(self._switch_name, argv, Path(self._workdir) / "switch.log")
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._ports.namespace.accepts_tcp(GRPC_PORT, 0.5):
            if not self._process.running():
                raise TargetUnavailable(f"{self._switch_name} exited with status "
                                        f"{self._process.popen.returncode}:\n{self._process.output[-2000:]}")
            if time.monotonic() > deadline:
                raise TargetUnavailable(f"{self._switch_name}'s gRPC server did not accept within "
                                        f"{START_TIMEOUT_S:.0f} s:\n{self._process.output[-2000:]}")
            time.sleep(0.05)  # polling a condition, with a deadline

    def _connect(self) -> None:
        assert self._ports is not None
        self._relay = NamespaceRelay(self._ports.namespace, GRPC_PORT,
                                     os.path.join(self._workdir, "p4runtime.sock"))
        self._connection = SwitchConnection(self._relay.address)
        try:
            self._connection.connect(CONNECT_TIMEOUT_S)
        except (P4RuntimeError, TimeoutError, grpc.FutureTimeoutError) as exc:
            raise TargetUnavailable(f"no P4Runtime session with {self._switch_name}: {exc}") from None
        self._packet_in_reader = threading.Thread(target=self._read_packet_ins, daemon=True,
                                                  name="stf-packet-in")
        self._packet_in_reader.start()

    def _load(self, json_text: str, p4info: p4info_pb2.P4Info) -> None:
        try:
            self._conn().set_pipeline(p4info, json_text.encode())
        except P4RuntimeError as exc:
            raise ProgramLoadFailed(f"{self._switch_name} refused the pipeline: {exc}") from None

    def _read_packet_ins(self) -> None:
        """Packets the program sends to the CPU port come out as packet-ins: record
        them as output on that port, as the in-process target would see them."""
        connection = self._connection
        assert connection is not None and self._ports is not None
        while not self._stop.is_set():
            try:
                packet = connection.packet_ins.get(timeout=PACKET_IN_POLL_S)
            except queue.Empty:
                continue
            self._ports.record(self._cpu_port, bytes(packet.payload))

    def _conn(self) -> SwitchConnection:
        assert self._connection is not None
        return self._connection

    def _refused(self, what: str, exc: P4RuntimeError) -> TargetCommandError:
        """A switch refusal as the runner reports it; says so if the switch died."""
        message = f"{self._switch_name} refused {what}: {exc}"
        if self._process is not None and not self._process.running():
            message += (f"\n{self._switch_name} has exited (status {self._process.popen.returncode}):"
                        f"\n{self._process.output[-2000:]}")
        return TargetCommandError(message)

    def _write(self, what: str, *updates: p4runtime_pb2.Update) -> None:
        if isinstance(self._ports, PcapPorts):
            self._ports.check_in_time(what)
        try:
            self._conn().write(updates)
        except P4RuntimeError as exc:
            raise self._refused(what, exc) from None

    def _read(self, what: str, entity: p4runtime_pb2.Entity) -> list[p4runtime_pb2.Entity]:
        if isinstance(self._ports, PcapPorts):
            self._ports.settle()  # state read after the packets: let the switch take them
        try:
            return self._conn().read([entity])
        except P4RuntimeError as exc:
            raise self._refused(what, exc) from None

    # --- tables ----------------------------------------------------------------------

    def add_entry(self, entry: ResolvedEntry) -> int:
        info = self._info.tables[entry.table]
        if info.kind == "indirect" and info.action_profile:
            message = self._indirect_entry(entry, info.action_profile)
        elif info.kind != "simple":
            raise TargetCommandError(f"table {entry.table} is {info.kind}: STF cannot add "
                                     "entries to action-selector tables")
        else:
            message = entries.table_entry(self._names, entry)
        self._write(f"adding an entry to {entry.table}", update(INSERT, table_entry=message))
        handle = next(self._handles.setdefault(entry.table, itertools.count()))
        self._entries[(entry.table, handle)] = _match_only(message)
        return handle

    def _indirect_entry(self, entry: ResolvedEntry, profile: str) -> p4runtime_pb2.TableEntry:
        """An action-profile table's entry: a new member with the action, then the entry."""
        member = p4runtime_pb2.ActionProfileMember(
            action_profile_id=entries.lookup(self._names, "action_profiles", profile).preamble.id,
            member_id=next(self._member_ids), action=entries.action_message(self._names, entry.action))
        self._write(f"adding a member to {profile}", update(INSERT, action_profile_member=member))
        table_id, matches = entries.match_fields(self._names, entry)
        message = p4runtime_pb2.TableEntry(table_id=table_id,
                                           priority=entries.p4runtime_priority(entry.bmv2_priority))
        message.match.extend(matches)
        message.action.action_profile_member_id = member.member_id
        return message

    def set_default(self, table: str, action: ResolvedAction) -> None:
        message = entries.default_entry(self._names, table, action)
        self._write(f"the default action of {table}", update(MODIFY, table_entry=message))

    def clear_tables(self) -> None:
        for table in self._names.p4info.tables:
            if table.is_const_table:
                continue
            query = p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry(table_id=table.preamble.id))
            found = self._read(f"the entries of {table.preamble.name}", query)
            deletes = [update(DELETE, table_entry=_match_only(e.table_entry)) for e in found
                       if not e.table_entry.is_default_action]
            if deletes:
                self._write(f"clearing {table.preamble.name}", *deletes)
        self._entries.clear()

    # --- replication -----------------------------------------------------------------

    def mirroring_add(self, session: int, port: int | None, mcast_group: int | None) -> None:
        try:
            self._replication.mirror(session, port, mcast_group)
        except PreError as exc:
            raise TargetCommandError(str(exc)) from None

    def mirroring_delete(self, session: int) -> None:
        try:
            self._replication.delete_session(session)
        except PreError as exc:
            raise TargetCommandError(str(exc)) from None

    def mirroring_get(self, session: int) -> str:
        query = p4runtime_pb2.Entity()
        query.packet_replication_engine_entry.clone_session_entry.session_id = session
        found = self._read(f"clone session {session}", query)
        if len(found) != 1:
            raise TargetCommandError(f"clone session {session} does not exist")
        entry = found[0].packet_replication_engine_entry.clone_session_entry
        return " ".join(f"(port={r.egress_port}, instance={r.instance})" for r in entry.replicas)

    def mc_group_create(self, group: int) -> None:
        try:
            self._multicast.create_group(group)
        except PreError as exc:
            raise TargetCommandError(str(exc)) from None

    def mc_node_update(self, node: int, ports: tuple[int, ...]) -> None:
        try:
            self._multicast.update_node(node, list(ports))
        except PreError as exc:
            raise TargetCommandError(str(exc)) from None

    def mc_node_create(self, rid: int, ports: tuple[int, ...]) -> int:
        try:
            return self._multicast.create_node(rid, list(ports))
        except PreError as exc:
            raise TargetCommandError(str(exc)) from None

    def mc_node_associate(self, group: int, node: int) -> None:
        try:
            self._multicast.associate(group, node)
        except PreError as exc:
            raise TargetCommandError(str(exc)) from None

    # --- counters --------------------------------------------------------------------

    def _counter_entry(self, name: str, index: int) -> p4runtime_pb2.CounterEntry:
        message = p4runtime_pb2.CounterEntry(counter_id=entries.lookup(self._names, "counters", name).preamble.id)
        message.index.index = index
        return message

    def read_counter(self, name: str, index: int) -> tuple[int, int]:
        found = self._read(f"counter {name}[{index}]",
                           p4runtime_pb2.Entity(counter_entry=self._counter_entry(name, index)))
        if len(found) != 1:
            raise TargetCommandError(f"reading counter {name}[{index}] gave {len(found)} entries, not 1")
        data = found[0].counter_entry.data
        return data.byte_count, data.packet_count

    def read_direct_counter(self, table: str, handle: int) -> tuple[int, int]:
        if (table, handle) not in self._entries:
            raise TargetCommandError(f"table {table} has no entry with handle {handle}")
        query = p4runtime_pb2.DirectCounterEntry()
        query.table_entry.CopyFrom(self._entries[(table, handle)])
        found = self._read(f"the direct counter of {table} entry {handle}",
                           p4runtime_pb2.Entity(direct_counter_entry=query))
        if len(found) != 1:
            raise TargetCommandError(f"reading the direct counter of {table} entry {handle} gave "
                                     f"{len(found)} entries, not 1")
        data = found[0].direct_counter_entry.data
        return data.byte_count, data.packet_count

    def write_counter(self, name: str, index: int, byte_count: int, packets: int) -> None:
        message = self._counter_entry(name, index)
        message.data.byte_count, message.data.packet_count = byte_count, packets
        self._write(f"counter {name}[{index}]", update(MODIFY, counter_entry=message))

    # --- registers -------------------------------------------------------------------

    def _register_entry(self, name: str, index: int | None) -> p4runtime_pb2.RegisterEntry:
        message = p4runtime_pb2.RegisterEntry(
            register_id=entries.lookup(self._names, "registers", name).preamble.id)
        if index is not None:
            message.index.index = index
        return message

    def _register_refused(self, what: str, exc: P4RuntimeError) -> TargetCommandError:
        return explain_register_refusal(self._switch_name, self._refused(what, exc), exc)

    def read_register(self, name: str, index: int) -> int:
        query = p4runtime_pb2.Entity(register_entry=self._register_entry(name, index))
        try:
            found = self._conn().read([query])
        except P4RuntimeError as exc:
            raise self._register_refused(f"reading register {name}[{index}]", exc) from None
        if len(found) != 1 or found[0].register_entry.data.WhichOneof("data") != "bitstring":
            raise TargetCommandError(f"reading register {name}[{index}] gave no bitstring value")
        return int.from_bytes(found[0].register_entry.data.bitstring, "big")

    def _write_register(self, what: str, name: str, index: int | None, value: int) -> None:
        message = self._register_entry(name, index)
        width = self._info.registers[name].bitwidth
        try:
            message.data.CopyFrom(p4data_pb2.P4Data(bitstring=codec.encode_int(value, width, name)))
        except codec.CodecError as exc:
            raise TargetCommandError(str(exc)) from None
        try:
            self._conn().write([update(MODIFY, register_entry=message)])
        except P4RuntimeError as exc:
            raise self._register_refused(what, exc) from None

    def write_register(self, name: str, index: int, value: int) -> None:
        self._write_register(f"writing register {name}[{index}]", name, index, value)

    def reset_register(self, name: str) -> None:
        """Every cell to 0, as one wildcard write (no index: all of them)."""
        self._write_register(f"resetting register {name}", name, None, 0)

    # --- meters --------------------------------------------------------------------

    def _meter_entry(self, name: str, index: int) -> p4runtime_pb2.MeterEntry:
        message = p4runtime_pb2.MeterEntry(meter_id=entries.lookup(self._names, "meters", name).preamble.id)
        message.index.index = index
        return message

    def meter_set_rates(self, name: str, index: int, rates: tuple[tuple[float, int], ...]) -> None:
        """P4Runtime's MeterConfig counts units per second (integers); STF, as
        simple_switch_CLI, per microsecond."""
        (cir, cburst), (pir, pburst) = rates
        message = self._meter_entry(name, index)
        message.config.cir, message.config.cburst = round(cir * MICROS_PER_SECOND), cburst
        message.config.pir, message.config.pburst = round(pir * MICROS_PER_SECOND), pburst
        self._write(f"meter {name}[{index}]", update(MODIFY, meter_entry=message))

    def meter_get_rates(self, name: str, index: int) -> list[tuple[float, int]] | None:
        found = self._read(f"meter {name}[{index}]",
                           p4runtime_pb2.Entity(meter_entry=self._meter_entry(name, index)))
        if len(found) != 1 or not found[0].meter_entry.HasField("config"):
            return None
        config = found[0].meter_entry.config
        return [(config.cir / MICROS_PER_SECOND, config.cburst),
                (config.pir / MICROS_PER_SECOND, config.pburst)]

    # --- packets ---------------------------------------------------------------------

    def close(self) -> None:
        self._stop.set()
        if self._packet_in_reader is not None:
            self._packet_in_reader.join(timeout=2)
        if self._connection is not None:
            self._connection.close()
        if self._relay is not None:
            self._relay.close()
        if self._process is not None:
            self._process.stop()
        if self._ports is not None:
            self._ports.close()
        shutil.rmtree(self._workdir, ignore_errors=True)


def explain_register_refusal(switch: str, error: TargetCommandError,
                             exc: P4RuntimeError) -> TargetCommandError:
    """A refused register access, with the reason when it is PI's known limit (a Read
    fails as UNIMPLEMENTED; a Write fails with an UNIMPLEMENTED per-update error)."""
    if exc.code != grpc.StatusCode.UNIMPLEMENTED and all(name != "UNIMPLEMENTED" for _i, name, _m in exc.errors):
        return error
    return TargetCommandError(
        f"{error}\n{switch} implements no P4Runtime RegisterEntry access (simple_switch_grpc's "
        "PI answers every register read and write with UNIMPLEMENTED); run STF tests that use "
        "registers with --target bmv2-thrift (simple_switch) or on p4sim")


def _match_only(entry: p4runtime_pb2.TableEntry) -> p4runtime_pb2.TableEntry:
    """What identifies an entry (for DELETE and direct-counter reads): table, match, priority."""
    key = p4runtime_pb2.TableEntry(table_id=entry.table_id, priority=entry.priority)
    key.match.extend(entry.match)
    return key
