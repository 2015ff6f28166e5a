// The default action must repeat what the actions list binds (p4c: "y: argument does not match declaration in actions list: x").
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> f; bit<32> g; }
struct H { h_t h; }
struct M { }

parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { p.extract(h.h); transition accept; } }
control VC(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    bit<32> y;
    action a(inout bit<32> b, bit<32> d) { b = d; }
    table t { key = { h.h.f : exact; } actions = { a(h.h.g); } default_action = a(y, 0); }
    apply { t.apply(); }

}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control CC(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
