"""The collector refuses reports that break Telemetry Report v2.0 and counts them per
class of fault: one hand-built bad report per class (including the two faults a
reviewer found in the fabric's old reports: RepMdBits bit 0 set, Report Length longer
than the bytes present) sent over real UDP, counted in the receiver's stats and on
/metrics; well-formed reports around them are stored; sequence gaps count as lost."""
from __future__ import annotations

import socket
import struct
import time
import urllib.request

import pytest

from control.collector.conformance import REASONS, MalformedReport, check_datagram
from control.collector.decode import DEFAULT_INT_DSCPS, decode_report, decode_report_scapy
from control.collector.metrics import MetricsServer
from control.collector.receiver import ReportReceiver
from control.collector.store import Store
from control.collector.synthetic import build_inner, build_report
from wire_formats.layers import (INT_BIT_L1_PORTS, INT_BIT_QUEUE, IntHop, IntReport, ReportGroup,
                            ReportIndividual)

HOPS = [IntHop(node_id=2, ingress_port=3, egress_port=1, hop_latency=40, queue_id=0,
               queue_occupancy=7),
        IntHop(node_id=1, ingress_port=1, egress_port=3, hop_latency=10, queue_id=0,
               queue_occupancy=2)]
GOOD = build_report(HOPS, seq=1)


def _patched(data: bytes, offset: int, value: int) -> bytes:
    buf = bytearray(data)
    buf[offset] = value
    return bytes(buf)


def _report(rep_md_bits: int = 0, metadata: list[int] | None = None, md_length: int | None = None,
            domain_id: int = 1, ds_md_bits: int = 0, inner: bytes | None = None,
            rep_type: int = 1, in_type: int = 4) -> bytes:
    inner = build_inner(HOPS) if inner is None else inner
    inner = inner[:len(inner) - len(inner) % 4]
    return bytes(ReportGroup(node_id=2) / ReportIndividual(rep_type=rep_type, in_type=in_type,
                                                           md_length=md_length, f=1)
                 / IntReport(rep_md_bits=rep_md_bits, domain_id=domain_id,
                             ds_md_bits=ds_md_bits, metadata=metadata or []) / inner)


def _int_stack_off() -> bytes:
    inner = bytearray(build_inner(HOPS))
    shim_at = 20 + 8
    inner[shim_at + 1] += 1  # shim length: one word more than whole hops
    return _report(inner=bytes(inner))


# One hand-built report per class of fault.
BAD: dict[str, bytes] = {
    "truncated": GOOD[:11],
    "version": _patched(GOOD, 0, (1 << 4) | (GOOD[0] & 0x0F)),
    "rep_type": _patched(GOOD, 8, (2 << 4) | 4),  # IOAM: no v2.0 main contents format
    "in_type": _patched(GOOD, 8, (1 << 4) | 9),
    # The old fabric's fault: the length rounded up over bytes that are not there.
    "report_length": _patched(GOOD, 9, GOOD[9] + 1),
    # The old fabric's other fault: RepMdBits bit 0 (node ID) is reserved in reports.
    "rep_md_bits": _report(rep_md_bits=0x8000 | INT_BIT_QUEUE, metadata=[2, 7]),
    "md_length": _report(rep_md_bits=INT_BIT_L1_PORTS | INT_BIT_QUEUE, metadata=[0x00030001]),
    "ds_md_bits": _report(domain_id=0, ds_md_bits=0x8000, metadata=[0], md_length=1),
    "inner": _report(inner=b"\x00" * 8),
    "int_stack": _int_stack_off(),
}


def test_every_class_has_a_bad_report():
    assert set(BAD) == set(REASONS)


@pytest.mark.parametrize("reason", sorted(REASONS))
def test_each_bad_report_is_refused_for_its_reason_by_both_decoders(reason):
    for decode in (decode_report, decode_report_scapy):
        with pytest.raises(MalformedReport) as refused:
            decode(BAD[reason])
        assert refused.value.reason == reason, str(refused.value)


def test_well_formed_reports_pass():
    report = decode_report(GOOD)
    assert report.path == (1, 2) and report.seq_no == 1
    # The reporting node's own metadata in the main contents (bit 0 clear) is a hop.
    own = _report(rep_md_bits=INT_BIT_L1_PORTS | INT_BIT_QUEUE, metadata=[0x00030001, 7])
    hops = decode_report(own).hops
    assert hops[0] == IntHop(node_id=2, ingress_port=3, egress_port=1, queue_id=0,
                             queue_occupancy=7)
    assert [h.node_id for h in hops[1:]] == [2, 1]
    assert decode_report_scapy(own) == decode_report(own)


def test_coalesced_reports_tile_the_datagram():
    second = GOOD[8:]  # another individual report of the same node
    spans = check_datagram(GOOD + second, DEFAULT_INT_DSCPS)
    assert [s.at for s in spans] == [8, len(GOOD)]
    with pytest.raises(MalformedReport, match="report_length: 2 trailing bytes"):
        check_datagram(GOOD + b"\x00\x00", DEFAULT_INT_DSCPS)


def _metric(url: str, name: str) -> float:
    with urllib.request.urlopen(url, timeout=10) as response:
        for line in response.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    raise AssertionError(f"{name} not on {url}")


def test_receiver_counts_each_class_and_serves_them_on_metrics():
    store = Store()
    receiver = ReportReceiver(store, port=0)
    server = MetricsServer(store, receiver.stats, port=0)
    receiver.start()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
            for seq in (0, 1, 4):  # 2 and 3 never arrive: two lost
                tx.sendto(build_report(HOPS, seq=seq), receiver.address)
            for data in BAD.values():
                tx.sendto(data, receiver.address)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with receiver.stats.lock:
                if receiver.stats.received == 3 + len(BAD):
                    break
            time.sleep(0.02)  # polling the condition, with a deadline
        with receiver.stats.lock:
            assert receiver.stats.received == 3 + len(BAD)
            assert receiver.stats.decoded == 3
            assert dict(receiver.stats.malformed_by_reason) == {r: 1 for r in REASONS}
            assert receiver.stats.lost == 2
        for reason in REASONS:
            assert _metric(server.url, 'int_collector_reports_malformed_by_reason_total'
                           f'{{reason="{reason}"}}') == 1
        assert _metric(server.url, "int_collector_reports_lost_total") == 2
        assert store.report_count() == 3
    finally:
        server.stop()
        receiver.stop()
        store.close()


def test_ds_metadata_needs_at_least_a_word_per_bit():
    ok = _report(domain_id=7, ds_md_bits=0xC000, metadata=[1, 2, 3], md_length=3)
    assert decode_report(ok).domain_id == 7
    with pytest.raises(MalformedReport, match="md_length"):
        decode_report(_report(domain_id=7, ds_md_bits=0xC000, metadata=[1], md_length=1))
    assert struct.unpack_from(">H", ok, 16)[0] == 0xC000  # DSMdBits where v2.0 puts them
