"""Entries per second through P4Runtime: insert 10,000 LPM entries into a p4sim
switch in batches of 1, 100 and 1,000, then read them all back.

    .venv/bin/python bench/p4runtime_write.py [--entries N]

The switch and its P4Runtime server run in a child process, as p4sim-switch would, so
the figures are the server's and not shared with the client in one interpreter.  The
client encodes its WriteRequests before the clock starts and counts the entities of
each ReadResponse without decoding them: the pure-Python protobuf runtime that
p4runtime 1.4.1 pins would otherwise measure the client.  The table is l3_lpm's
ipv4_lpm with its size raised to hold the entries (the reference program declares 1024).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import queue
import time

import grpc
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from p4sim.p4runtime import wire
from p4sim.p4runtime.server import P4RuntimeServer
from p4sim.switch.switch import Switch
from p4sim.reference import reference_dir

REFERENCE = reference_dir() / "p4c-out"
BATCH_SIZES = (1, 100, 1000)


def load_program(size: int) -> tuple[p4info_pb2.P4Info, bytes]:
    p4info = text_format.Parse((REFERENCE / "l3_lpm.p4info.txtpb").read_text(),
                               p4info_pb2.P4Info())
    for table in p4info.tables:
        table.size = size
    doc = json.loads((REFERENCE / "l3_lpm.json").read_text())
    for pipeline in doc["pipelines"]:
        for table in pipeline["tables"]:
            if table["name"] == "IngressImpl.ipv4_lpm":
                table["max_size"] = size
    return p4info, json.dumps(doc).encode()


def make_entry(p4info: p4info_pb2.P4Info, i: int) -> p4runtime_pb2.Update:
    table = p4info.tables[0]
    forward = next(a for a in p4info.actions if a.preamble.name == "IngressImpl.forward")
    upd = p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT)
    entry = upd.entity.table_entry
    entry.table_id = table.preamble.id
    fm = entry.match.add(field_id=1)
    fm.lpm.value = (0x0A000000 + (i << 8)).to_bytes(4, "big")
    fm.lpm.prefix_len = 24
    entry.action.action.action_id = forward.preamble.id
    for param_id, value in ((1, (i % 500) + 1), (2, 0x0A0B), (3, 0x0C0D)):
        entry.action.action.params.add(
            param_id=param_id, value=value.to_bytes((value.bit_length() + 7) // 8, "big"))
    return upd


class Controller:
    """Primary client: holds a StreamChannel open and sends Write/Read."""

    def __init__(self, address: str):
        self.channel = grpc.insecure_channel(address, options=[
            ("grpc.max_receive_message_length", 256 << 20)])
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self._out: queue.Queue = queue.Queue()
        self._stream = self.stub.StreamChannel(iter(self._out.get, None))
        req = p4runtime_pb2.StreamMessageRequest()
        req.arbitration.device_id = 0
        req.arbitration.election_id.low = 1
        self._out.put(req)
        next(self._stream)   # the arbitration answer: we are primary

        self._write_raw = self.channel.unary_unary(
            "/p4.v1.P4Runtime/Write", request_serializer=None,
            response_deserializer=p4runtime_pb2.WriteResponse.FromString)
        self._read_raw = self.channel.unary_stream(
            "/p4.v1.P4Runtime/Read",
            request_serializer=p4runtime_pb2.ReadRequest.SerializeToString,
            response_deserializer=None)

    @staticmethod
    def encode_write(updates) -> bytes:
        req = p4runtime_pb2.WriteRequest(device_id=0)
        req.election_id.low = 1
        req.updates.extend(updates)
        return req.SerializeToString()

    def write_encoded(self, request: bytes) -> None:
        self._write_raw(request)

    def set_pipeline(self, p4info, device_config: bytes) -> None:
        req = p4runtime_pb2.SetForwardingPipelineConfigRequest(
            device_id=0, action=p4runtime_pb2.SetForwardingPipelineConfigRequest
            .VERIFY_AND_COMMIT)
        req.election_id.low = 1
        req.config.p4info.CopyFrom(p4info)
        req.config.p4_device_config = device_config
        self.stub.SetForwardingPipelineConfig(req)

    def read_all(self, table_id: int) -> int:
        req = p4runtime_pb2.ReadRequest(device_id=0)
        req.entities.add().table_entry.table_id = table_id
        return sum(len(wire.split_read_response(resp)) for resp in self._read_raw(req))

    def close(self) -> None:
        self._out.put(None)
        self.channel.close()


def serve(port_queue, stop_event) -> None:
    """Child process: a switch with its P4Runtime server until told to stop."""
    switch = Switch(ports=None)
    switch.start()
    server = P4RuntimeServer(switch, "127.0.0.1:0")
    server.start()
    port_queue.put(server.port)
    stop_event.wait()
    server.stop()
    switch.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    args = parser.parse_args()
    ports: multiprocessing.Queue = multiprocessing.Queue()
    stop = multiprocessing.Event()
    child = multiprocessing.Process(target=serve, args=(ports, stop), daemon=True)
    child.start()
    controller = Controller(f"127.0.0.1:{ports.get(timeout=60)}")
    p4info, device_config = load_program(args.entries)
    updates = [make_entry(p4info, i) for i in range(args.entries)]
    table_id = p4info.tables[0].preamble.id
    print(f"P4Runtime write benchmark: {args.entries} LPM entries, p4sim switch in a "
          "child process")
    try:
        for batch in BATCH_SIZES:
            controller.set_pipeline(p4info, device_config)   # empty table each round
            requests = [controller.encode_write(updates[first:first + batch])
                        for first in range(0, args.entries, batch)]
            start = time.perf_counter()
            for request in requests:
                controller.write_encoded(request)
            elapsed = time.perf_counter() - start
            print(f"  insert, batches of {batch:>5}: {args.entries / elapsed:>9,.0f} "
                  f"entries/s ({elapsed:.2f} s)")
            start = time.perf_counter()
            count = controller.read_all(table_id)
            elapsed = time.perf_counter() - start
            assert count == args.entries, f"read back {count} entries"
            print(f"  read back {count} entries:    {count / elapsed:>9,.0f} "
                  f"entries/s ({elapsed:.2f} s)")
    finally:
        controller.close()
        stop.set()
        child.join(timeout=30)


if __name__ == "__main__":
    main()
