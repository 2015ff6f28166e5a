"""fabricctl export/import --format containerlab: the lab obeys Containerlab's topology
schema (its rules checked by hand: control/export/clab_schema.py), says what the
launcher would run, and imports back to an equal Topology."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml

from control import fabricctl
from control.errors import ConfigError
from control.export.clab_schema import ENDPOINT, NODE_FIELDS, schema_problems
from control.export.clab_import import load_containerlab
from control.export.containerlab import HOST_IFACE, port_iface, to_containerlab, write_containerlab
from control.launch import FabricNetwork, interface_name
from control.topology import load_topology, router_mac

ROOT = Path(__file__).resolve().parents[2]
TOPOLOGIES = ["leaf_spine", "two_leaves", "four_leaves", "line", "two_domains"]
DOCKER = ROOT / "docker"


def _topology(name: str):
    return load_topology(str(ROOT / f"topologies/{name}.toml"))


def _export(tmp_path: Path, name: str, *extra: str) -> Path:
    out = tmp_path / f"{name}.clab.yml"
    assert fabricctl.main(["export", "--format", "containerlab", str(ROOT / f"topologies/{name}.toml"),
                           "-o", str(out), *extra]) == 0
    return out


@pytest.mark.parametrize("name", TOPOLOGIES)
def test_export_follows_the_schema_rules(tmp_path, name):
    lab = yaml.safe_load(_export(tmp_path, name).read_text())
    assert schema_problems(lab) == []
    # The same rules, spelled out for this file: required keys, node fields, endpoints.
    assert set(lab) == {"name", "topology"} and lab["name"] == name
    assert set(lab["topology"]) == {"nodes", "links"}
    topo = _topology(name)
    expected = [s.name for s in topo.switches] + [h.name for h in topo.hosts] + \
        [c.name for c in topo.collectors()]
    assert list(lab["topology"]["nodes"]) == expected           # one node per switch and host
    for node in lab["topology"]["nodes"].values():
        assert set(node) <= NODE_FIELDS
        assert node["kind"] == "linux" and isinstance(node["image"], str) and node["image"]
        assert all(isinstance(v, str) for v in node["labels"].values())
        assert isinstance(node["cmd"], str)
        assert "exec" not in node or (node["exec"] and all(isinstance(c, str) for c in node["exec"]))
    links = lab["topology"]["links"]
    assert len(links) == len(topo.links) + len(topo.hosts) + len(topo.collectors())
    for link in links:
        assert len(link["endpoints"]) == 2 and len(set(link["endpoints"])) == 2
        for end in link["endpoints"]:
            assert ENDPOINT.match(end)
            node, iface = end.split(":")
            assert node in lab["topology"]["nodes"] and len(iface) <= 15


def test_links_are_written_as_flow_endpoint_lists(tmp_path):
    text = _export(tmp_path, "leaf_spine").read_text()
    assert "- endpoints: ['leaf1:p3', 'spine1:p1']" in text
    assert "- endpoints: ['h1:eth1', 'leaf1:p1']" in text


@pytest.mark.parametrize("name", TOPOLOGIES)
def test_export_then_import_gives_an_equal_topology(tmp_path, name):
    lab = _export(tmp_path, name)
    back = tmp_path / f"{name}.imported.toml"
    assert fabricctl.main(["import", "--format", "containerlab", str(lab), "-o", str(back)]) == 0
    assert load_topology(str(back)) == _topology(name)
    assert load_containerlab(str(lab)) == _topology(name)


def test_switch_command_is_the_launchers_in_a_container():
    topo = _topology("leaf_spine")
    lab = to_containerlab(topo, "ls")
    net = FabricNetwork(topo, tag="ln-clab", switch_binary="/opt/sw")  # not entered
    try:
        for switch in topo.switches:
            launched = net.switch_command(switch)[1:]
            for port in topo.all_ports(switch.name):   # only the interface names differ...
                launched[launched.index(f"{port}@{interface_name(switch.name, port)}")] = \
                    f"{port}@{port_iface(port)}"
            thrift = launched.index("--thrift-port")    # ...the control channel's port (own netns)...
            del launched[thrift:thrift + 2]
            exported = shlex.split(lab["topology"]["nodes"][switch.name]["cmd"])
            assert exported[exported.index("--thrift-port") + 1] == "9090"
            del exported[exported.index("--thrift-port"):exported.index("--thrift-port") + 2]
            grpc = launched.index("--grpc-server-addr") + 1   # ...and the address it listens on
            assert launched[grpc] == switch.grpc
            launched[grpc] = "0.0.0.0:" + switch.grpc.rpartition(":")[2]
            assert exported == launched
    finally:
        net.close()


def test_bmv2_target_runs_simple_switch_grpc_flags_only(tmp_path):
    lab = yaml.safe_load(_export(tmp_path, "two_leaves", "--target", "bmv2").read_text())
    leaf1 = lab["topology"]["nodes"]["leaf1"]
    assert leaf1["image"] == "bmv2-switch:latest" and "--thrift-port" not in leaf1["cmd"]
    assert lab["topology"]["nodes"]["h1"]["image"] == "p4sim-switch:latest"
    lab = to_containerlab(_topology("two_leaves"), "x", switch_image="reg/sw:1", host_image="reg/h:1")
    assert lab["topology"]["nodes"]["leaf2"]["image"] == "reg/sw:1"
    assert lab["topology"]["nodes"]["collector"]["image"] == "reg/h:1"


def test_hosts_get_what_the_launcher_gives_them():
    topo = _topology("two_leaves")
    h2 = to_containerlab(topo, "x")["topology"]["nodes"]["h2"]
    gateway = router_mac(topo.switch("leaf2"))
    assert h2["entrypoint"] == "sleep" and h2["cmd"] == "infinity"
    assert f"ip link set {HOST_IFACE} address 00:00:0a:00:02:01" in h2["exec"]
    assert f"ip addr add 10.0.2.1/32 dev {HOST_IFACE}" in h2["exec"]
    assert f"ip neigh replace 10.255.255.254 lladdr {gateway} dev {HOST_IFACE} nud permanent" in h2["exec"]
    assert f"ethtool -K {HOST_IFACE} tx off rx off" in h2["exec"]


def test_links_are_shaped_on_each_sending_end():
    nodes = to_containerlab(_topology("two_leaves"), "x")["topology"]["nodes"]
    for switch in ("leaf1", "leaf2"):
        shaped = sorted({c.split()[4] for c in nodes[switch]["exec"]})
        assert shaped == ["p2", "p3"]
        assert sum(" root handle 1: htb " in c for c in nodes[switch]["exec"]) == 2
    nodes = to_containerlab(_topology("two_domains"), "x")["topology"]["nodes"]
    assert nodes["e-bd2"]["exec"][0] == "tc qdisc replace dev p2 root handle 1: netem delay 8000us limit 1000"
    assert "parent 1:1 handle 10: tbf rate 50000000bit" in nodes["e-bd2"]["exec"][1]
    assert "exec" not in nodes["w-leaf1"]


def test_domains_travel_as_labels_and_groups():
    nodes = to_containerlab(_topology("two_domains"), "x")["topology"]["nodes"]
    assert nodes["w-bd1"]["group"] == "west" and nodes["w-bd1"]["labels"]["p4sim.border"] == "true"
    assert nodes["e-leaf1"]["labels"]["p4sim.controller-role"] == "east"
    assert nodes["h3"]["labels"]["p4sim.domain"] == "east"
    assert nodes["col-west"]["labels"] == {"p4sim.node": "collector", "p4sim.ip": "192.168.101.2",
                                           "p4sim.mac": "00:00:00:00:c1:11", "p4sim.domain": "west"}


@pytest.mark.parametrize("lab, field, words", [
    ([1, 2], "(top level)", "mapping"),
    ({"topology": {"nodes": {}}}, "name", "required"),
    ({"name": "x"}, "topology", "required"),
    ({"name": "x", "topology": {}}, "topology.nodes", "required"),
    ({"name": "x", "topology": {"nodes": {}}, "labs": 1}, "labs", "not a top-level key"),
    ({"name": "x", "topology": {"nodes": {"a": {"kind": "linux", "colour": "red"}}}},
     "topology.nodes.a.colour", "not a node field"),
    ({"name": "x", "topology": {"nodes": {"a": {"exec": []}}}}, "topology.nodes.a.exec", "non-empty"),
    ({"name": "x", "topology": {"nodes": {"a": {"labels": {"k": ["v"]}}}}}, "topology.nodes.a.labels.k",
     "string or a number"),
    ({"name": "x", "topology": {"nodes": {"a": {"image": 3}}}}, "topology.nodes.a.image", "string"),
    ({"name": "x", "topology": {"nodes": {}, "links": []}}, "topology.links", "non-empty"),
    ({"name": "x", "topology": {"nodes": {}, "links": [{"endpoints": ["a:e1"]}]}},
     "topology.links[0].endpoints", "at least two"),
    ({"name": "x", "topology": {"nodes": {}, "links": [{"endpoints": ["a:e1", "b e1"]}]}},
     "topology.links[0].endpoints[1]", "node:interface"),
    ({"name": "x", "topology": {"nodes": {}, "links": [{"endpoints": ["a:e1", "a:e1"]}]}},
     "topology.links[0].endpoints", "unique"),
])
def test_schema_rules_refuse_what_the_schema_refuses(lab, field, words):
    assert any(f == field and words in reason for f, reason in schema_problems(lab)), schema_problems(lab)


def _import_problems(tmp_path: Path, lab: dict | str) -> ConfigError:
    path = tmp_path / "bad.clab.yml"
    path.write_text(lab if isinstance(lab, str) else yaml.safe_dump(lab, sort_keys=False))
    with pytest.raises(ConfigError) as info:
        load_containerlab(str(path))
    return info.value


def test_import_refuses_a_lab_it_did_not_write_saying_where(tmp_path):
    lab = to_containerlab(_topology("leaf_spine"), "ls")
    del lab["topology"]["nodes"]["leaf2"]["labels"]["p4sim.device-id"]
    lab["topology"]["nodes"]["spine1"]["labels"]["p4sim.node-id"] = "three"
    lab["topology"]["nodes"]["h9"] = {"kind": "linux", "image": "alpine"}
    lab["topology"]["links"].append({"endpoints": ["h4:eth2", "ghost:p1"]})
    error = _import_problems(tmp_path, lab)
    fields = dict(error.problems)
    assert "missing" in fields["topology.nodes.leaf2.labels.p4sim.device-id"]
    assert "not a whole number" in fields["topology.nodes.spine1.labels.p4sim.node-id"]
    assert "missing" in fields["topology.nodes.h9.labels.p4sim.node"]
    assert "no node named 'ghost'" in fields["topology.links[8].endpoints[1]"]
    assert all(line.startswith(f"{tmp_path / 'bad.clab.yml'}: ") for line in error.render().splitlines())


def test_import_checks_the_rebuilt_topology_like_a_topology_file(tmp_path):
    lab = to_containerlab(_topology("two_domains"), "td")
    lab["topology"]["nodes"]["w-bd2"]["labels"]["p4sim.device-id"] = "0"
    lab["topology"]["links"][4]["vars"]["latency"] = "fast"
    error = _import_problems(tmp_path, lab)
    assert error.path.endswith("bad.clab.yml (imported)")
    fields = dict(error.problems)
    assert "duplicate 0" in fields["switches[2].device_id"]
    assert "not a duration" in fields["interdomain_links[0].latency"]


def test_import_reports_yaml_syntax_and_schema_errors(tmp_path):
    assert _import_problems(tmp_path, "name: [unclosed\n").problems[0][0] == "(syntax)"
    assert dict(_import_problems(tmp_path, {"name": "x"}).problems)["topology"].startswith("required")


def test_cli_errors_are_printed_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[switches]]\nname = "a b"\n')
    assert fabricctl.main(["export", "--format", "containerlab", str(bad), "-o", str(tmp_path / "o")]) == 2
    assert f"{bad}: switches[0].name" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
    assert fabricctl.main(["import", "--format", "containerlab", str(tmp_path / "none.yml"),
                           "-o", str(tmp_path / "o.toml")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_write_names_the_lab_and_target(tmp_path):
    out = tmp_path / "x.clab.yml"
    lab = write_containerlab(_topology("line"), str(out), "my_lab", target="bmv2")
    text = out.read_text()
    assert text.startswith("# Written by `fabricctl export --format containerlab` (target bmv2).")
    assert yaml.safe_load(text) == lab and lab["name"] == "my_lab"


# -- the images ------------------------------------------------------------------------
@pytest.mark.parametrize("dockerfile, program", [("p4sim-switch.Dockerfile", "p4sim-switch"),
                                                 ("bmv2-switch.Dockerfile", "simple_switch_grpc")])
def test_dockerfiles_copy_what_exists_and_start_the_switch_after_its_ports(dockerfile, program):
    text = (DOCKER / dockerfile).read_text()
    for line in text.splitlines():
        if line.startswith("COPY "):
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists(), f"{dockerfile}: COPY {source}: no such path"
    assert f'ENTRYPOINT ["/usr/local/bin/wait-for-ports", "{program}"]' in text
    assert (DOCKER / f"{dockerfile}.dockerignore").is_file()
    if program == "p4sim-switch":
        assert re.search(r"^RUN pip install --no-cache-dir \.$", text, re.M)
        assert "FROM python:3.11" in text
    else:
        assert "FROM p4lang/behavioral-model" in text


def test_wait_for_ports_runs_the_program_once_its_interfaces_exist():
    script = str(DOCKER / "wait-for-ports")
    assert os.access(script, os.X_OK)
    done = subprocess.run([script, "echo", "--no-p4", "-i", "1@lo", "--", "x"], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0 and done.stdout == "--no-p4 -i 1@lo -- x\n"
    done = subprocess.run([script, "echo", "-i", "1@nosuch-h6if"], capture_output=True, text=True,
                          timeout=30, env={**os.environ, "WAIT_FOR_PORTS_TIMEOUT": "0"})
    assert done.returncode == 1 and "nosuch-h6if did not appear within 0 s" in done.stderr


def test_a_host_named_like_a_switch_cannot_be_a_lab_node(tmp_path, capsys):
    doc = (ROOT / "topologies/line.toml").read_text().replace('name = "h2"', 'name = "spine1"')
    source = tmp_path / "clash.toml"
    source.write_text(doc)
    assert load_topology(str(source))  # valid for the launcher: hosts have their own namespaces
    assert fabricctl.main(["export", "--format", "containerlab", str(source), "-o",
                           str(tmp_path / "clash.clab.yml")]) == 2
    assert f"{source}: hosts[1].name: 'spine1' is also a switch's name" in capsys.readouterr().err
    with pytest.raises(ValueError, match="also a switch's name"):
        to_containerlab(load_topology(str(source)), "x")


def test_border_partition_mapping_survives_export_and_import(tmp_path):
    import json
    import tomllib
    doc = tomllib.loads((ROOT / "topologies/two_domains.toml").read_text())
    for link in doc["interdomain_links"]:
        link.update({"allow_untagged": False, "partitions": {"tenant-a": 700, "tenant b.2": 701}})
    source = tmp_path / "mapped.json"
    source.write_text(json.dumps(doc))
    topo = load_topology(str(source))
    assert all(x.partitions and not x.allow_untagged for x in topo.interdomain_links)
    lab = tmp_path / "mapped.clab.yml"
    assert fabricctl.main(["export", "--format", "containerlab", str(source), "-o", str(lab)]) == 0
    assert schema_problems(yaml.safe_load(lab.read_text())) == []
    back = tmp_path / "mapped.imported.toml"
    assert fabricctl.main(["import", "--format", "containerlab", str(lab), "-o", str(back)]) == 0
    assert load_topology(str(back)) == topo
