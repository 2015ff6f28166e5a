"""Policy files: good files load into typed values, bad files are refused with every
problem located (file, field, reason) before anything is programmed."""
import re
from pathlib import Path

import pytest

from control.errors import ConfigError
from control.policy import PARTITION_TAG_BASE, load_policy
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


def test_class_modes_default_to_pinning_rocev2_and_tcp(topo):
    policy = load_policy(str(ROOT / "topologies/leaf_spine.policy.toml"), topo)
    assert policy.class_mode(0, "rocev2") == "ecmp" and policy.class_mode(1, "tcp") == "ecmp"
    assert policy.class_mode(0, "uec") is None       # the group's mode: the spraying default
    assert policy.class_mode(2, "other_udp") is None and policy.class_mode(2, "other") is None


def test_class_modes_per_partition_beat_every_partition(tmp_path, topo):
    policy = load_policy(write(tmp_path, """
[[spraying.classes]]
protocol = "uec"
mode = "round_robin"
[[spraying.classes]]
protocol = "rocev2"
mode = "entropy"
partition = "a"
[[spraying.classes]]
protocol = "uec"
mode = "ecmp"
partition = 0
[[partitions]]
id = 3
name = "a"
members = ["h1"]
"""), topo)
    assert policy.spray_classes == {(None, "uec"): "round_robin", (3, "rocev2"): "entropy",
                                    (0, "uec"): "ecmp"}
    assert policy.class_mode(3, "uec") == "round_robin" and policy.class_mode(0, "uec") == "ecmp"
    assert policy.class_mode(3, "rocev2") == "entropy" and policy.class_mode(0, "rocev2") == "ecmp"


def test_class_mode_problems_are_located(tmp_path, topo):
    path = write(tmp_path, """
[[spraying.classes]]
protocol = "quic"
mode = "ecmp"
[[spraying.classes]]
protocol = "tcp"
mode = "spray"
[[spraying.classes]]
protocol = "rocev2"
mode = "ecmp"
partition = "nobody"
[[spraying.classes]]
protocol = "tcp"
mode = "ecmp"
[[spraying.classes]]
protocol = "tcp"
mode = "round_robin"
[[spraying.classes]]
protocol = "uec"
mode = "ecmp"
prio = 1
""")
    with pytest.raises(ConfigError) as info:
        load_policy(path, topo)
    fields = {field for field, _ in info.value.problems}
    assert fields == {"spraying.classes[0].protocol", "spraying.classes[1].mode",
                      "spraying.classes[2].partition", "spraying.classes[4]",
                      "spraying.classes[5].prio"}
    text = str(info.value)
    assert "'quic' is not one of uec, rocev2, tcp, other_udp, other" in text
    assert "'nobody' is not the name or id of a partition" in text
    assert "'tcp' in every partition is given twice" in text


def test_commented_class_example_of_the_shipped_policy_loads(tmp_path, topo):
    """The example in leaf_spine.policy.toml, uncommented, is a valid policy."""
    text = (ROOT / "topologies/leaf_spine.policy.toml").read_text()
    example = re.compile(r"^# (?=\[\[spraying\.classes\]\]|protocol =|mode =|partition =)", re.M)
    policy = load_policy(write(tmp_path, example.sub("", text)), topo)
    assert policy.spray_classes == {(None, "uec"): "round_robin", (1, "rocev2"): "ecmp"}


def problems_of(path: str, topo) -> dict[str, str]:
    """{field: reason} of a refused policy file."""
    with pytest.raises(ConfigError) as info:
        load_policy(path, topo)
    return dict(info.value.problems)


def test_partition_tags_and_queues_load(tmp_path, topo):
    policy = load_policy(write(tmp_path, """
[[partitions]]
id = 1
name = "front"
members = ["h1", "h3"]
queue = 0
[[partitions]]
id = 2
name = "back"
members = ["h2", "h4"]
tag = 2000
queue = 5
"""), topo)
    front, back = policy.partitions
    assert (front.fabric_tag, front.queue) == (PARTITION_TAG_BASE + 1, 0)
    assert (back.fabric_tag, back.queue) == (2000, 5)
    assert load_policy(write(tmp_path, '[[partitions]]\nid = 4\nname = "x"\nmembers = ["h1"]\n'),
                       topo).partitions[0].queue is None


@pytest.mark.parametrize("value, reason", [(8, "8 is out of range [0, 7]"),
                                           (-1, "-1 is out of range [0, 7]"),
                                           ('"high"', "must be an integer, not 'high'"),
                                           ("true", "must be an integer, not True")])
def test_bad_queue_is_refused(tmp_path, topo, value, reason):
    problems = problems_of(write(tmp_path, f"""
[[partitions]]
id = 1
name = "a"
members = ["h1"]
queue = {value}
"""), topo)
    assert problems == {"partitions[0].queue": reason}


def test_tag_collisions_and_bad_tags_are_refused(tmp_path, topo):
    problems = problems_of(write(tmp_path, f"""
[[partitions]]
id = 1
name = "a"
members = ["h1"]
[[partitions]]
id = 2
name = "b"
members = ["h2"]
tag = {PARTITION_TAG_BASE + 1}
[[partitions]]
id = 3
name = "c"
members = ["h3"]
tag = 700
[[partitions]]
id = 4
name = "d"
members = ["h4"]
tag = 700
[[partitions]]
id = 5
name = "e"
members = ["leaf2:9"]
tag = 4095
"""), topo)
    assert set(problems) == {"partitions[1].tag", "partitions[3].tag", "partitions[4].tag"}
    assert problems["partitions[1].tag"] == (
        f"tag {PARTITION_TAG_BASE + 1} is also the tag of partitions[0] (the default "
        f"{PARTITION_TAG_BASE} + id 1): a switch could not tell the two partitions apart on a fabric link")
    assert problems["partitions[3].tag"].startswith("tag 700 is also the tag of partitions[2] (given)")
    assert problems["partitions[4].tag"] == "4095 is out of range [1, 4094]"


def test_partition_queue_must_stay_below_trimmed_headers(tmp_path, topo):
    problems = problems_of(write(tmp_path, """
[[partitions]]
id = 1
name = "a"
members = ["h1"]
queue = 6
[[partitions]]
id = 2
name = "b"
members = ["h2"]
queue = 5
[[trim.classes]]
dscp = 10
queue = 6
"""), topo)
    assert problems == {"partitions[0].queue": "6 is not below queue 6 of trim.classes[0]: trimmed "
                        "headers would wait behind this partition's data"}


def test_link_port_cannot_be_a_member(tmp_path, topo):
    problems = problems_of(write(tmp_path, """
[[partitions]]
id = 1
name = "a"
members = ["h1", "spine1:2"]
"""), topo)
    assert problems == {"partitions[0].members[1]": "spine1:2 is a link to leaf2:3: members are "
                        "host-facing ports (links carry partition tags)"}
