"""Sovereignty: a switch bound to its domain's P4Runtime roles takes arbitration, pipeline
pushes and writes from that domain's controller only.

Real gRPC throughout: an in-process switch behind a real P4RuntimeServer, the project's
controller client (control.p4rt.client.SwitchConnection) for controllers, and the raw
client of p4rt_harness for requests the controller client never sends (a Write without
a stream, a foreign SetForwardingPipelineConfig).
"""
from __future__ import annotations

import grpc
import pytest
from google.rpc import code_pb2
from p4.v1 import p4runtime_pb2

from control.p4rt.client import SwitchConnection
from control.p4rt.entities import INSERT, P4Names, load_p4info, update
from control.p4rt.errors import P4RuntimeError
from p4rt_harness import RawClient, json_path, p4info_path
from p4sim.p4runtime.arbitration import RoleBinding
from p4sim.p4runtime.server import P4RuntimeServer
from p4sim.switch.switch import Switch

OWN, FOREIGN = "domain-a", "domain-b"
PROGRAM = "l3_lpm"
TABLE = "IngressImpl.ipv4_lpm"


class Domain:
    """One switch, bound to `allowed` roles (None: unbound), and the controllers opened
    against it (closed at the end)."""

    def __init__(self, allowed: set[str] | None):
        self.switch = Switch(ports=None, cpu_port=255)
        self.switch.start()
        self.server = P4RuntimeServer(self.switch, "127.0.0.1:0", device_id=0,
                                      allowed_roles=allowed)
        self.server.start()
        self.address = f"127.0.0.1:{self.server.port}"
        self.p4info = load_p4info(str(p4info_path(PROGRAM)))
        self.names = P4Names(self.p4info)
        self._opened: list = []

    def controller(self, role: str = "", election_id: int = 1) -> SwitchConnection:
        conn = SwitchConnection(self.address, device_id=0, election_id=election_id, role=role)
        self._opened.append(conn)
        return conn

    def raw(self, role: str = "", election_id: int | None = 1) -> RawClient:
        client = RawClient(self.address, election_id=election_id, role=role)
        self._opened.append(client)
        return client

    def push(self, conn: SwitchConnection) -> None:
        conn.set_pipeline(self.p4info, json_path(PROGRAM).read_bytes())

    def route(self, prefix: str, port: int) -> p4runtime_pb2.Update:
        entry = self.names.table_entry(TABLE, {"dst_addr": prefix}, "IngressImpl.forward",
                                       {"port": port, "dst_mac": "00:00:00:00:0a:0b",
                                        "src_mac": "00:00:00:00:0c:0d"})
        return update(INSERT, table_entry=entry)

    def routes(self, reader) -> list[int]:
        """Prefix lengths of the routes a client reads back (sorted)."""
        wildcard = p4runtime_pb2.Entity(table_entry=self.names.table_entry(TABLE))
        entities = reader.read([wildcard]) if isinstance(reader, SwitchConnection) \
            else reader.read(wildcard)
        return sorted(e.table_entry.match[0].lpm.prefix_len for e in entities)

    def close(self) -> None:
        for conn in self._opened:
            conn.close()
        self.server.stop()
        self.switch.stop()


@pytest.fixture
def bound():
    domain = Domain({OWN})
    yield domain
    domain.close()


@pytest.fixture
def unbound():
    domain = Domain(None)
    yield domain
    domain.close()


def test_own_domain_controller_pushes_writes_and_forwards(bound):
    own = bound.controller(OWN)
    own.connect()
    bound.push(own)
    own.write([bound.route("10.0.0.0/8", 2)])
    assert bound.routes(own) == [8]
    out: list[tuple[int, bytes]] = []
    bound.switch.add_output_listener(lambda port, data: out.append((port, data)))
    frame = bytes.fromhex("000000000001000000000002080045000024000100004011AD12C0A8010A"
                          "0A01020304D2005000106FA57061796C6F616421")
    bound.switch.inject(1, frame)
    assert bound.switch.wait_idle(5)
    assert [port for port, _ in out] == [2]


