"""The controller's typed client against the real P4Runtime server of an in-process
p4sim switch: pipeline push, writes by name, reads, per-update errors, forwarding."""

import pytest

from control.p4rt.client import SwitchConnection
from control.p4rt.entities import DELETE, INSERT, P4Names, load_p4info, update
from control.p4rt.errors import P4RuntimeError
from p4sim.p4runtime.server import P4RuntimeServer
from p4sim.switch.switch import Switch
from p4sim.reference import reference_dir

REF = reference_dir() / "p4c-out"


@pytest.fixture
def connection():
    switch = Switch(ports=None)
    switch.start()
    server = P4RuntimeServer(switch, "127.0.0.1:0", device_id=0)
    server.start()
    conn = SwitchConnection(f"127.0.0.1:{server.port}", device_id=0, election_id=1)
    try:
        conn.connect()
        p4info = load_p4info(str(REF / "l3_lpm.p4info.txtpb"))
        conn.set_pipeline(p4info, (REF / "l3_lpm.json").read_bytes())
        yield switch, conn, P4Names(p4info)
    finally:
        conn.close()
        server.stop()
        switch.stop()


def route(names: P4Names, prefix: str, port: int):
    return names.table_entry("IngressImpl.ipv4_lpm", {"dst_addr": prefix}, "IngressImpl.forward",
                             {"port": port, "dst_mac": "00:00:00:00:0a:0b",
                              "src_mac": "00:00:00:00:0c:0d"})


def test_insert_read_and_forward(connection):
    switch, conn, names = connection
    conn.write([update(INSERT, table_entry=route(names, "10.0.0.0/8", 2))])
    read = conn.read([update(INSERT, table_entry=names.table_entry("IngressImpl.ipv4_lpm")).entity])
    assert len(read) == 1 and read[0].table_entry.match[0].lpm.prefix_len == 8
    out = []
    switch.add_output_listener(lambda port, data: out.append((port, data)))
    pkt = bytes.fromhex("000000000001000000000002080045000024000100004011AD12C0A8010A0A01020304D2"
                        "005000106FA57061796C6F616421")
    switch.inject(1, pkt)
    assert switch.wait_idle(5)
    assert [p for p, _ in out] == [2]
    assert out[0][1][:12] == bytes.fromhex("000000000A0B000000000C0D")


def test_per_update_errors_are_decoded_in_order(connection):
    _, conn, names = connection
    good = route(names, "10.1.0.0/16", 3)
    conn.write([update(INSERT, table_entry=good)])
    with pytest.raises(P4RuntimeError) as info:
        conn.write([update(INSERT, table_entry=route(names, "10.2.0.0/16", 3)),
                    update(INSERT, table_entry=good),
                    update(DELETE, table_entry=route(names, "10.9.0.0/16", 3))])
    assert [(i, code) for i, code, _ in info.value.errors] == [(1, "ALREADY_EXISTS"), (2, "NOT_FOUND")]
    read = conn.read([update(INSERT, table_entry=names.table_entry("IngressImpl.ipv4_lpm")).entity])
    assert len(read) == 2  # the valid update in the failed batch still applied


def test_unknown_names_list_what_exists(connection):
    _, _, names = connection
    with pytest.raises(KeyError, match="IngressImpl.ipv4_lpm"):
        names.table_entry("IngressImpl.nope")
    with pytest.raises(KeyError, match="missing params"):
        names.action("IngressImpl.forward", {"port": 1})
