"""Test harness: an in-process Switch behind a real P4RuntimeServer, and a raw p4.v1
client for the cases p4runtime-shell cannot express (error codes, contention)."""
from __future__ import annotations

import json
import queue
import threading
import time
from pathlib import Path

import grpc
from google.protobuf import text_format
from google.rpc import status_pb2
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from p4sim.p4runtime.server import P4RuntimeServer
from p4sim.switch.switch import Switch
from p4sim.reference import reference_dir

REFERENCE = reference_dir() / "p4c-out"
CPU_PORT = 255
SetPipeline = p4runtime_pb2.SetForwardingPipelineConfigRequest


def p4info_path(program: str) -> Path:
    return REFERENCE / f"{program}.p4info.txtpb"


def json_path(program: str) -> Path:
    return REFERENCE / f"{program}.json"


def load_p4info(program: str) -> p4info_pb2.P4Info:
    return text_format.Parse(p4info_path(program).read_text(), p4info_pb2.P4Info())


def pipeline_request(p4info: p4info_pb2.P4Info | None = None, device_config: bytes = b"", *,
                     action: int = SetPipeline.VERIFY_AND_COMMIT, device_id: int = 0,
                     election_id: int | p4runtime_pb2.Uint128 | None = None, role: str = "",
                     cookie: int | None = None) -> p4runtime_pb2.SetForwardingPipelineConfigRequest:
    """The SetForwardingPipelineConfigRequest every test builds, in one place. Without
    ``p4info`` it carries no config at all (a COMMIT of the saved one); an ``election_id``
    of None leaves the field absent, an int sets its low word (0 included)."""
    request = SetPipeline(device_id=device_id, action=action, role=role)
    if isinstance(election_id, int):
        request.election_id.low = election_id
    elif election_id is not None:
        request.election_id.CopyFrom(election_id)
    if p4info is not None:
        request.config.p4info.CopyFrom(p4info)
        request.config.p4_device_config = device_config
        if cookie is not None:
            request.config.cookie.cookie = cookie
    return request


