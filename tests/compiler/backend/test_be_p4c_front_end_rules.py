"""Rules of p4c's front end that show in its outputs, as recorded in
tests/real_toolchain/project: the implicit default action NoAction(), and the warnings
p4c gives (p4sim gives them in its own words, at a location, and still compiles)."""
from __future__ import annotations

from pathlib import Path

from p4sim.compiler.driver import compile_program
from p4sim.compiler.p4info import build_p4info

from be_programs import HEAD, TAIL


def compile_ingress(tmp_path: Path, body: str, functions: str = ""):
    source = tmp_path / "prog.p4"
    source.write_text(HEAD + functions + "control I(inout headers_t h, inout meta_t m, "
                      "inout standard_metadata_t s) {\n" + body + "\n}\n" + TAIL)
    return compile_program(str(source))


def tables_by_name(result) -> dict:
    return {t["name"]: t for p in result.bmv2_json["pipelines"] for t in p["tables"]}


def action_names(result) -> dict:
    return {a["id"]: a["name"] for a in result.bmv2_json["actions"]}


TABLES = """
    action set(bit<8> v) { h.h.a = v; }
    action_selector(HashAlgorithm.crc16, 32w64, 32w8) sel;
    table no_default { key = { h.h.a: exact; } actions = { set; } }
    table listed { key = { h.h.a: exact; } actions = { set; NoAction; } }
    table written { key = { h.h.a: exact; } actions = { set; } default_action = set(1); }
    table grouped {
        key = { h.h.a: exact; h.h.b: selector; }
        actions = { set; }
        implementation = sel;
    }
    apply { no_default.apply(); listed.apply(); written.apply(); grouped.apply(); }
"""


def test_a_table_without_default_action_defaults_to_no_action(tmp_path: Path) -> None:
    result = compile_ingress(tmp_path, TABLES)
    tables, names = tables_by_name(result), action_names(result)
    for name in ("I.no_default", "I.listed"):
        t = tables[name]
        assert t["actions"] == ["I.set", "NoAction"]
        assert set(t["next_tables"]) == {"I.set", "NoAction"}
        entry = t["default_entry"]
        assert names[entry["action_id"]] == "NoAction"
        assert entry["action_const"] is False and entry["action_entry_const"] is False
    assert tables["I.written"]["actions"] == ["I.set"]
    # an action selector table gets NoAction too, but BMv2 JSON has no default entry
    assert tables["I.grouped"]["actions"] == ["I.set", "NoAction"]
    assert "default_entry" not in tables["I.grouped"]


def test_p4info_lists_the_implicit_no_action_as_default_only(tmp_path: Path) -> None:
    info = build_p4info(compile_ingress(tmp_path, TABLES).control_plane)
    ids = {a.preamble.id: a.preamble.name for a in info.actions}
    refs = {t.preamble.name: [(ids[r.id], r.scope, list(r.annotations)) for r in t.action_refs]
            for t in info.tables}
    default_only = ("NoAction", 2, ["@defaultonly"])  # scope DEFAULT_ONLY
    assert refs["I.no_default"] == [("I.set", 0, []), default_only]
    assert refs["I.listed"] == [("I.set", 0, []), ("NoAction", 0, [])]  # already listed
    assert refs["I.written"] == [("I.set", 0, [])]
    assert refs["I.grouped"] == [("I.set", 0, []), default_only]
    assert all(not t.const_default_action_id for t in info.tables)


def test_an_action_profile_table_warns_that_its_default_is_dropped(tmp_path: Path) -> None:
    result = compile_ingress(tmp_path, TABLES)
    messages = [w.message for w in result.warnings]
    # p4c's words, as recorded for corpus 040
    assert messages == ["Target does not support default_action for I.grouped (due to action "
                        "profiles)"]
    assert result.warnings[0].span.line > 0


def test_an_action_called_from_the_apply_block_has_no_p4info_params(tmp_path: Path) -> None:
    result = compile_ingress(tmp_path, """
    action to_port(inout standard_metadata_t sm, bit<9> port) { sm.egress_spec = port; }
    action add(inout bit<8> x, bit<8> amount) { x = x + amount; }
    table t { key = { h.h.a: exact; } actions = { add(h.h.a); } }
    apply { to_port(s, 2); add(h.h.a, 1); t.apply(); }
    """)
    info = build_p4info(result.control_plane)
    params = {a.preamble.name: [p.name for p in a.params] for a in info.actions}
    assert params["I.to_port"] == []
    assert params["I.add"] == ["amount"]  # the table's view


def test_an_early_return_warns_twice_per_inlined_call(tmp_path: Path) -> None:
    functions = """
bit<8> max8(in bit<8> x, in bit<8> y) { if (x > y) { return x; } return y; }
bit<8> pick(in bit<8> x, in bit<8> y) { if (x > y) { return x; } else { return y; } }
bit<8> max3(in bit<8> x, in bit<8> y, in bit<8> z) { return max8(max8(x, y), z); }
"""
    result = compile_ingress(tmp_path, """
    apply { h.h.a = max3(h.h.a, 1, 2); h.h.a = pick(h.h.a, 3); }
    """, functions)
    messages = [w.message for w in result.warnings]
    assert len(messages) == 4  # two copies of max8, two reports each, as p4c
    assert all("'max8'" in m and "uninitialized" in m for m in messages)


def test_entries_out_of_priority_order_warn(tmp_path: Path) -> None:
    result = compile_ingress(tmp_path, """
    action set(bit<8> v) { h.h.a = v; }
    table t {
        key = { h.h.b: ternary; }
        actions = { set; }
        entries = {
            priority = 10: 0x1200 &&& 0xff00: set(1);
            priority = 30: 0x1234 &&& 0xffff: set(2);
            priority = 20: 0x0000 &&& 0x0000: set(3);
                           0x0001 &&& 0xffff: set(4);
        }
    }
    table reversed {
        key = { h.h.b: ternary; }
        actions = { set; }
        largest_priority_wins = false;
        entries = {
            priority = 1: 0x1200 &&& 0xff00: set(1);
            priority = 1: 0x1234 &&& 0xffff: set(2);
        }
    }
    apply { t.apply(); reversed.apply(); }
    """)
    messages = [w.message for w in result.warnings]
    # 10 before 30 (largest wins); the unwritten last one is 20 - 1 = 19: in order; in
    # `reversed` two entries share priority 1 (and none is out of order)
    assert len(messages) == 2, messages
    assert "out of priority order" in messages[0] and "10" in messages[0]
    assert "same priority 1" in messages[1]
