"""Fuzz Write, Read and StreamChannel requests against a real P4Runtime server.

Valid requests are generated from the program's P4Info (every table, action profile,
counter, meter, register, value set, digest, multicast group and clone session), then
mutated at the protobuf level (any field of the message tree set to an edge value,
cleared, repeated or dropped) or at the byte level (flipped, cut, grown).  The server
must never answer UNKNOWN or INTERNAL (a Write's top-level UNKNOWN is the spec's
carrier of per-update errors: then no per-update code may be UNKNOWN or INTERNAL),
never hang or crash, and must still serve afterwards: a fresh pipeline push, a write,
its read-back and a forwarded packet.

Seeded and bounded: P4SIM_FUZZ_SEED picks the seed (printed), P4SIM_FUZZ_SECONDS the
time per program.  A failure names the seed, the request number and the request.
"""
from __future__ import annotations

import os
import queue
import random
import threading
import time
from collections import Counter
from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor as FD
from google.protobuf.message import DecodeError
from google.rpc import status_pb2
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from tests.p4runtime.p4rt_harness import RawClient, Rig, json_path, load_p4info, pipeline_request

SEED = int(os.environ.get("P4SIM_FUZZ_SEED", "20261201"))
SECONDS = float(os.environ.get("P4SIM_FUZZ_SECONDS", "9"))
MIN_REQUESTS = 200      # sent however loaded the machine
RPC_TIMEOUT = 30.0
BAD = {grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL, grpc.StatusCode.UNAVAILABLE,
       grpc.StatusCode.DEADLINE_EXCEEDED}
BAD_CODES = {grpc.StatusCode.UNKNOWN.value[0], grpc.StatusCode.INTERNAL.value[0]}
MAX64 = (1 << 64) - 1
MAIN_ELECTION = p4runtime_pb2.Uint128(high=MAX64, low=MAX64)   # no fuzzed ID is higher
_CODE_NAMES = {c.value[0]: c.name for c in grpc.StatusCode}
MatchType = p4info_pb2.MatchField.MatchType
Update = p4runtime_pb2.Update


