"""End-to-end fabric tests: real switches on veth pairs in network namespaces (root).

Tests marked ``netns`` are skipped where they cannot run (not root, no `ip netns`)."""
from __future__ import annotations

import pytest

from p4sim.netns import can_run


def pytest_configure(config):
    config.addinivalue_line("markers", "netns: needs root and network namespaces")


def pytest_collection_modifyitems(config, items):
    if can_run():
        return
    skip = pytest.mark.skip(reason="needs root and `ip netns` (network namespaces, veth pairs)")
    for item in items:
        if item.get_closest_marker("netns"):
            item.add_marker(skip)
