"""Constructs real p4c accepts that p4sim-compile used to refuse (issue 10), beyond the
corpus programs 207-216: the edges of each fix, and the errors that stay located."""
from __future__ import annotations

from pathlib import Path

import pytest

from be_programs import compile_body, run, write_program
from p4sim.compiler.driver import compile_program
from p4sim.compiler.errors import CompileError


def test_field_list_index_no_field_carries_is_a_warning_and_an_empty_list(
        tmp_path: Path) -> None:
    """p4c warns and preserves nothing; the index still names a field list."""
    program = write_program(tmp_path, "        resubmit_preserving_field_list(8w7);")
    result = compile_program(str(program))
    assert [w.message for w in result.warnings] == [
        "no field is annotated @field_list(7): no metadata is preserved"]
    lists = {f["id"]: f["elements"] for f in result.bmv2_json["field_lists"]}
    assert lists == {7: []}


def test_field_list_index_must_be_a_constant(tmp_path: Path) -> None:
    program = tmp_path / "p.p4"
    text = write_program(tmp_path, "").read_text().replace(
        "struct metadata_t { bit<8> m;", 'struct metadata_t { @field_list("one") bit<8> m;')
    program.write_text(text)
    with pytest.raises(CompileError) as err:
        compile_program(str(program))
    assert err.value.message == ("a @field_list index must be an integer constant or a "
                                 "serializable enum member")
    assert (err.value.span.line, err.value.span.col) == (13, 33)


def test_named_arguments_cannot_be_mixed_with_positional_ones(tmp_path: Path) -> None:
    with pytest.raises(CompileError) as err:
        compile_body(tmp_path, "        r.write(1, value = hdr.h.a);",
                     locals_="    register<bit<8>>(4) r;")
    assert err.value.message == "cannot mix named and positional arguments"


def test_named_argument_with_an_unknown_name_is_located(tmp_path: Path) -> None:
    with pytest.raises(CompileError) as err:
        compile_body(tmp_path, "        c.count(idx = 32w1);",
                     locals_="    counter(32w4, CounterType.packets) c;")
    assert err.value.message == "'count' has no parameter named 'idx'"
    assert err.value.span.line > 0


def test_mark_to_drop_with_a_named_argument_picks_the_one_parameter_overload(
        tmp_path: Path) -> None:
    doc = compile_body(tmp_path, "        mark_to_drop(standard_metadata = std_meta);")
    ops = [p["op"] for a in doc["actions"] for p in a["primitives"]]
    assert "mark_to_drop" in ops


def test_digest_without_type_argument_needs_a_struct_typed_value(tmp_path: Path) -> None:
    with pytest.raises(CompileError) as err:
        compile_body(tmp_path, "        digest(1, hdr.h.a);")
    assert err.value.message.startswith("the digest type must be a struct or a header, not bit<8>")


def test_serializable_enum_converts_to_its_own_width_only(tmp_path: Path) -> None:
    enum = "enum bit<16> E { A = 0x1234 }"
    doc = compile_body(tmp_path, "        hdr.h.c = E.A;", globals_=enum)
    assigns = [p["parameters"][1] for a in doc["actions"] for p in a["primitives"]
               if p["op"] == "assign" and p["parameters"][0]["value"] == ["h", "c"]]
    assert assigns == [{"type": "hexstr", "value": "0x1234"}]
    with pytest.raises(CompileError) as err:
        compile_body(tmp_path, "        hdr.h.a = E.A;", globals_=enum)
    assert err.value.message == "type mismatch: expected bit<8>, got E"


def test_serializable_enum_compares_with_a_field_at_run_time(tmp_path: Path) -> None:
    result = run(tmp_path, "        if (hdr.h.c == E.A) { hdr.h.a = 1; }",
                 "packet 1 00 00 1234 0000\nexpect 2 01 00 1234 0000\n"
                 "packet 1 00 00 1235 0000\nexpect 2 00 00 1235 0000\n",
                 globals_="enum bit<16> E { A = 0x1234 }")
    assert result.passed, result.report


def test_control_instance_applied_in_two_branches_shares_its_table(tmp_path: Path) -> None:
    sub = """control Sub(inout headers_t hdr) {
    action set_b(bit<8> v) { hdr.h.b = v; }
    table t { key = { hdr.h.a : exact; } actions = { set_b; NoAction; } }
    apply { t.apply(); }
}"""
    doc = compile_body(tmp_path, "        if (hdr.h.c == 1) { hdr.h.d = 1; s.apply(hdr); }"
                       " else { s.apply(hdr); }", locals_="    Sub() s;", globals_=sub)
    names = [t["name"] for p in doc["pipelines"] for t in p["tables"]]
    assert names.count("IngressImpl.s.t") == 1


def test_min_size_of_a_header_type_is_a_global_constant(tmp_path: Path) -> None:
    doc = compile_body(tmp_path, "        hdr.h.c = SIZE;",
                       globals_="const bit<16> SIZE = h_t.minSizeInBytes();")
    assigns = [p["parameters"][1] for a in doc["actions"] for p in a["primitives"]
               if p["op"] == "assign" and p["parameters"][0]["value"] == ["h", "c"]]
    assert assigns == [{"type": "hexstr", "value": "0x0006"}]


