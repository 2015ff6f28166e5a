"""The runtime API of tables, action profiles and externs: every failure raises
TableError with the right code and leaves the state unchanged."""
from __future__ import annotations

import pytest

from p4sim.switch.runtime_api import (
    ExactParam, LpmParam, MeterConfig, OptionalParam, RangeParam, TableError, TableErrorCode,
    TernaryParam)
from .helpers import load_reference, run_unicast

C = TableErrorCode


def _code(fn, *args, **kwargs) -> TableErrorCode:
    with pytest.raises(TableError) as info:
        fn(*args, **kwargs)
    return info.value.code


@pytest.fixture
def lpm():
    return load_reference("l3_lpm").runtime.tables["IngressImpl.ipv4_lpm"]


def test_key_spec_and_metadata(lpm) -> None:
    assert lpm.key_spec == [("dst_addr", "lpm", 32)]
    assert lpm.action_names == ["IngressImpl.forward", "IngressImpl.drop"]
    assert lpm.size == 1024 and lpm.has_direct_counter and not lpm.has_direct_meter
    assert lpm.get_default_action() == ("IngressImpl.drop", [])


def test_add_find_modify_delete(lpm) -> None:
    h = lpm.add_entry([LpmParam(0x0A000000, 8)], "IngressImpl.forward", [1, 2, 3])
    assert lpm.find_entry([LpmParam(0x0A000000, 8)]) == h
    assert lpm.find_entry([LpmParam(0x0A000000, 16)]) is None
    lpm.modify_entry(h, "IngressImpl.drop", [])
    view = lpm.get_entry(h)
    assert (view.action, view.args, view.keys) == ("IngressImpl.drop", [], [LpmParam(0x0A000000, 8)])
    lpm.delete_entry(h)
    assert lpm.entries() == []
    assert _code(lpm.delete_entry, h) == C.INVALID_HANDLE


def test_errors_change_nothing(lpm) -> None:
    h = lpm.add_entry([LpmParam(0x0A000000, 8)], "IngressImpl.forward", [1, 2, 3])
    assert _code(lpm.add_entry, [LpmParam(0x0A000000, 8)], "IngressImpl.drop", []) \
        == C.DUPLICATE_ENTRY
    assert _code(lpm.add_entry, [LpmParam(0x0B000000, 33)], "IngressImpl.drop", []) \
        == C.BAD_MATCH_KEY
    assert _code(lpm.add_entry, [ExactParam(1)], "IngressImpl.drop", []) == C.BAD_MATCH_KEY
    assert _code(lpm.add_entry, [LpmParam(1 << 32, 8)], "IngressImpl.drop", []) \
        == C.BAD_MATCH_KEY
    assert _code(lpm.add_entry, [], "IngressImpl.drop", []) == C.BAD_MATCH_KEY
    assert _code(lpm.add_entry, [LpmParam(0x0B000000, 8)], "IngressImpl.nope", []) \
        == C.INVALID_ACTION_NAME
    assert _code(lpm.add_entry, [LpmParam(0x0B000000, 8)], "IngressImpl.forward", [1, 2]) \
        == C.BAD_ACTION_DATA
    assert _code(lpm.add_entry, [LpmParam(0x0B000000, 8)], "IngressImpl.forward",
                 [512, 0, 0]) == C.BAD_ACTION_DATA
    assert _code(lpm.modify_entry, h, "IngressImpl.forward", [1]) == C.BAD_ACTION_DATA
    assert _code(lpm.modify_entry, 999, "IngressImpl.drop", []) == C.INVALID_HANDLE
    assert _code(lpm.set_default_action, "IngressImpl.forward", [1 << 9, 0, 0]) \
        == C.BAD_ACTION_DATA
    assert _code(lpm.set_direct_meter_config, h, MeterConfig(1, 1, 1, 1)) == C.METERS_DISABLED
    assert _code(lpm.set_entry_ttl, h, 100) == C.AGEING_DISABLED
    assert _code(lpm.add_indirect_entry, [LpmParam(0, 0)], member=0) == C.WRONG_TABLE_TYPE
    assert [e.handle for e in lpm.entries()] == [h]
    assert lpm.get_entry(h).args == [1, 2, 3]
    assert lpm.get_default_action() == ("IngressImpl.drop", [])


