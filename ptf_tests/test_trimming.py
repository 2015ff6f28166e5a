"""Trimming: a UEC data packet with the trimmable DSCP that meets a congested egress
port is cut to the configured length, with correct IPv4/UDP lengths and checksums and
the trimmed DSCP, and sent in the highest queue; other packets are left whole. A port
is congested when its data-queue depth reaches the threshold or when its meter
(data_rate, a virtual data queue configured over P4Runtime) is red: the meter tests
use a threshold the depth never reaches, so they pass on simple_switch_grpc, whose
queues cannot be slowed at run time."""
import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import raw

from wire_formats.layers import DSCP_TRIMMABLE, DSCP_TRIMMED, UDP_PORT_UEC, UecControl, UecRequest
from fabric_base import FabricTest
from fabric_config import (ROUTER_MAC, TRIM_CLASSES, TRIM_METER, TRIM_THRESHOLDS, TRIMMED_BY_QUEUE,
                           host_mac, route_to_port)

TRIM_LENGTH = 64
HIGHEST_QUEUE = 7
NEVER_DEEP = 1000   # a depth threshold no queue of these tests reaches
BURST = 5


def _data(dscp: int = DSCP_TRIMMABLE, payload: int = 400, psn: int = 7) -> Ether:
    return (Ether(src=host_mac(1), dst=ROUTER_MAC)
            / IP(src="10.0.1.1", dst="10.0.2.1", tos=dscp << 2)
            / UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=psn, spdcid=1)
            / ("t" * payload))


def _routed(pkt: Ether) -> Ether:
    out = pkt.copy()
    out[Ether].src, out[Ether].dst = ROUTER_MAC, host_mac(2)
    out[IP].ttl -= 1
    del out[IP].chksum
    return out


def _trimmed(pkt: Ether) -> Ether:
    out = _routed(pkt)
    out[IP].tos = DSCP_TRIMMED << 2
    out[IP].len = TRIM_LENGTH - 14
    out[UDP].len = TRIM_LENGTH - 14 - 20
    out[UDP].chksum = 0
    return Ether(raw(out)[:TRIM_LENGTH])


class TrimTest(FabricTest):
    def configure(self, threshold: int) -> None:
        route_to_port(self, "10.0.2.0/24", 2)
        self.insert(TRIM_THRESHOLDS, "FabricIngress.trimming.set_trim_threshold",
                    {"egress_port": 2}, {"depth": threshold})
        self.insert(TRIM_CLASSES, "FabricIngress.trimming.trim_to", {"dscp": DSCP_TRIMMABLE},
                    {"length": TRIM_LENGTH, "trimmed_dscp": DSCP_TRIMMED, "queue": HIGHEST_QUEUE})

    def burst(self, count: int) -> list[Ether]:
        """``count`` data packets (PSN 0, 1, ...) sent back to back from port 1."""
        pkts = [_data(psn=psn) for psn in range(count)]
        for pkt in pkts:
            self.send(1, pkt)
        return pkts

    def receive(self, port: int, count: int) -> list[bytes]:
        """The next ``count`` frames out of ``port``, in any order (a trimmed packet in
        the priority queue may overtake a whole one), sorted."""
        frames = []
        for _ in range(count):
            got = tu.dp_poll(self, port_number=port, timeout=3)
            self.assertIsInstance(got, self.dataplane.PollSuccess,
                                  f"{len(frames)} of {count} frames out of port {port}")
            frames.append(bytes(got.packet))
        return sorted(frames)

    def assert_trimmed_count(self, trimmed: int) -> None:
        """Ingress decided ``trimmed`` times on port 2, and egress sent as many trimmed
        packets, every one from the highest queue."""
        self.assertEqual(self.counter("FabricIngress.trimming.trimmed_packets", 2)[0], trimmed)
        self.assertEqual(self.counter(TRIMMED_BY_QUEUE, HIGHEST_QUEUE)[0], trimmed)
        for queue in range(HIGHEST_QUEUE):
            self.assertEqual(self.counter(TRIMMED_BY_QUEUE, queue)[0], 0, f"queue {queue}")


class CongestedPortTrimsTrimmableData(TrimTest):
    """Threshold 0: the port counts as congested for every packet."""

    def runTest(self):
        self.configure(threshold=0)
        pkt = _data()
        self.send(1, pkt)
        exp = _trimmed(pkt)
        self.assertEqual(len(exp), TRIM_LENGTH)
        tu.verify_packet(self, exp, 2)
        tu.verify_no_other_packets(self)
        self.assert_trimmed_count(1)


