"""replication.p4: what the pipeline asks of the architecture (clone, resubmit,
recirculate, digest, multicast) is recorded in pkt.arch and standard_metadata."""
from __future__ import annotations

import random

from p4sim.switch.runtime_api import ExactParam
from .helpers import load_reference

ETH = "000000000001" "000000000002"


def _program():
    program = load_reference("replication", rng=random.Random(7))
    tables = program.runtime.tables
    tables["IngressImpl.l2"].add_entry([ExactParam(1)], "IngressImpl.unicast", [1])
    tables["IngressImpl.l2"].add_entry([ExactParam(0xFFFFFFFFFFFF)], "IngressImpl.flood", [1])
    tables["IngressImpl.smac"].add_entry([ExactParam(2)], "NoAction", [])
    return program


def _ingress(program, port: int, hex_data: str):
    pkt = program.new_packet(bytes.fromhex(hex_data), port)
    program.parse(pkt)
    program.ingress(pkt)
    return pkt


def test_unknown_source_sends_a_digest() -> None:
    program = _program()
    pkt = _ingress(program, 3, "000000000001" "0000000000AB" "0800" + "AA" * 16)
    assert pkt.arch.digests == [("learn_t", (0xAB, 3))]
    assert program.learn_lists == {1: "learn_t"}
    assert program.learn_list_fields == {1: [("scalars", "tmp_1"), ("scalars", "tmp_2")]}


def test_flood_sets_mcast_group() -> None:
    pkt = _ingress(_program(), 2, "FFFFFFFFFFFF000000000002" "0800" + "AA" * 16)
    assert pkt.get_std("mcast_grp") == 1
    assert pkt.arch.digests == []


def test_resubmit_request_and_preserved_field_list() -> None:
    program = _program()
    pkt = _ingress(program, 2, ETH + "9000" + "AA" * 16)
    assert pkt.arch.resubmit_field_list == 1
    preserved = pkt.preserved_fields(1)
    assert preserved == {("scalars", "metadata_t.passes"): 1}
    # the architecture re-injects the packet with the preserved fields restored
    again = program.new_packet(pkt.data, 2)
    again.restore_fields(preserved)
    again.set_std("instance_type", 6)
    program.parse(again)
    program.ingress(again)
    assert again.arch.resubmit_field_list is None
    assert again.get_std("egress_spec") == 1


def test_i2e_clone_request() -> None:
    pkt = _ingress(_program(), 2, ETH + "9001" + "AA" * 16)
    assert (pkt.arch.clone_session, pkt.arch.clone_field_list) == (5, 1)
    assert pkt.get_std("egress_spec") == 1


def test_egress_e2e_clone_and_recirculate_requests() -> None:
    program = _program()
    pkt = _ingress(program, 2, ETH + "9002" + "AA" * 16)
    pkt.set_std("egress_port", 1)
    program.egress(pkt)
    assert pkt.arch.clone_session == 6
    pkt = _ingress(program, 2, ETH + "9003" + "AA" * 16)
    pkt.set_std("egress_port", 1)
    program.egress(pkt)
    assert pkt.arch.recirculate_field_list == 1
    assert pkt.preserved_fields(1) == {("scalars", "metadata_t.passes"): 2}


def test_packet_out_header_is_stripped_and_exit_ends_ingress() -> None:
    program = _program()
    pkt = _ingress(program, 255, "0180" + ETH + "0800" + "AA" * 16)  # egress_port 3
    assert pkt.get_std("egress_spec") == 3
    assert pkt.arch.exit_called
    assert pkt.arch.digests == []  # smac was not applied after exit
    assert program.deparse(pkt) == bytes.fromhex(ETH + "0800" + "AA" * 16)


def test_packet_in_header_added_in_egress_for_cpu_port() -> None:
    program = _program()
    pkt = _ingress(program, 4, "00000000000900000000000208 00".replace(" ", "") + "AA" * 16)
    assert pkt.get_std("egress_spec") == 255   # l2 miss: to_cpu
    pkt.set_std("egress_port", 255)
    program.egress(pkt)
    out = program.deparse(pkt)
    assert out[:2] == bytes([4 >> 1, (4 & 1) << 7])  # ingress_port 4 in 9 bits + pad


def test_lookahead_zero_ether_type_leaves_ethernet_unparsed() -> None:
    program = _program()
    pkt = program.new_packet(bytes.fromhex(ETH + "0000" + "AA" * 4), 1)
    program.parse(pkt)
    assert not pkt.is_valid("ethernet")
    assert pkt.payload == pkt.data


def test_copy_is_deep() -> None:
    program = _program()
    pkt = _ingress(program, 2, "FFFFFFFFFFFF000000000002" "0800" + "AA" * 16)
    twin = pkt.copy()
    twin.set_std("egress_rid", 9)
    twin.arch.digests.append(("x", ()))
    assert pkt.get_std("egress_rid") == 0
    assert pkt.arch.digests == []


def test_random_stays_in_range() -> None:
    program = _program()
    samples = set()
    for _ in range(50):
        pkt = _ingress(program, 2, ETH + "0800" + "AA" * 16)
        samples.add(pkt.get_field("scalars", "metadata_t.sample"))
    assert all(0 <= s <= 1023 for s in samples)
    assert len(samples) > 10
