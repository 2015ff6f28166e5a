"""Summaries for the peering tests: east's summary, as a valid JSON object, to mutate."""
from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from control.peering.summary import (BorderLink, BorderSummary, Capacity, Health,
                                     PartitionPrefixes, PathLatency, Summary)


def east_summary(serial: int = 1) -> Summary:
    """East (id 2) as two_domains.toml has it: two borders toward west."""
    return Summary(
        domain_id=2, domain="east", serial=serial, generated_at=1000.0,
        partitions=(PartitionPrefixes(0, "shared", ("10.2.1.0/24",)),
                    PartitionPrefixes(1, "tenant-a", ("10.2.2.0/24", "10.2.3.1/32"))),
        borders=(BorderSummary("e-bd1", BorderLink("e-bd1:2", "w-bd1:2", "west"),
                               PathLatency(120, 410, 532, "int"), Capacity(100_000_000, 20_000_000),
                               Health(True, 999.5)),
                 BorderSummary("e-bd2", BorderLink("e-bd2:2", "w-bd2:2", "west"),
                               PathLatency(80.5, 95, 0, "given"), Capacity(50_000_000, 60_000_000),
                               Health(False, None))))


@pytest.fixture
def east() -> Summary:
    return east_summary()


@pytest.fixture
def east_doc() -> Callable[[], dict[str, Any]]:
    """A fresh copy of east's summary as a JSON object, each call."""
    from control.peering.summary import to_dict
    doc = to_dict(east_summary())
    return lambda: copy.deepcopy(doc)
