"""The table-entry INSERT fast path (entities/insert_plan.py) against the checked path.

Two switches get the same updates: one as the server receives them from gRPC (bytes
decoded by `wire` into views, which the per-table plan may take), the other as
protobuf messages (which always take the checked path).  Every per-update result
(code and message) and everything read back must be the same, valid or not.  A batch
in progress does not hold up forwarding, and what it applied is already in effect.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4rt_harness import pipeline_request
from p4sim.compiler.driver import compile_program, write_outputs
from p4sim.p4runtime import wire
from p4sim.p4runtime.arbitration import Session
from p4sim.p4runtime.server import P4RuntimeServer
from p4sim.switch.switch import Switch

PROGRAM = Path(__file__).parent / "programs" / "insert_paths.p4"
INSERT, MODIFY, DELETE = (p4runtime_pb2.Update.Type.Value(n)
                          for n in ("INSERT", "MODIFY", "DELETE"))


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> tuple[p4info_pb2.P4Info, bytes]:
    out = tmp_path_factory.mktemp("insert_paths")
    json_path, p4info_path = out / "insert_paths.json", out / "insert_paths.p4info.txtpb"
    write_outputs(compile_program(str(PROGRAM)), str(json_path), [str(p4info_path)])
    p4info = text_format.Parse(p4info_path.read_text(), p4info_pb2.P4Info())
    return p4info, json_path.read_bytes()


class Target:
    """An in-process switch and its P4Runtime server, this test its primary."""

    def __init__(self, p4info: p4info_pb2.P4Info, device_config: bytes) -> None:
        self.outputs: list[tuple[int, bytes]] = []
        self.switch = Switch(ports=None)
        self.switch.add_output_listener(lambda port, data: self.outputs.append((port, data)))
        self.switch.start()
        self.server = P4RuntimeServer(self.switch, "127.0.0.1:0")
        arbitration = p4runtime_pb2.MasterArbitrationUpdate(device_id=0)
        arbitration.election_id.low = 1
        self.server.arbitrator.update(Session(send=lambda message: None), arbitration)
        self.server.set_pipeline(pipeline_request(p4info, device_config, election_id=1))

    def write(self, request) -> list[tuple[int, str] | None]:
        return [None if e is None else (e.code.value[0], e.message)
                for e in self.server.write(request)]

    def read_all(self) -> list[bytes]:
        req = p4runtime_pb2.ReadRequest(device_id=0)
        req.entities.add().table_entry.table_id = 0
        return sorted(e.SerializeToString() for data in self.server.read(req)
                      for e in p4runtime_pb2.ReadResponse.FromString(data).entities)

    def close(self) -> None:
        self.switch.stop()


@pytest.fixture
def targets(program):
    made = [Target(*program), Target(*program)]
    yield made
    for target in made:
        target.close()


def ids(p4info: p4info_pb2.P4Info) -> dict[str, int]:
    return {obj.preamble.name.split(".")[-1]: obj.preamble.id
            for obj in [*p4info.tables, *p4info.actions]}


def request(updates: list[p4runtime_pb2.Update]) -> p4runtime_pb2.WriteRequest:
    req = p4runtime_pb2.WriteRequest(device_id=0)
    req.election_id.low = 1
    req.updates.extend(updates)
    return req


def entry(table_id: int, kind: int = INSERT, priority: int = 0, action: int | None = None,
          params=(), **fields) -> p4runtime_pb2.Update:
    """fields: fN=('exact', value) | ('lpm', value, plen) | ('ternary', value, mask),
    or None for none."""
    upd = p4runtime_pb2.Update(type=kind)
    te = upd.entity.table_entry
    te.table_id, te.priority = table_id, priority
    for name, spec in fields.items():
        if spec is None:
            continue
        fm = te.match.add(field_id=int(name[1:]))
        if spec[0] == "exact":
            fm.exact.value = spec[1]
        elif spec[0] == "lpm":
            fm.lpm.value, fm.lpm.prefix_len = spec[1], spec[2]
        else:
            fm.ternary.value, fm.ternary.mask = spec[1], spec[2]
    if action is not None:
        te.action.action.action_id = action
        for param_id, value in params:
            te.action.action.params.add(param_id=param_id, value=value)
    return upd


def cases(n: dict[str, int]) -> list[p4runtime_pb2.Update]:
    mixed, routes, mark = n["mixed"], n["routes"], n["mark"]
    good = dict(f1=("exact", b"\x05"), f2=("lpm", b"\x0a\x00\x00\x00", 8),
                f3=("ternary", b"\x12\x00", b"\xff\x00"))
    args = [(1, b"\x07"), (2, b"\x01\x03")]

    def mixed_entry(priority=10, action=mark, params=args, **changes):
        return entry(mixed, priority=priority, action=action, params=params,
                     **{**good, **changes})
    updates = [
        mixed_entry(),                                       # valid
        mixed_entry(),                                       # ALREADY_EXISTS
        mixed_entry(priority=11, f2=None, f3=None),          # wildcards (dropped below)
        mixed_entry(priority=12, f1=("exact", b"\x00\x06")), # non-canonical but fits
        mixed_entry(priority=13, f1=("exact", b"\x01\x00")), # OUT_OF_RANGE
        mixed_entry(priority=13, f1=("exact", b"")),         # OUT_OF_RANGE (empty)
        mixed_entry(priority=13, f1=None),                   # exact field missing
        mixed_entry(priority=0),                             # priority needed
        mixed_entry(priority=-1),
        mixed_entry(priority=13, f2=("lpm", b"\x0a", 0)),    # prefix 0 must be omitted
        mixed_entry(priority=13, f2=("lpm", b"\x0a", 33)),
        mixed_entry(priority=13, f2=("lpm", b"\x0a\x00\x00\x01", 24)),   # host bits
        mixed_entry(priority=13, f3=("ternary", b"\x12", b"\x00")),      # mask 0
        mixed_entry(priority=13, f3=("ternary", b"\x13", b"\x10")),      # outside mask
        mixed_entry(priority=13, f3=("ternary", b"\x01\x00\x00", b"\xff")),  # too wide
        mixed_entry(priority=13, f3=("exact", b"\x12")),     # wrong match kind
        mixed_entry(priority=13, f9=("exact", b"\x12")),     # unknown field id
        mixed_entry(priority=13, action=n["drop"], params=()),   # @defaultonly
        mixed_entry(priority=13, action=0x01abcdef, params=()),  # no such action
        mixed_entry(priority=13, params=args[:1]),           # a parameter missing
        mixed_entry(priority=13, params=[*args, (3, b"\x01")]),  # unknown parameter
        mixed_entry(priority=13, params=[args[0], args[0], args[1]]),  # given twice
        mixed_entry(priority=13, params=[(1, b"\x07"), (2, b"\x02\x00")]),  # 9-bit port
        mixed_entry(priority=13, params=[(1, b""), (2, b"\x01")]),      # empty value
        mixed_entry(priority=13, action=None),               # no action
        mixed_entry(priority=14, f3=None),                   # valid again
        entry(mixed, priority=13, action=mark, params=args, f1=("exact", b"\x05"),
              f2=("lpm", b"\x0b\x00\x00\x00", 8), f3=("ternary", b"\x12\x00", b"\xff\x00"),
              ),                                             # valid, another prefix
        entry(routes, action=mark, params=args, f1=("lpm", b"\x0a\x00\x00\x00", 8)),
        entry(routes, priority=3, action=mark, params=args,
              f1=("lpm", b"\x0b\x00\x00\x00", 8)),           # priority on an lpm table
        entry(routes, action=n["NoAction"], f1=("lpm", b"\x0c\x00\x00\x00", 8)),
        entry(routes, action=mark, params=args, f1=("lpm", b"\x0d\x00\x00\x00", 8)),
        entry(routes, action=mark, params=args),             # the lpm wildcard
        entry(routes, action=mark, params=args, f1=("lpm", b"\x0e\x00\x00\x00", 8)),  # full
        entry(0x02abcdef, action=mark, params=args),         # no such table
    ]
    te = updates[25].entity.table_entry                      # with controller metadata
    te.controller_metadata, te.metadata = 77, b"cookie"
    default = entry(mixed, action=mark, params=args)        # INSERT of the default entry
    default.entity.table_entry.is_default_action = True
    member = entry(mixed, priority=13, **good)              # member of a direct table
    member.entity.table_entry.action.action_profile_member_id = 1
    swapped = mixed_entry(priority=15, params=args[::-1])   # valid, params reordered
    return [*updates, default, member, swapped]


def test_fast_path_results_equal_the_checked_path(targets):
    fast, checked = targets
    p4info = fast.server._require_state().p4info
    n = ids(p4info)
    updates = cases(n)
    req = request(updates)
    parsed = wire.parse_write_request(req.SerializeToString())
    assert all(isinstance(u, wire.UpdateView) for u in parsed.updates)
    got, want = fast.write(parsed), checked.write(req)
    assert got == want
    assert got.count(None) == 10                     # 6 in mixed, 4 (full) in routes
    assert (got[1][0], got[32][0], got[33][0]) == (6, 8, 5)   # exists, full, no table
    assert fast.read_all() == checked.read_all()
    # The plan served the fast switch; the protobuf updates never reach it.
    plans = fast.server._require_handlers().tables._plans
    assert plans[n["mixed"]] is not None and plans[n["routes"]] is not None
    assert not checked.server._require_handlers().tables._plans

    # Entries inserted either way modify and delete alike.
    later = []
    for upd in updates[:4]:
        for kind in (MODIFY, DELETE, DELETE):
            again = p4runtime_pb2.Update()
            again.CopyFrom(upd)
            again.type = kind
            later.append(again)
    req = request(later)
    assert fast.write(wire.parse_write_request(req.SerializeToString())) == \
        checked.write(req)
    assert fast.read_all() == checked.read_all()


def frame(f2: int) -> bytes:
    data = (0).to_bytes(4, "big") + f2.to_bytes(4, "big") + bytes(4)
    return b"\x00\x01\x02\x03\x04\x05" * 2 + b"\x88\xb5" + data


def test_inserted_entries_forward(targets):
    fast, _ = targets
    n = ids(fast.server._require_state().p4info)
    req = request([entry(n["routes"], action=n["mark"], params=[(1, b"\x2a"), (2, b"\x03")],
                         f1=("lpm", b"\x0a\x00\x00\x00", 8))])
    assert fast.write(wire.parse_write_request(req.SerializeToString())) == [None]
    fast.switch.inject(0, frame(0x0A010203))
    assert fast.switch.wait_idle(10.0)
    assert [(port, data[-1]) for port, data in fast.outputs] == [(3, 0x2A)]


def test_a_batch_in_progress_does_not_hold_up_forwarding(targets):
    """The batch stops (on a table lock the test holds) after its first update: the
    switch forwards by that entry meanwhile; the batch then completes."""
    fast, _ = targets
    n = ids(fast.server._require_state().p4info)
    route = entry(n["routes"], action=n["mark"], params=[(1, b"\x2a"), (2, b"\x03")],
                  f1=("lpm", b"\x0a\x00\x00\x00", 8))
    classify = entry(n["mixed"], priority=1, action=n["mark"],
                     params=[(1, b"\x01"), (2, b"\x04")], f1=("exact", b"\x00"))
    parsed = wire.parse_write_request(request([route, classify]).SerializeToString())
    mixed_table = fast.switch.runtime.tables["IngressImpl.mixed"]
    routes_table = fast.switch.runtime.tables["IngressImpl.routes"]
    results: list = []
    with mixed_table._lock:
        writer = threading.Thread(target=lambda: results.append(fast.write(parsed)))
        writer.start()
        deadline = time.monotonic() + 30
        while not routes_table.entries():
            assert time.monotonic() < deadline, "the batch's first update never applied"
            writer.join(timeout=0.01)
        fast.switch.inject(0, frame(0x0A000001))
        assert fast.switch.wait_idle(10.0), "forwarding stalled behind the batch"
        assert [port for port, _ in fast.outputs] == [3]
        assert writer.is_alive() and not results    # the batch is still going on
    writer.join(timeout=30)
    assert results == [[None, None]]
