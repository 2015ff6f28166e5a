"""Aliases (shortest unique suffix over all symbols) and member IDs (@id, then 1..n)."""
from __future__ import annotations

import pytest

from p4sim.compiler.p4info import P4InfoError
from p4sim.compiler.p4info.aliases import SuffixSet
from p4sim.compiler.p4info.field_ids import allocate_field_ids


def test_alias_is_last_component_when_unique() -> None:
    suffixes = SuffixSet(["IngressImpl.drop", "IngressImpl.fwd", "NoAction"])
    assert suffixes.alias("IngressImpl.drop") == "drop"
    assert suffixes.alias("NoAction") == "NoAction"


def test_alias_grows_until_unique() -> None:
    suffixes = SuffixSet(["d.a.c", "e.b.c", "x.a.c"])
    assert suffixes.alias("e.b.c") == "b.c"
    assert suffixes.alias("d.a.c") == "d.a.c"


def test_alias_of_a_name_that_is_a_suffix_of_another() -> None:
    suffixes = SuffixSet(["b.c", "a.b.c"])
    assert suffixes.alias("a.b.c") == "a.b.c"
    assert suffixes.alias("b.c") == "b.c"


def test_repeated_symbol_counts_once() -> None:
    suffixes = SuffixSet(["Ing.drop", "Ing.drop"])
    assert suffixes.alias("Ing.drop") == "drop"


def test_field_ids_sequential_without_annotations() -> None:
    assert allocate_field_ids([None, None, None], "t") == [1, 2, 3]


def test_field_ids_respect_fixed_and_skip_taken() -> None:
    # the fixed member keeps its position's turn; 2 is taken so the next one gets 3
    assert allocate_field_ids([None, 2, None, 7], "t") == [1, 2, 3, 7]
    assert allocate_field_ids([2, None, None], "t") == [2, 3, 4]


def test_field_id_zero_and_duplicates_rejected() -> None:
    with pytest.raises(P4InfoError, match="t: member 1: 0 is not a valid @id"):
        allocate_field_ids([0], "t")
    with pytest.raises(P4InfoError, match="@id 3 is used multiple times"):
        allocate_field_ids([3, 3], "t")
