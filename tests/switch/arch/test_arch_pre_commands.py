"""simple_switch_CLI-style multicast node commands over the PRE."""

import pytest

from p4sim.switch import control_cli
from p4sim.switch.control_channel import ControlServer
from p4sim.switch.pre import PacketReplicationEngine, PreError
from p4sim.switch.pre_commands import MulticastNodes
from p4sim.switch.switch import Switch


def test_nodes_build_group_replicas():
    pre = PacketReplicationEngine()
    nodes = MulticastNodes(pre)
    nodes.create_group(1)
    a = nodes.create_node(0, [1, 2, 3])
    b = nodes.create_node(7, [4])
    nodes.associate(1, a)
    nodes.associate(1, b)
    assert pre.replicas(1) == ((1, 0), (2, 0), (3, 0), (4, 7))
    nodes.dissociate(1, a)
    assert pre.replicas(1) == ((4, 7),)
    with pytest.raises(PreError, match="still associated"):
        nodes.destroy_node(b)
    nodes.destroy_group(1)
    nodes.destroy_node(b)
    assert pre.groups() == {}


def test_node_errors_change_nothing():
    pre = PacketReplicationEngine()
    nodes = MulticastNodes(pre)
    nodes.create_group(2)
    a = nodes.create_node(1, [5])
    twin = nodes.create_node(1, [5])
    nodes.associate(2, a)
    with pytest.raises(PreError, match="duplicate replica"):
        nodes.associate(2, twin)
    assert pre.replicas(2) == ((5, 1),)
    with pytest.raises(PreError, match="already in group"):
        nodes.associate(2, a)
    with pytest.raises(PreError, match="no multicast node"):
        nodes.associate(2, 99)
    with pytest.raises(PreError, match="not created with mc_mgrp_create"):
        nodes.associate(3, a)


def test_multicast_commands_from_the_cli(capsys):
    switch = Switch()
    server = ControlServer(switch, port=0)
    server.start()
    try:
        base = ["--thrift-port", str(server.port)]
        assert control_cli.main(base + ["mc_mgrp_create", "1"]) == 0
        assert control_cli.main(base + ["mc_node_create", "0", "1", "2", "3"]) == 0
        assert "node was created with handle 0" in capsys.readouterr().out
        assert control_cli.main(base + ["mc_node_associate", "1", "0"]) == 0
        assert switch.pre.groups() == {1: [(1, 0), (2, 0), (3, 0)]}
        assert control_cli.main(base + ["mc_node_associate", "1", "5"]) == 1
        assert "no multicast node with handle 5" in capsys.readouterr().err
    finally:
        server.stop()


def test_node_update_moves_every_group_to_the_new_ports():
    pre = PacketReplicationEngine()
    nodes = MulticastNodes(pre)
    nodes.create_group(1)
    nodes.create_group(2)
    a = nodes.create_node(3, [1])
    b = nodes.create_node(4, [9])
    nodes.associate(1, a)
    nodes.associate(1, b)
    nodes.associate(2, a)
    nodes.update_node(a, [5, 6, 5])
    assert pre.replicas(1) == ((5, 3), (6, 3), (9, 4))
    assert pre.replicas(2) == ((5, 3), (6, 3))
    with pytest.raises(PreError, match="no multicast node"):
        nodes.update_node(42, [1])


def test_refused_node_update_changes_nothing():
    pre = PacketReplicationEngine()
    nodes = MulticastNodes(pre)
    nodes.create_group(1)
    nodes.create_group(2)
    a = nodes.create_node(1, [5])
    twin = nodes.create_node(1, [7])
    nodes.associate(1, a)
    nodes.associate(2, a)
    nodes.associate(2, twin)
    # group 2 would hold (7, rid 1) twice: refused, and group 1 keeps port 5 too
    with pytest.raises(PreError, match="duplicate replica"):
        nodes.update_node(a, [7])
    assert pre.replicas(1) == ((5, 1),)
    assert pre.replicas(2) == ((5, 1), (7, 1))
