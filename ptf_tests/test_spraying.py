"""Multipath per group: round-robin spreads N packets exactly evenly, entropy mode maps
each UEC entropy value (UDP source port) to one member, ECMP keeps a flow on one
member, and member weights shift the split. Per-member counters measure the split."""
from collections import Counter

import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from wire_formats.layers import UDP_PORT_UEC, UecRequest
from fabric_base import FabricTest
from fabric_config import ROUTER_MAC, host_mac, route_to_group
from routed_match import routed_on_any_member

MEMBERS = "FabricIngress.routing.member_packets"


def _uec(ev: int, psn: int = 0) -> Ether:
    return (Ether(src=host_mac(1), dst=ROUTER_MAC)
            / IP(src="10.0.1.1", dst="10.0.9.1")
            / UDP(sport=ev, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=psn) / ("u" * 20))


class SprayTest(FabricTest):
    def send_and_locate(self, pkt: Ether, ports: list[int]) -> int:
        """Sends ``pkt`` from port 1 and returns the port it left on."""
        self.send(1, pkt)
        index, _ = tu.verify_packet_any_port(self, routed_on_any_member(pkt), ports)
        return ports[index]


class RoundRobinSpreadsEvenly(SprayTest):
    def runTest(self):
        ports = [2, 3, 4]
        route_to_group(self, "10.0.9.0/24", 1, {p: 1 for p in ports}, "use_round_robin")
        seen = Counter(self.send_and_locate(_uec(ev=1000, psn=i), ports) for i in range(9))
        tu.verify_no_other_packets(self)
        self.assertEqual(seen, Counter({2: 3, 3: 3, 4: 3}))
        for port in ports:
            self.assertEqual(self.counter(MEMBERS, port)[0], 3)


class RoundRobinWeightsShiftTheSplit(SprayTest):
    def runTest(self):
        route_to_group(self, "10.0.9.0/24", 1, {2: 3, 3: 1}, "use_round_robin")
        seen = Counter(self.send_and_locate(_uec(ev=1000, psn=i), [2, 3]) for i in range(8))
        tu.verify_no_other_packets(self)
        self.assertEqual(seen, Counter({2: 6, 3: 2}))


class EntropyValuePinsItsMember(SprayTest):
    """Each EV goes to one member every time; varying the EV sprays over both."""

    def runTest(self):
        ports = [2, 3]
        route_to_group(self, "10.0.9.0/24", 1, {2: 1, 3: 1}, "use_entropy")
        first = {ev: self.send_and_locate(_uec(ev), ports) for ev in range(49152, 49168)}
        again = {ev: self.send_and_locate(_uec(ev, psn=1), ports) for ev in first}
        tu.verify_no_other_packets(self)
        self.assertEqual(first, again)
        self.assertEqual(set(first.values()), set(ports))


class EntropyIgnoresAddresses(SprayTest):
    """In entropy mode only the EV counts: different hosts with one EV share a path."""

    def runTest(self):
        ports = [2, 3]
        route_to_group(self, "10.0.9.0/24", 1, {2: 1, 3: 1}, "use_entropy")
        taken = set()
        for src in ("10.0.1.1", "10.0.1.2", "10.0.1.3", "10.0.1.4"):
            pkt = _uec(ev=50000)
            pkt[IP].src = src
            taken.add(self.send_and_locate(pkt, ports))
        tu.verify_no_other_packets(self)
        self.assertEqual(len(taken), 1)


class EcmpKeepsAFlowOnOneMember(SprayTest):
    """No mode entry: 5-tuple hash. A flow stays on one member; many flows use both."""

    def runTest(self):
        ports = [2, 3]
        route_to_group(self, "10.0.9.0/24", 1, {2: 1, 3: 1})
        flow = [self.send_and_locate(_uec(ev=40000, psn=i), ports) for i in range(6)]
        self.assertEqual(len(set(flow)), 1)
        flows = {self.send_and_locate(_uec(ev=ev), ports) for ev in range(40001, 40017)}
        tu.verify_no_other_packets(self)
        self.assertEqual(flows, set(ports))


class EcmpWeightsShiftTheSplit(SprayTest):
    """Weight 3:1 (three members for port 2, one for port 3: route_to_group) over 64
    flows: the heavier next hop gets clearly more of them."""

    def runTest(self):
        ports = [2, 3]
        route_to_group(self, "10.0.9.0/24", 1, {2: 3, 3: 1})
        seen = Counter(self.send_and_locate(_uec(ev=ev), ports) for ev in range(30000, 30064))
        tu.verify_no_other_packets(self)
        self.assertGreater(seen[2], 2 * seen[3])
        self.assertEqual(self.counter(MEMBERS, 2)[0] + self.counter(MEMBERS, 3)[0], 64)
