"""control/controller/int_domains.py: the entities it writes name what fabric.p4's P4Info
has, and what the pipeline cannot take is refused with the field at fault."""
from __future__ import annotations

import pytest

from control.controller.int_domains import (BORDER_TABLE, DOMAIN_TABLE, DomainBorder,
                                            IntDomainError, border_ports, domain_items)
from control.p4rt.entities import P4Names, load_p4info
from wire_formats.layers import INT_ALL_SUPPORTED, INT_BIT_NODE_ID


@pytest.fixture(scope="module")
def names(build) -> P4Names:
    return P4Names(load_p4info(str(build[1])))


def _params(names: P4Names, entry) -> dict[str, int]:
    action = names.get("actions", "FabricEgress.int_egress.border.start_next_domain"
                       if entry.table_id == names.id("tables", BORDER_TABLE)
                       else "FabricEgress.int_egress.set_int_domain")
    by_id = {p.id: p.name for p in action.params}
    return {by_id[p.param_id]: int.from_bytes(p.value, "big")
            for p in entry.action.action.params}


def test_domain_and_borders_become_the_pipelines_entries(names):
    borders = [DomainBorder(7, 0x0202, 6), DomainBorder(3, 0x0303, 2, INT_BIT_NODE_ID)]
    items = domain_items(names, 0x0101, borders)
    own, *entries = [it.entity.table_entry for it in items]
    assert own.table_id == names.id("tables", DOMAIN_TABLE) and own.is_default_action
    assert _params(names, own) == {"domain_id": 0x0101}
    assert items[0].modify_only
    assert [e.table_id for e in entries] == [names.id("tables", BORDER_TABLE)] * 2
    assert [int.from_bytes(e.match[0].exact.value, "big") for e in entries] == [3, 7]
    assert [_params(names, e) for e in entries] == [
        {"instructions": INT_BIT_NODE_ID, "hop_budget": 2, "domain_id": 0x0303},
        {"instructions": INT_ALL_SUPPORTED, "hop_budget": 6, "domain_id": 0x0202}]
    assert border_ports(borders) == [3, 7]


def test_no_borders_is_the_domain_alone(names):
    assert len(domain_items(names, 0)) == 1


@pytest.mark.parametrize("make, message", [
    (lambda: DomainBorder(255, 2, 4), r"port 255: port: not a data port"),
    (lambda: DomainBorder(512, 2, 4), r"port 512: port: not a data port"),
    (lambda: DomainBorder(2, 0x10000, 4), r"next_domain: 65536 is not a 16-bit"),
    (lambda: DomainBorder(2, 3, 0), r"hop_budget: 0 is not in 1\.\.255"),
    (lambda: DomainBorder(2, 3, 4, 0x0001), r"instructions: bits 0x0001 are not supported"),
])
def test_a_border_the_pipeline_cannot_take_is_refused(make, message):
    with pytest.raises(IntDomainError, match=message):
        make()


def test_a_border_into_the_own_domain_or_twice_is_refused(names):
    with pytest.raises(IntDomainError, match=r"port 2: next_domain: 5 is this switch's own"):
        domain_items(names, 5, [DomainBorder(2, 5, 4)])
    with pytest.raises(IntDomainError, match=r"port 2: port: given twice"):
        domain_items(names, 5, [DomainBorder(2, 6, 4), DomainBorder(2, 7, 4)])
    with pytest.raises(IntDomainError, match=r"domain_id: -1 is not a 16-bit"):
        domain_items(names, -1)
