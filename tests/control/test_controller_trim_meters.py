"""The controller gives every fabric port with a trim threshold a trim meter of its
link's rate holding the threshold (trimming's congestion signal on links shaped by tc);
ports without a link rate get none. Meters are only ever MODIFYed."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from control.controller.program import TRIM_METER, FabricPlan, switch_items
from control.controller.state import index_items, plan
from control.link_frames import data_packets_per_second
from control.p4rt.entities import MODIFY, P4Names, load_p4info
from control.policy import load_policy
from control.routing import compute_routes
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
P4INFO = ROOT / "build/fabric.p4info.txtpb"


@pytest.fixture(scope="module")
def names() -> P4Names:
    if not P4INFO.exists():
        pytest.fail(f"{P4INFO} is missing: run `make build` first")
    return P4Names(load_p4info(str(P4INFO)))


def trim_meters(names: P4Names, topo_name: str, switch: str, topo_change=None):
    topo = load_topology(str(ROOT / f"topologies/{topo_name}.toml"))
    if topo_change is not None:
        topo = topo_change(topo)
    policy = load_policy(str(ROOT / f"topologies/{topo_name}.policy.toml"), topo)
    fp = FabricPlan(topo, policy)
    items = switch_items(names, fp, switch, compute_routes(topo, destinations=fp.destinations))
    meter_id = names.id("meters", TRIM_METER)
    found = {}
    for it in items:
        if it.entity.WhichOneof("entity") == "meter_entry" and it.entity.meter_entry.meter_id == meter_id:
            assert it.modify_only
            c = it.entity.meter_entry.config
            found[it.entity.meter_entry.index.index] = (c.cir, c.cburst, c.pir, c.pburst)
    return policy, items, found


def test_fabric_ports_get_the_link_rate_and_the_threshold(names):
    policy, _, meters = trim_meters(names, "two_leaves", "leaf1")
    threshold = policy.trim.for_port("leaf1", 2)
    assert threshold is not None
    # leaf1:2 and leaf1:3 are the 10000 packets/s links; hosts and collector have no rate.
    # The meter counts data packets, smaller than the full-size frames rate_pps counts.
    rate = round(data_packets_per_second(10000))
    assert rate == 11226
    assert meters == {2: (rate, threshold, rate, threshold), 3: (rate, threshold, rate, threshold)}


def test_a_link_without_rate_gets_no_meter(names):
    def no_rates(topo):
        return dataclasses.replace(topo, links=tuple(dataclasses.replace(l, rate_pps=None)
                                                     for l in topo.links))
    _, _, meters = trim_meters(names, "two_leaves", "leaf2", no_rates)
    assert meters == {}


def test_meters_are_modified_never_inserted(names):
    _, items, meters = trim_meters(names, "two_leaves", "leaf2")
    assert set(meters) == {2, 3}
    updates = [u for batch in plan({}, index_items(items)) for u in batch
               if u.entity.WhichOneof("entity") == "meter_entry"
               and u.entity.meter_entry.meter_id == names.id("meters", TRIM_METER)]
    assert len(updates) == 2 and all(u.type == MODIFY for u in updates)
