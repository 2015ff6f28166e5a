"""Random and malformed frames never raise out of any stage, and control-plane
writes from another thread do not disturb packets in flight."""
from __future__ import annotations

import random
import threading

import pytest

from p4sim.switch.runtime_api import ExactParam, LpmParam
from .helpers import install_stf_entries, load_reference, read_stf


def _all_stages(program, data: bytes, port: int):
    pkt = program.new_packet(data, port)
    program.parse(pkt)
    program.verify_checksums(pkt)
    program.ingress(pkt)
    pkt.set_std("egress_port", pkt.get_std("egress_spec"))
    program.egress(pkt)
    program.update_checksums(pkt)
    return pkt, program.deparse(pkt)


@pytest.mark.parametrize("name", ["l3_lpm", "multipath", "replication", "stack_and_queues"])
def test_random_frames(name: str) -> None:
    program = load_reference(name, rng=random.Random(3))
    if name in ("l3_lpm", "stack_and_queues"):
        install_stf_entries(program, read_stf(name))
    rng = random.Random(name)
    prefixes = [b"", bytes(12) + b"\x08\x00", bytes(12) + b"\x88\xb5",
                bytes(12) + b"\x08\x00\x45\x00\x00\x1c\x00\x01\x00\x00\x40\x11"]
    for _ in range(400):
        body = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 80)))
        data = rng.choice(prefixes) + body
        pkt, out = _all_stages(program, data, rng.choice((1, 2, 255)))
        assert pkt.arch.drop_errors == []
        assert isinstance(out, bytes)
        # a frame that was not changed by the pipeline comes back out unchanged in length
        assert len(out) >= len(pkt.payload)


def test_table_writes_during_traffic() -> None:
    program = load_reference("l3_lpm")
    table = program.runtime.tables["IngressImpl.ipv4_lpm"]
    table.add_entry([LpmParam(0x0A000000, 8)], "IngressImpl.forward", [2, 1, 1])
    data = bytes.fromhex("000000000001000000000002080045000024000100004011AD12C0A8010A0A010203"
                         "04D2005000106FA57061796C6F616421")
    stop = threading.Event()
    errors: list[BaseException] = []

    def churn() -> None:
        try:
            i = 0
            while not stop.is_set():
                handle = table.add_entry([LpmParam(0x0A010000 + (i % 200 << 8), 24)],
                                         "IngressImpl.forward", [3, 0, 0])
                table.delete_entry(handle)
                i += 1
        except BaseException as exc:  # noqa: BLE001 - reported to the main thread
            errors.append(exc)

    writer = threading.Thread(target=churn)
    writer.start()
    try:
        ports = set()
        for _ in range(3000):
            pkt, _ = _all_stages(program, data, 1)
            assert pkt.arch.drop_errors == []
            ports.add(pkt.get_std("egress_spec"))
    finally:
        stop.set()
        writer.join(timeout=10)
    assert not writer.is_alive()
    assert errors == []
    assert ports <= {2, 3} and 2 in ports


def test_exact_table_lookup_by_concatenated_key() -> None:
    program = load_reference("replication")
    l2 = program.runtime.tables["IngressImpl.l2"]
    l2.add_entry([ExactParam(0x0000000000AA)], "IngressImpl.unicast", [7])
    pkt, _ = _all_stages(program, bytes.fromhex("0000000000AA" "000000000002" "0800") + bytes(4), 1)
    assert pkt.get_std("egress_spec") == 7