def test_table_full() -> None:
    table = load_reference("stack_and_queues").runtime.tables["IngressImpl.fwd"]
    table.size = 2
    table.add_entry([ExactParam(1)], "IngressImpl.forward", [2])
    table.add_entry([ExactParam(2)], "IngressImpl.forward", [2])
    assert _code(table.add_entry, [ExactParam(3)], "IngressImpl.forward", [2]) == C.TABLE_FULL
    assert len(table.entries()) == 2


def test_longest_prefix_wins_and_default_action_changes() -> None:
    program = load_reference("l3_lpm")
    lpm = program.runtime.tables["IngressImpl.ipv4_lpm"]
    lpm.add_entry([LpmParam(0x0A000000, 8)], "IngressImpl.forward", [1, 0, 0])
    lpm.add_entry([LpmParam(0x0A010000, 16)], "IngressImpl.forward", [2, 0, 0])
    lpm.add_entry([LpmParam(0, 0)], "IngressImpl.forward", [3, 0, 0])
    packet = bytes.fromhex("00000000000100000000000208004500001C000100004011A614C0A8010A"
                           "0A010909" "0001000200082B1F")
    assert run_unicast(program, 1, packet)[0] == 2
    lpm.delete_entry(lpm.find_entry([LpmParam(0x0A010000, 16)]))
    assert run_unicast(program, 1, packet)[0] == 1
    lpm.clear()
    assert run_unicast(program, 1, packet)[0] is None   # default: drop
    lpm.set_default_action("IngressImpl.forward", [5, 0, 0])
    assert run_unicast(program, 1, packet)[0] == 5
    lpm.reset_default_action()
    assert lpm.get_default_action() == ("IngressImpl.drop", [])


def test_direct_counter_read_write(lpm) -> None:
    h = lpm.add_entry([LpmParam(0x0A000000, 8)], "IngressImpl.forward", [1, 2, 3])
    assert lpm.read_direct_counter(h) == (0, 0)
    lpm.write_direct_counter(h, 100, 2)
    assert lpm.read_direct_counter(h) == (100, 2)
    assert _code(lpm.read_direct_counter, 77) == C.INVALID_HANDLE


def test_const_table_and_const_default() -> None:
    rt = load_reference("multipath").runtime
    classifier = rt.tables["IngressImpl.classifier"]
    assert classifier.is_const
    h = classifier.entries()[0].handle
    assert _code(classifier.add_entry, [TernaryParam(0, 0), RangeParam(0, 1), TernaryParam(0, 0)],
                 "NoAction", [], 5) == C.IMMUTABLE_TABLE_ENTRY
    assert _code(classifier.delete_entry, h) == C.IMMUTABLE_TABLE_ENTRY
    assert _code(classifier.modify_entry, h, "NoAction", []) == C.IMMUTABLE_TABLE_ENTRY
    assert _code(classifier.set_default_action, "IngressImpl.classify", [1]) \
        == C.DEFAULT_ENTRY_IS_CONST
    assert len(classifier.entries()) == 2


def test_ternary_priority_smaller_value_wins() -> None:
    rt = load_reference("multipath").runtime
    classifier = rt.tables["IngressImpl.classifier"]
    classifier.is_const = False   # pretend the entries are not const, to test ordering
    classifier.clear()
    keys_any = [TernaryParam(0, 0), RangeParam(0, 0xFFFF), OptionalParam(None)]
    keys_udp = [TernaryParam(0, 0), RangeParam(0, 0xFFFF), OptionalParam(17)]
    classifier.add_entry(keys_any, "IngressImpl.classify", [7], priority=10)
    classifier.add_entry(keys_udp, "IngressImpl.classify", [9], priority=20)
    key = classifier.keys
    packet_key = (0 << key[0].shift) | (80 << key[1].shift) | (17 << key[2].shift)
    assert classifier.lookup(packet_key).args == (7,)
    assert classifier.find_entry(keys_udp, 20) is not None
    assert classifier.find_entry(keys_udp, 21) is None
    assert _code(classifier.add_entry, [TernaryParam(0, 0), RangeParam(9, 3), OptionalParam(1)],
                 "NoAction", [], 1) == C.BAD_MATCH_KEY


