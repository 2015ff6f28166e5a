"""An anonymous extern in a table property takes the property's @name, as p4c names it
(ngsdn-style ``@name("t_counter") counters = direct_counter(...)``; corpus 304): the
P4Info and JSON object is ``<control>.t_counter``, the name controllers and STF use."""
from __future__ import annotations

from pathlib import Path

from p4sim.compiler.driver import compile_program
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
    table unnamed {
        key = { h.h.a : exact; }
        actions = { fwd; }
        counters = direct_counter(CounterType.packets);
    }
    apply { named.apply(); unnamed.apply(); }
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
    assert names.get("I.named_counter") == tables["I.named"]
    # without @name the instance keeps the name derived from the table and property
    assert "I.unnamed_counters" in names
    json_names = {c["name"] for c in program.bmv2_json["counter_arrays"]}
    assert "I.named_counter" in json_names
