"""__HIT__/__MISS__ branching, direct meters, idle timeout and checksums with
headers and payload, on small synthetic programs and the reference ones."""
from __future__ import annotations

from p4sim.switch.hashes import csum16
from p4sim.switch.program import Program
from p4sim.switch.runtime_api import ExactParam, MeterConfig
from .helpers import load_reference, run_unicast
from .synth import assign, document, field, hexstr, keyless_table

H_TYPE = {"name": "h_t", "id": 2, "fields": [["k", 8, False], ["csum", 16, False],
                                             ["v", 8, False]]}
HEADERS = [{"name": "h", "id": 2, "header_type": "h_t", "metadata": False}]
PARSE_H = [{"name": "start", "id": 0, "transition_key": [],
            "parser_ops": [{"op": "extract", "parameters": [{"type": "regular", "value": "h"}]}],
            "transitions": [{"type": "default", "value": None, "mask": None,
                             "next_state": None}]}]


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def _action(aid: int, name: str, prims: list, runtime_data: list | None = None) -> dict:
    return {"name": name, "id": aid, "runtime_data": runtime_data or [], "primitives": prims}


def keyed_table(next_tables: dict, **extra) -> dict:
    table = {
        "name": "t", "id": 0, "key": [{"match_type": "exact", "name": "h.k",
                                       "target": ["h", "k"], "mask": None}],
        "match_type": "exact", "type": "simple", "max_size": 16, "with_counters": False,
        "support_timeout": False, "direct_meters": None, "action_ids": [0, 1],
        "actions": ["hit_act", "NoAction"], "base_default_next": None,
        "next_tables": next_tables,
    }
    table.update(extra)
    return table


def hit_miss_program(**table_extra) -> Program:
    actions = [
        _action(0, "hit_act", []), _action(1, "NoAction", []),
        _action(2, "on_hit", [assign(field("scalars", "res"), hexstr(1))]),
        _action(3, "on_miss", [assign(field("scalars", "res"), hexstr(2))]),
    ]
    tables = [keyed_table({"__HIT__": "tbl_hit", "__MISS__": "tbl_miss"}, **table_extra),
              keyless_table("tbl_hit", 2, "on_hit", table_id=1),
              keyless_table("tbl_miss", 3, "on_miss", table_id=2)]
    doc = document(meta_fields=[["res", 8, False], ["color", 8, False]], header_types=[H_TYPE],
                   headers=HEADERS, parse_states=PARSE_H, deparse_order=["h"], actions=actions,
                   tables=tables, ingress_init="t",
                   meter_arrays=[{"name": "dm", "id": 0, "is_direct": True, "binding": "t",
                                  "rate_count": 2, "type": "packets",
                                  "result_target": ["scalars", "color"]}])
    return Program.load(doc, clock=CLOCK)


CLOCK = FakeClock()


def _res(program: Program, k: int) -> tuple[int, int]:
    pkt = program.new_packet(bytes([k, 0, 0, 9]), 0)
    program.parse(pkt)
    program.ingress(pkt)
    assert pkt.arch.drop_errors == []
    return pkt.get_field("scalars", "res"), pkt.get_field("scalars", "color")


def test_hit_and_miss_branches() -> None:
    program = hit_miss_program()
    table = program.runtime.tables["t"]
    table.add_entry([ExactParam(5)], "NoAction", [])
    assert _res(program, 5)[0] == 1
    assert _res(program, 6)[0] == 2
    table.set_default_action("hit_act", [])   # a default action is still a miss
    assert _res(program, 6)[0] == 2


def test_direct_meter_colours_into_result_target() -> None:
    program = hit_miss_program(direct_meters="dm")
    table = program.runtime.tables["t"]
    assert table.has_direct_meter
    h = table.add_entry([ExactParam(5)], "NoAction", [])
    assert _res(program, 5)[1] == 0                      # unconfigured: green
    table.set_direct_meter_config(h, MeterConfig(cir=1, cburst=1, pir=1, pburst=2))
    assert table.get_direct_meter_config(h) == MeterConfig(1, 1, 1, 2)
    assert [_res(program, 5)[1] for _ in range(3)] == [0, 1, 2]


def test_idle_timeout() -> None:
    program = hit_miss_program(support_timeout=True)
    table = program.runtime.tables["t"]
    h1 = table.add_entry([ExactParam(1)], "NoAction", [])
    h2 = table.add_entry([ExactParam(2)], "NoAction", [])
    table.set_entry_ttl(h1, 1000)
    table.set_entry_ttl(h2, 1000)
    CLOCK.now += 0.6
    _res(program, 1)                 # refreshes entry 1
    CLOCK.now += 0.6
    assert table.idle_entries() == [h2]
    assert table.get_entry(h1).ttl_ms == 1000


