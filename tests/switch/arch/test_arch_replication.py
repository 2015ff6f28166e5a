"""v1model flow on p4c's replication.json: multicast, I2E/E2E clones, resubmit,
recirculate, digests and the CPU port, checked against replication.stf (real BMv2)."""

import pytest

from p4sim.switch.pre import CloneSession
from p4sim.switch.runtime_api import ExactParam
from p4sim.switch.switch import Switch

from sa_helpers import REFERENCE, Collector, reference_json

CPU_PORT = 255
PAYLOAD = "AA" * 16


def frame(dst: str, src: str, ether_type: str) -> bytes:
    return bytes.fromhex(dst + src + ether_type + PAYLOAD)


@pytest.fixture
def switch():
    sw = Switch(cpu_port=CPU_PORT)
    sw.load_program(reference_json("replication"))
    tables = sw.runtime.tables
    tables["IngressImpl.l2"].add_entry([ExactParam(0x000000000001)], "IngressImpl.unicast", [1])
    tables["IngressImpl.l2"].add_entry([ExactParam(0xFFFFFFFFFFFF)], "IngressImpl.flood", [1])
    tables["IngressImpl.smac"].add_entry([ExactParam(0x000000000002)], "NoAction", [])
    sw.pre.create_group(1)
    sw.pre.set_group_replicas(1, [(1, 0), (2, 1), (3, 2)])
    sw.pre.set_clone_session(5, CloneSession(port=4))
    sw.pre.set_clone_session(6, CloneSession(port=5))
    sw.start()
    try:
        yield sw
    finally:
        sw.stop()


def send(sw: Switch, collector: Collector, port: int, data: bytes) -> dict[int, list[bytes]]:
    sw.inject(port, data)
    assert sw.wait_idle(5)
    return collector.take()


def test_stf_file_is_the_one_encoded_here():
    text = (REFERENCE / "stf" / "replication.stf").read_text()
    assert "mirroring_add 5 4" in text and "mc_node_create 0 1 2 3" in text


def test_unicast(switch):
    out = Collector(switch)
    pkt = frame("000000000001", "000000000002", "0800")
    assert send(switch, out, 2, pkt) == {1: [pkt]}
    assert switch.stats.rx[2] == 1 and switch.stats.tx[1] == 1


def test_multicast_replicates_to_every_member(switch):
    out = Collector(switch)
    pkt = frame("FFFFFFFFFFFF", "000000000002", "0800")
    assert send(switch, out, 2, pkt) == {1: [pkt], 2: [pkt], 3: [pkt]}
    assert switch.stats.replicas == 3


def test_ingress_clone_is_tagged_in_egress(switch):
    out = Collector(switch)
    pkt = frame("000000000001", "000000000002", "9001")
    clone = frame("000000000001", "00000000C10E", "9001")
    assert send(switch, out, 2, pkt) == {1: [pkt], 4: [clone]}


def test_egress_clone(switch):
    out = Collector(switch)
    pkt = frame("000000000001", "000000000002", "9002")
    assert send(switch, out, 2, pkt) == {1: [pkt], 5: [pkt]}
    assert switch.stats.clones == 1


def test_resubmit_goes_out_once(switch):
    out = Collector(switch)
    pkt = frame("000000000001", "000000000002", "9000")
    assert send(switch, out, 2, pkt) == {1: [pkt]}
    assert switch.stats.resubmits == 1


def test_recirculate_goes_out_once(switch):
    out = Collector(switch)
    pkt = frame("000000000001", "000000000002", "9003")
    assert send(switch, out, 2, pkt) == {1: [pkt]}
    assert switch.stats.recirculations == 1


def test_unknown_source_makes_a_digest(switch):
    out = Collector(switch)
    pkt = frame("000000000001", "0000000000AB", "0800")
    assert send(switch, out, 7, pkt) == {1: [pkt]}
    assert len(out.digests) == 1
    name, values = out.digests[0]
    assert values == (0xAB, 7)
    assert name  # the learn list's name from the JSON


def test_unknown_destination_goes_to_cpu_with_packet_in_header(switch):
    out = Collector(switch)
    pkt = frame("0000000000EE", "000000000002", "0800")
    assert send(switch, out, 3, pkt) == {}
    assert out.packet_ins == [bytes.fromhex("0180") + pkt]  # ingress_port 3 in 9 bits + pad
    assert switch.stats.packet_ins == 1


def test_packet_out_goes_to_the_requested_port(switch):
    out = Collector(switch)
    pkt = frame("0000000000EE", "000000000002", "0800")
    switch.packet_out(bytes.fromhex("0100") + pkt)   # egress_port 2
    assert switch.wait_idle(5)
    assert out.take() == {2: [pkt]}


def test_multicast_clone_session_with_truncation(switch):
    switch.pre.create_group(9)
    switch.pre.set_group_replicas(9, [(6, 0), (7, 0)])
    switch.pre.set_clone_session(5, CloneSession(port=4, mcast_grp=9, truncate=20))
    out = Collector(switch)
    pkt = frame("000000000001", "000000000002", "9001")
    clone = frame("000000000001", "00000000C10E", "9001")[:20]
    assert send(switch, out, 2, pkt) == {1: [pkt], 4: [clone], 6: [clone], 7: [clone]}


def test_missing_clone_session_makes_no_clone(switch):
    switch.pre.delete_clone_session(5)
    out = Collector(switch)
    pkt = frame("000000000001", "000000000002", "9001")
    assert send(switch, out, 2, pkt) == {1: [pkt]}


def test_many_packets_keep_order(switch):
    out = Collector(switch)
    pkts = [frame("000000000001", "000000000002", "0800")[:-1] + bytes([i]) for i in range(50)]
    for pkt in pkts:
        switch.inject(2, pkt)
    assert switch.wait_idle(5)
    assert out.take() == {1: pkts}


def test_no_program_drops_and_counts():
    sw = Switch()
    out = Collector(sw)
    with sw:
        sw.inject(1, frame("000000000001", "000000000002", "0800"))
        assert sw.wait_idle(5)
    assert out.take() == {}
    assert sw.stats.no_program_drops == 1


def test_listener_may_reconfigure_the_switch(switch):
    """Listeners run without the switch's lock: one that changes queues must not hang."""
    changed = []

    def on_output(port: int, data: bytes) -> None:
        switch.set_queue_depth(5, port=port)
        changed.append(switch.queue_config(port))

    switch.add_output_listener(on_output)
    switch.inject(2, frame("000000000001", "000000000002", "0800"))
    assert switch.wait_idle(5)
    assert changed == [(5, None)]


def test_egress_clone_to_the_same_port_leaves_after_the_original(switch):
    switch.pre.set_clone_session(6, CloneSession(port=1, truncate=20))  # tells them apart
    out = Collector(switch)
    pkt = frame("000000000001", "000000000002", "9002")
    switch.inject(2, pkt)
    assert switch.wait_idle(5)
    assert out.order == [(1, pkt), (1, pkt[:20])]
    assert switch.stats.clones == 1
