"""The packet API the architecture uses: metadata reset with preserved fields, and the
standard_metadata slots (`layout.std`) agreeing with get_std/set_std."""
from __future__ import annotations

import pytest

from .helpers import load_reference

FRAME = bytes.fromhex("000000000001000000000002" "0800") + bytes(50)


@pytest.fixture(scope="module")
def program():
    return load_reference("replication")


def parsed(program):
    pkt = program.new_packet(FRAME, 3)
    program.parse(pkt)
    return pkt


def test_reset_metadata_zeroes_metadata_keeps_headers_and_preserved_fields(program):
    pkt = parsed(program)
    pkt.set_field("scalars", "metadata_t.passes", 7)
    pkt.set_field("scalars", "metadata_t.sample", 99)
    pkt.set_std("egress_spec", 4)
    pkt.set_std("mcast_grp", 12)
    pkt.set_field("ethernet", "ether_type", 0x1234)
    kept = pkt.preserved_fields(1)                     # field list 1: metadata_t.passes
    assert kept == {("scalars", "metadata_t.passes"): 7}

    pkt.reset_metadata(kept)

    assert pkt.get_field("scalars", "metadata_t.passes") == 7
    assert pkt.get_field("scalars", "metadata_t.sample") == 0
    assert pkt.get_std("egress_spec") == 0 and pkt.get_std("mcast_grp") == 0
    assert pkt.get_std("ingress_port") == 0            # all of standard_metadata too
    assert pkt.is_valid("scalars") and pkt.is_valid("standard_metadata")
    assert pkt.is_valid("ethernet")                    # headers are not metadata
    assert pkt.get_field("ethernet", "ether_type") == 0x1234


def test_reset_metadata_without_preserved_fields(program):
    pkt = parsed(program)
    pkt.set_field("scalars", "metadata_t.passes", 5)
    pkt.reset_metadata()
    assert pkt.get_field("scalars", "metadata_t.passes") == 0
    assert pkt.f == _expected_after_reset(program, pkt)


def _expected_after_reset(program, pkt) -> list[int]:
    """The PHV a reset must leave: header slots as they are, metadata as a new packet's
    before its ingress port and length are written."""
    fresh = list(program.layout.template)
    metadata_slots = {slot for info in program.layout.headers if info.metadata
                      for slot in range(info.base, info.base + info.n_slots)}
    return [fresh[i] if i in metadata_slots else v for i, v in enumerate(pkt.f)]


def test_std_slots_match_the_named_accessors(program):
    pkt = parsed(program)
    std = program.layout.std
    for name in ("egress_spec", "mcast_grp", "priority", "enq_qdepth", "instance_type"):
        slot, mask = std.slot(name), std.mask(name)
        assert slot is not None and mask > 0
        pkt.f[slot] = (mask + 5) & mask                 # written the fast way ...
        assert pkt.get_std(name) == (mask + 5) & mask  # ... read by name
        pkt.set_std(name, 3)                           # and the other way round
        assert pkt.f[slot] == 3
    assert getattr(std, "egress_spec_mask") == 0x1FF  # 9-bit port in v1model


def test_std_slot_of_a_missing_field_is_none():
    program = load_reference("l3_lpm")
    std = program.layout.std
    assert std.slot("no_such_field") is None and std.mask("no_such_field") == 0
    assert std.egress_spec is not None
