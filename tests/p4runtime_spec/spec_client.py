"""A plain p4runtime 1.4.1 client for the conformance suite: raw p4.v1 messages, so
every status code and field a target returns can be asserted."""
from __future__ import annotations

import queue
import threading

import grpc
from google.rpc import status_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from tests.p4runtime.p4rt_harness import SetPipeline as SetConfig
from tests.p4runtime.p4rt_harness import pipeline_request

Update = p4runtime_pb2.Update


class Client:
    """One controller: a StreamChannel (messages collected in `inbox`) plus unary RPCs
    carrying its device, role and election ID."""

    def __init__(self, address: str, election_id: int | None = 1, device_id: int = 0):
        # Per-update errors travel in trailing metadata: raise gRPC's 16 KiB default.
        self.channel = grpc.insecure_channel(address, options=[
            ("grpc.max_metadata_size", 4 << 20),
            ("grpc.max_receive_message_length", 64 << 20)])
        grpc.channel_ready_future(self.channel).result(timeout=30)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self.device_id = device_id
        self.election_id = election_id
        self.inbox: queue.Queue = queue.Queue()
        self._outbox: queue.Queue = queue.Queue()
        self._stream = self.stub.StreamChannel(iter(self._outbox.get, None))
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            for message in self._stream:
                self.inbox.put(message)
        except grpc.RpcError as exc:
            self.inbox.put(exc)
        self.inbox.put(None)

    # -- stream --------------------------------------------------------------------
    def arbitrate(self, election_id: int | None = None, device_id: int | None = None
                  ) -> p4runtime_pb2.MasterArbitrationUpdate | grpc.RpcError | None:
        """Send a MasterArbitrationUpdate; the answer (or the stream's end/error)."""
        if election_id is not None:
            self.election_id = election_id
        request = p4runtime_pb2.StreamMessageRequest()
        request.arbitration.device_id = self.device_id if device_id is None else device_id
        if self.election_id is not None:
            request.arbitration.election_id.low = self.election_id
        self._outbox.put(request)
        answer = self.next("arbitration")
        return answer.arbitration if isinstance(answer, p4runtime_pb2.StreamMessageResponse) \
            else answer

    def send(self, request: p4runtime_pb2.StreamMessageRequest) -> None:
        self._outbox.put(request)

    def next(self, kind: str, timeout: float = 10.0):
        """The next stream message of one kind, skipping others; the RpcError or None
        when the stream ends first; queue.Empty after `timeout`."""
        while True:
            message = self.inbox.get(timeout=timeout)
            if message is None or isinstance(message, grpc.RpcError):
                return message
            if message.WhichOneof("update") == kind:
                return message

    # -- unary RPCs ----------------------------------------------------------------
    def _stamp(self, request) -> None:
        request.device_id = self.device_id
        if self.election_id is not None:
            request.election_id.low = self.election_id

    def set_pipeline(self, program, action=SetConfig.VERIFY_AND_COMMIT,
                     device_config: bytes | None = None, cookie: int | None = None,
                     p4info=None):
        if program is not None:
            p4info = program.p4info if p4info is None else p4info
            device_config = program.device_config if device_config is None else device_config
        request = pipeline_request(p4info if program is not None else None,
                                   device_config or b"", action=action,
                                   device_id=self.device_id, election_id=self.election_id,
                                   cookie=cookie)
        return self.stub.SetForwardingPipelineConfig(request, timeout=120)

    def get_pipeline(self, response_type=p4runtime_pb2.GetForwardingPipelineConfigRequest.ALL):
        request = p4runtime_pb2.GetForwardingPipelineConfigRequest(
            device_id=self.device_id, response_type=response_type)
        return self.stub.GetForwardingPipelineConfig(request, timeout=30)

    def write(self, *updates: p4runtime_pb2.Update, atomicity=0):
        request = p4runtime_pb2.WriteRequest(atomicity=atomicity)
        self._stamp(request)
        request.updates.extend(updates)
        return self.stub.Write(request, timeout=60)

    def read(self, *entities: p4runtime_pb2.Entity) -> list[p4runtime_pb2.Entity]:
        request = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        request.entities.extend(entities)
        return [e for response in self.stub.Read(request, timeout=60) for e in response.entities]

    def close(self) -> None:
        self._outbox.put(None)
        self.channel.close()


def update(kind: str, **entity) -> p4runtime_pb2.Update:
    """An INSERT / MODIFY / DELETE of one entity, e.g. update("INSERT", table_entry=te)."""
    return Update(type=Update.Type.Value(kind), entity=p4runtime_pb2.Entity(**entity))


def rpc_code(call) -> grpc.StatusCode:
    """The status code a call fails with (AssertionError if it succeeds)."""
    try:
        call()
    except grpc.RpcError as exc:
        return exc.code()
    raise AssertionError("the call succeeded")


def write_errors(exc: grpc.RpcError) -> list[p4runtime_pb2.Error]:
    """The per-update p4.v1.Error details of a failed Write, in update order."""
    for key, value in exc.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            errors = []
            for detail in status.details:
                error = p4runtime_pb2.Error()
                assert detail.Unpack(error), detail
                errors.append(error)
            return errors
    raise AssertionError(f"the failed Write ({exc.code()}: {exc.details()}) carries no "
                         "p4.v1.Error details")


def write_codes(client: Client, *updates: p4runtime_pb2.Update) -> list[int]:
    """google.rpc.Code of each update of one batch (0 for those applied)."""
    try:
        client.write(*updates)
    except grpc.RpcError as exc:
        assert exc.code() == grpc.StatusCode.UNKNOWN, (exc.code(), exc.details())
        return [e.canonical_code for e in write_errors(exc)]
    return [0] * len(updates)


def read_or_unimplemented(client: Client, entity: p4runtime_pb2.Entity
                          ) -> list[p4runtime_pb2.Entity] | None:
    """The entities a read returns, or None where the target refuses to read that kind
    with UNIMPLEMENTED (PI's server behind BMv2 does for RegisterEntry and PRE entries:
    "... reads are not supported yet" in PI's proto/frontend/src/device_mgr.cpp)."""
    try:
        return client.read(entity)
    except grpc.RpcError as exc:
        assert exc.code() == grpc.StatusCode.UNIMPLEMENTED, (exc.code(), exc.details())
        return None
