"""An anonymous extern in a table property takes the property's @name as written, as p4c
names it (ngsdn-style ``@name("t_counter") counters = direct_counter(...)``; corpus 304):
the P4Info and JSON object is ``t_counter``, with no control prefix (p4c's P4Runtime
generator takes the property's control-plane name; up4's committed P4Info names its
in-place direct counter ``acls`` so). Without an @name p4c refuses the program."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler.cli import main
from p4sim.compiler.driver import compile_program
from p4sim.compiler.errors import CompileError
from p4sim.compiler.p4info import build_p4info

PROGRAM = """
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) {
    action fwd(bit<9> port) { s.egress_spec = port; }
    table named {
        key = { h.h.a : exact; }
        actions = { fwd; }
        @name("named_counter")
        counters = direct_counter(CounterType.packets_and_bytes);
    }
    table other {
        key = { h.h.a : exact; }
        actions = { fwd; }
        @name(".I.other_counter") counters = direct_counter(CounterType.packets);
    }
    apply { named.apply(); other.apply(); }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


def test_name_annotation_on_a_counters_property_names_the_counter(tmp_path: Path) -> None:
    source = tmp_path / "property_names.p4"
    source.write_text(PROGRAM)
    program = compile_program(str(source))
    info = build_p4info(program.control_plane)
    names = {c.preamble.name: c.direct_table_id for c in info.direct_counters}
    tables = {t.preamble.name: t.preamble.id for t in info.tables}
    assert names.get("named_counter") == tables["I.named"]
    # a leading dot is dropped, as for any @name
    assert names.get("I.other_counter") == tables["I.other"]
    json_names = {c["name"] for c in program.bmv2_json["counter_arrays"]}
    assert {"named_counter", "I.other_counter"} <= json_names


def test_an_in_place_instance_without_a_name_has_no_p4info(tmp_path: Path) -> None:
    """p4c refuses it only when asked for P4Runtime output: the JSON alone compiles."""
    source = tmp_path / "anonymous.p4"
    source.write_text(PROGRAM.replace('@name(".I.other_counter") counters', "counters"))
    program = compile_program(str(source))
    assert "I.other_counters" in {c["name"] for c in program.bmv2_json["counter_arrays"]}
    with pytest.raises(CompileError) as error:
        build_p4info(program.control_plane)
    assert ("Table 'I.other' has an anonymous table property 'counters' with no name "
            "annotation, which is not supported by P4Runtime") in str(error.value)
    assert error.value.span.line == PROGRAM.count("\n", 0, PROGRAM.index('@name(".I.other')) + 1
    json_only, with_p4info = tmp_path / "a.json", tmp_path / "a.p4info.txtpb"
    assert main(["-o", str(json_only), str(source)]) == 0 and json_only.exists()
    assert main(["-o", str(tmp_path / "b.json"), "--p4runtime-files", str(with_p4info),
                 str(source)]) == 1
    assert not with_p4info.exists() and not (tmp_path / "b.json").exists()
