"""Mininet with p4sim: P4RuntimeSwitch and P4Host in real Mininet networks.

h1 - s1 - s2 - h2: two P4Runtime switches ($SWITCH, so simple_switch_grpc with
TARGET=bmv2) started from Mininet with no program; the test pushes real p4c's output
for the exact-match corpus program over P4Runtime, installs destination-MAC routes,
then pings across and runs a UDP and a TCP exchange whose payload digests must come
back intact (checksums verified by the receiving kernels). A control with Mininet's
plain Host shows the UDP exchange failing without P4Host's offload setting. Names
carry the test's PID so parallel runs never share an interface name; net.stop()
removes every switch process, host namespace and link, also on failure.
"""
from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from control.p4rt.client import SwitchConnection
from control.p4rt.entities import INSERT, P4Names, load_p4info, update
from p4sim.reference import reference_dir

PROGRAM = reference_dir() / "project" / "031_table_exact"
PEER = Path(__file__).with_name("peer.py")
INSTALL_HINT = "apt-get install -y --no-install-recommends mininet iputils-ping"


@pytest.fixture
def mininet_ready() -> None:
    """Root, Debian's mnexec and the mininet Python package; fails (not skips) without."""
    if os.geteuid() != 0:
        pytest.fail("Mininet needs root", pytrace=False)
    if not all(shutil.which(tool) for tool in ("mnexec", "ping")):
        pytest.fail(f"mnexec or ping missing: {INSTALL_HINT}", pytrace=False)
    try:
        import mininet.net  # noqa: F401
    except ImportError:
        pytest.fail("the venv lacks the mininet package: pip install mininet==2.3.0.dev6",
                    pytrace=False)


def _program(names: P4Names, conn: SwitchConnection,
             routes: dict[str, int]) -> None:
    conn.set_pipeline(load_p4info(str(PROGRAM / "031_table_exact.p4info.txtpb")),
                      (PROGRAM / "031_table_exact.json").read_bytes())
    conn.write([update(INSERT, table_entry=names.table_entry(
        "IngressImpl.dmac", {"dst_addr": mac}, "IngressImpl.forward", {"port": port}))
        for mac, port in routes.items()])


def _wait_line(process: subprocess.Popen, text: str, timeout: float) -> str:
    """The first stdout line of `process` containing `text`, within `timeout`."""
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    seen = []
    while (remaining := deadline - time.monotonic()) > 0:
        ready, _w, _x = select.select([process.stdout], [], [], remaining)
        if not ready:
            break
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        if text in line:
            return line
    process.kill()
    raise AssertionError(f"no {text!r} within {timeout}s; output: {''.join(seen)!r}")


