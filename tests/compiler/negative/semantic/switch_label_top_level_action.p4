// A switch label .b names a top-level action b; the table's action b is local to the control (p4c refuses it).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> f; bit<32> g; }
struct H { h_t h; }
struct M { }

parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { p.extract(h.h); transition accept; } }
control VC(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    action b() { }
    table t { key = { h.h.f : exact; } actions = { b; } }
    apply { switch (t.apply().action_run) { .b: { } default: { } } }

}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control CC(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
