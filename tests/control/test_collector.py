"""The collector decodes real report datagrams sent over loopback UDP, stores hops in
order, and counts malformed ones without stopping."""
import socket

import pytest

from control.collector.decode import ReportDecodeError, decode_report
from control.collector.receiver import ReportReceiver
from control.collector.store import Store
from control.collector.synthetic import build_report
from wire_formats.layers import (INT_BIT_HOP_LATENCY, INT_BIT_L1_PORTS, INT_BIT_NODE_ID, INT_BIT_QUEUE,
                            IntHop)

INSTR = INT_BIT_NODE_ID | INT_BIT_L1_PORTS | INT_BIT_HOP_LATENCY | INT_BIT_QUEUE


def report_bytes(seq: int, hops: list[IntHop], sport: int = 1000) -> bytes:
    """A report as the fabric's sinks send it: the INT-MD packet embedded."""
    return build_report(hops, seq=seq, instructions=INSTR, sport=sport)


HOPS = [IntHop(node_id=2, ingress_port=3, egress_port=1, hop_latency=40, queue_id=0, queue_occupancy=7),
        IntHop(node_id=1, ingress_port=1, egress_port=3, hop_latency=10, queue_id=0, queue_occupancy=2)]


def test_decode_recovers_every_field():
    report = decode_report(report_bytes(5, HOPS))
    assert (report.node_id, report.seq_no, report.instructions) == (2, 5, INSTR)
    assert report.path == (1, 2)
    assert report.hops[0].hop_latency == 40 and report.hops[1].queue_occupancy == 2
    assert str(report.flow) == "10.0.1.1:1000->10.0.2.1:4793/17"


@pytest.mark.parametrize("cut", [0, 5, 12, 19, 30])
def test_truncated_reports_are_refused_with_a_reason(cut):
    with pytest.raises(ReportDecodeError):
        decode_report(report_bytes(1, HOPS)[:cut])


def test_bad_version_is_refused():
    data = bytearray(report_bytes(1, HOPS))
    data[0] = (1 << 4) | (data[0] & 0x0F)
    with pytest.raises(ReportDecodeError, match="version 1"):
        decode_report(bytes(data))


def test_receiver_stores_good_and_counts_bad_over_udp():
    store = Store()
    receiver = ReportReceiver(store, port=0)
    receiver.start()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
            tx.sendto(b"\x00garbage", receiver.address)
            for seq in range(3):
                tx.sendto(report_bytes(seq, HOPS, sport=1000 + seq % 2), receiver.address)
        assert receiver.wait_for(3, timeout=5)
    finally:
        receiver.stop()
    assert receiver.stats.malformed == 1 and receiver.stats.received == 4
    assert store.report_count() == 3
    paths = store.flow_paths()
    assert paths["10.0.1.1:1000->10.0.2.1:4793/17"] == {"1,2": 2}
    summary = {s.node_id: s for s in store.hop_summaries()}
    assert summary[2].max_latency == 40 and summary[1].mean_queue == 2
    assert [lat for _, lat, _ in store.series(2)] == [40, 40, 40]
