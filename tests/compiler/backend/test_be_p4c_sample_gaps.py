"""Constructs found missing when running p4c's own v1model STF samples: varbit-typed
local variables and varbit assignments, and static_assert."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler.driver import compile_program
from p4sim.compiler.errors import CompileError

PROGRAM = """
#include <core.p4>
#include <v1model.p4>
header len_t { bit<8> n; }
header opt_t { varbit<32> data; }
struct headers_t { len_t len; opt_t a; opt_t b; }
struct metadata_t { }
parser P(packet_in pkt, out headers_t hdr, inout metadata_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.len);
        pkt.extract(hdr.a, (bit<32>)hdr.len.n);
        pkt.extract(hdr.b, (bit<32>)hdr.len.n);
        transition accept;
    }
}
control V(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    varbit<32> keep;
    apply {
        keep = hdr.a.data;
        hdr.a.data = hdr.b.data;
        hdr.b.data = keep;
    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply { }
}
control C(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


def test_varbit_local_lives_in_a_header_and_copies_use_assign_vl(tmp_path: Path) -> None:
    source = tmp_path / "swap.p4"
    source.write_text(PROGRAM)
    doc = compile_program(str(source)).bmv2_json
    holders = [h for h in doc["headers"] if h["name"] == "keep"]
    assert len(holders) == 1 and not holders[0]["metadata"]
    holder_type = next(t for t in doc["header_types"] if t["name"] == holders[0]["header_type"])
    assert holder_type["fields"] == [["value", "*"]] and holder_type["max_length"] == 4
    prims = [p for a in doc["actions"] for p in a["primitives"]]
    copies = [[param["value"] for param in p["parameters"]] for p in prims
              if p["op"] == "assign_VL"]
    assert copies == [[["keep", "value"], ["a", "data"]], [["a", "data"], ["b", "data"]],
                      [["b", "data"], ["keep", "value"]]]
    assert not any(p["op"] == "assign" for p in prims)


STATIC_ASSERT = """
#include <core.p4>
#include <v1model.p4>
struct headers_t { }
struct metadata_t { }
parser P(packet_in pkt, out headers_t hdr, inout metadata_t meta,
         inout standard_metadata_t sm) {
    state start { transition accept; }
}
control V(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply {
        static_assert(V1MODEL_VERSION >= 20180101, "v1model too old");
        static_assert(CONDITION);
        sm.egress_spec = 1;
    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply { }
}
control C(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


def test_static_assert_is_checked_at_compile_time(tmp_path: Path) -> None:
    good = tmp_path / "good.p4"
    good.write_text(STATIC_ASSERT.replace("CONDITION", "8w1 + 8w1 == 8w2"))
    doc = compile_program(str(good)).bmv2_json
    ops = {p["op"] for a in doc["actions"] for p in a["primitives"]}
    assert "static_assert" not in ops  # nothing of it reaches the target
    bad = tmp_path / "bad.p4"
    bad.write_text(STATIC_ASSERT.replace("static_assert(CONDITION)",
                                         'static_assert(1 == 2, "one is not two")'))
    with pytest.raises(CompileError, match="static assertion failed: one is not two"):
        compile_program(str(bad))
