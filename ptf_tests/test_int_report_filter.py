"""INT report suppression sees upstream hops: by default a sink reports a flow again
when the hop-latency or queue bucket of any of its first four hops changes (its own and
three upstream ones, found in the stack by the instruction bitmap), and stays silent
while every bucket holds. A queue building on a spine reaches the collector."""
import time

import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import raw

from wire_formats.layers import DSCP_INT, INT_BIT_EGRESS_TS, INT_BIT_INGRESS_TS, INT_BIT_L1_PORTS, \
    INT_BIT_NODE_ID, INT_BIT_QUEUE, REPORT_UDP_PORT, UDP_PORT_UEC, IntHop, IntMD, IntShim, \
    UecRequest, int_hop_words
from fabric_base import FabricTest
from fabric_config import ROUTER_MAC, host_mac, route_to_port
from int_config import COLLECTOR_PORT, DOMAIN_ID, INSTRUCTIONS, REPORT_MODE, SUPPRESSED, \
    enable_int_node, make_sink

ORIGINAL_DSCP = 0x0A
QUEUE_STEP = 4            # packets: buckets from 4, 16, 64, 256
# us: the sink's own time in queue (one packet at a time) never reaches 16.8 s, so only
# the upstream values the tests write move a latency bucket.
LATENCY_STEP = 1 << 24
REPORT_WAIT_S = 10.0
# No hop latency: the queue word is the third of a hop, timestamps after it.
NO_LATENCY = INT_BIT_NODE_ID | INT_BIT_L1_PORTS | INT_BIT_QUEUE | INT_BIT_INGRESS_TS \
    | INT_BIT_EGRESS_TS


def _upstream(instructions: int, node_base: int, latencies: tuple[int, ...],
              queues: tuple[int, ...]) -> list[int]:
    """Stack words of upstream hops (nearest first), fixed but for latency and queue."""
    words: list[int] = []
    for i, (latency, queue) in enumerate(zip(latencies, queues)):
        words += int_hop_words(instructions, IntHop(
            node_id=node_base + i, ingress_port=5, egress_port=6 + i, hop_latency=latency,
            queue_id=0, queue_occupancy=queue, ingress_ts=1000, egress_ts=1010))
    return words


class _FilterTest(FabricTest):
    """One sink (port 2, reports out of COLLECTOR_PORT) in the default report mode with
    test steps; packets arrive from port 1 already carrying upstream hops."""

    flow_sport = 0

    def setUp(self) -> None:
        super().setUp()
        enable_int_node(self)
        route_to_port(self, "10.0.2.0/24", 2)
        make_sink(self, 2)
        self.set_default(REPORT_MODE,
                         "FabricEgress.int_egress.int_sink.report_filter.report_changes",
                         {"latency_step": LATENCY_STEP, "queue_step": QUEUE_STEP})

    def arrive(self, instructions: int, stack: list[int], hops: int) -> bytes:
        """Send a UEC packet carrying ``hops`` upstream hops (``stack``); return the
        raw report if one came, else check the filter counted it as suppressed."""
        suppressed = self.counter(SUPPRESSED, 0)[0]
        body = UecRequest(psn=3) / ("u" * 24)
        udp = UDP(sport=self.flow_sport, dport=UDP_PORT_UEC, chksum=0)
        self.send(1, Ether(src=host_mac(1), dst=ROUTER_MAC)
                  / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_INT << 2)
                  / udp / IntShim(dscp=ORIGINAL_DSCP)
                  / IntMD(remaining_hop_cnt=4 - hops, instruction_mask=instructions,
                          domain_id=DOMAIN_ID, stack=stack) / body)
        # The host gets it with INT stripped, whatever the filter decides.
        tu.verify_packet(self, Ether(raw(
            Ether(src=ROUTER_MAC, dst=host_mac(2))
            / IP(src="10.0.1.1", dst="10.0.2.1", tos=ORIGINAL_DSCP << 2, ttl=63)
            / udp / body)), 2)
        # The filter ran before the packet left: the counter or a clone tells.
        deadline = time.monotonic() + REPORT_WAIT_S
        while time.monotonic() < deadline:
            if self.counter(SUPPRESSED, 0)[0] == suppressed + 1:
                return b""
            result = self.dataplane.poll(port_number=COLLECTOR_PORT, timeout=0.2)
            if result.packet is not None:
                frame = Ether(result.packet)
                self.assertTrue(frame.haslayer(UDP) and frame[UDP].dport == REPORT_UDP_PORT,
                                f"not a report: {frame.summary()}")
                return bytes(result.packet)
        self.fail("neither a report nor a suppressed count")

    def expect(self, instructions: int, stack: list[int], hops: int, reported: bool,
               what: str) -> None:
        report = self.arrive(instructions, stack, hops)
        if not reported:
            self.assertEqual(report, b"", f"{what}: reported, expected suppressed")
            return
        self.assertNotEqual(report, b"", f"{what}: suppressed, expected a report")
        words = b"".join(w.to_bytes(4, "big") for w in stack)
        self.assertIn(words, report, f"{what}: the report lacks the upstream hops")


