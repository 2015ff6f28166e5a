"""Entries per second through P4Runtime, as a plain p4runtime 1.4.1 Python client sees
them: insert N LPM entries into a p4sim switch in batches of 1, 100 and 1,000, then
read them all back; each figure is the median of --rounds measurements.

    .venv/bin/python bench/p4runtime_write.py [--entries N] [--rounds R] [--profile FILE]
    SWITCH=simple_switch_grpc .venv/bin/python bench/p4runtime_write.py   # BMv2
    PYTHON310 bench/p4runtime_write.py --address HOST:PORT [--pid PID]  # a switch
                                                      # started by hand, another client

The client is what a controller would be: for every WriteRequest it builds the
protobuf objects (p4runtime_pb2.Update / TableEntry / FieldMatch / Action) and calls
the generated stub, which serializes them.  The switch is the $SWITCH binary
(default .venv/bin/p4sim-switch) started as its own process with --no-p4 and the
gRPC address, or (--address) one already serving.  Figures per batch size:

* entries/s end to end (client building + gRPC + server), the figure to set beside
  BMv2's 10,537/s for batches of 100 with such a client (issue 9);
* the server-bound rate: the same requests serialized before the clock starts and
  sent as bytes, so the client costs next to nothing (what a fast client would see);
* CPU time per entry of the server (user + system of the switch process) and of the
  client (this process, gRPC threads included; and its protobuf building and
  serializing alone, with no server), which other load on a shared machine inflates
  far less than wall time; from them, the most any switch could give this client
  here, the rate on idle cores (calls are synchronous, so client and server take
  turns) and the rate the server alone allows.

How fast the client is depends on its protobuf runtime: p4runtime 1.4.1 pins protobuf
< 3.21, which has a C++ runtime for Python 3.10 and older only; on Python 3.11 (this
project's venv) it is pure Python and costs the client several times the server's
time per entry.  `--address` needs only grpcio, protobuf and p4runtime, so the same
script can measure with such a client under another interpreter (PYTHONPATH=. to find
p4sim).

The table is l3_lpm's ipv4_lpm with its size raised to hold the entries (the
reference program declares 1024).  --profile FILE runs the server in a Python child
process instead and writes a cProfile of its Write calls (decoding included) to FILE.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import platform
import queue
import socket
import statistics
import tempfile
import time
from pathlib import Path
from typing import Iterator

import grpc
from google.protobuf import text_format
from google.protobuf.internal import api_implementation
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from p4sim.p4runtime import wire
from p4sim.p4runtime.server import P4RuntimeServer
from p4sim.switch.switch import Switch
from p4sim.reference import reference_dir

REFERENCE = reference_dir() / "p4c-out"
BATCH_SIZES = (1, 100, 1000)
BMV2_BATCH_100 = 10_537   # entries/s, issue 9 (bmv2-facts.md: about 10,500)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


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


class EntryMaker:
    """Builds INSERT updates for entry i, with the P4Info looked up once."""

    def __init__(self, p4info: p4info_pb2.P4Info):
        self.table_id = p4info.tables[0].preamble.id
        self.action_id = next(a.preamble.id for a in p4info.actions
                              if a.preamble.name == "IngressImpl.forward")

    def update(self, i: int) -> p4runtime_pb2.Update:
        upd = p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT)
        entry = upd.entity.table_entry
        entry.table_id = self.table_id
        fm = entry.match.add(field_id=1)
        fm.lpm.value = (0x0A000000 + (i << 8)).to_bytes(4, "big")
        fm.lpm.prefix_len = 24
        entry.action.action.action_id = self.action_id
        for param_id, value in ((1, (i % 500) + 1), (2, 0x0A0B), (3, 0x0C0D)):
            entry.action.action.params.add(
                param_id=param_id, value=value.to_bytes((value.bit_length() + 7) // 8, "big"))
        return upd

    def request(self, first: int, count: int) -> p4runtime_pb2.WriteRequest:
        req = p4runtime_pb2.WriteRequest(device_id=0)
        req.election_id.low = 1
        req.updates.extend(self.update(i) for i in range(first, first + count))
        return req


class Controller:
    """Primary client: holds a StreamChannel open and calls the generated stub."""

    def __init__(self, address: str):
        self.channel = grpc.insecure_channel(address, options=[
            ("grpc.max_receive_message_length", 256 << 20),
            ("grpc.max_metadata_size", 4 << 20)])
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self._out: queue.Queue = queue.Queue()
        self._stream = self.stub.StreamChannel(iter(self._out.get, None))
        req = p4runtime_pb2.StreamMessageRequest()
        req.arbitration.device_id = 0
        req.arbitration.election_id.low = 1
        self._out.put(req)
        next(self._stream)   # the arbitration answer: we are primary

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
        return sum(len(resp.entities) for resp in self.stub.Read(req))

    def close(self) -> None:
        self._out.put(None)
        self.channel.close()


def serve(port_queue, stop_event, profile: str) -> None:
    """--profile child: a switch with its P4Runtime server, the Write calls profiled."""
    import cProfile
    switch = Switch(ports=None)
    switch.start()
    server = P4RuntimeServer(switch, "127.0.0.1:0")
    profiler = cProfile.Profile()
    write, parse = server.write, wire.parse_write_request

    def profiled_write(request):
        return profiler.runcall(write, request)

    def profiled_parse(data):
        return profiler.runcall(parse, data)
    server.write = profiled_write          # the service calls server.write
    wire.parse_write_request = profiled_parse   # ... and decodes through the module
    server.start()
    port_queue.put(server.port)
    stop_event.wait()
    server.stop()
    switch.stop()
    profiler.dump_stats(profile)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def switch_process(log_dir: str) -> Iterator[tuple[int, str]]:
    """(pid, address) of a running $SWITCH; stopped on exit."""
    # Imported here: --address runs need only grpc and p4runtime (any Python version).
    from control.launch import ManagedProcess, default_switch_binary, tcp_accepts
    binary = default_switch_binary()
    port = free_port()
    # simple_switch_grpc's flags only: like it, p4sim-switch then opens only the gRPC port.
    argv = [binary, "--no-p4", "--", "--grpc-server-addr", f"127.0.0.1:{port}"]
    process = ManagedProcess("switch", argv, Path(log_dir) / "switch.log")
    try:
        process.wait_until(lambda: tcp_accepts("127.0.0.1", port), "accepting gRPC", 60)
        yield process.pid, f"127.0.0.1:{port}"
    finally:
        process.stop()


@contextlib.contextmanager
def profiled_child(profile: str) -> Iterator[tuple[int, str]]:
    ports: multiprocessing.Queue = multiprocessing.Queue()
    stop = multiprocessing.Event()
    child = multiprocessing.Process(target=serve, args=(ports, stop, profile), daemon=True)
    child.start()
    try:
        yield child.pid, f"127.0.0.1:{ports.get(timeout=60)}"
    finally:
        stop.set()
        child.join(timeout=30)


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU time of a process so far (0 when its pid is not known)."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def client_cost(maker: EntryMaker, entries: int, batch: int) -> float:
    """CPU seconds the client alone spends building and serializing the requests (CPU
    time, so that other load on the machine does not inflate it)."""
    start = time.process_time()
    for first in range(0, entries, batch):
        maker.request(first, min(batch, entries - first)).SerializeToString()
    return time.process_time() - start


def one_round(controller: Controller, write_bytes, p4info, device_config: bytes,
              maker: EntryMaker, pid: int | None, n: int, batch: int) -> dict[str, float]:
    """One measurement of every figure for one batch size (rates in entries/s, costs
    in CPU seconds per entry)."""
    table_id = p4info.tables[0].preamble.id
    controller.set_pipeline(p4info, device_config)   # empty table each round
    cpu_before, client_before = cpu_seconds(pid), time.process_time()
    start = time.perf_counter()
    for first in range(0, n, batch):
        controller.stub.Write(maker.request(first, min(batch, n - first)))
    elapsed = time.perf_counter() - start
    server_cpu = cpu_seconds(pid) - cpu_before
    client_cpu = time.process_time() - client_before
    building = client_cost(maker, n, batch)
    count = controller.read_all(table_id)
    assert count == n, f"read back {count} entries"

    controller.set_pipeline(p4info, device_config)
    encoded = [maker.request(first, min(batch, n - first)).SerializeToString()
               for first in range(0, n, batch)]
    start = time.perf_counter()
    for request in encoded:
        write_bytes(request)
    bound = time.perf_counter() - start
    start = time.perf_counter()
    count = controller.read_all(table_id)
    read = time.perf_counter() - start
    assert count == n, f"read back {count} entries"
    return {"plain": n / elapsed, "bound": n / bound, "read": count / read,
            "server": server_cpu / n, "client": client_cpu / n, "building": building / n}


def run(pid: int | None, address: str, n: int, rounds: int) -> None:
    controller = Controller(address)
    p4info, device_config = load_program(n)
    maker = EntryMaker(p4info)
    write_bytes = controller.channel.unary_unary(
        "/p4.v1.P4Runtime/Write", request_serializer=None,
        response_deserializer=p4runtime_pb2.WriteResponse.FromString)
    try:
        for batch in BATCH_SIZES:
            results = [one_round(controller, write_bytes, p4info, device_config, maker,
                                 pid, n, batch) for _ in range(rounds)]
            fig = {key: statistics.median(r[key] for r in results) for key in results[0]}
            plains = ", ".join(f"{r['plain']:,.0f}" for r in results)
            print(f"  batches of {batch:>4}: plain client {fig['plain']:>7,.0f} entries/s "
                  f"(median of {plains}; BMv2 {BMV2_BATCH_100:,} for batches of 100: "
                  f"{fig['plain'] / BMV2_BATCH_100:.2f}x)")
            print(f"{'':20}server-bound {fig['bound']:>7,.0f} entries/s "
                  f"({fig['bound'] / BMV2_BATCH_100:.2f}x BMv2's plain-client figure); "
                  f"read back {fig['read']:>7,.0f} entries/s")
            server = (f"server {fig['server'] * 1e6:6.1f} us, " if pid is not None
                      else "server not measured (--address without --pid), ")
            print(f"{'':20}CPU per entry: {server}client {fig['client'] * 1e6:6.1f} us "
                  f"(building + serializing alone {fig['building'] * 1e6:6.1f} us: with "
                  f"this client no switch can exceed {1 / fig['building']:,.0f} entries/s "
                  "here)")
            if pid is not None and fig["server"] > 0:
                print(f"{'':20}on idle cores the plain client would see about "
                      f"{1 / (fig['server'] + fig['client']):,.0f} entries/s, the server "
                      f"alone allows {1 / fig['server']:,.0f}/s")
    finally:
        controller.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3,
                        help="measurements per batch size; the median is printed")
    parser.add_argument("--profile", metavar="FILE",
                        help="serve from a Python child and write a cProfile of its Write calls")
    parser.add_argument("--address", metavar="HOST:PORT",
                        help="measure a switch already serving there (started by hand)")
    parser.add_argument("--pid", type=int,
                        help="with --address: the switch's pid, for its CPU figures")
    args = parser.parse_args()
    if args.address:
        where = f"{args.address} (pid {args.pid or 'not given'})"
    elif args.profile:
        where = "a profiled Python child"
    else:
        from control.launch import default_switch_binary
        where = default_switch_binary()
    print(f"P4Runtime write benchmark: {args.entries} LPM entries, plain p4runtime 1.4.1 "
          f"client (Python {platform.python_version()}, protobuf "
          f"{api_implementation.Type()} runtime, objects built per request), "
          f"switch: {where}")
    print(f"  BMv2 (simple_switch_grpc) measured: {BMV2_BATCH_100:,} entries/s for batches "
          "of 100 with such a client (issue 9; tests/real_toolchain/bmv2-facts.md)")
    with tempfile.TemporaryDirectory() as log_dir:
        if args.address:
            server: contextlib.AbstractContextManager = contextlib.nullcontext(
                (args.pid, args.address))
        elif args.profile:
            server = profiled_child(args.profile)
        else:
            server = switch_process(log_dir)
        with server as (pid, address):
            run(pid, address, args.entries, args.rounds)


if __name__ == "__main__":
    main()
