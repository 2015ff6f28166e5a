"""multipath.p4: const ternary/range entries, meters, registers, indirect counters,
the hash extern and an action selector, checked against independent computations."""
from __future__ import annotations

from p4sim.switch.runtime_api import ExactParam, LpmParam, MeterConfig
from .helpers import load_reference


def crc16_arc_bitwise(data: bytes) -> int:
    """CRC-16/ARC, bit by bit (an independent check of the table-driven code)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def udp_packet(src: int, dst: int, sport: int, dport: int, dscp: int = 0) -> bytes:
    ip = bytes([0x45, dscp, 0, 28, 0, 1, 0, 0, 64, 17, 0, 0]) + src.to_bytes(4, "big") + \
        dst.to_bytes(4, "big")
    udp = sport.to_bytes(2, "big") + dport.to_bytes(2, "big") + bytes([0, 8, 0, 0])
    return bytes(6) + bytes(5) + b"\x01" + b"\x08\x00" + ip + udp


def _setup(clock=None):
    program = load_reference("multipath", clock=clock or FakeClock())
    rt = program.runtime
    rt.tables["IngressImpl.route"].add_entry([LpmParam(0x0A000000, 8)], "IngressImpl.to_group", [5])
    prof = rt.action_profiles["IngressImpl.spray_selector"]
    members = [prof.add_member("IngressImpl.set_member", [port, 10 + port]) for port in (1, 2, 3)]
    group = prof.create_group()
    prof.set_group_members(group, {m: 1 for m in members})
    rt.tables["IngressImpl.members"].add_indirect_entry([ExactParam(0x0A000001)], group=group)
    return program, members


def test_selector_picks_member_from_hash_of_selector_fields() -> None:
    program, _ = _setup()
    data = udp_packet(0xC0A80001, 0x0A000001, 1234, 80)
    flow = crc16_arc_bitwise(bytes.fromhex("C0A80001" "0A000001" "11" "04D2" "0050")) % 0xFFFF
    seen = []
    for seq in range(12):
        pkt = program.new_packet(data, 7)
        program.parse(pkt)
        program.ingress(pkt)
        assert pkt.get_field("scalars", "metadata_t.flow_hash") == flow
        assert pkt.get_field("scalars", "metadata_t.seq") == seq
        selector_input = flow.to_bytes(2, "big") + seq.to_bytes(4, "big")
        expected_port = (1, 2, 3)[crc16_arc_bitwise(selector_input) % 3]
        assert pkt.get_std("egress_spec") == expected_port
        seen.append(expected_port)
    assert program.runtime.registers["IngressImpl.group_seq"].read(5) == 12
    counters = program.runtime.counters["IngressImpl.member_pkts"]
    assert sum(counters.read(10 + port)[1] for port in (1, 2, 3)) == 12
    assert counters.read(10 + seen[0])[0] >= len(data)


def test_weights_repeat_members_in_slots() -> None:
    program, members = _setup()
    prof = program.runtime.action_profiles["IngressImpl.spray_selector"]
    group = prof.groups()[0].handle
    prof.set_group_members(group, {members[0]: 1, members[2]: 3})
    data = udp_packet(0xC0A80001, 0x0A000001, 1234, 80)
    flow = crc16_arc_bitwise(bytes.fromhex("C0A80001" "0A000001" "11" "04D2" "0050")) % 0xFFFF
    for seq in range(8):
        pkt = program.new_packet(data, 7)
        program.parse(pkt)
        program.ingress(pkt)
        slot = crc16_arc_bitwise(flow.to_bytes(2, "big") + seq.to_bytes(4, "big")) % 4
        assert pkt.get_std("egress_spec") == (1, 3, 3, 3)[slot]


def test_const_classifier_entries_and_meter_colours() -> None:
    clock = FakeClock()
    program, _ = _setup(clock)
    classifier = program.runtime.tables["IngressImpl.classifier"]
    assert classifier.is_const and len(classifier.entries()) == 2
    meters = program.runtime.meters["IngressImpl.class_meter"]
    meters.set_config(1, MeterConfig(cir=1, cburst=1, pir=2, pburst=2))
    data = udp_packet(0xC0A80001, 0x0A000001, 1234, 4791)  # class 1 (range 4790..4799)
    colours = []
    for _ in range(3):
        pkt = program.new_packet(data, 7)
        program.parse(pkt)
        program.ingress(pkt)
        assert pkt.get_field("scalars", "metadata_t.klass") == 1
        colours.append(pkt.get_field("scalars", "metadata_t.color"))
    assert colours == [0, 1, 2]   # green, yellow (peak left), red
    assert pkt.get_std("egress_spec") == 511
    clock.now += 1.0              # one second refills one committed token
    pkt = program.new_packet(data, 7)
    program.parse(pkt)
    program.ingress(pkt)
    assert pkt.get_field("scalars", "metadata_t.color") == 0
    # outside the range: class 0, meter 0 unconfigured -> green
    pkt = program.new_packet(udp_packet(0xC0A80001, 0x0A000001, 1234, 80), 7)
    program.parse(pkt)
    program.ingress(pkt)
    assert pkt.get_field("scalars", "metadata_t.klass") == 0
    assert pkt.get_field("scalars", "metadata_t.color") == 0


def test_non_ipv4_is_dropped_by_exit_path() -> None:
    program, _ = _setup()
    pkt = program.new_packet(bytes(12) + b"\x86\xdd" + bytes(40), 1)
    program.parse(pkt)
    program.ingress(pkt)
    assert pkt.get_std("egress_spec") == 511
    assert pkt.arch.exit_called


def test_register_index_out_of_range_is_a_drop_error() -> None:
    program, _ = _setup()
    route = program.runtime.tables["IngressImpl.route"]
    route.modify_entry(route.entries()[0].handle, "IngressImpl.to_group", [64])
    pkt = program.new_packet(udp_packet(0xC0A80001, 0x0A000001, 1, 2), 7)
    program.parse(pkt)
    program.ingress(pkt)
    assert len(pkt.arch.drop_errors) == 1
    assert "group_seq" in pkt.arch.drop_errors[0]
    assert pkt.get_std("egress_spec") == 511
