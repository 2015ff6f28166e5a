"""Suite-wide rules. Tests marked ``netns`` need root and `ip netns` (namespaces, veth
pairs, raw sockets); without them they fail, saying so: a skip would hide that a large
part of the suite never ran."""
from __future__ import annotations

import pytest

from lab.namespace import can_run


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "netns: needs root and network namespaces "
                                       "(fails without them)")


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("netns") is not None and not can_run():
        pytest.fail("needs root and `ip netns` (network namespaces, veth pairs): run the "
                    "tests as root", pytrace=False)
