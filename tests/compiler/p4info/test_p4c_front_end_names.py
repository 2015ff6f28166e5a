"""P4Info details p4c's front end and P4Runtime generator decide, found by compiling public
programs against their committed p4c output (issue 10): how a key without @name is
named, what a controller header's fields carry, pkg_info from @pkginfo, and the
deprecated-feature warning. Each program here is our own, a few lines per rule."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler.driver import compile_program
from p4sim.compiler.errors import CompileError
from p4sim.compiler.p4info import build_p4info

FRAME = """
#include <core.p4>
#include <v1model.p4>
{types}
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) {{
    state start {{ p.extract(h.e); transition accept; }}
}}
control V(inout H h, inout M m) {{ apply {{ }} }}
control I(inout H h, inout M m, inout standard_metadata_t s) {{
    {ingress}
}}
control E(inout H h, inout M m, inout standard_metadata_t s) {{ apply {{ }} }}
control C(inout H h, inout M m) {{ apply {{ }} }}
control D(packet_out p, in H h) {{ apply {{ p.emit(h.e); }} }}
{main}
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""

TYPES = """
header e_t { bit<8> a; bit<8> b; }
struct inner_t { bit<8> f; }
struct H { e_t e; }
struct M { @name("renamed") inner_t orig; @name(".global_flag") bit<8> g; bit<8> x; }
"""


def compiled(tmp_path: Path, ingress: str, types: str = TYPES, main: str = ""):
    source = tmp_path / "program.p4"
    source.write_text(FRAME.format(types=types, ingress=ingress, main=main))
    return compile_program(str(source))


def key_names(tmp_path: Path, keys: str) -> list[str]:
    result = compiled(tmp_path, f"table t {{ key = {{ {keys} }} actions = {{ NoAction; }} }}"
                      " apply { t.apply(); }")
    (table,) = build_p4info(result.control_plane).tables
    json_keys = [k["name"] for p in result.bmv2_json["pipelines"] for t in p["tables"]
                 if t["name"] == "I.t" for k in t["key"]]
    names = [f.name for f in table.match_fields]
    assert json_keys == names   # the BMv2 JSON's key names are the same
    return names


def test_validity_keys_are_named_dollar_valid(tmp_path: Path) -> None:
    assert key_names(tmp_path, "h.e.isValid(): exact; h.e.a: exact;") == [
        "h.e.$valid$", "h.e.a"]


def test_a_field_with_a_name_annotation_is_spelled_by_it(tmp_path: Path) -> None:
    # a leading dot drops what stands before the field
    assert key_names(tmp_path, "m.orig.f: exact; m.g: exact; m.x: exact;") == [
        "m.renamed.f", "global_flag", "m.x"]


def test_slices_masks_and_annotated_keys(tmp_path: Path) -> None:
    assert key_names(tmp_path, "h.e.a[3:0]: exact; h.e.b & 0x0f: ternary; "
                     "h.e.a + h.e.b: exact @name(\"sum\");") == [
        "h.e.a[3:0]", "h.e.b & 0x0f", "sum"]


@pytest.mark.parametrize("key", ["h.e.a + h.e.b", "(bit<16>)h.e.a", "h.e.a == 1 ? h.e.a : h.e.b"])
def test_complex_keys_without_a_name_are_refused(tmp_path: Path, key: str) -> None:
    with pytest.raises(CompileError, match="Complex key expression requires a @name "
                       "annotation"):
        key_names(tmp_path, f"{key}: exact;")


PACKET_IN = """
@controller_header("packet_in")
header packet_in_t { @id(2) @doc_only("port") bit<9> port; @id(1) bit<7> pad; }
header e_t { bit<8> a; bit<8> b; }
struct H { packet_in_t pin; e_t e; }
struct M { }
"""


def test_controller_header_fields_keep_their_id_and_annotations(tmp_path: Path) -> None:
    result = compiled(tmp_path, "apply { h.pin.setValid(); }", types=PACKET_IN)
    (header,) = build_p4info(result.control_plane).controller_packet_metadata
    fields = {m.name: (m.id, list(m.annotations), m.bitwidth) for m in header.metadata}
    assert fields == {"port": (2, ['@doc_only("port")'], 9), "pad": (1, [], 7)}