def test_update_checksum_over_header_and_payload() -> None:
    calc = {"name": "calc", "id": 0, "algo": "csum16", "input": [
        {"type": "field", "value": ["h", "k"]},
        {"type": "hexstr", "value": "0x0102", "bitwidth": 16},
        {"type": "field", "value": ["h", "v"]},
        {"type": "payload"}]}
    check = {"name": "ck", "id": 0, "target": ["h", "csum"], "type": "generic",
             "calculation": "calc", "verify": True, "update": True, "if_cond": None}
    doc = document(header_types=[H_TYPE], headers=HEADERS, parse_states=PARSE_H,
                   deparse_order=["h"], calculations=[calc], checksums=[check])
    program = Program.load(doc)
    data = bytes([0x11, 0, 0, 0x22]) + b"payload"
    pkt = program.new_packet(data, 0)
    program.parse(pkt)
    program.verify_checksums(pkt)
    assert pkt.get_std("checksum_error") == 1
    program.update_checksums(pkt)
    out = program.deparse(pkt)
    expected = csum16(bytes([0x11, 0x01, 0x02, 0x22]) + b"payload")
    assert out[1:3] == expected.to_bytes(2, "big")
    again = program.new_packet(out, 0)
    program.parse(again)
    program.verify_checksums(again)
    assert again.get_std("checksum_error") == 0


def test_l3_lpm_verify_checksum_flags_a_corrupted_header() -> None:
    program = load_reference("l3_lpm")
    good = bytes.fromhex("000000000001000000000002080045000024000100004011AD12C0A8010A0A010203"
                         "04D2005000106FA57061796C6F616421")
    bad = good[:24] + b"\x00\x00" + good[26:]
    for data, flag in ((good, 0), (bad, 1)):
        pkt = program.new_packet(data, 1)
        program.parse(pkt)
        program.verify_checksums(pkt)
        assert pkt.get_std("checksum_error") == flag


def test_garbage_and_oversized_frames_do_not_raise() -> None:
    program = load_reference("l3_lpm")
    for data in (b"", b"\x00", bytes(13), bytes(14) + b"\x08\x00"[:0], b"\xff" * 9000,
                 bytes.fromhex("0000000000010000000000020800") + b"\x45"):
        port, _, pkt = run_unicast(program, 1, data)
        assert port is None
        assert pkt.arch.drop_errors == []


def test_field_alias_exposes_intrinsic_field_to_get_std() -> None:
    doc = document(meta_fields=[["my_grp", 16, False]],
                   field_aliases=[["intrinsic_metadata.lag_index", ["scalars", "my_grp"]]])
    program = Program.load(doc)
    pkt = program.new_packet(b"", 0)
    pkt.set_std("lag_index", 0x12345)
    assert pkt.get_field("scalars", "my_grp") == 0x2345
    assert pkt.get_std("lag_index") == 0x2345


def test_key_fields_of_an_invalid_header_read_as_zero() -> None:
    actions = [
        _action(0, "hit_act", []), _action(1, "NoAction", []),
        _action(2, "on_hit", [assign(field("scalars", "res"), hexstr(1))]),
        _action(3, "on_miss", [assign(field("scalars", "res"), hexstr(2))]),
        _action(4, "strip", [{"op": "remove_header",
                              "parameters": [{"type": "header", "value": "h"}]}]),
    ]
    tables = [keyless_table("tbl_strip", 4, "strip", next_node="t", table_id=3),
              keyed_table({"__HIT__": "tbl_hit", "__MISS__": "tbl_miss"}),
              keyless_table("tbl_hit", 2, "on_hit", table_id=1),
              keyless_table("tbl_miss", 3, "on_miss", table_id=2)]
    doc = document(meta_fields=[["res", 8, False]], header_types=[H_TYPE], headers=HEADERS,
                   parse_states=PARSE_H, deparse_order=["h"], actions=actions, tables=tables,
                   ingress_init="tbl_strip")
    program = Program.load(doc)
    program.runtime.tables["t"].add_entry([ExactParam(0)], "NoAction", [])
    pkt = program.new_packet(bytes([5, 0, 0, 9]), 0)
    program.parse(pkt)
    program.ingress(pkt)
    assert pkt.get_field("h", "k") == 5          # the stale value is still stored...
    assert pkt.get_field("scalars", "res") == 1  # ...but the key saw 0 and hit
