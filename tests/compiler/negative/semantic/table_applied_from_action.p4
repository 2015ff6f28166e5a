// A table applied from an action (p4c: "t.apply: tables cannot be invoked from actions").
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> f; }
struct H { h_t h; }
struct M { }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) {
    state start { p.extract(h.h); transition accept; }
}
control V(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    action a() { }
    table t { key = { h.h.f : exact; } actions = { a; } default_action = a(); }
    action b() { t.apply(); }
    table u { actions = { b; } default_action = b(); }
    apply { u.apply(); }
}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control C(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
