"""Feedback queue: UEC ACK_CC, NACK and CONTROL (credit, credit request) packets whose
PDS type has a feedback_queues entry take that queue class (standard_metadata.priority)
whatever their partition's, so that feedback never waits behind data; data packets and
types without an entry keep the partition's queue. Counted in egress by the queue the
packet left from (feedback_by_queue), so it also holds on simple_switch_grpc, whose
queues cannot be slowed to watch one overtake another."""
import ptf.testutils as tu
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from wire_formats.layers import (CTL_CREDIT, CTL_CREDIT_REQUEST, PDS_ACK_CC, PDS_CONTROL,
                                 PDS_NACK, UDP_PORT_UEC, UecAckCC, UecControl, UecNack,
                                 UecRequest)
from fabric_base import FabricTest
from fabric_config import (FEEDBACK_BY_QUEUE, FEEDBACK_QUEUES, PARTITION_QUEUES, ROUTER_MAC,
                           host_mac, route_to_port, routed)

FEEDBACK_QUEUE = 7
PARTITION_QUEUE = 2
QUEUES = 8


def _udp() -> Ether:
    return (Ether(src=host_mac(1), dst=ROUTER_MAC) / IP(src="10.0.1.1", dst="10.0.2.1")
            / UDP(sport=49153, dport=UDP_PORT_UEC, chksum=0))


def feedback_packets() -> list[Ether]:
    return [_udp() / UecAckCC(cack_psn=7, spdcid=1, dpdcid=2),
            _udp() / UecNack(nack_psn=8, spdcid=1, dpdcid=2),
            _udp() / UecControl(ctl_type=CTL_CREDIT, credit=2400),
            _udp() / UecControl(ctl_type=CTL_CREDIT_REQUEST, credit=1200)]


def data_packet() -> Ether:
    return _udp() / UecRequest(psn=9, spdcid=1) / ("d" * 200)


class FeedbackTest(FabricTest):
    def configure(self, feedback: bool) -> None:
        route_to_port(self, "10.0.2.0/24", 2)
        # Partition 0's traffic in a queue class of its own, as the mixed case's back end.
        self.insert(PARTITION_QUEUES, "FabricIngress.partition.set_queue", {"partition": 0},
                    {"queue": PARTITION_QUEUE})
        if feedback:
            for pds_type in (PDS_ACK_CC, PDS_NACK, PDS_CONTROL):
                self.insert(FEEDBACK_QUEUES, "FabricIngress.feedback.set_feedback_queue",
                            {"pds_type": pds_type}, {"queue": FEEDBACK_QUEUE})

    def send_all(self) -> int:
        """Every feedback packet and a data packet from port 1, each out of port 2
        unchanged but for routing; returns how many were feedback."""
        packets = feedback_packets()
        for pkt in packets + [data_packet()]:
            self.send(1, pkt)
            tu.verify_packet(self, routed(pkt, 2), 2)
        tu.verify_no_other_packets(self)
        return len(packets)

    def by_queue(self) -> list[int]:
        return [self.counter(FEEDBACK_BY_QUEUE, queue)[0] for queue in range(QUEUES)]


class FeedbackTakesItsQueue(FeedbackTest):
    def runTest(self):
        self.configure(feedback=True)
        sent = self.send_all()
        counts = self.by_queue()
        # Each feedback packet in the feedback queue; the data packet is not feedback.
        self.assertEqual(counts[FEEDBACK_QUEUE], sent, counts)
        self.assertEqual(sum(counts), sent, counts)


class FeedbackWithoutEntryKeepsThePartitionQueue(FeedbackTest):
    def runTest(self):
        self.configure(feedback=False)
        sent = self.send_all()
        counts = self.by_queue()
        self.assertEqual(counts[PARTITION_QUEUE], sent, counts)
        self.assertEqual(sum(counts), sent, counts)