class UncongestedPortKeepsPacketsWhole(TrimTest):
    def runTest(self):
        self.configure(threshold=1000)
        pkt = _data()
        self.send(1, pkt)
        tu.verify_packet(self, Ether(raw(_routed(pkt))), 2)
        tu.verify_no_other_packets(self)
        self.assertEqual(self.counter("FabricIngress.trimming.trimmed_packets", 2)[0], 0)


class OtherDscpNotTrimmed(TrimTest):
    def runTest(self):
        self.configure(threshold=0)
        pkt = _data(dscp=0)
        self.send(1, pkt)
        tu.verify_packet(self, Ether(raw(_routed(pkt))), 2)
        tu.verify_no_other_packets(self)


class ShortPacketLeftWhole(TrimTest):
    """A packet no longer than the trim length keeps its DSCP and bytes."""

    def runTest(self):
        self.configure(threshold=0)
        pkt = _data(payload=0)
        self.assertLessEqual(len(pkt), TRIM_LENGTH)
        self.send(1, pkt)
        tu.verify_packet(self, Ether(raw(_routed(pkt))), 2)
        tu.verify_no_other_packets(self)


class ControlPacketsNeverTrimmed(TrimTest):
    """Only data (request) packets are trimmed, not CONTROL packets."""

    def runTest(self):
        self.configure(threshold=0)
        pkt = (Ether(src=host_mac(1), dst=ROUTER_MAC)
               / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_TRIMMABLE << 2)
               / UDP(sport=49152, dport=UDP_PORT_UEC, chksum=0) / UecControl(credit=5)
               / ("c" * 200))
        self.send(1, pkt)
        tu.verify_packet(self, Ether(raw(_routed(pkt))), 2)
        tu.verify_no_other_packets(self)


class RedMeterTrimsTheRestOfABurst(TrimTest):
    """The depth never reaches the threshold; the port's meter, with no refill and a
    burst of two, lets the first two data packets through whole and is red for the
    other three: those are trimmed, carry the trimmed DSCP and leave from queue 7.
    (Rate 0 keeps the test exact on BMv2, whose meters credit whole tokens at instants
    counted from the meter's creation, so a 1 packet/s meter may refill mid-burst.)"""

    def runTest(self):
        self.configure(threshold=NEVER_DEEP)
        self.set_meter(TRIM_METER, 2, cir=0, cburst=2, pir=0, pburst=2)
        pkts = self.burst(BURST)
        expected = sorted([raw(_routed(p)) for p in pkts[:2]] + [raw(_trimmed(p)) for p in pkts[2:]])
        self.assertEqual(self.receive(2, BURST), expected)
        tu.verify_no_other_packets(self)
        self.assert_trimmed_count(BURST - 2)


class GreenMeterKeepsTheBurstWhole(TrimTest):
    """A meter with room for the whole burst (a million packets/s, burst 100) is green
    for every packet: nothing is trimmed."""

    def runTest(self):
        self.configure(threshold=NEVER_DEEP)
        self.set_meter(TRIM_METER, 2, cir=1_000_000, cburst=100, pir=1_000_000, pburst=100)
        pkts = self.burst(BURST)
        self.assertEqual(self.receive(2, BURST), sorted(raw(_routed(p)) for p in pkts))
        tu.verify_no_other_packets(self)
        self.assert_trimmed_count(0)


class MeterOfAnotherPortDoesNotTrim(TrimTest):
    """Only the egress port's own meter counts: a red meter on port 3 leaves the
    traffic to port 2 whole."""

    def runTest(self):
        self.configure(threshold=NEVER_DEEP)
        self.set_meter(TRIM_METER, 3, cir=0, cburst=0, pir=0, pburst=0)
        pkts = self.burst(2)
        self.assertEqual(self.receive(2, 2), sorted(raw(_routed(p)) for p in pkts))
        tu.verify_no_other_packets(self)
        self.assert_trimmed_count(0)


class MeterWithoutThresholdEntryDoesNotTrim(TrimTest):
    """A port trims only with a trim_thresholds entry: its meter alone, even red,
    does nothing (the controller writes both from the same policy)."""

    def runTest(self):
        route_to_port(self, "10.0.2.0/24", 2)
        self.insert(TRIM_CLASSES, "FabricIngress.trimming.trim_to", {"dscp": DSCP_TRIMMABLE},
                    {"length": TRIM_LENGTH, "trimmed_dscp": DSCP_TRIMMED, "queue": HIGHEST_QUEUE})
        self.set_meter(TRIM_METER, 2, cir=0, cburst=0, pir=0, pburst=0)
        pkts = self.burst(2)
        self.assertEqual(self.receive(2, 2), sorted(raw(_routed(p)) for p in pkts))
        tu.verify_no_other_packets(self)
        self.assert_trimmed_count(0)