# -- valid requests from the P4Info -------------------------------------------------------
def _value(rng: random.Random, bits: int) -> bytes:
    number = rng.getrandbits(bits) if rng.random() < 0.8 else rng.choice((0, 1))
    return number.to_bytes(max(1, (number.bit_length() + 7) // 8), "big")


def _action(rng: random.Random, info: p4info_pb2.Action) -> p4runtime_pb2.Action:
    action = p4runtime_pb2.Action(action_id=info.preamble.id)
    for param in info.params:
        action.params.add(param_id=param.id, value=_value(rng, param.bitwidth))
    return action


def _field_match(rng: random.Random, mf: p4info_pb2.MatchField) -> p4runtime_pb2.FieldMatch:
    fm = p4runtime_pb2.FieldMatch(field_id=mf.id)
    width = mf.bitwidth
    if mf.match_type == MatchType.LPM:
        plen = rng.randint(1, width)
        value = rng.getrandbits(width) >> (width - plen) << (width - plen)
        fm.lpm.value = value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")
        fm.lpm.prefix_len = plen
    elif mf.match_type == MatchType.TERNARY:
        mask = rng.getrandbits(width) or 1
        value = rng.getrandbits(width) & mask
        fm.ternary.value = value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")
        fm.ternary.mask = mask.to_bytes((mask.bit_length() + 7) // 8, "big")
    elif mf.match_type == MatchType.RANGE:
        low, high = sorted((rng.getrandbits(width), rng.getrandbits(width)))
        fm.range.low = low.to_bytes(max(1, (low.bit_length() + 7) // 8), "big")
        fm.range.high = high.to_bytes(max(1, (high.bit_length() + 7) // 8), "big")
    elif mf.match_type == MatchType.OPTIONAL:
        fm.optional.value = _value(rng, width)
    else:
        fm.exact.value = _value(rng, width)
    return fm


class Generator:
    """Random valid entities of one P4Info."""

    def __init__(self, p4info: p4info_pb2.P4Info, rng: random.Random) -> None:
        self.p = p4info
        self.rng = rng
        self.actions = {a.preamble.id: a for a in p4info.actions}

    def table_entry(self) -> p4runtime_pb2.TableEntry | None:
        tables = [t for t in self.p.tables if not t.is_const_table]
        if not tables:
            return None
        rng, table = self.rng, self.rng.choice(tables)
        entry = p4runtime_pb2.TableEntry(table_id=table.preamble.id)
        for mf in table.match_fields:
            if mf.match_type == MatchType.EXACT or rng.random() < 0.7:
                entry.match.append(_field_match(rng, mf))
        if any(mf.match_type in (MatchType.TERNARY, MatchType.RANGE, MatchType.OPTIONAL)
               for mf in table.match_fields):
            entry.priority = rng.randint(1, 1000)
        if table.implementation_id:
            if rng.random() < 0.5:
                entry.action.action_profile_member_id = rng.randint(1, 8)
            else:
                entry.action.action_profile_group_id = rng.randint(1, 4)
        else:
            refs = [r.id for r in table.action_refs
                    if r.scope != p4info_pb2.ActionRef.DEFAULT_ONLY] or [0]
            if refs[0]:
                entry.action.action.CopyFrom(_action(rng, self.actions[rng.choice(refs)]))
        return entry

    def entity(self) -> p4runtime_pb2.Entity:
        rng, p = self.rng, self.p
        makers = ["table"] * 6 + ["member", "group", "counter", "meter", "register",
                                  "value_set", "digest", "mcast", "clone", "direct"]
        kind = rng.choice(makers)
        if kind == "table" or kind == "direct":
            entry = self.table_entry()
            if entry is not None and kind == "table":
                return p4runtime_pb2.Entity(table_entry=entry)
            if entry is not None:
                direct = p4runtime_pb2.DirectCounterEntry(table_entry=entry)
                direct.data.packet_count = rng.randint(0, 9)
                return p4runtime_pb2.Entity(direct_counter_entry=direct)
        if kind in ("member", "group") and p.action_profiles:
            profile = rng.choice(list(p.action_profiles))
            table = next((t for t in p.tables if t.implementation_id == profile.preamble.id),
                         None)
            if kind == "member" and table is not None:
                refs = [self.actions[r.id] for r in table.action_refs]
                return p4runtime_pb2.Entity(action_profile_member=p4runtime_pb2
                                            .ActionProfileMember(
                    action_profile_id=profile.preamble.id, member_id=rng.randint(1, 8),
                    action=_action(rng, rng.choice(refs))))
            group = p4runtime_pb2.ActionProfileGroup(action_profile_id=profile.preamble.id,
                                                     group_id=rng.randint(1, 4))
            for member in rng.sample(range(1, 9), rng.randint(0, 3)):
                group.members.add(member_id=member, weight=rng.randint(1, 3))
            return p4runtime_pb2.Entity(action_profile_group=group)
        if kind == "counter" and p.counters:
            c = rng.choice(list(p.counters))
            entry = p4runtime_pb2.CounterEntry(counter_id=c.preamble.id)
            entry.index.index = rng.randrange(c.size)
            entry.data.byte_count = rng.randint(0, 99)
            return p4runtime_pb2.Entity(counter_entry=entry)
        if kind == "meter" and p.meters:
            m = rng.choice(list(p.meters))
            meter = p4runtime_pb2.MeterEntry(meter_id=m.preamble.id)
            meter.index.index = rng.randrange(m.size)
            meter.config.cir, meter.config.cburst = rng.randint(1, 1000), rng.randint(1, 99)
            meter.config.pir, meter.config.pburst = rng.randint(1000, 9999), rng.randint(1, 99)
            return p4runtime_pb2.Entity(meter_entry=meter)
        if kind == "register" and p.registers:
            r = rng.choice(list(p.registers))
            reg = p4runtime_pb2.RegisterEntry(register_id=r.preamble.id)
            reg.index.index = rng.randrange(r.size)
            reg.data.bitstring = _value(rng, r.type_spec.bitstring.bit.bitwidth or 8)
            return p4runtime_pb2.Entity(register_entry=reg)
        if kind == "value_set" and p.value_sets:
            v = rng.choice(list(p.value_sets))
            vs = p4runtime_pb2.ValueSetEntry(value_set_id=v.preamble.id)
            for _ in range(rng.randint(0, v.size or 2)):
                member = vs.members.add()
                for mf in v.match:
                    member.match.append(_field_match(rng, mf))
            return p4runtime_pb2.Entity(value_set_entry=vs)
        if kind == "digest" and p.digests:
            d = rng.choice(list(p.digests))
            digest = p4runtime_pb2.DigestEntry(digest_id=d.preamble.id)
            digest.config.max_list_size = rng.randint(0, 4)
            return p4runtime_pb2.Entity(digest_entry=digest)
        pre = p4runtime_pb2.PacketReplicationEngineEntry()
        if kind == "clone":
            pre.clone_session_entry.session_id = rng.randint(1, 8)
            pre.clone_session_entry.replicas.add(egress_port=rng.randint(0, 8), instance=1)
        else:
            pre.multicast_group_entry.multicast_group_id = rng.randint(1, 8)
            for port in rng.sample(range(0, 8), rng.randint(0, 3)):
                pre.multicast_group_entry.replicas.add(egress_port=port,
                                                       instance=rng.randint(0, 3))
        return p4runtime_pb2.Entity(packet_replication_engine_entry=pre)

    def packet_out(self) -> p4runtime_pb2.PacketOut:
        out = p4runtime_pb2.PacketOut(payload=self.rng.randbytes(self.rng.randint(0, 80)))
        for header in self.p.controller_packet_metadata:
            if header.preamble.name == "packet_out":
                for meta in header.metadata:
                    out.metadata.add(metadata_id=meta.id, value=_value(self.rng,
                                                                       meta.bitwidth))
        return out


# -- mutations -----------------------------------------------------------------------------
_INT_RANGES = {FD.TYPE_UINT32: (0, 2 ** 32 - 1), FD.TYPE_UINT64: (0, 2 ** 64 - 1),
               FD.TYPE_INT32: (-2 ** 31, 2 ** 31 - 1), FD.TYPE_INT64: (-2 ** 63, 2 ** 63 - 1),
               FD.TYPE_SINT32: (-2 ** 31, 2 ** 31 - 1), FD.TYPE_SINT64: (-2 ** 63, 2 ** 63 - 1),
               FD.TYPE_FIXED32: (0, 2 ** 32 - 1), FD.TYPE_FIXED64: (0, 2 ** 64 - 1)}


def _scalar(rng: random.Random, field: FD) -> Any:
    if field.type in _INT_RANGES:
        low, high = _INT_RANGES[field.type]
        return rng.choice((0, 1, low, high, rng.randint(low, high), high // 2, max(low, -1),
                           rng.randint(0, 1024)))
    if field.type == FD.TYPE_BOOL:
        return rng.random() < 0.5
    if field.type == FD.TYPE_ENUM:
        return rng.choice([v.number for v in field.enum_type.values] + [99, -1])
    if field.type == FD.TYPE_BYTES:
        return rng.choice((b"", b"\x00", b"\x00\x01", b"\xff" * rng.randint(1, 40),
                           rng.randbytes(rng.randint(1, 300))))
    if field.type == FD.TYPE_STRING:
        return rng.choice(("", "x", "\u00e9" * 50, "a.b.c"))
    return 0.5


def mutate(rng: random.Random, msg: Any, depth: int = 0) -> None:
    """Change one thing somewhere in a message tree."""
    fields = list(msg.DESCRIPTOR.fields)
    if not fields:
        return
    field = rng.choice(fields)
    if field.label == FD.LABEL_REPEATED:
        items = getattr(msg, field.name)
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            return
        choice = rng.random()
        if len(items) and choice < 0.3 and depth < 6:
            item = items[rng.randrange(len(items))]
            if field.type == FD.TYPE_MESSAGE:
                mutate(rng, item, depth + 1)
            else:
                items[rng.randrange(len(items))] = _scalar(rng, field)
        elif len(items) and choice < 0.5:
            items.append(items[rng.randrange(len(items))])   # duplicate one
        elif len(items) and choice < 0.7:
            del items[rng.randrange(len(items))]
        elif field.type == FD.TYPE_MESSAGE:
            item = items.add()
            if depth < 6:
                mutate(rng, item, depth + 1)
        else:
            items.append(_scalar(rng, field))
        return
    if field.type == FD.TYPE_MESSAGE:
        if msg.HasField(field.name) and rng.random() < 0.25:
            msg.ClearField(field.name)
        elif depth < 6:
            child = getattr(msg, field.name)
            child.SetInParent()
            mutate(rng, child, depth + 1)
        return
    setattr(msg, field.name, _scalar(rng, field))


def mangle(rng: random.Random, data: bytes) -> bytes:
    """Byte-level damage of a serialized message."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        if choice < 0.4 and data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif choice < 0.6 and data:
            del data[rng.randrange(len(data)):]
        elif choice < 0.8:
            at = rng.randrange(len(data) + 1)
            data[at:at] = rng.randbytes(rng.randint(1, 8))
        else:
            data += bytes([rng.randrange(256)]) * rng.randint(1, 12)
    return bytes(data)


# -- the oracle ----------------------------------------------------------------------------
def _check_write_error(exc: grpc.RpcError, where: str, codes: Counter) -> None:
    code = exc.code()
    if code == grpc.StatusCode.UNKNOWN:
        details = [v for k, v in (exc.trailing_metadata() or ())
                   if k == "grpc-status-details-bin"]
        assert details, f"{where}: UNKNOWN without per-update errors: {exc.details()}"
        status = status_pb2.Status.FromString(details[0])
        for detail in status.details:
            error = p4runtime_pb2.Error()
            assert detail.Unpack(error), where
            assert error.canonical_code not in BAD_CODES, \
                f"{where}: per-update {error.canonical_code}: {error.message}"
            codes[_CODE_NAMES.get(error.canonical_code, str(error.canonical_code))] += 1
        return
    codes[code.name] += 1
    assert code not in BAD, f"{where}: {code}: {exc.details()}"


class Fuzzer:
    def __init__(self, rig: Rig, program: str, seed: int) -> None:
        self.rig = rig
        self.program = program
        self.rng = random.Random(seed)
        self.seed = seed
        self.p4info = load_p4info(program)
        self.gen = Generator(self.p4info, self.rng)
        self.main = RawClient(rig.address, election_id=None)
        hello = p4runtime_pb2.StreamMessageRequest()
        hello.arbitration.device_id = 0
        hello.arbitration.election_id.CopyFrom(MAIN_ELECTION)
        self.main.send_stream(hello)
        answer = self.main.next_message("arbitration")
        assert answer is not None and answer.arbitration.status.code == 0, answer
        self.set_pipeline()
        channel = self.main.channel
        self.raw_write = channel.unary_unary("/p4.v1.P4Runtime/Write")
        self.raw_read = channel.unary_stream("/p4.v1.P4Runtime/Read")
        self.count = 0
        self.codes: Counter = Counter()   # outcome of every update or read

    def set_pipeline(self) -> None:
        req = pipeline_request(self.p4info, json_path(self.program).read_bytes(),
                               election_id=MAIN_ELECTION)
        self.main.stub.SetForwardingPipelineConfig(req, timeout=RPC_TIMEOUT)

    def where(self, request: Any) -> str:
        shown = request if isinstance(request, bytes) else str(request)[:1500]
        return f"{self.program} seed {self.seed} request {self.count}: {shown!r}"

    def write_request(self) -> p4runtime_pb2.WriteRequest:
        rng = self.rng
        req = p4runtime_pb2.WriteRequest(device_id=0, election_id=MAIN_ELECTION)
        for _ in range(rng.randint(1, 5)):
            req.updates.add(type=rng.choice((Update.INSERT, Update.INSERT, Update.MODIFY,
                                             Update.DELETE)), entity=self.gen.entity())
        if rng.random() < 0.8:
            for _ in range(rng.randint(1, 3)):
                mutate(rng, req.updates[rng.randrange(len(req.updates))])
        elif rng.random() < 0.1:
            mutate(rng, req)
        return req

    def write(self) -> None:
        req = self.write_request()
        data = req.SerializeToString()
        shown: Any = req
        if self.rng.random() < 0.15:
            data = shown = mangle(self.rng, data)
        self.count += 1
        try:
            self.raw_write(data, timeout=RPC_TIMEOUT)
            self.codes["OK"] += len(req.updates)
        except grpc.RpcError as exc:
            _check_write_error(exc, self.where(shown), self.codes)

    def read(self) -> None:
        rng = self.rng
        req = p4runtime_pb2.ReadRequest(device_id=0)
        for _ in range(rng.randint(1, 3)):
            entity = self.gen.entity()
            if rng.random() < 0.5:
                mutate(rng, entity)
            req.entities.append(entity)
        data = req.SerializeToString()
        shown: Any = req
        if rng.random() < 0.15:
            data = shown = mangle(rng, data)
        self.count += 1
        try:
            for chunk in self.raw_read(data, timeout=RPC_TIMEOUT):
                p4runtime_pb2.ReadResponse.FromString(chunk)
            self.codes["read OK"] += 1
        except grpc.RpcError as exc:
            self.codes[f"read {exc.code().name}"] += 1
            assert exc.code() not in BAD, \
                f"{self.where(shown)}: {exc.code()}: {exc.details()}"

    def stream(self, seconds: float) -> None:
        """More controllers (role "fuzz", so the main one stays primary of the default
        role) send mutated arbitration, packet-out, ack and raw messages; every stream
        error and every stream end must carry a proper code."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._one_stream(deadline)

    def _one_stream(self, deadline: float) -> None:
        rng = self.rng
        outbox: queue.Queue = queue.Queue()
        call = self.main.channel.stream_stream("/p4.v1.P4Runtime/StreamChannel")(
            iter(outbox.get, None), timeout=RPC_TIMEOUT)
        replies: list[bytes] = []
        failure: list[str] = []

        def drain() -> None:
            try:
                for reply in call:
                    replies.append(reply)
            except grpc.RpcError as exc:
                if exc.code() in BAD and exc.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                    failure.append(f"stream ended {exc.code()}: {exc.details()}")
        reader = threading.Thread(target=drain, daemon=True)
        reader.start()
        hello = p4runtime_pb2.StreamMessageRequest()
        hello.arbitration.device_id = 0
        hello.arbitration.role.name = "fuzz"
        hello.arbitration.election_id.low = rng.randint(1, MAX64 - 1)
        sent: list[bytes] = []
        for _ in range(rng.randint(1, 25)):
            if time.monotonic() > deadline:
                break
            msg = p4runtime_pb2.StreamMessageRequest()
            choice = rng.random()
            if not sent or choice < 0.15:
                msg.CopyFrom(hello)
            elif choice < 0.7:
                msg.packet.CopyFrom(self.gen.packet_out())
            elif choice < 0.8:
                msg.digest_ack.digest_id = rng.choice(
                    [d.preamble.id for d in self.p4info.digests] or [0x17000001])
                msg.digest_ack.list_id = rng.randint(0, 9)
            else:
                msg.other.type_url = "type.googleapis.com/p4.v1.Fuzz"
            if rng.random() < 0.5:
                mutate(rng, msg)
            data = msg.SerializeToString()
            if rng.random() < 0.1:
                data = mangle(rng, data)
            sent.append(data)
            self.count += 1
            outbox.put(data)
        outbox.put(None)
        reader.join(RPC_TIMEOUT + 5)
        assert not reader.is_alive(), f"{self.program} seed {self.seed}: stream hangs"
        where = f"{self.program} seed {self.seed} stream of {len(sent)} ending request " \
                f"{self.count}: {sent!r:.2000}"
        assert not failure, f"{where}: {failure[0]}"
        for reply in replies:
            try:
                message = p4runtime_pb2.StreamMessageResponse.FromString(reply)
            except DecodeError:
                pytest.fail(f"{where}: undecodable stream reply {reply!r}")
            if message.WhichOneof("update") == "error":
                assert message.error.canonical_code not in BAD_CODES, \
                    f"{where}: stream error {message.error}"

    def still_serves(self) -> None:
        """A fresh pipeline, then a write, its read-back and a packet through."""
        self.set_pipeline()
        for _ in range(200):
            entry = self.gen.table_entry()
            if entry is None:
                break
            req = p4runtime_pb2.WriteRequest(device_id=0, election_id=MAIN_ELECTION)
            req.updates.add(type=Update.INSERT).entity.table_entry.CopyFrom(entry)
            try:
                self.main.stub.Write(req, timeout=RPC_TIMEOUT)
            except grpc.RpcError:
                continue     # e.g. a member this fresh pipeline does not have
            query = p4runtime_pb2.TableEntry(table_id=entry.table_id)
            assert self.main.read(p4runtime_pb2.Entity(table_entry=query)), \
                f"{self.program} seed {self.seed}: a written entry does not read back"
            break
        reply = self.main.stub.Capabilities(p4runtime_pb2.CapabilitiesRequest(),
                                            timeout=RPC_TIMEOUT)
        assert reply.p4runtime_api_version
        self.rig.send(1, bytes(64))     # the dataplane thread still runs (goes idle)

    def close(self) -> None:
        self.main.close()


@pytest.mark.parametrize("program", ["multipath", "l3_lpm", "replication",
                                     "stack_and_queues"])
def test_fuzz_p4runtime_requests(program: str) -> None:
    seed = SEED ^ sum(program.encode())
    print(f"\nP4Runtime request fuzz {program}: seed {seed} (P4SIM_FUZZ_SEED={SEED}), "
          f"{SECONDS:.0f} s")
    rig = Rig()
    fuzzer = Fuzzer(rig, program, seed)
    try:
        deadline = time.monotonic() + SECONDS * 0.75
        while fuzzer.count < MIN_REQUESTS or time.monotonic() < deadline:
            if fuzzer.rng.random() < 0.7:
                fuzzer.write()
            else:
                fuzzer.read()
            if fuzzer.rng.random() < 0.02:
                fuzzer.set_pipeline()     # start again from empty tables
        unary = fuzzer.count
        fuzzer.stream(SECONDS * 0.25)
        print(f"{program}: {unary} Write/Read requests, {fuzzer.count - unary} stream "
              f"messages; no UNKNOWN/INTERNAL; outcomes {dict(fuzzer.codes)}")
        # the generator's requests reach the handlers: some updates and reads succeed
        assert fuzzer.codes["OK"] and fuzzer.codes["read OK"], dict(fuzzer.codes)
        fuzzer.still_serves()
    finally:
        fuzzer.close()
        rig.close()
