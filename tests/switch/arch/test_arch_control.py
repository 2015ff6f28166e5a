"""Control channel (p4sim-cli <-> switch) and p4sim-switch argument parsing."""

import pytest

from p4sim.switch import control_cli
from p4sim.target.switch_cli import parse_args
from p4sim.switch.control_channel import ControlClient, ControlError, ControlServer
from p4sim.switch.switch import Switch


@pytest.fixture
def served_switch():
    switch = Switch(ports={}, priority_queues=2)
    server = ControlServer(switch, port=0)
    server.start()
    try:
        yield switch, server.port
    finally:
        server.stop()


def test_queue_settings_over_channel(served_switch):
    switch, port = served_switch
    with ControlClient(port) as client:
        client.call("set_queue_depth", depth=7, port=3, priority=1)
        client.call("set_queue_rate", pps=250, port=3)
        assert client.call("queue_config", port=3, priority=1) == {"depth": 7, "rate": 250}
    assert switch.queue_config(3, 1) == (7, 250)
    assert switch.queue_config(3, 0) == (64, 250)


def test_channel_reports_errors(served_switch):
    _switch, port = served_switch
    with ControlClient(port) as client:
        with pytest.raises(ControlError, match="priority 5 out of range"):
            client.call("set_queue_depth", depth=3, port=1, priority=5)
        with pytest.raises(ControlError, match="unknown command 'bogus'"):
            client.call("bogus")
        with pytest.raises(ControlError, match="depth must be an integer"):
            client.call("set_queue_depth", depth="x")
        assert client.call("ping") == "pong"


def test_cli_commands(served_switch, capsys):
    switch, port = served_switch
    assert control_cli.main(["--thrift-port", str(port), "set_queue_rate", "1000", "2"]) == 0
    assert switch.queue_config(2) == (64, 1000.0)
    assert control_cli.main(["--thrift-port", str(port), "set_queue_depth", "9"]) == 0
    assert switch.queue_config(11) == (9, None)
    assert control_cli.main(["--thrift-port", str(port), "stats"]) == 0
    assert '"tail_drops"' in capsys.readouterr().out
    assert control_cli.main(["--thrift-port", str(port), "set_queue_depth"]) == 1
    assert "usage: set_queue_depth DEPTH" in capsys.readouterr().err


def test_cli_without_switch(capsys):
    server = ControlServer(Switch(), port=0)
    free_port = server.port
    server.stop()
    assert control_cli.main(["--thrift-port", str(free_port), "show_ports"]) == 1
    assert "cannot reach the switch control channel" in capsys.readouterr().err


def test_switch_arguments_like_simple_switch_grpc():
    options = parse_args(["--device-id", "3", "-i", "1@veth1", "-i", "2@veth2",
                          "prog.json", "--log-console", "--", "--grpc-server-addr",
                          "127.0.0.1:50001", "--cpu-port", "255"])
    assert options.device_id == 3
    assert options.interface == [(1, "veth1"), (2, "veth2")]
    assert options.program == "prog.json"
    assert options.grpc_server_addr == "127.0.0.1:50001"
    assert options.cpu_port == 255
    before = parse_args(["--no-p4", "--cpu-port", "64", "--priority-queues", "8"])
    assert before.no_p4 and before.cpu_port == 64 and before.priority_queues == 8
    assert before.grpc_server_addr == "0.0.0.0:9559"


@pytest.mark.parametrize("argv, message", [
    (["-i", "veth1"], "expected PORT@IFACE"),
    (["-i", "x@veth1"], "is not an integer"),
    (["--no-p4", "p.json"], "either --no-p4 or PROG.json"),
    (["-i", "1@a", "-i", "1@b"], "bound twice"),
])
def test_switch_argument_errors(argv, message, capsys):
    with pytest.raises(SystemExit):
        parse_args(argv)
    assert message in capsys.readouterr().err


