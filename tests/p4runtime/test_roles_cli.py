"""p4sim-switch --p4rt-allowed-roles: parsed before and after `--` like the other target
options, and acted on by a real switch process: p4runtime-shell with the domain's role
name programs it, p4runtime-shell and the controller client without it are refused, and
the switch says on stderr whom it refused."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import grpc
import pytest

from control.p4rt.client import SwitchConnection
from control.p4rt.errors import P4RuntimeError
from p4rt_harness import json_path, p4info_path
from p4sim.target.switch_cli import parse_args

OWN, FOREIGN = "domain-a", "domain-b"

# p4runtime-shell runs in a child process (see conftest.py's `shell` fixture: IPython).
SHELL_SCRIPT = textwrap.dedent("""
    import json, sys
    from p4runtime_sh import shell as sh
    addr, p4info, device_json, role = sys.argv[1:5]
    sh.setup(device_id=0, grpc_addr=addr, election_id=(0, 1), role_name=role or None,
             config=sh.FwdPipeConfig(p4info, device_json), verbose=False)
    te = sh.TableEntry("IngressImpl.ipv4_lpm")(action="IngressImpl.forward")
    te.match["dst_addr"] = "10.0.0.0/8"
    te.action["port"] = "2"
    te.action["dst_mac"] = "00:00:00:00:00:0b"
    te.action["src_mac"] = "00:00:00:00:00:0a"
    te.insert()
    read = [str(e.match["dst_addr"].lpm.prefix_len)
            for e in sh.TableEntry("IngressImpl.ipv4_lpm").read()]
    print(json.dumps({"read": read}))
    sh.teardown()
""")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("argv", [
    ["--no-p4", "--p4rt-allowed-roles", "domain-a,domain-a-ops"],
    ["--no-p4", "--", "--p4rt-allowed-roles", "domain-a,domain-a-ops"],
    ["--no-p4", "--", "--grpc-server-addr", "127.0.0.1:1", "--p4rt-allowed-roles",
     " domain-a , domain-a-ops "],
])
def test_the_option_is_accepted_before_and_after_the_separator(argv):
    assert parse_args(argv).p4rt_allowed_roles == {"domain-a", "domain-a-ops"}


def test_without_the_option_the_switch_is_unbound():
    assert parse_args(["--no-p4"]).p4rt_allowed_roles is None


@pytest.mark.parametrize("argv, says", [
    (["--p4rt-allowed-roles", ""], "non-empty role names"),
    (["--p4rt-allowed-roles", "domain-a,,domain-b"], "non-empty role names"),
    (["--", "--p4rt-allowed-roles", " , "], "non-empty role names"),
    (["--no-grpc", "--p4rt-allowed-roles", "domain-a"], "--no-grpc"),
])
def test_bad_values_are_refused_with_the_reason(argv, says, capsys):
    with pytest.raises(SystemExit) as done:
        parse_args(["--no-p4", *argv])
    assert done.value.code == 2
    assert says in capsys.readouterr().err


@pytest.fixture
def bound_switch():
    """A p4sim-switch process bound to OWN; yields (address, process)."""
    port = free_port()
    binary = Path(sys.executable).parent / "p4sim-switch"
    proc = subprocess.Popen(
        [str(binary), "--no-p4", "--", "--grpc-server-addr", f"127.0.0.1:{port}",
         "--cpu-port", "255", "--p4rt-allowed-roles", OWN],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready = proc.stdout.readline()     # blocks until the switch reports readiness
        assert "p4sim-switch ready" in ready, (ready, proc.stderr.read())
        yield f"127.0.0.1:{port}", proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)


def _shell(address: str, role: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", SHELL_SCRIPT, address, str(p4info_path("l3_lpm")),
         str(json_path("l3_lpm")), role], capture_output=True, text=True, timeout=60)


def test_a_bound_switch_process_takes_its_domain_and_refuses_the_rest(bound_switch):
    address, proc = bound_switch
    # p4runtime-shell without a role name (the default role) gets no arbitration answer
    # and gives up; with the domain's role name it pushes, inserts and reads back.
    refused = _shell(address, "")
    assert refused.returncode != 0
    assert "Failed to establish session" in refused.stdout + refused.stderr
    accepted = _shell(address, OWN)
    assert accepted.returncode == 0, accepted.stderr
    assert json.loads(accepted.stdout.strip().splitlines()[-1]) == {"read": ["8"]}
    # The controller client of another domain is refused, naming both roles.
    foreign = SwitchConnection(address, device_id=0, election_id=99, role=FOREIGN)
    try:
        with pytest.raises(P4RuntimeError) as exc:
            foreign.connect()
    finally:
        foreign.close()
    assert exc.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert FOREIGN in exc.value.details and OWN in exc.value.details
    proc.terminate()
    assert proc.wait(timeout=10) == 0
    stderr = proc.stderr.read()
    assert "arbitration refused" in stderr
    assert f"role '{FOREIGN}' may not control this switch" in stderr
    assert "the default role" in stderr