def test_action_profile_errors() -> None:
    rt = load_reference("multipath").runtime
    prof = rt.action_profiles["IngressImpl.spray_selector"]
    members = rt.tables["IngressImpl.members"]
    m = prof.add_member("IngressImpl.set_member", [1, 2])
    assert _code(prof.add_member, "IngressImpl.classify", [1]) == C.INVALID_ACTION_NAME
    assert _code(prof.add_member, "IngressImpl.set_member", [1]) == C.BAD_ACTION_DATA
    g = prof.create_group()
    assert _code(prof.set_group_members, g, {m: 0}) == C.ERROR
    assert _code(prof.set_group_members, g, {42: 1}) == C.INVALID_MBR_HANDLE
    prof.set_group_members(g, {m: 2})
    assert _code(prof.delete_member, m) == C.MBR_STILL_USED
    h = members.add_indirect_entry([ExactParam(1)], group=g)
    assert _code(prof.delete_group, g) == C.GRP_STILL_USED
    assert _code(members.add_indirect_entry, [ExactParam(2)], group=99) == C.INVALID_GRP_HANDLE
    assert _code(members.add_indirect_entry, [ExactParam(2)], member=99) == C.INVALID_MBR_HANDLE
    assert _code(members.add_entry, [ExactParam(2)], "NoAction", []) == C.WRONG_TABLE_TYPE
    members.delete_entry(h)
    prof.delete_group(g)
    prof.delete_member(m)
    assert prof.members() == [] and prof.groups() == []


def test_counter_register_meter_value_set_api() -> None:
    rt = load_reference("multipath").runtime
    counter = rt.counters["IngressImpl.member_pkts"]
    counter.write(3, 100, 1)
    assert counter.read(3) == (100, 1)
    assert _code(counter.read, 64) == C.INVALID_INDEX
    counter.reset()
    assert counter.read(3) == (0, 0)
    reg = rt.registers["IngressImpl.group_seq"]
    assert (reg.size, reg.bitwidth) == (64, 32)
    reg.write(1, 0xFFFFFFFF)
    assert reg.read(1) == 0xFFFFFFFF
    assert _code(reg.write, 1, 1 << 32) == C.ERROR
    assert _code(reg.read, -1) == C.INVALID_INDEX
    meter = rt.meters["IngressImpl.class_meter"]
    meter.set_config(2, MeterConfig(10, 5, 20, 10))
    assert meter.get_config(2) == MeterConfig(10, 5, 20, 10)
    assert _code(meter.set_config, 2, MeterConfig(20, 5, 10, 10)) == C.INVALID_METER_OPERATION
    assert _code(meter.get_config, 16) == C.INVALID_INDEX
    vset = load_reference("stack_and_queues").runtime.value_sets["ParserImpl.probe_types"]
    vset.add(0x1234, 0xFFFF)
    assert _code(vset.add, 0x1234, 0xFFFF) == C.DUPLICATE_ENTRY
    assert _code(vset.add, 0x10000, 0xFFFF) == C.BAD_MATCH_KEY
    vset.remove(0x1234, 0xFFFF)
    assert vset.entries() == []


def test_handles_reuse_the_lowest_free_one_like_bmv2() -> None:
    rt = load_reference("multipath").runtime
    prof = rt.action_profiles["IngressImpl.spray_selector"]
    m = [prof.add_member("IngressImpl.set_member", [port, 0]) for port in (1, 2, 3)]
    assert m == [0, 1, 2]
    prof.delete_member(1)
    assert prof.add_member("IngressImpl.set_member", [4, 0]) == 1
    route = rt.tables["IngressImpl.route"]
    handles = [route.add_entry([LpmParam(i << 24, 8)], "IngressImpl.drop", []) for i in range(3)]
    route.delete_entry(handles[0])
    assert route.add_entry([LpmParam(9 << 24, 8)], "IngressImpl.drop", []) == handles[0]
