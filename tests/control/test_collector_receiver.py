"""The receiver: bursts are stored whole (in batches), and a flood of malformed
datagrams is logged in full only at first."""
import logging
import socket

from control.collector.receiver import MalformedLog, ReportReceiver
from control.collector.store import Store
from control.collector.synthetic import build_report
from wire_formats.layers import IntHop


def test_a_burst_is_stored_whole():
    store = Store()
    receiver = ReportReceiver(store, port=0)
    receiver.start()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
            for seq in range(300):
                tx.sendto(build_report([IntHop(node_id=1, ingress_port=1, egress_port=2,
                                               hop_latency=seq, queue_id=0, queue_occupancy=1)],
                                       seq=seq), receiver.address)
        assert receiver.wait_for(300, timeout=10)
    finally:
        receiver.stop()
    assert store.report_count() == 300
    assert [s.hop_latency for s in store.samples(1)] == list(range(300))


def test_malformed_log_is_rate_limited(caplog):
    note = MalformedLog(in_full=3, interval=3600)
    with caplog.at_level(logging.WARNING, logger="control.collector.receiver"):
        for _ in range(8):
            note.note(("10.0.0.9", 4000), 5, "truncated")
    assert len(caplog.records) == 3
    assert all("10.0.0.9:4000" in r.getMessage() for r in caplog.records)


def test_a_store_that_refuses_reports_does_not_stop_the_receiver():
    store = Store()
    receiver = ReportReceiver(store, port=0)
    receiver.start()
    store.close()  # every insert now fails
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
            tx.sendto(build_report([IntHop(node_id=1)]), receiver.address)
            assert receiver.wait_for(1, timeout=5)
            tx.sendto(build_report([IntHop(node_id=1)]), receiver.address)
            assert receiver.wait_for(2, timeout=5)  # still running
    finally:
        receiver.stop()
    assert receiver.stats.store_errors == 2
