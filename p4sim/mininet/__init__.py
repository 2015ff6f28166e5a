"""Mininet integration: a P4Runtime switch class (p4sim-switch or simple_switch_grpc)
and a host class with checksum offload off, for topologies written for BMv2.

    from mininet.net import Mininet
    from p4sim.mininet import P4Host, P4RuntimeSwitch

    net = Mininet(switch=P4RuntimeSwitch, host=P4Host, controller=None)
    s1 = net.addSwitch("s1", json_path="build/fabric.json", thrift_port=9090)
    h1 = net.addHost("h1", ip="10.0.1.1/24")
    net.addLink(h1, s1, port2=1)
    net.start()        # p4sim-switch -i 1@s1-eth1 ... ; returns once gRPC accepts
    ...                # P4Runtime at s1.grpc_address, p4sim-cli --thrift-port 9090
    net.stop()

Run it as root with the venv's Python (`sudo .venv/bin/python topo.py`); the venv's
`mininet` package uses Debian's `mnexec` (apt-get install --no-install-recommends
mininet; no Open vSwitch is needed, as no OpenFlow controller or switch is used).
"""
from p4sim.mininet.host import P4Host
from p4sim.mininet.switch import P4RuntimeSwitch, switch_binary

__all__ = ["P4Host", "P4RuntimeSwitch", "switch_binary"]