def test_table_commands_over_cli(capsys):
    from sa_helpers import reference_json
    switch = Switch()
    switch.load_program(reference_json("l3_lpm"))
    server = ControlServer(switch, port=0)
    server.start()
    try:
        tables = switch.runtime.tables
        name = next(n for n in tables if n.endswith("ipv4_lpm"))
        action = next(a for a in tables[name].action_names if a.endswith("forward"))
        n_before = len(tables[name].entries())
        argv = ["--thrift-port", str(server.port), "table_add", "ipv4_lpm", action,
                "10.0.1.0/24", "=>"]
        key_widths = [f.bitwidth for f in tables[name].key_spec]
        assert key_widths == [32]
        status = control_cli.main(argv + ["1", "00:00:00:00:01:01", "00:00:00:00:00:01"])
        captured = capsys.readouterr()
        assert status == 0, captured.err
        assert "Entry has been added with handle" in captured.out
        entries = tables[name].entries()
        assert len(entries) == n_before + 1
        assert entries[-1].keys[0].value == 0x0A000100
        assert entries[-1].keys[0].prefix_len == 24
        assert entries[-1].args == [1, 0x101, 0x1]
        assert control_cli.main(["--thrift-port", str(server.port), "table_add", "ipv4_lpm",
                                 action, "10.0.1.0/40", "=>", "1", "2", "3"]) == 1
        assert "prefix length" in capsys.readouterr().err
        assert control_cli.main(["--thrift-port", str(server.port), "table_add", "nope",
                                 action, "1", "=>"]) == 1
        assert "unknown table 'nope'" in capsys.readouterr().err
    finally:
        server.stop()


def test_action_selector_commands(capsys):
    from sa_helpers import reference_json
    switch = Switch()
    switch.load_program(reference_json("multipath"))
    server = ControlServer(switch, port=0)
    server.start()
    try:
        runtime = switch.runtime
        profile = next(iter(runtime.action_profiles))
        indirect = next(n for n, t in runtime.tables.items()
                        if getattr(t, "profile", None) is not None)
        action = next(iter(runtime.action_profiles[profile].actions))
        n_params = len(runtime.action_profiles[profile].action_params(action))
        base = ["--thrift-port", str(server.port)]
        args = ["1"] * n_params
        assert control_cli.main(base + ["act_prof_create_member", profile, action, *args]) == 0
        assert control_cli.main(base + ["act_prof_create_member", profile, action, *args]) == 0
        assert control_cli.main(base + ["act_prof_create_group", profile]) == 0
        out = capsys.readouterr().out
        assert "Member has been created with handle 1" in out
        assert "Group has been created with handle 0" in out
        assert control_cli.main(base + ["act_prof_add_member_to_group", profile, "1", "0"]) == 0
        keys = ["1"] * len(runtime.tables[indirect].key_spec)
        assert control_cli.main(base + ["table_indirect_add_with_group", indirect, *keys,
                                        "=>", "0"]) == 0
        entries = runtime.tables[indirect].entries()
        assert [e.group for e in entries] == [0]
        other_keys = ["2"] * len(keys)
        assert control_cli.main(base + ["table_indirect_add", indirect, *other_keys,
                                        "=>", "7"]) == 1
        assert "INVALID_MBR_HANDLE" in capsys.readouterr().err
    finally:
        server.stop()


def test_control_port_in_use_is_a_clear_error():
    first = ControlServer(Switch(), port=0)
    try:
        with pytest.raises(ControlError, match="its own --thrift-port"):
            ControlServer(Switch(), port=first.port)
    finally:
        first.stop()


def test_switch_cli_reports_a_busy_grpc_port(capsys):
    import socket
    from p4sim.target.switch_cli import main
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        status = main(["--no-p4", "--thrift-port", "0", "--",
                       "--grpc-server-addr", f"127.0.0.1:{port}"])
    assert status == 1
    err = capsys.readouterr().err
    assert "p4sim-switch: error: P4Runtime server cannot listen" in err
    assert "Traceback" not in err
