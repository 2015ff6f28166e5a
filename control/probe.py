"""Read a switch's P4Runtime state from inside the switch namespace; prints JSON.

The gRPC servers of a FabricNetwork listen on loopback in its switch namespace, and
gRPC opens connections from its own threads, so the tests and benchmarks run this module there with
`ip netns exec` instead of connecting from the pytest process. Reads need no
arbitration, so the probe never disturbs the controller's mastership.

  python -m control.probe pipeline GRPC DEVICE
  python -m control.probe counter GRPC DEVICE P4INFO COUNTER
  python -m control.probe meter GRPC DEVICE P4INFO METER INDEX
  python -m control.probe group-ports GRPC DEVICE P4INFO
  python -m control.probe wait-port-gone GRPC DEVICE P4INFO PORT TIMEOUT
  python -m control.probe wait-groups GRPC DEVICE P4INFO TIMEOUT
"""
from __future__ import annotations

import json
import sys
import time

import grpc
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from control.controller.program import SELECTOR
from control.p4rt.client import SwitchConnection
from control.p4rt.entities import P4Names, load_p4info
from control.p4rt.errors import P4RuntimeError
from p4sim.p4runtime.codec import decode_int

FORWARD = "FabricIngress.routing.forward"


def has_pipeline(address: str, device_id: int) -> bool:
    channel = grpc.insecure_channel(address)
    grpc.channel_ready_future(channel).result(timeout=10)
    stub = p4runtime_pb2_grpc.P4RuntimeStub(channel)
    request = p4runtime_pb2.GetForwardingPipelineConfigRequest(
        device_id=device_id, response_type=p4runtime_pb2.GetForwardingPipelineConfigRequest.P4INFO_AND_COOKIE)
    try:
        response = stub.GetForwardingPipelineConfig(request)
    except grpc.RpcError as err:
        if err.code() == grpc.StatusCode.FAILED_PRECONDITION:
            return False
        raise
    return len(response.config.p4info.tables) > 0


def counter(conn: SwitchConnection, names: P4Names, name: str) -> dict[int, int]:
    entity = p4runtime_pb2.Entity(counter_entry=names.counter(name))
    return {e.counter_entry.index.index: e.counter_entry.data.packet_count for e in conn.read([entity])
            if e.counter_entry.data.packet_count}  # zeros left out: counters are large arrays


def meter(conn: SwitchConnection, names: P4Names, name: str, index: int) -> list[int] | None:
    """[cir, cburst, pir, pburst] of one meter cell as the switch reports them; None if
    unconfigured."""
    entry = p4runtime_pb2.MeterEntry(meter_id=names.id("meters", name))
    entry.index.index = index
    for e in conn.read([p4runtime_pb2.Entity(meter_entry=entry)]):
        if e.meter_entry.HasField("config"):
            c = e.meter_entry.config
            return [c.cir, c.cburst, c.pir, c.pburst]
    return None


def member_ports(conn: SwitchConnection, names: P4Names) -> dict[int, int]:
    """Multipath member id -> the egress port its forward action sends to."""
    port_param = next(p for p in names.get("actions", FORWARD).params if p.name == "port")
    members = conn.read([p4runtime_pb2.Entity(action_profile_member=p4runtime_pb2.ActionProfileMember(
        action_profile_id=names.id("action_profiles", SELECTOR)))])
    port_of = {}
    for entity in members:
        member = entity.action_profile_member
        for param in member.action.params:
            if param.param_id == port_param.id:
                port_of[member.member_id] = decode_int(param.value, port_param.bitwidth, "port")
    return port_of


def groups(conn: SwitchConnection, names: P4Names) -> list[p4runtime_pb2.ActionProfileGroup]:
    """Every multipath group the switch holds, by group id."""
    read = conn.read([p4runtime_pb2.Entity(action_profile_group=p4runtime_pb2.ActionProfileGroup(
        action_profile_id=names.id("action_profiles", SELECTOR)))])
    return sorted((e.action_profile_group for e in read), key=lambda g: g.group_id)


def group_ports(conn: SwitchConnection, names: P4Names) -> dict[int, list[int]]:
    """Multipath group -> egress ports of its members (one per member, weights ignored)."""
    port_of = member_ports(conn, names)
    return {g.group_id: sorted(port_of.get(m.member_id, -1) for m in g.members)
            for g in groups(conn, names)}


def _wait(condition, conn: SwitchConnection, names: P4Names, timeout: float) -> int:
    """Poll the groups until ``condition`` holds; print when, as CLOCK_MONOTONIC (one
    clock for every process), so the caller measures from its own timestamp."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            groups = group_ports(conn, names)
        except P4RuntimeError:
            groups = {}  # no pipeline yet
        if condition(groups):
            print(json.dumps({"at": time.monotonic(), "groups": groups}))
            return 0
        if time.monotonic() > deadline:
            print(json.dumps({"at": None, "groups": groups}))
            return 1
        time.sleep(0.005)  # polling the switch's state, with a deadline


def main(argv: list[str]) -> int:
    command, address, device = argv[0], argv[1], int(argv[2])
    if command == "pipeline":
        print(json.dumps({"pipeline": has_pipeline(address, device)}))
        return 0
    names = P4Names(load_p4info(argv[3]))
    conn = SwitchConnection(address, device)  # reads only: no arbitration needed
    if command == "counter":
        print(json.dumps(counter(conn, names, argv[4])))
    elif command == "meter":
        print(json.dumps(meter(conn, names, argv[4], int(argv[5]))))
    elif command == "group-ports":
        print(json.dumps(group_ports(conn, names)))
    elif command == "wait-port-gone":
        # Until no multipath group has a member on PORT (a repaired failure).
        port = int(argv[4])
        return _wait(lambda groups: groups and all(port not in ports for ports in groups.values()),
                     conn, names, float(argv[5]))
    elif command == "wait-groups":
        # Until the switch has multipath groups again (a restored restart).
        return _wait(bool, conn, names, float(argv[4]))
    else:
        print(f"unknown command {command!r}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
