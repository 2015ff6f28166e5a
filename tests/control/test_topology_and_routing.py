"""Topology validation (every problem located) and equal-cost route computation."""
from pathlib import Path

import pytest

from control.errors import ConfigError
from control.routing import compute_routes
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
LEAF_SPINE = ROOT / "topologies" / "leaf_spine.toml"


def test_leaf_spine_loads():
    topo = load_topology(str(LEAF_SPINE))
    assert [s.name for s in topo.switches] == ["leaf1", "leaf2", "spine1", "spine2"]
    assert topo.host_facing_ports("leaf1") == {1, 2}


def test_leaf_routes_spread_over_both_spines():
    routes = {(r.switch, r.host.name): r for r in compute_routes(load_topology(str(LEAF_SPINE)))}
    remote = routes[("leaf1", "h3")]
    assert not remote.direct
    assert sorted(h.port for h in remote.next_hops) == [3, 4]
    local = routes[("leaf1", "h1")]
    assert local.direct and [h.port for h in local.next_hops] == [1]
    spine = routes[("spine1", "h3")]
    assert [h.port for h in spine.next_hops] == [2]


def test_down_port_leaves_the_group():
    topo = load_topology(str(LEAF_SPINE))
    routes = {(r.switch, r.host.name): r for r in compute_routes(topo, frozenset({("leaf1", 3)}))}
    assert [h.port for h in routes[("leaf1", "h3")].next_hops] == [4]
    # spine1 can no longer reach leaf1's hosts directly: it goes through leaf2 and spine2
    assert [h.port for h in routes[("spine1", "h1")].next_hops] == [2]


def write(tmp_path, text, name="t.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_every_problem_is_reported_with_its_field(tmp_path):
    path = write(tmp_path, """
[[switches]]
name = "s1"
device_id = 0
grpc = "nowhere"
role = "core"
node_id = 1
colour = "red"

[[switches]]
name = "s2"
device_id = 5
grpc = "127.0.0.1:1"
role = "leaf"
node_id = 2

[[switches]]
name = "s2"
device_id = 5
grpc = "127.0.0.1:2"
role = "spine"
node_id = 3

[[hosts]]
name = "h1"
ip = "10.0.0.300"
mac = "00:11"
switch = "s9"
port = 600

[[links]]
a = "s1"
b = "s1:2"
""")
    with pytest.raises(ConfigError) as info:
        load_topology(path)
    fields = [f for f, _ in info.value.problems]
    text = info.value.render()
    for expected in ("switches[0].grpc", "switches[0].role", "switches[0].colour",
                     "switches[2].name", "switches[2].device_id", "hosts[0].ip",
                     "hosts[0].mac", "hosts[0].port", "links[0].a"):
        assert expected in fields, text
    assert text.startswith(path + ": ")
    assert "'core' is not one of leaf, spine" in text


def test_port_used_twice_is_refused(tmp_path):
    path = write(tmp_path, """
[[switches]]
name = "s1"
device_id = 0
grpc = "127.0.0.1:1"
role = "leaf"
node_id = 1

[[switches]]
name = "s2"
device_id = 1
grpc = "127.0.0.1:2"
role = "spine"
node_id = 2

[[hosts]]
name = "h1"
ip = "10.0.0.1"
mac = "00:00:00:00:00:01"
switch = "s1"
port = 1

[[links]]
a = "s1:1"
b = "s2:1"
""")
    with pytest.raises(ConfigError, match=r"links\[0\]\.a: port 1 of s1 is already used by hosts\[0\]"):
        load_topology(path)


def test_syntax_error_is_located(tmp_path):
    path = write(tmp_path, "[[switches]\nname=1\n")
    with pytest.raises(ConfigError, match="line 1"):
        load_topology(path)


TWO_LEAVES = ROOT / "topologies" / "two_leaves.toml"


def _two_leaves_with(tmp_path, old: str, new: str) -> str:
    text = TWO_LEAVES.read_text()
    assert old in text
    return write(tmp_path, text.replace(old, new, 1), name="two_leaves.toml")


@pytest.mark.parametrize("address", ["127.0.0.1:notaport", "127.0.0.1:0", "127.0.0.1:65536",
                                     ":9559", "127.0.0.1:", "host name:1", "127.0.0.1:٣"])
def test_a_grpc_address_without_a_tcp_port_is_refused(tmp_path, address):
    path = _two_leaves_with(tmp_path, "127.0.0.1:9560", address)
    with pytest.raises(ConfigError) as info:
        load_topology(path)
    assert info.value.problems == [("switches[1].grpc", f"{address!r} must be HOST:PORT with a HOST "
                                    f"name or address and PORT in [1, 65535]")]


def test_nothing_may_be_plugged_into_the_cpu_port(tmp_path):
    path = _two_leaves_with(tmp_path, 'switch = "leaf1"\nport = 1', 'switch = "leaf1"\nport = 255')
    with pytest.raises(ConfigError, match=r"hosts\[0\]: port 255 of leaf1 is already used by "
                                          r"switches\[0\]\.cpu_port"):
        load_topology(path)
    path = _two_leaves_with(tmp_path, 'a = "leaf1:2"', 'a = "leaf1:7"')
    text = Path(path).read_text().replace('node_id = 1\n', 'node_id = 1\ncpu_port = 7\n', 1)
    with pytest.raises(ConfigError, match=r"links\[0\]\.a: port 7 of leaf1 is already used by "
                                          r"switches\[0\]\.cpu_port"):
        load_topology(write(tmp_path, text, name="cpu7.toml"))


@pytest.mark.parametrize("old, new, field, reason", [
    ('ip = "10.0.1.1"', 'ip = "10.255.255.254"', "hosts[0].ip", "is every host's gateway address"),
    ('ip = "10.0.1.1"', 'ip = "224.0.0.1"', "hosts[0].ip", "is not a unicast host address"),
    ('ip = "10.0.1.1"', 'ip = "127.0.0.2"', "hosts[0].ip", "is not a unicast host address"),
    ('mac = "00:00:0a:00:01:01"', 'mac = "01:00:5e:00:00:01"', "hosts[0].mac", "is not a unicast MAC"),
    ('name = "h1"', 'name = "h/1"', "hosts[0].name", "is not a valid name"),
    ('name = "leaf1"', 'name = "leaf 1"', "switches[0].name", "is not a valid name"),
    ('mac = "00:00:00:00:c0:11"', 'mac = "00:00:0a:00:01:01"', "collector", "clashes with hosts[0]"),
])
def test_addresses_and_names_the_system_would_refuse_are_refused(tmp_path, old, new, field, reason):
    with pytest.raises(ConfigError) as info:
        load_topology(_two_leaves_with(tmp_path, old, new))
    assert info.value.problems[0][0] == field, info.value.render()
    assert reason in info.value.render()


@pytest.mark.parametrize("name, text", [("deep.json", "[" * 100000 + "]" * 100000),
                                        ("deep.toml", "a = " + "[" * 100000 + "]" * 100000)])
def test_a_file_nested_too_deeply_is_refused_not_a_crash(tmp_path, name, text):
    path = write(tmp_path, text, name=name)
    with pytest.raises(ConfigError) as info:
        load_topology(path)
    assert info.value.problems == [("(syntax)", "nested too deeply to read")]
