"""@id handling and collision probing, as p4c's symbol table does them."""
from __future__ import annotations

import itertools

import pytest

from p4sim.compiler.p4info import IdPrefix, P4InfoError, compute_ids, jenkins_one_at_a_time


def colliding_pair() -> tuple[str, str]:
    """Two names whose hashes share the low 24 bits (found by search, not hard-coded)."""
    seen: dict[int, str] = {}
    for i in itertools.count():
        name = f"c.t{i}"
        low = jenkins_one_at_a_time(name.encode()) & 0xFFFFFF
        if low in seen:
            return tuple(sorted((seen[low], name), key=str.encode))  # type: ignore[return-value]
        seen[low] = name
    raise AssertionError("unreachable")


def low24(name: str) -> int:
    return jenkins_one_at_a_time(name.encode()) & 0xFFFFFF


def test_collision_probes_in_sorted_name_order() -> None:
    first, second = colliding_pair()
    prefix = IdPrefix.TABLE
    # Declaration order must not matter: the sorted-first name keeps the hash.
    for order in ((first, second), (second, first)):
        ids = compute_ids([(prefix, n, None) for n in order])
        assert ids[(prefix, first)] == (0x02 << 24) | low24(first)
        assert ids[(prefix, second)] == (0x02 << 24) | ((low24(second) + 1) & 0xFFFFFF)


def test_collision_only_within_one_kind() -> None:
    first, second = colliding_pair()
    ids = compute_ids([(IdPrefix.TABLE, first, None), (IdPrefix.ACTION, second, None)])
    assert ids[(IdPrefix.ACTION, second)] == (0x01 << 24) | low24(second)


def test_fixed_id_gets_prefix_and_wins_over_hash() -> None:
    name = "IngressImpl.t"
    hashed = (0x02 << 24) | low24(name)
    ids = compute_ids([(IdPrefix.TABLE, "other", hashed & 0xFFFFFF), (IdPrefix.TABLE, name, None)])
    assert ids[(IdPrefix.TABLE, "other")] == hashed
    assert ids[(IdPrefix.TABLE, name)] == hashed + 1


def test_fixed_id_with_correct_prefix_is_kept() -> None:
    ids = compute_ids([(IdPrefix.ACTION, "a", 0x01000007)])
    assert ids[(IdPrefix.ACTION, "a")] == 0x01000007


def test_fixed_id_with_wrong_prefix_is_an_error() -> None:
    with pytest.raises(P4InfoError, match=r"table 'a': @id 0x01000007 has the wrong 8-bit prefix"):
        compute_ids([(IdPrefix.TABLE, "a", 0x01000007)])


def test_duplicate_fixed_id_is_an_error() -> None:
    with pytest.raises(P4InfoError, match="assigned to multiple declarations"):
        compute_ids([(IdPrefix.TABLE, "a", 5), (IdPrefix.TABLE, "b", 5)])


def test_repeated_symbol_is_one_symbol() -> None:
    ids = compute_ids([(IdPrefix.ACTION, "NoAction", None), (IdPrefix.ACTION, "NoAction", None)])
    assert ids == {(IdPrefix.ACTION, "NoAction"): 21257015}  # NoAction in p4c-out