class UpstreamQueueBucketChangesAreReported(_FilterTest):
    """Three upstream hops: a queue bucket change on the nearest or the farthest one
    triggers a report; growth within a bucket, or nothing, is suppressed."""

    flow_sport = 49301

    def runTest(self):
        latencies = (10, 10, 10)
        steps = (((1, 1, 1), True, "first packet"),
                 ((1, 1, 1), False, "repeat"),
                 ((3, 1, 1), False, "hop 1 queue 3, bucket 0 still"),
                 ((5, 1, 1), True, "hop 1 queue 5, bucket 1"),
                 ((5, 1, 20), True, "hop 3 queue 20, bucket 2"),
                 ((5, 1, 60), False, "hop 3 queue 60, bucket 2 still"),
                 ((5, 1, 60), False, "repeat"),
                 ((5, 100, 60), True, "hop 2 queue 100, bucket 3"),
                 ((1, 1, 1), True, "all queues back to bucket 0"))
        for queues, reported, what in steps:
            self.expect(INSTRUCTIONS, _upstream(INSTRUCTIONS, 0x71, latencies, queues), 3,
                        reported, what)
        tu.verify_no_other_packets(self)


class UpstreamLatencyBucketChangesAreReported(_FilterTest):
    """A hop latency bucket change two hops upstream triggers a report."""

    flow_sport = 49302

    def runTest(self):
        queues = (1, 1)
        steps = (((10, 10), True, "first packet"),
                 ((10, 20_000_000), True, "hop 2 latency 20 s, bucket 1"),
                 ((10, 30_000_000), False, "hop 2 latency 30 s, bucket 1 still"),
                 ((10, 80_000_000), True, "hop 2 latency 80 s, bucket 2"),
                 ((10, 80_000_000), False, "repeat"))
        for latencies, reported, what in steps:
            self.expect(INSTRUCTIONS, _upstream(INSTRUCTIONS, 0x81, latencies, queues), 2,
                        reported, what)
        tu.verify_no_other_packets(self)


class BitmapLocatesTheUpstreamQueue(_FilterTest):
    """Without hop latency in the bitmap the queue word is a hop's third (timestamps
    follow it): the filter reads it there, not at the fourth word."""

    flow_sport = 49303

    def runTest(self):
        latencies = (0, 0)
        steps = (((1, 1), True, "first packet"),
                 ((1, 1), False, "repeat"),
                 ((1, 40), True, "hop 2 queue 40, bucket 2"),
                 ((1, 41), False, "hop 2 queue 41, bucket 2 still"),
                 ((8, 41), True, "hop 1 queue 8, bucket 1"))
        for queues, reported, what in steps:
            self.expect(NO_LATENCY, _upstream(NO_LATENCY, 0x91, latencies, queues), 2,
                        reported, what)
        tu.verify_no_other_packets(self)