def test_pkginfo_fills_pkg_info(tmp_path: Path) -> None:
    main = ('@pkginfo(name = "demo.p4", version = "1.2")\n'
            '@pkginfo(organization = "Us", contact = "a@b", url = "https://x")\n'
            '@brief("a demo") @flavour("mild")')
    result = compiled(tmp_path, "apply { }", main=main)
    info = build_p4info(result.control_plane).pkg_info
    assert (info.name, info.version, info.organization, info.contact, info.url, info.arch) \
        == ("demo.p4", "1.2", "Us", "a@b", "https://x", "v1model")
    assert info.doc.brief == "a demo"
    assert list(info.annotations) == ['@flavour("mild")']
    assert result.warnings == []


def test_pkginfo_unknown_keys_warn_and_values_must_be_strings(tmp_path: Path) -> None:
    result = compiled(tmp_path, "apply { }", main='@pkginfo(colour = "red", name = "n")')
    assert [w.message for w in result.warnings] == [
        "Unknown key name 'colour' in @pkginfo annotation"]
    assert build_p4info(result.control_plane).pkg_info.name == "n"
    with pytest.raises(CompileError, match="Value for 'version' key in @pkginfo annotation "
                       "is not a string"):
        compiled(tmp_path, "apply { }", main="@pkginfo(version = 3)")


def test_deprecated_mark_to_drop_warns_and_the_current_one_does_not(tmp_path: Path) -> None:
    result = compiled(tmp_path, "action old() { mark_to_drop(); } "
                      "action current() { mark_to_drop(s); } "
                      "table t { key = { h.e.a: exact; } actions = { old; current; } } "
                      "apply { t.apply(); }")
    assert [w.message for w in result.warnings] == [
        "mark_to_drop: Using deprecated feature mark_to_drop. Please use "
        "mark_to_drop(standard_metadata) instead."]


def test_an_unused_action_selector_is_listed_without_tables(tmp_path: Path) -> None:
    """p4c keeps unused extern instances (it only warns): action_selector_unused-bmv2."""
    result = compiled(tmp_path, "action_selector(HashAlgorithm.crc16, 32w64, 32w8) sel; "
                      "apply { }")
    (profile,) = build_p4info(result.control_plane).action_profiles
    assert (profile.preamble.name, profile.with_selector, profile.size,
            list(profile.table_ids)) == ("I.sel", True, 64, [])
    assert [w.message for w in result.warnings] == ["sel: unused instance"]


ENUMS = """
enum bit<16> EthType { IPV4 = 0x0800, ARP = 0x0806 }
enum Kind { A, B }
header e_t { bit<8> a; bit<8> b; }
struct H { e_t e; }
struct report_t { error e; Kind k; bool flag; int<8> delta; EthType t; }
struct M { report_t r; }
"""


def test_registers_and_digests_of_enums_errors_and_bools(tmp_path: Path) -> None:
    """As p4c's type converter writes them (register-serenum-bmv2 and
    v1model-digest-containing-ser-enum's P4Info): named enums by name, error and bool
    as themselves, int<W> as a signed bit string; type_info describes them."""
    result = compiled(tmp_path, "register<EthType>(32w4) types; register<bool>(32w4) flags; "
                      "apply { types.write(0, EthType.ARP); flags.write(0, true); "
                      "m.r.e = error.NoMatch; digest(1, m.r); }", types=ENUMS)
    info = build_p4info(result.control_plane)
    registers = {r.preamble.name: r.type_spec for r in info.registers}
    assert registers["I.types"].serializable_enum.name == "EthType"
    assert registers["I.flags"].HasField("bool")
    members = {m.name: m.type_spec for m in info.type_info.structs["report_t"].members}
    assert members["e"].HasField("error")
    assert members["k"].enum.name == "Kind"
    assert members["flag"].HasField("bool")
    assert members["delta"].bitstring.int.bitwidth == 8
    assert members["t"].serializable_enum.name == "EthType"
    assert [m.name for m in info.type_info.enums["Kind"].members] == ["A", "B"]
    assert list(info.type_info.error.members)[:3] == ["NoError", "PacketTooShort", "NoMatch"]
    assert "EthType" in info.type_info.serializable_enums


def _values(structured) -> list:
    """A StructuredAnnotation's body as Python values, in order."""
    if structured.HasField("kv_pair_list"):
        return [(kv.key, getattr(kv.value, kv.value.WhichOneof("value")))
                for kv in structured.kv_pair_list.kv_pairs]
    return [getattr(e, e.WhichOneof("value")) for e in structured.expression_list.expressions]


