"""Policy files: good files load into typed values, bad files are refused with every
problem located (file, field, reason) before anything is programmed."""
from pathlib import Path

import pytest

from control.errors import ConfigError
from control.policy import load_policy
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def topo():
    return load_topology(str(ROOT / "topologies/leaf_spine.toml"))


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "policy.toml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("name", ["leaf_spine", "two_leaves"])
def test_shipped_policies_load(name):
    topo = load_topology(str(ROOT / f"topologies/{name}.toml"))
    policy = load_policy(str(ROOT / f"topologies/{name}.policy.toml"), topo)
    assert policy.spray_default == "entropy"


def test_good_policy_values(tmp_path, topo):
    policy = load_policy(write(tmp_path, """
[spraying]
default = "ecmp"
[[spraying.groups]]
destination = "h3"
mode = "round_robin"
[[partitions]]
id = 3
name = "a"
members = ["h1", "leaf2:7"]
vlan = 30
[ecn]
threshold = 12
[[ecn.ports]]
port = "h2"
threshold = 5
[credit]
meter_pps = 500
[[credit.bands]]
min_depth = 1
max_depth = 9
shift = 2
"""), topo)
    assert policy.spray_mode("h3") == "round_robin" and policy.spray_mode("h1") == "ecmp"
    assert policy.partitions[0].members == (("leaf1", 1), ("leaf2", 7))
    assert policy.partitions[0].vlan == 30
    assert policy.ecn.for_port("leaf1", 2) == 5 and policy.ecn.for_port("leaf1", 3) == 12
    assert policy.trim.for_port("leaf1", 3) is None
    assert policy.credit.meter_pps == 500 and policy.credit.bands[0].shift == 2
    assert not policy.int.enabled


def test_every_problem_is_reported_with_its_field(tmp_path, topo):
    path = write(tmp_path, """
[spraying]
default = "random"
[[spraying.groups]]
destination = "h9"
mode = "ecmp"
[[partitions]]
id = 1
name = "a"
members = ["h1", "nope:3"]
[[partitions]]
id = 1
name = "b"
members = ["h1"]
[[partitions]]
id = 0
name = "c"
members = []
[int]
enabled = true
instructions = 0x0001
[ecn]
treshold = 3
[[credit.bands]]
min_depth = 9
max_depth = 1
shift = 1
""")
    with pytest.raises(ConfigError) as info:
        load_policy(path, topo)
    fields = {field for field, _ in info.value.problems}
    assert {"spraying.default", "spraying.groups[0].destination", "partitions[2].id", "partitions[1].id",
            "partitions[0].members[1]", "partitions[1].members", "int.instructions", "int",
            "int.watchlist", "ecn.treshold", "credit.bands[0]"} <= fields
    text = str(info.value)
    assert text.startswith(path) and "'random' is not one of ecmp, entropy, round_robin" in text
    assert "no switch named 'nope'" in text and "no [collector]" in text


def test_int_collector_must_be_the_topologys(tmp_path):
    topo = load_topology(str(ROOT / "topologies/two_leaves.toml"))
    with pytest.raises(ConfigError, match="int.collector"):
        load_policy(write(tmp_path, '[int]\ncollector = "other"\n[[int.watchlist]]\ndst_port = 4793\n'), topo)


def test_syntax_error_is_refused(tmp_path, topo):
    with pytest.raises(ConfigError, match="syntax"):
        load_policy(write(tmp_path, "[spraying\n"), topo)