def _exchange(server_host, client_host, kind: str, ip: str, port: int,
              timeout: float = 20.0) -> str:
    """Run peer.py's server on one host and its client on the other; the client's verdict."""
    argv = [sys.executable, str(PEER)]
    server = server_host.popen(argv + [f"{kind}-server", ip, str(port), str(timeout)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        _wait_line(server, "listening", 20)
        client = client_host.popen(argv + [f"{kind}-client", ip, str(port), str(timeout)],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out, _ = client.communicate(timeout=timeout + 40)
        return out.strip()
    finally:
        if server.poll() is None:
            server.kill()
        server.wait(10)


@contextlib.contextmanager
def mininet_network(tag: str, **options) -> Iterator:
    """A Mininet network with no controller, stopped whatever happens; afterwards no
    interface named after `tag` may remain."""
    from mininet.net import Mininet

    net = Mininet(controller=None, build=False, **options)
    try:
        yield net
    finally:
        net.stop()
        links = subprocess.run(["ip", "-o", "link", "show"], capture_output=True,
                               text=True, check=True).stdout
        assert tag not in links, f"Mininet left interfaces behind: {links}"


def _line(net, tag: str, log_dir: Path, switches: int, host_class):
    """h1 - s1 [- s2] - h2, every switch with no program; returns hosts and switches."""
    from p4sim.mininet import P4RuntimeSwitch

    h1 = net.addHost(f"{tag}h1", cls=host_class, ip="10.0.0.1/24", mac="00:00:00:00:00:01")
    h2 = net.addHost(f"{tag}h2", cls=host_class, ip="10.0.0.2/24", mac="00:00:00:00:00:02")
    chain = [net.addSwitch(f"{tag}s{n}", cls=P4RuntimeSwitch, dpid=str(n), device_id=0,
                           log_dir=str(log_dir)) for n in range(1, switches + 1)]
    net.addLink(h1, chain[0], port2=1)
    for left, right in zip(chain, chain[1:]):
        net.addLink(left, right, port1=2, port2=2)
    net.addLink(h2, chain[-1], port2=1 if switches > 1 else 2)
    return h1, h2, chain


def _start_and_program(net, h1, h2, chain) -> None:
    net.build()
    net.start()                    # returns once every gRPC server accepts
    net.staticArp()
    names = P4Names(load_p4info(str(PROGRAM / "031_table_exact.p4info.txtpb")))
    for n, switch in enumerate(chain):
        to_h1 = 1 if n == 0 else 2
        to_h2 = 2 if n < len(chain) - 1 or len(chain) == 1 else 1
        with SwitchConnection(switch.grpc_address, device_id=switch.device_id) as conn:
            _program(names, conn, {h1.MAC(): to_h1, h2.MAC(): to_h2})


@pytest.mark.usefixtures("mininet_ready")
def test_ping_udp_tcp_across_two_p4sim_switches(tmp_path):
    from p4sim.mininet import P4Host

    tag = f"m{os.getpid() % 100000}"
    with mininet_network(tag) as net:
        h1, h2, (s1, s2) = _line(net, tag, tmp_path, 2, P4Host)
        _start_and_program(net, h1, h2, [s1, s2])
        assert s1.grpc_port != s2.grpc_port
        argv = s1.command()
        assert argv[argv.index("-i") + 1] == f"1@{tag}s1-eth1"
        ping = h1.cmd(f"ping -c 3 -i 0.2 -W 5 {h2.IP()}")
        assert re.search(r"3 packets transmitted, 3 received", ping), ping
        assert _exchange(h2, h1, "udp", h2.IP(), 5001) == "udp ok"
        assert _exchange(h2, h1, "tcp", h2.IP(), 5002) == "tcp ok"
        assert h1.checksum_offload(h1.defaultIntf().name) == (False, False)
    for switch in (s1, s2):
        assert switch.process is not None and not switch.process.running()


@pytest.mark.usefixtures("mininet_ready")
def test_plain_hosts_lose_udp_checksums(tmp_path):
    """The control: Mininet's own Host keeps TX checksum offload on, and its UDP
    datagrams die at the receiver after a software switch (ping has no offloaded
    checksum and passes). This is what P4Host's offload setting is for."""
    from mininet.node import Host

    tag = f"c{os.getpid() % 100000}"
    with mininet_network(tag) as net:
        h1, h2, chain = _line(net, tag, tmp_path, 1, Host)
        _start_and_program(net, h1, h2, chain)
        ping = h1.cmd(f"ping -c 1 -W 5 {h2.IP()}")
        assert "1 received" in ping, ping
        assert _exchange(h2, h1, "udp", h2.IP(), 5001, timeout=3) == (
            "udp-client failed: TimeoutError('timed out')")


@pytest.mark.usefixtures("mininet_ready")
def test_a_switch_that_dies_fails_start_and_is_cleaned_up(tmp_path):
    from mininet.node import Host

    from p4sim.mininet import P4RuntimeSwitch
    from control.launch import LaunchError

    tag = f"f{os.getpid() % 100000}"
    with mininet_network(tag) as net:
        h1 = net.addHost(f"{tag}h1", cls=Host)
        s1 = net.addSwitch(f"{tag}s1", cls=P4RuntimeSwitch, dpid="1", binary="false",
                           log_dir=str(tmp_path))
        net.addLink(h1, s1)
        net.build()
        with pytest.raises(LaunchError, match=f"{tag}s1 exited"):
            net.start()


@pytest.mark.usefixtures("mininet_ready")
def test_command_line_for_each_target(tmp_path, monkeypatch):
    """-i N@IFNAME for Mininet's ports; --thrift-port only for p4sim; $TARGET/$SWITCH."""
    from control.launch import LaunchError
    from p4sim.mininet import P4RuntimeSwitch, switch_binary

    monkeypatch.delenv("SWITCH", raising=False)
    monkeypatch.setenv("TARGET", "bmv2")
    assert switch_binary() == "simple_switch_grpc"
    assert switch_binary("/opt/bmv2/simple_switch_grpc") == "/opt/bmv2/simple_switch_grpc"
    monkeypatch.setenv("SWITCH", "simple_switch_grpc")
    monkeypatch.delenv("TARGET")
    assert switch_binary() == "simple_switch_grpc"
    monkeypatch.delenv("SWITCH")
    assert switch_binary().endswith("p4sim-switch")

    tag = f"k{os.getpid() % 100000}"
    with mininet_network(tag) as net:
        bmv2 = net.addSwitch(f"{tag}s1", cls=P4RuntimeSwitch, dpid="1", cpu_port=255,
                             sw_path="simple_switch_grpc", grpc_port=50001,
                             pcap_dump=str(tmp_path), log_dir=str(tmp_path))  # tutorials' names
        p4sim = net.addSwitch(f"{tag}s2", cls=P4RuntimeSwitch, dpid="2", thrift_port=9099,
                              json_path="prog.json", log_dir=str(tmp_path))
        net.addLink(bmv2, p4sim, port1=3, port2=4)
        assert bmv2.command() == [
            "simple_switch_grpc", "--device-id", "1", "-i", f"3@{tag}s1-eth3",
            f"--pcap={tmp_path}", "--no-p4", "--", "--grpc-server-addr", "127.0.0.1:50001",
            "--cpu-port", "255"]
        argv = p4sim.command()
        assert argv[1:7] == ["--device-id", "2", "-i", f"4@{tag}s2-eth4", "--thrift-port", "9099"]
        assert argv[7:9] == ["prog.json", "--"]
        bmv2.thrift_port = 9090
        with pytest.raises(LaunchError, match="serves no Thrift"):
            bmv2.command()