def test_foreign_controller_is_refused_at_arbitration_naming_both_roles(bound):
    own = bound.controller(OWN, election_id=1)
    own.connect()
    bound.push(own)
    # A far higher election ID makes no difference: the role decides.
    foreign = bound.controller(FOREIGN, election_id=1 << 40)
    with pytest.raises(P4RuntimeError) as refused:
        foreign.connect()
    assert refused.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert f"role '{FOREIGN}'" in refused.value.details
    assert f"role '{OWN}'" in refused.value.details
    # The own controller is still the primary and still writes.
    own.write([bound.route("10.1.0.0/16", 3)])
    assert bound.routes(own) == [16]


def test_foreign_controller_is_refused_even_with_no_own_controller_connected(bound):
    """Where BMv2 would make it primary (no other connection), a bound switch refuses."""
    raw = bound.raw(FOREIGN, election_id=1)
    assert raw.arbitrate() is None                      # the stream ended, no answer
    assert raw.stream_error is not None
    assert raw.stream_error.code() == grpc.StatusCode.PERMISSION_DENIED
    assert FOREIGN in raw.stream_error.details() and OWN in raw.stream_error.details()


def test_foreign_write_and_pipeline_push_are_refused_with_both_roles(bound):
    own = bound.controller(OWN, election_id=5)
    own.connect()
    bound.push(own)
    own.write([bound.route("10.0.0.0/8", 2)])
    # The foreign controller skips arbitration and claims the own primary's election ID.
    foreign = bound.raw(FOREIGN, election_id=5)
    with pytest.raises(grpc.RpcError) as write:
        foreign.write(bound.route("10.9.0.0/16", 4))
    assert write.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert f"role '{FOREIGN}'" in write.value.details()
    assert f"role '{OWN}'" in write.value.details()
    with pytest.raises(grpc.RpcError) as push:
        foreign.set_pipeline("stack_and_queues")
    assert push.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert FOREIGN in push.value.details() and OWN in push.value.details()
    # Nothing changed: the own pipeline and its one route.
    assert bound.routes(own) == [8]


def test_default_role_is_refused_on_a_bound_switch(bound):
    default = bound.controller("", election_id=1 << 60)
    with pytest.raises(P4RuntimeError) as refused:
        default.connect()
    assert refused.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert "default role" in refused.value.details and f"role '{OWN}'" in refused.value.details
    own = bound.controller(OWN)
    own.connect()
    bound.push(own)
    raw = bound.raw("", election_id=1)
    with pytest.raises(grpc.RpcError) as write:
        raw.write(bound.route("10.9.0.0/16", 4))
    assert write.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "default role" in write.value.details()


def test_reads_stay_open_to_every_role(bound):
    """The spec lets any controller read: a bound switch does not hide its state."""
    own = bound.controller(OWN)
    own.connect()
    bound.push(own)
    own.write([bound.route("10.0.0.0/8", 2), bound.route("10.1.0.0/16", 3)])
    assert bound.routes(bound.raw(FOREIGN, election_id=None)) == [8, 16]
    assert bound.routes(bound.raw("", election_id=None)) == [8, 16]


def test_every_allowed_role_gets_its_own_primary():
    domain = Domain({OWN, "domain-a-ops"})
    try:
        first = domain.controller(OWN, election_id=1)
        first.connect()
        domain.push(first)
        second = domain.controller("domain-a-ops", election_id=1)  # same ID, other role
        second.connect()
        second.write([domain.route("10.0.0.0/8", 2)])
        first.write([domain.route("10.1.0.0/16", 3)])
        assert domain.routes(first) == [8, 16]
        with pytest.raises(P4RuntimeError) as refused:
            domain.controller(FOREIGN, election_id=9).connect()
        assert "roles 'domain-a', 'domain-a-ops'" in refused.value.details
    finally:
        domain.close()


def test_unbound_switch_accepts_the_default_role_and_any_role_as_before(unbound):
    default = unbound.controller("", election_id=1)
    default.connect()
    unbound.push(default)
    default.write([unbound.route("10.0.0.0/8", 2)])
    named = unbound.controller(FOREIGN, election_id=1)   # its own role: its own primary
    named.connect()
    named.write([unbound.route("10.1.0.0/16", 3)])
    assert unbound.routes(default) == [8, 16]
    raw = unbound.raw("", election_id=2)
    assert raw.arbitrate().arbitration.status.code == code_pb2.OK   # pre-empts default


def test_a_binding_needs_role_names():
    for bad in ([], [""], ["  "]):
        with pytest.raises(ValueError, match="non-empty role names"):
            RoleBinding(bad)
    assert not RoleBinding().bound and RoleBinding(["a"]).bound
