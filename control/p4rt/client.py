"""One P4Runtime connection to one switch: arbitration, pipeline, writes, reads, packets.

Each SwitchConnection owns its channel and stream thread, so one controller process can
hold connections to many switches at once.
"""
from __future__ import annotations

import queue
import threading
from typing import Iterable, Iterator

import grpc
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from control.p4rt.errors import P4RuntimeError, from_rpc_error


class SwitchConnection:
    """`role` (default: none, the default role) is the P4Runtime role name this
    controller claims in arbitration and in every Write and SetForwardingPipelineConfig:
    its domain's name on a switch bound with p4sim-switch --p4rt-allowed-roles."""

    def __init__(self, address: str, device_id: int = 0, election_id: int = 1,
                 role: str = ""):
        self.address = address
        self.device_id = device_id
        self.election_id = election_id
        self.role = role
        self._channel = grpc.insecure_channel(address)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self._channel)
        self._requests: queue.Queue = queue.Queue()
        self.packet_ins: queue.Queue = queue.Queue()
        self.digests: queue.Queue = queue.Queue()
        self._arbitration = threading.Condition()
        self._primary: bool | None = None
        self._stream_error: grpc.RpcError | None = None
        self._stream: Iterator | None = None
        self._thread: threading.Thread | None = None

    # ---------------------------------------------------------------- connection
    def connect(self, timeout: float = 10.0) -> None:
        """Open the stream, send arbitration and wait for the answer; raises if this
        client does not become primary."""
        grpc.channel_ready_future(self._channel).result(timeout=timeout)
        self._stream = self.stub.StreamChannel(self._request_iter())
        self._thread = threading.Thread(target=self._read_stream, daemon=True,
                                        name=f"p4rt-stream-{self.address}")
        self._thread.start()
        request = p4runtime_pb2.StreamMessageRequest()
        request.arbitration.device_id = self.device_id
        request.arbitration.election_id.low = self.election_id
        if self.role:
            request.arbitration.role.name = self.role
        self._requests.put(request)
        with self._arbitration:
            if not self._arbitration.wait_for(lambda: self._primary is not None
                                              or self._stream_error is not None, timeout):
                raise TimeoutError(f"{self.address}: no arbitration answer in {timeout}s")
        if self._stream_error is not None:
            raise from_rpc_error("StreamChannel", self._stream_error)
        if not self._primary:
            raise P4RuntimeError("StreamChannel", grpc.StatusCode.PERMISSION_DENIED,
                                 "another client is primary for this device")

    def close(self) -> None:
        self._requests.put(None)
        if self._thread:
            self._thread.join(timeout=5)
        self._channel.close()

    def __enter__(self) -> "SwitchConnection":
        self.connect()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _request_iter(self) -> Iterator[p4runtime_pb2.StreamMessageRequest]:
        while True:
            item = self._requests.get()
            if item is None:
                return
            yield item

    def _read_stream(self) -> None:
        assert self._stream is not None  # connect() opens it before starting this thread
        try:
            for response in self._stream:
                kind = response.WhichOneof("update")
                if kind == "arbitration":
                    with self._arbitration:
                        self._primary = response.arbitration.status.code == 0
                        self._arbitration.notify_all()
                elif kind == "packet":
                    self.packet_ins.put(response.packet)
                elif kind == "digest":
                    self.digests.put(response.digest)
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.CANCELLED:
                with self._arbitration:
                    self._stream_error = err
                    self._arbitration.notify_all()

    # ---------------------------------------------------------------- RPCs
    def _election(self) -> p4runtime_pb2.Uint128:
        return p4runtime_pb2.Uint128(high=0, low=self.election_id)

    def set_pipeline(self, p4info: p4info_pb2.P4Info, device_config: bytes) -> None:
        request = p4runtime_pb2.SetForwardingPipelineConfigRequest(
            device_id=self.device_id, election_id=self._election(), role=self.role,
            action=p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT)
        request.config.p4info.CopyFrom(p4info)
        request.config.p4_device_config = device_config
        try:
            self.stub.SetForwardingPipelineConfig(request)
        except grpc.RpcError as err:
            raise from_rpc_error("SetForwardingPipelineConfig", err) from None

    def write(self, updates: Iterable[p4runtime_pb2.Update]) -> None:
        request = p4runtime_pb2.WriteRequest(device_id=self.device_id, role=self.role,
                                             election_id=self._election())
        request.updates.extend(updates)
        if not request.updates:
            return
        try:
            self.stub.Write(request)
        except grpc.RpcError as err:
            raise from_rpc_error("Write", err) from None

    def read(self, entities: Iterable[p4runtime_pb2.Entity]) -> list[p4runtime_pb2.Entity]:
        request = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        request.entities.extend(entities)
        result: list[p4runtime_pb2.Entity] = []
        try:
            for response in self.stub.Read(request):
                result.extend(response.entities)
        except grpc.RpcError as err:
            raise from_rpc_error("Read", err) from None
        return result

    def packet_out(self, payload: bytes, metadata: dict[int, bytes]) -> None:
        request = p4runtime_pb2.StreamMessageRequest()
        request.packet.payload = payload
        for mid, value in metadata.items():
            request.packet.metadata.add(metadata_id=mid, value=value)
        self._requests.put(request)
