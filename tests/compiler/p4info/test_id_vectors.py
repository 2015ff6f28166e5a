"""p4c's IDs for 467 (kind, name) pairs from p4c's own test outputs."""
from __future__ import annotations


import pytest

from p4sim.compiler.p4info import IdPrefix, compute_ids, jenkins_one_at_a_time
from p4sim.reference import reference_dir

VECTORS = reference_dir() / "p4info_ids.tsv"

KIND_PREFIX = {
    "actions": IdPrefix.ACTION,
    "tables": IdPrefix.TABLE,
    "value_sets": IdPrefix.VALUE_SET,
    "controller_packet_metadata": IdPrefix.CONTROLLER_HEADER,
    "action_profiles": IdPrefix.ACTION_PROFILE,
    "counters": IdPrefix.COUNTER,
    "direct_counters": IdPrefix.DIRECT_COUNTER,
    "meters": IdPrefix.METER,
    "direct_meters": IdPrefix.DIRECT_METER,
    "registers": IdPrefix.REGISTER,
    "digests": IdPrefix.DIGEST,
}

# p4c hashes a controller header's *type* name; P4Info (and the vector file) show the
# @controller_header string instead. The type of the one vector was packet_in_header_t.
CONTROLLER_HEADER_TYPES = {"packet_in": "packet_in_header_t"}


def load_vectors() -> list[tuple[str, str, int]]:
    rows = []
    for line in VECTORS.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        kind, name, hex_id = line.split("\t")
        rows.append((kind, name, int(hex_id, 16)))
    return rows


ALL_VECTORS = load_vectors()


def test_vector_file_is_complete() -> None:
    assert len(ALL_VECTORS) == 467


@pytest.mark.parametrize(("kind", "name", "expected"), ALL_VECTORS,
                         ids=[f"{k}:{n}" for k, n, _ in ALL_VECTORS])
def test_id_matches_p4c(kind: str, name: str, expected: int) -> None:
    prefix = KIND_PREFIX[kind]
    hashed = CONTROLLER_HEADER_TYPES.get(name, name) if kind == "controller_packet_metadata" \
        else name
    ids = compute_ids([(prefix, hashed, None)])
    assert f"0x{ids[(prefix, hashed)]:08x}" == f"0x{expected:08x}"


def test_jenkins_hash_known_values() -> None:
    # Empty input hashes to 0; one-at-a-time of "a" is the widely published 0xca2e9442.
    assert jenkins_one_at_a_time(b"") == 0
    assert jenkins_one_at_a_time(b"a") == 0xCA2E9442