def test_structured_annotations_are_typed_values(tmp_path: Path) -> None:
    """P4Runtime's structured annotations, as p4c's addAnnotations fills them: every
    @name[...] on the objects P4Info lists, values folded to string, int64 or bool;
    the unstructured ones stay strings beside them."""
    result = compiled(tmp_path, """
        @Act["a", 1 + 2, true] @plain("x")
        action a(@P[w = -5] bit<8> v) { h.e.a = v; }
        @Empty[] @Mode[mode = "HASH", big = 0x7fffffffffffffff, on = false]
        table t { key = { h.e.a : exact @Key["k"]; } actions = { @Ref[1] a; NoAction; } }
        apply { t.apply(); }""")
    info = build_p4info(result.control_plane)
    (table,) = info.tables
    assert [(s.name, _values(s)) for s in table.preamble.structured_annotations] == [
        ("Empty", []), ("Mode", [("mode", "HASH"), ("big", 2 ** 63 - 1), ("on", False)])]
    assert not table.preamble.annotations
    assert [_values(s) for s in table.match_fields[0].structured_annotations] == [["k"]]
    assert [_values(s) for s in table.action_refs[0].structured_annotations] == [[1]]
    action = next(a for a in info.actions if a.preamble.name == "I.a")
    assert list(action.preamble.annotations) == ['@plain("x")']
    assert [_values(s) for s in action.preamble.structured_annotations] == [["a", 3, True]]
    assert [_values(s) for s in action.params[0].structured_annotations] == [[("w", -5)]]


@pytest.mark.parametrize("annotation, message", [
    ('@A[k = 1, k = 2]', "has the key 'k' more than once"),
    ('@A[0x10000000000000000]', "must fit in int64"),
    ('@A[h]', "takes string, integer and boolean literals"),
    ('@A[k = ]', "expected"),
])
def test_bad_structured_annotations_are_refused(tmp_path: Path, annotation: str,
                                                message: str) -> None:
    with pytest.raises(CompileError, match=message):
        compiled(tmp_path, f"{annotation} table t {{ actions = {{ NoAction; }} }} "
                 "apply { t.apply(); }")


def test_max_group_size_is_a_field_not_an_annotation(tmp_path: Path) -> None:
    """p4c's addActionProfile leaves @max_group_size out of the preamble (it is
    max_group_size), and ignores it, with a warning, on a profile without a selector."""
    result = compiled(tmp_path, """
        @max_group_size(200) @keep action_selector(HashAlgorithm.crc16, 32w1024, 32w14) sel;
        @max_group_size(8) action_profile(32w128) prof;
        table t { key = { h.e.a : selector; } actions = { NoAction; } implementation = sel; }
        table u { actions = { NoAction; } implementation = prof; }
        apply { t.apply(); u.apply(); }""")
    profiles = {p.preamble.name: p for p in build_p4info(result.control_plane).action_profiles}
    assert profiles["I.sel"].max_group_size == 200
    assert list(profiles["I.sel"].preamble.annotations) == ["@keep"]
    assert profiles["I.prof"].max_group_size == 0
    assert not profiles["I.prof"].preamble.annotations
    ignoring = [w.message for w in result.warnings if "@max_group_size" in w.message]
    assert ignoring == ["Ignoring annotation @max_group_size on action profile 'I.prof', "
                        "which does not have a selector"]


def test_digest_of_a_tuple_is_named_digest_n(tmp_path: Path) -> None:
    """p4c writes P4Info before its mid end makes structs of tuples: a tuple digest is
    digest_0, digest_1... (one per distinct tuple type, a list argument without a type
    argument being a tuple too) with the elements in type_spec.tuple, as p4c's
    issue430-1-bmv2 P4Info records (digest_0, id 401776493); the JSON's learn list has
    the same name, which is how a switch's P4Runtime server pairs them."""
    result = compiled(tmp_path, "apply { digest<tuple<bit<8>, bit<8>>>(1, {h.e.a, h.e.b}); "
                      "digest(2, {h.e.a}); digest<tuple<bit<8>, bit<8>>>(3, {h.e.b, h.e.a}); }")
    info = build_p4info(result.control_plane)
    assert [(d.preamble.name, d.preamble.id) for d in info.digests][0] == ("digest_0",
                                                                          401776493)
    assert [d.preamble.name for d in info.digests] == ["digest_0", "digest_1"]
    assert [m.bitstring.bit.bitwidth for m in info.digests[0].type_spec.tuple.members] == [
        8, 8]
    assert not info.type_info.structs
    learn_lists = result.bmv2_json["learn_lists"]
    assert [(ll["name"], len(ll["elements"])) for ll in learn_lists] == [
        ("digest_0", 2), ("digest_1", 1)]
