"""INT-MD source and transit: the source inserts shim and INT-MD header, marks the
INT DSCP and keeps the original in the shim; every INT hop pushes its metadata for
bits 0-5 and 7 in front of the stack, honours the hop budget (E bit) and keeps
lengths and checksums right."""
import ptf.testutils as tu
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw, raw

from wire_formats.layers import DSCP_INT, UDP_PORT_UEC, IntHop, IntMD, IntShim, UecRequest, \
    decode_int, int_hop_words, split_int_stack
from fabric_base import FabricTest
from fabric_config import ROUTER_MAC, host_mac, route_to_port
from int_config import DOMAIN_ID, INSTRUCTIONS, NODE_ID, enable_int_node, mask_own_hop, \
    own_hop_words, watch

ORIGINAL_DSCP = 0x0A
# Ethernet + IPv4 + UDP + shim + INT-MD header
UDP_STACK_OFFSET = 14 + 20 + 8 + 4 + 12
PREVIOUS_HOP = int_hop_words(INSTRUCTIONS, IntHop(
    node_id=0x99, ingress_port=5, egress_port=6, hop_latency=10, queue_id=0,
    queue_occupancy=4, ingress_ts=1000, egress_ts=1010))


def _uec(tos: int = ORIGINAL_DSCP << 2) -> Ether:
    return (Ether(src=host_mac(1), dst=ROUTER_MAC) / IP(src="10.0.1.1", dst="10.0.2.1", tos=tos)
            / UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0))


def _with_int(stack: list[int], remaining: int, e: int = 0) -> list:
    return [IntShim(dscp=ORIGINAL_DSCP),
            IntMD(e=e, remaining_hop_cnt=remaining, instruction_mask=INSTRUCTIONS,
                  domain_id=DOMAIN_ID, stack=stack)]


def _routed_headers(tos: int) -> Ether:
    return (Ether(src=ROUTER_MAC, dst=host_mac(2))
            / IP(src="10.0.1.1", dst="10.0.2.1", tos=tos, ttl=63)
            / UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0))


class SourceInsertsIntAndPushesItsHop(FabricTest):
    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        watch(self, "10.0.2.1", hop_budget=4)
        payload = UecRequest(psn=9) / ("i" * 32)
        self.send(1, _uec() / payload)
        shim, md = _with_int(own_hop_words(1, 2), remaining=3)
        exp = _routed_headers(DSCP_INT << 2) / shim / md / payload
        tu.verify_packet(self, mask_own_hop(Ether(raw(exp)), UDP_STACK_OFFSET), 2)
        tu.verify_no_other_packets(self)


class TransitPushesInFrontOfTheStack(FabricTest):
    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        payload = UecRequest(psn=9) / ("i" * 32)
        self.send(1, _uec(tos=DSCP_INT << 2) / _with_int(PREVIOUS_HOP, 3)[0]
                  / _with_int(PREVIOUS_HOP, 3)[1] / payload)
        shim, md = _with_int(own_hop_words(1, 2) + PREVIOUS_HOP, remaining=2)
        exp = Ether(raw(_routed_headers(DSCP_INT << 2) / shim / md / payload))
        self.assertEqual(decode_int(exp, [DSCP_INT])[IntShim].length, 3 + 18)
        tu.verify_packet(self, mask_own_hop(exp, UDP_STACK_OFFSET), 2)
        tu.verify_no_other_packets(self)


class HopBudgetExhaustedSetsEAndPushesNothing(FabricTest):
    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        payload = UecRequest(psn=9) / ("i" * 32)
        shim, md = _with_int(PREVIOUS_HOP, remaining=0)
        self.send(1, _uec(tos=DSCP_INT << 2) / shim / md / payload)
        shim, md = _with_int(PREVIOUS_HOP, remaining=0, e=1)
        tu.verify_packet(self, Ether(raw(_routed_headers(DSCP_INT << 2) / shim / md / payload)), 2)
        tu.verify_no_other_packets(self)


class IntPacketsPassUntouchedWithoutNodeConfig(FabricTest):
    """No INT configuration: an INT packet is only routed."""

    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        payload = UecRequest(psn=9)
        shim, md = _with_int(PREVIOUS_HOP, remaining=3)
        self.send(1, _uec(tos=DSCP_INT << 2) / shim / md / payload)
        exp = _routed_headers(DSCP_INT << 2) / shim / md / payload
        tu.verify_packet(self, Ether(raw(exp)), 2)
        tu.verify_no_other_packets(self)


def _checksum_ok(pkt: Ether, layer) -> bool:
    again = pkt.copy()
    del again[layer].chksum
    return Ether(raw(again))[layer].chksum == pkt[layer].chksum


class IntKeepsL4ChecksumsValid(FabricTest):
    """Source on TCP and on UDP with a checksum: the inserted INT data is accounted for
    in the L4 checksum (checked by recomputing it on the received packet)."""

    def runTest(self):
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        watch(self, "10.0.2.1")
        base = Ether(src=host_mac(1), dst=ROUTER_MAC) / IP(src="10.0.1.1", dst="10.0.2.1")
        for l4, layer in ((TCP(sport=1000, dport=80, flags="PA"), TCP),
                          (UDP(sport=1000, dport=5000), UDP)):
            self.send(1, Ether(raw(base / l4 / Raw(b"checksum me" * 5))))
            result = tu.dp_poll(self, device_number=0, port_number=2, timeout=3)
            self.assertIsInstance(result, self.dataplane.PollSuccess, f"no {layer.__name__} packet")
            received = decode_int(Ether(result.packet), [DSCP_INT])
            hops = split_int_stack(received[IntMD].stack, INSTRUCTIONS)
            self.assertEqual([hop.node_id for hop in hops], [NODE_ID])
            self.assertNotEqual(received[layer].chksum, 0)
            self.assertTrue(_checksum_ok(received, layer), f"{layer.__name__} checksum wrong")
        tu.verify_no_other_packets(self)