class Rig:
    """Switch + server + collected outputs."""

    def __init__(self, cpu_port: int | None = CPU_PORT):
        self.switch = Switch(device_id=0, ports=None, cpu_port=cpu_port)
        self.outputs: list[tuple[int, bytes]] = []
        self._outputs_lock = threading.Lock()
        self.switch.add_output_listener(self._collect)
        self.switch.start()
        self.server = P4RuntimeServer(self.switch, "127.0.0.1:0", device_id=0)
        self.server.start()
        self.address = f"127.0.0.1:{self.server.port}"

    def _collect(self, port: int, data: bytes) -> None:
        with self._outputs_lock:
            self.outputs.append((port, data))

    def send(self, port: int, frame: bytes) -> list[tuple[int, bytes]]:
        """Inject a frame and return what came out once the switch is idle."""
        with self._outputs_lock:
            self.outputs.clear()
        self.switch.inject(port, frame)
        assert self.switch.wait_idle(5.0), "switch did not go idle"
        with self._outputs_lock:
            return list(self.outputs)

    def wait_for_outputs(self, count: int, timeout: float = 5.0) -> list[tuple[int, bytes]]:
        """Outputs once at least `count` frames left (for packets sent over the stream,
        which reach the switch asynchronously)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._outputs_lock:
                if len(self.outputs) >= count:
                    break
            self.switch.wait_idle(0.05)
        assert self.switch.wait_idle(timeout)
        with self._outputs_lock:
            return list(self.outputs)

    def clear_outputs(self) -> None:
        with self._outputs_lock:
            self.outputs.clear()

    def close(self) -> None:
        self.server.stop()
        self.switch.stop()


class RawClient:
    """A minimal P4Runtime client speaking raw p4.v1 messages."""

    def __init__(self, address: str, election_id: int | None = 1, device_id: int = 0,
                 role: str = ""):
        # Per-update errors of a big batch travel in trailing metadata (about 37 bytes
        # per update), beyond gRPC's default 16 KiB limit: raise it, as clients of
        # simple_switch_grpc must too.
        self.channel = grpc.insecure_channel(address, options=[
            ("grpc.max_metadata_size", 4 << 20)])
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self.device_id = device_id
        self.election_id = election_id
        self.role = role
        self.inbox: queue.Queue = queue.Queue()
        self._outbox: queue.Queue = queue.Queue()
        self.stream_error: grpc.RpcError | None = None
        self._stream = self.stub.StreamChannel(iter(self._outbox.get, None))
        self._reader = threading.Thread(target=self._read_stream, daemon=True)
        self._reader.start()

    def _read_stream(self) -> None:
        try:
            for msg in self._stream:
                self.inbox.put(msg)
        except grpc.RpcError as exc:
            self.stream_error = exc
        self.inbox.put(None)

    def arbitrate(self, election_id: int | None = None,
                  device_id: int | None = None) -> p4runtime_pb2.StreamMessageResponse:
        if election_id is not None:
            self.election_id = election_id
        req = p4runtime_pb2.StreamMessageRequest()
        req.arbitration.device_id = self.device_id if device_id is None else device_id
        if self.role:
            req.arbitration.role.name = self.role
        if self.election_id is not None:
            req.arbitration.election_id.low = self.election_id
        self._outbox.put(req)
        return self.next_message("arbitration")

    def next_message(self, kind: str, timeout: float = 5.0):
        """The next stream message of a kind (skipping others); None if the stream ended."""
        while True:
            msg = self.inbox.get(timeout=timeout)
            if msg is None or msg.WhichOneof("update") == kind:
                return msg

    def send_stream(self, req: p4runtime_pb2.StreamMessageRequest) -> None:
        self._outbox.put(req)

    def _election(self, msg) -> None:
        if self.election_id is not None:
            msg.election_id.low = self.election_id

    def set_pipeline(self, program: str, action=SetPipeline.VERIFY_AND_COMMIT,
                     device_config: bytes | None = None, cookie=None):
        """Push reference ``program`` (none: "", for COMMIT) with this client's election."""
        if device_config is None:
            device_config = json_path(program).read_bytes() if program else b""
        req = pipeline_request(load_p4info(program) if program else None, device_config,
                               action=action, device_id=self.device_id,
                               election_id=self.election_id, role=self.role, cookie=cookie)
        return self.stub.SetForwardingPipelineConfig(req)

    def write(self, *updates: p4runtime_pb2.Update, atomicity=0):
        req = p4runtime_pb2.WriteRequest(device_id=self.device_id, role=self.role,
                                         atomicity=atomicity)
        self._election(req)
        req.updates.extend(updates)
        return self.stub.Write(req)

    def read(self, *entities: p4runtime_pb2.Entity) -> list[p4runtime_pb2.Entity]:
        req = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        req.entities.extend(entities)
        return [e for resp in self.stub.Read(req) for e in resp.entities]

    def close(self) -> None:
        self._outbox.put(None)
        self.channel.close()


def update(kind: str, **entity) -> p4runtime_pb2.Update:
    """Update of type INSERT/MODIFY/DELETE with one entity field set."""
    return p4runtime_pb2.Update(type=getattr(p4runtime_pb2.Update, kind),
                                entity=p4runtime_pb2.Entity(**entity))


def write_errors(exc: grpc.RpcError) -> list[p4runtime_pb2.Error]:
    """The per-update p4.v1.Error list of a failed Write."""
    assert exc.code() == grpc.StatusCode.UNKNOWN, exc
    for key, value in exc.trailing_metadata():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            errors = []
            for detail in status.details:
                err = p4runtime_pb2.Error()
                assert detail.Unpack(err)
                errors.append(err)
            return errors
    raise AssertionError("no grpc-status-details-bin in the Write error")


def ids(program: str) -> dict[str, int]:
    """Name (and alias) -> P4Info ID for every object of a program."""
    p4info = load_p4info(program)
    found = {}
    for kind in ("tables", "actions", "action_profiles", "counters", "direct_counters",
                 "meters", "direct_meters", "registers", "digests", "value_sets",
                 "controller_packet_metadata"):
        for obj in getattr(p4info, kind):
            found[obj.preamble.name] = obj.preamble.id
            found.setdefault(obj.preamble.alias, obj.preamble.id)
    return found


def json_text(program: str) -> dict:
    return json.loads(json_path(program).read_text())
