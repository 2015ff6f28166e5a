"""The BMv2 Thrift target's (--target bmv2-thrift) plumbing (namespace, veth ports, process start and readiness,
CLI round trips, packet capture, clean-up), run against stand-in executables because
real simple_switch is not installable here. The stand-ins encode our reading of
simple_switch_CLI's replies; they check the wiring, not BMv2's behaviour.
Needs root and iproute2."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from p4sim.reference import reference_dir
from p4sim.stf.cli import EXIT_PASS, main

pytestmark = pytest.mark.netns

REFERENCE = reference_dir()

# Forwards every frame arriving on port 1 to port 2 unchanged, and serves a TCP port
# so that readiness can be detected.
FAKE_SWITCH = r'''
import socket, sys, select
args = sys.argv[1:]
ports = {}
thrift = int(args[args.index("--thrift-port") + 1])
for i, a in enumerate(args):
    if a == "-i":
        num, ifname = args[i + 1].split("@")
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
        s.bind((ifname, 0))
        ports[s] = int(num)
by_num = {n: s for s, n in ports.items()}
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", thrift))
server.listen(5)
while True:
    ready, _, _ = select.select(list(ports) + [server], [], [])
    for s in ready:
        if s is server:
            s.accept()[0].close()
            continue
        data, addr = s.recvfrom(65535)
        if addr[2] == 4:
            continue
        if ports[s] == 1:
            by_num[2].send(data)
'''

FAKE_CLI = r'''
import sys
line = sys.stdin.read().strip()
with open(sys.argv[0] + ".log", "a") as log:
    log.write(line + "\n")
if line.startswith("table_add"):
    print("Entry has been added with handle 0")
elif line.startswith("mc_node_create"):
    print("node was created with handle 0")
elif line.startswith("register_read"):
    print("r[0]= 5")
else:
    print("ok")
'''


def install(directory: Path, name: str, body: str) -> Path:
    path = directory / name
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_bmv2_target_wiring_with_stand_ins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    install(tmp_path, "simple_switch", FAKE_SWITCH)
    cli = install(tmp_path, "simple_switch_CLI", FAKE_CLI)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    frame = "000000000001000000000002" "1234" + "AB" * 20
    stf = tmp_path / "t.stf"
    stf.write_text(f"add ipv4_lpm dst_addr:0x0a000000/8 forward(port:2, dst_mac:1, src_mac:2)\n"
                   f"packet 1 {frame}\nexpect 2 {frame}\n")
    code = main([str(REFERENCE / "p4" / "l3_lpm.p4"), str(stf), "--target", "bmv2-thrift",
                 "--json", str(REFERENCE / "p4c-out" / "l3_lpm.json")])
    out = capsys.readouterr()
    assert code == EXIT_PASS, out.out + out.err
    commands = Path(str(cli) + ".log").read_text().splitlines()
    assert commands == ["table_add IngressImpl.ipv4_lpm IngressImpl.forward 0xa000000/8 => 2 1 2"]
    namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
    assert f"st{os.getpid()}" not in namespaces