def test_header_with_serializable_enum_field_counts_its_width(tmp_path: Path) -> None:
    """minSizeInBits counts enum fields (and so does the byte-alignment check)."""
    globals_ = "enum bit<8> K { X = 1 }\nheader k_t { K kind; bit<8> v; }"
    doc = compile_body(tmp_path, "        hdr.h.c = (bit<16>) k_t.minSizeInBits();",
                       globals_=globals_)
    assigns = [p["parameters"][1] for a in doc["actions"] for p in a["primitives"]
               if p["op"] == "assign" and p["parameters"][0]["value"] == ["h", "c"]]
    assert assigns == [{"type": "hexstr", "value": "0x0010"}]


def test_predefined_macros_yield_to_the_command_line(tmp_path: Path) -> None:
    program = tmp_path / "p.p4"
    text = write_program(tmp_path, "        hdr.h.a = TARGET;").read_text()
    program.write_text("#if __TARGET_BMV2__ == 1 && __p4c__\n#define TARGET 8w1\n#else\n"
                       "#define TARGET 8w2\n#endif\n" + text)
    doc = compile_program(str(program)).bmv2_json
    values = [p["parameters"][1]["value"] for a in doc["actions"] for p in a["primitives"]
              if p["op"] == "assign" and p["parameters"][0]["value"] == ["h", "a"]]
    assert values == ["0x01"]
    doc = compile_program(str(program), defines={"__TARGET_BMV2__": "0"}).bmv2_json
    values = [p["parameters"][1]["value"] for a in doc["actions"] for p in a["primitives"]
              if p["op"] == "assign" and p["parameters"][0]["value"] == ["h", "a"]]
    assert values == ["0x02"]


def _p4info(tmp_path: Path, body: str, locals_: str = "", globals_: str = ""):
    from google.protobuf import text_format
    from p4.config.v1 import p4info_pb2
    from p4sim.compiler.driver import write_outputs
    result = compile_program(str(write_program(tmp_path, body, locals_, globals_)))
    out = tmp_path / "p.p4info.txtpb"
    write_outputs(result, None, [str(out)])
    return text_format.Parse(out.read_text(), p4info_pb2.P4Info())


NAMED_TYPES = """
@p4runtime_translation("example.org/port", 32)
type bit<8> port_t;
@p4runtime_translation("example.org/name", string)
type bit<8> name_t;
type bit<16> tag_t;
enum bit<4> color_t { RED = 1, BLUE = 10 }
"""
NAMED_LOCALS = """
    action set(port_t p, name_t n, tag_t t, color_t c) { hdr.h.a = (bit<8>) p; }
    table tbl { key = { meta.m : exact; } actions = { set; } }
"""


def test_new_types_give_type_name_and_translated_width(tmp_path: Path) -> None:
    """p4c's rules (the type's own translation decides the width; type_info describes
    the type as translated or as its original bit<W>)."""
    info = _p4info(tmp_path, "        tbl.apply();", NAMED_LOCALS, NAMED_TYPES)
    (action,) = [a for a in info.actions if a.preamble.name == "IngressImpl.set"]
    view = [(p.name, p.bitwidth, p.type_name.name) for p in action.params]
    assert view == [("p", 32, "port_t"), ("n", 0, "name_t"), ("t", 16, "tag_t"),
                    ("c", 4, "")]
    new_types = info.type_info.new_types
    assert new_types["port_t"].translated_type.uri == "example.org/port"
    assert new_types["port_t"].translated_type.sdn_bitwidth == 32
    assert new_types["name_t"].translated_type.HasField("sdn_string")
    assert new_types["tag_t"].original_type.bitstring.bit.bitwidth == 16
    color = info.type_info.serializable_enums["color_t"]
    assert color.underlying_type.bitwidth == 4
    assert [(m.name, m.value) for m in color.members] == [("RED", b"\x01"), ("BLUE", b"\x0a")]


def test_a_cast_drops_the_type_name(tmp_path: Path) -> None:
    locals_ = """
    m_t v;
    table tbl { key = { (bit<8>) v : exact @name("cast"); v : exact @name("v"); }
                actions = { NoAction; } }
"""
    info = _p4info(tmp_path, "        v = (m_t) hdr.h.a;\n        tbl.apply();", locals_,
                   "type bit<8> m_t;")
    fields = [(f.name, f.type_name.name) for f in info.tables[0].match_fields]
    assert fields == [("cast", ""), ("v", "m_t")]
    assert list(info.type_info.new_types) == ["m_t"]


def test_digest_of_a_nested_struct_describes_both_structs(tmp_path: Path) -> None:
    globals_ = "struct in_t { bit<8> a; }\nstruct dg_t { in_t i; bit<9> port; }"
    info = _p4info(tmp_path, "        digest<dg_t>(1, {{hdr.h.a}, std_meta.ingress_port});",
                   globals_=globals_)
    outer = info.type_info.structs["dg_t"]
    assert [m.type_spec.struct.name for m in outer.members] == ["in_t", ""]
    assert info.type_info.structs["in_t"].members[0].type_spec.bitstring.bit.bitwidth == 8
