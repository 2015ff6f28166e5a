"""fabric.p4's feedback queue on p4sim in-process, with the switch's own queue slowed:
UEC feedback (ACK_CC, NACK) given a queue class by feedback_queues overtakes the data
queued ahead of it, and leaving from that priority queue it does not make the port
look congested to trimming (port_queue_depth is the data queue's: the feedback's
deq_qdepth counts the priority queue too, and once written it trimmed every data packet
of a port whose headers and feedback filled its slots).

On a step clock (tests/switch/arch/sa_helpers.py), as test_fabric_trim_signal.py, so
that what is queued when is the test's doing, not the machine's speed."""
from __future__ import annotations

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from wire_formats.layers import PDS_ACK_CC, PDS_NACK, UDP_PORT_UEC, UecAckCC, UecNack
from p4sim.switch.runtime_api import ExactParam
from p4sim.switch.switch import Switch
from tests.fabric.test_fabric_trim_signal import (QUEUE_RATE, THRESHOLD, Outputs, data,
                                                  psn_and_trimmed, trimming_switch)
from tests.switch.arch.sa_helpers import StepClock, wait_ingressed

FEEDBACK_QUEUE = 7


def ack_cc(psn: int) -> bytes:
    return bytes(Ether(src="00:00:00:00:00:01", dst="00:aa:00:00:00:01")
                 / IP(src="10.0.1.1", dst="10.0.2.1")
                 / UDP(sport=50000, dport=UDP_PORT_UEC, chksum=0)
                 / UecAckCC(cack_psn=psn, spdcid=1, dpdcid=2))


def nack(psn: int) -> bytes:
    return bytes(Ether(src="00:00:00:00:00:01", dst="00:aa:00:00:00:01")
                 / IP(src="10.0.1.1", dst="10.0.2.1")
                 / UDP(sport=50000, dport=UDP_PORT_UEC, chksum=0)
                 / UecNack(nack_psn=psn, spdcid=1, dpdcid=2))


def kind(frame: bytes) -> tuple[str, int]:
    """("data", PSN) or ("trimmed", PSN) for a data packet, ("ack"/"nack", PSN) else."""
    pkt = Ether(frame)
    if UecAckCC in pkt:
        return "ack", pkt[UecAckCC].cack_psn
    if UecNack in pkt:
        return "nack", pkt[UecNack].nack_psn
    psn, cut = psn_and_trimmed(frame)
    return ("trimmed" if cut else "data"), psn


def make_switch(clock: StepClock, feedback: bool) -> Switch:
    sw = trimming_switch(clock)
    rt = sw.runtime
    if feedback:
        for pds_type in (PDS_ACK_CC, PDS_NACK):
            rt.tables["FabricIngress.feedback.feedback_queues"].add_entry(
                [ExactParam(pds_type)], "FabricIngress.feedback.set_feedback_queue",
                [FEEDBACK_QUEUE])
    sw.set_queue_rate(QUEUE_RATE, port=2)
    return sw


@pytest.mark.parametrize("feedback", [True, False], ids=["feedback queue", "no entry"])
def test_feedback_overtakes_the_queued_data_only_in_its_queue(feedback):
    clock = StepClock()
    with make_switch(clock, feedback) as switch:
        out = Outputs(switch)
        for psn in range(6):
            switch.inject(1, data(psn))
        wait_ingressed(switch, clock, 1, 6)
        switch.inject(1, ack_cc(100))
        switch.inject(1, nack(101))
        wait_ingressed(switch, clock, 1, 8)
        out.release(clock, 8)
        order = [kind(f) for f in out.frames]
        by_queue = switch.runtime.counters["FabricEgress.feedback_count.feedback_by_queue"]
        fed_back = [by_queue.read(q)[1] for q in range(8)]
    # The first data packet left at once (an idle port); the rest waited for slots.
    assert order[0] == ("data", 0), order
    if feedback:
        assert order[1:3] == [("ack", 100), ("nack", 101)], order
        assert fed_back[FEEDBACK_QUEUE] == 2 and sum(fed_back) == 2, fed_back
    else:
        assert order[-2:] == [("ack", 100), ("nack", 101)], order
        assert fed_back[0] == 2 and sum(fed_back) == 2, fed_back
    # No data packet had yet left a deep data queue behind it: none was trimmed.
    assert [k for k, _ in order].count("data") == 6


def test_feedback_leaving_the_priority_queue_does_not_make_the_port_congested():
    clock = StepClock()
    with make_switch(clock, feedback=True) as switch:
        out = Outputs(switch)
        # One data packet out at once (the data queue is empty behind it), one queued;
        # then more feedback than the trim threshold, in the priority queue.
        for psn in range(2):
            switch.inject(1, data(psn))
        wait_ingressed(switch, clock, 1, 2)
        acks = 2 * THRESHOLD
        for psn in range(acks):
            switch.inject(1, ack_cc(100 + psn))
        wait_ingressed(switch, clock, 1, 2 + acks)
        # Half the feedback leaves, each leaving more than the threshold behind it
        # (feedback and the one data packet): the port's whole depth, not its data's.
        out.release(clock, 1 + THRESHOLD)
        assert [kind(f)[0] for f in out.frames] == ["data"] + ["ack"] * THRESHOLD
        # A data packet arriving now finds one data packet queued: it is not trimmed.
        switch.inject(1, data(2))
        wait_ingressed(switch, clock, 1, 3 + acks)
        out.release(clock, 3 + acks)
        assert switch.wait_idle(20)
        order = [kind(f) for f in out.frames]
        trimmed = switch.runtime.counters["FabricIngress.trimming.trimmed_packets"].read(2)[1]
    assert ("data", 2) in order and not any(k == "trimmed" for k, _ in order), order
    assert trimmed == 0
