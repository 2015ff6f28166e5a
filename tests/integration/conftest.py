"""End-to-end fabric tests: real switches on veth pairs in network namespaces (root)."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.switch.netns import can_run

ROOT = Path(__file__).resolve().parents[2]
TWO_LEAVES = ROOT / "topologies/two_leaves.toml"


def pytest_collection_modifyitems(config, items):
    if can_run():
        return
    skip = pytest.mark.skip(reason="needs root and `ip netns` (network namespaces, veth pairs)")
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(skip)
