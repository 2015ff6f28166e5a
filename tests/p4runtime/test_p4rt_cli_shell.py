"""The newcomer's path: start `p4sim-switch --no-p4` and program it from another
process with p4runtime-shell, pushing P4Info + BMv2 JSON as --config does."""
import json
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from p4rt_harness import json_path, p4info_path

SHELL_SCRIPT = textwrap.dedent("""
    import json, sys
    from p4runtime_sh import shell as sh
    addr, p4info, device_json = sys.argv[1:4]
    sh.setup(device_id=0, grpc_addr=addr, election_id=(0, 1),
             config=sh.FwdPipeConfig(p4info, device_json), verbose=False)
    te = sh.TableEntry("IngressImpl.ipv4_lpm")(action="IngressImpl.forward")
    te.match["dst_addr"] = "10.0.0.0/8"
    te.action["port"] = "2"
    te.action["dst_mac"] = "00:00:00:00:00:0b"
    te.action["src_mac"] = "00:00:00:00:00:0a"
    te.insert()
    after_insert = [str(e.match["dst_addr"].lpm.prefix_len)
                    for e in sh.TableEntry("IngressImpl.ipv4_lpm").read()]
    te.delete()
    after_delete = list(sh.TableEntry("IngressImpl.ipv4_lpm").read())
    print(json.dumps({"after_insert": after_insert, "after_delete": len(after_delete),
                      "api": sh.APIVersion()}))
    sh.teardown()
""")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def switch_process():
    grpc_port = free_port()
    binary = Path(sys.executable).parent / "p4sim-switch"
    proc = subprocess.Popen(
        [str(binary), "--no-p4", "--thrift-port", str(free_port()), "--",
         "--grpc-server-addr", f"127.0.0.1:{grpc_port}", "--cpu-port", "255"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready = proc.stdout.readline()     # blocks until the switch reports readiness
        assert "p4sim-switch ready" in ready, (ready, proc.stderr.read())
        yield f"127.0.0.1:{grpc_port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_p4runtime_shell_inserts_reads_and_deletes(switch_process):
    result = subprocess.run(
        [sys.executable, "-c", SHELL_SCRIPT, switch_process,
         str(p4info_path("l3_lpm")), str(json_path("l3_lpm"))],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report == {"after_insert": ["8"], "after_delete": 0, "api": "1.4.1"}
